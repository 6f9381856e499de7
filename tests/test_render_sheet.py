"""The table as a phone picture: the phone text rule holds, lines wrap instead of running off."""

from __future__ import annotations

import pytest

from engine import Game
from engine.views import DecisionView, View, project
from render import fonts
from render.compose import compose
from render.geometry import geometry
from render.lines import Line
from render.naming import decision_text
from render.samples import Sample, gallery, late_game
from render.sheet import draw_sheet, header_lines, player_lines
from render.sheet_layout import Scale
from render.table import _waiting_line, city_labels, poster_cities


@pytest.fixture(scope="module")
def samples() -> dict[str, Sample]:
    return {s.name: s for s in gallery()}


def right_edge(lines: list[Line]) -> float:
    return max(at + p.width for line in lines for at, p in line)


def texts(lines: list[Line]) -> list[str]:
    return [p.text for line in lines for _, p in line]


def many_decisions(view: View) -> View:
    """``view`` with four decisions pending at once (three seats, one twice)."""
    castle = [p.cities[0].castle for p in view.players]
    decisions = [
        DecisionView(seat=0, kind="prefer", city=castle[0], count=0, services=["culture", "health"]),
        DecisionView(seat=1, kind="demolish", city=castle[1], count=2, services=[]),
        DecisionView(seat=2, kind="prefer", city=castle[2], count=0, services=["culture", "education"]),
        DecisionView(seat=0, kind="starve", city=None, count=3, services=[]),
    ]
    return view.model_copy(update={"decisions": decisions, "pending": [0, 1, 2]})


@pytest.mark.parametrize("width", [1080, 720])
def test_every_sample_sheet_draws_no_text_below_the_phone_size(
    samples: dict[str, Sample], width: int
) -> None:
    fonts.too_small.clear()
    for sample in samples.values():
        img = draw_sheet(sample.view, width)
        assert img.width == width and img.mode == "RGB"
    assert fonts.too_small == []


def test_the_sheet_grows_with_the_players(samples: dict[str, Sample]) -> None:
    two = draw_sheet(samples["beginner-2p-start"].view)
    five = draw_sheet(samples["beginner-5p-start"].view)
    assert five.height > two.height + 400


def test_a_long_waiting_header_wraps_onto_lines_inside_the_picture(samples: dict[str, Sample]) -> None:
    view = many_decisions(samples["decision-3p"].view)
    with fonts.picture(1080):
        s = Scale(1080)
        lines = header_lines(view, s)
    assert right_edge(lines) <= s.room
    assert len(lines) >= 6  # title, start player, "Waiting for:", one line per decision
    said = " ".join(texts(lines))
    for _seat, what in decision_text(view):
        assert what in said
    fonts.too_small.clear()
    draw_sheet(view)
    assert fonts.too_small == []


def test_the_poster_header_keeps_the_decisions_that_fit_on_its_line(samples: dict[str, Sample]) -> None:
    view = many_decisions(samples["decision-3p"].view)
    g = geometry(1400)
    room = 1000.0
    (line,) = _waiting_line(view, g, room)
    assert right_edge([line]) <= room
    assert any(p.text.startswith("+") for _, p in line)  # "+N more"
    assert compose(view).width == 1400


def four_long_cities(view: View) -> View:
    """``view`` whose first player with four cities has the four longest names a city can have."""
    seat = next(p.seat for p in view.players if len(p.cities) == 4)
    names = ["Cremona 2", "Ravenna 2", "Vicenza 2", "Bergamo 2"]
    p = view.players[seat]
    cities = [c.model_copy(update={"name": n, "castle": "M16"}) for c, n in zip(p.cities, names, strict=True)]
    players = list(view.players)
    players[seat] = p.model_copy(update={"cities": cities})
    return view.model_copy(update={"players": players})


def test_a_player_with_four_cities_shows_every_name_whole(samples: dict[str, Sample]) -> None:
    view = samples["midgame-4p-player-view"].view
    for v in (view, four_long_cities(view)):
        four = [p for p in v.players if len(p.cities) == 4]
        assert four
        with fonts.picture(1080):
            s = Scale(1080)
            for p in four:
                room = 700.0
                lines = player_lines(v, p, s, room)
                assert right_edge(lines) <= room
                assert set(city_labels(p)) <= set(texts(lines))
        g = geometry(1400)
        for p in four:
            shown = poster_cities(p, g)
            assert " ".join(shown).split() == " ".join(city_labels(p)).split()
            size = g.px(20) if len(shown) == 1 else g.px(19)
            assert all(fonts.width(line, size) <= g.px(410) for line in shown)
    longest = next(p for p in four_long_cities(view).players if p.cities[0].name == "Cremona 2")
    assert len(poster_cities(longest, geometry(1400))) == 2


def test_very_long_names_are_cut_inside_the_picture_and_the_poster() -> None:
    game = Game.new(["W" * 60, "Q" * 50], seed=3)
    view = game.view(game.pending_seats()[0])
    with fonts.picture(1080):
        s = Scale(1080)
        assert right_edge(player_lines(view, view.players[0], s, 800)) <= 800
        assert right_edge(header_lines(view, s)) <= s.room
    (line,) = _waiting_line(view, geometry(1400), 900)
    assert right_edge([line]) <= 900


def test_the_spectator_sheet_is_the_same_whatever_the_hidden_cards() -> None:
    game, _ = late_game(players=4, seed=5)
    state = game.state
    assert not state.voice_revealed
    other = state.model_copy(deep=True)
    other.voice[1:] = ["health" if s != "health" else "culture" for s in other.voice[1:]]
    other.players[0].peek = [None, other.voice[1], other.voice[2], None]
    assert draw_sheet(project(state, None)).tobytes() == draw_sheet(project(other, None)).tobytes()
    assert draw_sheet(project(state, 0)).tobytes() != draw_sheet(project(other, 0)).tobytes()
