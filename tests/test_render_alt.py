"""Alt texts and the position as text: within Discord's limits in every language, complete, and
never a secret."""

from __future__ import annotations

import pytest

from engine import Game
from engine.views import View, project
from i18n import LANGUAGES, speaking
from render import alt
from render.samples import Sample, gallery, late_game

LONG_NAMES = [
    "Annamaria Bellincioni",
    "Bartolomeo Colleoni",
    "Caterina Sforza",
    "Domenico Ghirlandaio",
    "E" * 32,
]


@pytest.fixture(scope="module")
def samples() -> dict[str, Sample]:
    return {s.name: s for s in gallery()}


def all_hexes(view: View) -> list[str]:
    return [h for p in view.players for c in p.cities for h in [c.castle, *(b.hex for b in c.buildings)]]


def texts_of(view: View) -> list[str]:
    return [
        alt.alt_overview(view, "Ann builds a school at K3"),
        alt.alt_sheet(view),
        alt.alt_closeup(view, "the whole board", all_hexes(view)),
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_alt_text_is_within_discords_limit(samples: dict[str, Sample], lang: str) -> None:
    with speaking(lang):
        for sample in samples.values():
            for text in texts_of(sample.view):
                assert 0 < len(text) <= alt.MAX_ALT, sample.name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_of_the_longest_positions_is_said_whole_in_every_language(
    samples: dict[str, Sample], lang: str
) -> None:
    with speaking(lang):
        for name in ("late-5p", "final-5p", "midgame-4p-player-view"):
            view = samples[name].view
            text = alt.alt_sheet(view)
            assert not text.endswith("..."), (name, len(text))
            assert all(p.name in text for p in view.players)


def test_overview_and_sheet_texts_give_each_players_name_gold_and_food(samples: dict[str, Sample]) -> None:
    for sample in samples.values():
        view = sample.view
        for text in texts_of(view)[:2]:
            for p in view.players:
                assert p.name in text and f"{p.gold} gold" in text and f"{p.food} food" in text, sample.name


def test_long_names_and_a_long_last_move_still_fit_and_keep_every_player() -> None:
    game, _ = late_game(players=5, seed=11)
    state = game.state.model_copy(deep=True)
    for player, n in zip(state.players, LONG_NAMES, strict=True):
        player.name = n
    view = project(state, None)
    for text in [alt.alt_overview(view, "a very long move description " * 20), alt.alt_sheet(view)]:
        assert len(text) <= alt.MAX_ALT
        for p in view.players:
            assert p.name in text and f"{p.gold} gold" in text and f"{p.food} food" in text
    assert "cities" in alt.alt_overview(view, "gold")


def test_the_overview_says_what_is_asked_and_the_last_move(samples: dict[str, Sample]) -> None:
    view = samples["decision-3p"].view
    text = alt.alt_overview(view, "Cid takes 2 gold")
    assert "Last move: Cid takes 2 gold." in text
    assert "Waiting for Cid to choose culture or education for" in text


def test_a_closeup_names_each_city_in_its_frame_with_owner_limit_and_buildings(
    samples: dict[str, Sample],
) -> None:
    view = samples["late-5p"].view
    city = next(c for p in view.players for c in p.cities if c.buildings)
    text = alt.alt_closeup(view, f"around {city.name}", [city.castle])
    owner = view.players[city.owner].name
    assert f"{city.name} ({city.castle}, {owner}): {city.population} citizen" in text
    assert f"limit {city.limit}" in text if city.limit is not None else "no limit" in text
    assert all(b.hex in text for b in city.buildings)
    others = [c.name for p in view.players for c in p.cities if c is not city]
    assert not any(f"{n} (" in text for n in others)


def _hidden_differs(game: Game) -> tuple[Game, Game]:
    """The game and a copy whose face-down voice cards and seat 0's peeks are different."""
    other = game.state.model_copy(deep=True)
    other.voice[1:] = ["health" if s != "health" else "culture" for s in other.voice[1:]]
    other.players[0].peek = [None, other.voice[1], other.voice[2], None]
    copy = Game.restore(other.model_dump(), game.record())
    return game, copy


def test_no_text_tells_a_face_down_voice_card_whoever_views() -> None:
    game, _ = late_game(players=4, seed=5)
    assert not game.state.voice_revealed
    mine, other = _hidden_differs(game)
    for seat in (None, 0):
        a, b = project(mine.state, seat), project(other.state, seat)
        assert texts_of(a) == texts_of(b)
        assert alt.describe_position(a) == alt.describe_position(b)
    peeked = project(other.state, 0)
    assert peeked.peek[1] is not None
    assert "Voice of the people: " + peeked.voice[0] + ", face down, face down, face down." in alt.alt_sheet(  # type: ignore[operator]
        peeked
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_describe_position_comes_in_messages_within_discords_limit_and_misses_no_city(lang: str) -> None:
    game, _ = late_game(players=5, seed=11)
    state = game.state.model_copy(deep=True)
    for player, n in zip(state.players, LONG_NAMES, strict=True):
        player.name = n
    view = project(state, None)
    parts = alt.describe_position(view, lang=lang)
    assert all(0 < len(part) <= alt.MAX_MESSAGE for part in parts)
    whole = "\n\n".join(parts)
    with speaking(lang):
        for p in view.players:
            assert alt.player_numbers(view, p) in whole
            for c in p.cities:
                assert alt.city_line(view, c) in whole
        assert alt.politics(view) in whole and alt.voice(view) in whole


def test_describe_position_at_the_end_gives_the_final_scores(samples: dict[str, Sample]) -> None:
    view = samples["final-5p"].view
    whole = "\n\n".join(alt.describe_position(view))
    assert whole.startswith("Game over.") and "Final scores: 1. " in whole
