"""The renderer: every sample draws, hidden cards never change the picture, rings and scores show."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engine import Game
from engine.views import View, project
from render import render_board
from render.compose import compose
from render.geometry import geometry
from render.samples import Sample, finished_game, gallery, late_game, new_game, play

MAX_BYTES = 400 * 1024


@pytest.fixture(scope="module")
def samples() -> list[Sample]:
    return gallery()


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def test_every_gallery_sample_renders_to_a_png_of_the_expected_size(samples: list[Sample]) -> None:
    names = {s.name for s in samples}
    assert {"beginner-2p-start", "beginner-5p-start", "final-5p"} <= names
    for sample in samples:
        png = render_board(sample.view, highlight=sample.highlight)
        img = decode(png)
        assert img.format == "PNG"
        assert img.size == compose(sample.view, sample.highlight).size
        assert img.width == 1400
        assert 1800 < img.height < 2600, sample.name
        assert len(png) < MAX_BYTES, sample.name


def test_width_option_sets_the_image_width() -> None:
    view = new_game(3, 1).view(None)
    assert decode(render_board(view, width=900)).width == 900
    assert decode(render_board(view, width=1800)).width == 1800


def test_rendering_the_same_view_twice_gives_the_same_bytes(samples: list[Sample]) -> None:
    sample = samples[-1]
    assert render_board(sample.view, highlight=sample.highlight) == render_board(
        sample.view, highlight=sample.highlight
    )


def _with_other_secrets(game: Game) -> tuple[View, View]:
    """Spectator views of the game and of a copy whose hidden cards are different."""
    state = game.state
    other = state.model_copy(deep=True)
    hidden = list(other.voice[1:])
    shuffled = hidden[1:] + hidden[:1]
    if shuffled == hidden:  # all three alike: any other face-down cards will do
        shuffled = ["health" if s != "health" else "culture" for s in hidden]
    other.voice[1:] = shuffled
    other.politics_pile.reverse()
    other.players[0].peek = [None, shuffled[0], shuffled[1], None]
    assert other != state
    assert other.voice[1:] != state.voice[1:]
    return project(state, None), project(other, None)


def test_spectator_picture_is_the_same_whatever_the_hidden_cards() -> None:
    game, _ = late_game(players=4, seed=5)
    assert game.state.phase == "politics" and not game.state.voice_revealed
    mine, other = _with_other_secrets(game)
    assert render_board(mine) == render_board(other)


def test_spectator_picture_at_the_start_does_not_depend_on_the_hidden_cards() -> None:
    game = new_game(5, 2)
    mine, other = _with_other_secrets(game)
    assert render_board(mine) == render_board(other)


def test_a_player_sees_the_voice_cards_they_polled() -> None:
    game = new_game(3, 4)
    seat = game.pending_seats()[0]
    before = render_board(game.view(seat))
    game.state.players[seat].peek = [None, game.state.voice[1], game.state.voice[2], None]
    assert render_board(game.view(seat)) != before


def test_highlight_rings_change_the_picture() -> None:
    game, _ = late_game(players=3, seed=2)
    view = game.view(None)
    plain = render_board(view)
    assert render_board(view, highlight=["I9"]) != plain
    assert render_board(view, highlight=["i9"]) == render_board(view, highlight=["I9"])
    assert render_board(view, highlight=["Z99"]) == plain  # not a hex: ignored


def test_final_score_panel_appears_when_the_game_is_over() -> None:
    game, last = finished_game(players=4, seed=3)
    assert game.is_over
    view = game.view(None)
    unscored = view.model_copy(update={"scores": None, "winners": None})
    over, running = compose(view, last), compose(unscored, last)
    board_h = geometry(view_width := over.width).board_height
    assert view_width == 1400
    assert (
        over.crop((0, 0, over.width, board_h)).tobytes()
        == running.crop((0, 0, running.width, board_h)).tobytes()
    )
    assert over.size != running.size or over.tobytes() != running.tobytes()


def test_score_breakdown_adds_up_to_the_engine_scores() -> None:
    from render.scores import score_rows

    for seed in range(3):
        game, _ = finished_game(players=5, seed=seed)
        view = game.view(None)
        scores = view.scores
        assert scores is not None
        rows = score_rows(view)
        assert [r[0] for r in rows] == sorted(range(5), key=lambda s: (-scores[s], -view.players[s].gold, s))
        for seat, citizens, bonus, hunger, total, _gold in rows:
            assert citizens + bonus - hunger == total == scores[seat]


def test_pending_decision_outside_politics_renders() -> None:
    game = new_game(3, 9)
    play(game, random.Random(9), lambda g: g.state.phase in ("relocation", "demolition", "feeding"))
    assert game.state.pending and game.state.phase != "politics"
    assert decode(render_board(game.view(None))).width == 1400
