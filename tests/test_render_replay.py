"""The replay animation (`render.replay`): one frame per political round and per year's end,
each drawn from a spectator view, as a GIF that Pillow opens and that fits Discord's 8 MiB."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

from PIL import GifImagePlugin, Image

from engine import Game, Record, View
from render import render_board
from render.palette import PANEL
from render.png_palette import palette_image
from render.replay import CAPTION_HEIGHT, MAX_BYTES, animation, frames, positions

FIXTURE = Path(__file__).parent / "fixtures" / "records_before_first.json"


def _random_game(players: int, seed: int) -> Game:
    game = Game.new([f"P{k}" for k in range(players)], seed=seed)
    rnd = random.Random(seed)
    while not game.is_over:
        seat = game.pending_seats()[0]
        game.play(seat, rnd.choice(game.legal_moves(seat)))
    return game


def _seen(record: Record) -> tuple[int, int]:
    """Political rounds and year ends a replay goes through, counted from every position."""
    rounds = {(v.year, v.round) for g in positions(record) if (v := g.view(None)).phase == "politics"}
    start = Game.new(record.players, record.seed, record.setup).view(None)
    if start.phase == "politics":
        rounds.add((start.year, start.round))
    return len(rounds), 6


def test_the_animation_has_a_frame_per_round_and_year_end_from_spectator_views_only() -> None:
    game = _random_game(3, seed=4)
    drawn: list[View] = []

    def spectator_only(
        view: View, *, highlight: list[str] | None = None, width: int = 1400, lang: str = "en"
    ) -> bytes:
        assert view.viewer is None and all(p is None for p in view.peek), "frames show no hidden information"
        drawn.append(view)
        return render_board(view, highlight=highlight, width=width, lang=lang)

    data, count = animation(game.record(), spectator_only)
    rounds, years = _seen(game.record())
    assert count == rounds + years == len(drawn)
    assert len(data) < MAX_BYTES < 8 * 1024 * 1024
    gif = Image.open(io.BytesIO(data))
    assert isinstance(gif, GifImagePlugin.GifImageFile)
    assert gif.format == "GIF" and gif.n_frames == count and gif.width == 700
    for k in range(gif.n_frames):
        gif.seek(k)
        gif.load()
    assert drawn[-1].scores == game.scores, "the last frame shows the final scores"


def test_frames_are_captioned_in_order_and_one_move_may_end_a_round_and_a_year() -> None:
    captions = [c for c, _ in frames(_random_game(2, seed=9).record())]
    assert captions[0] == "Year 1, end of political round 1"
    assert captions[-1] == "End of year 6: final scores"
    assert [c for c in captions if c.startswith("End")] == [f"End of year {y}" for y in range(1, 6)] + [
        "End of year 6: final scores"
    ]
    years = [int(m.group(1)) for c in captions if (m := re.search(r"[Yy]ear (\d)", c))]
    assert len(years) == len(captions)
    assert years == sorted(years) and set(years) == set(range(1, 7))


def test_positions_of_an_old_record_end_where_its_replay_does() -> None:
    record = json.loads(FIXTURE.read_text())["games"][0]["record"]
    *_, last = positions(record)
    assert last.snapshot() == Game.replay(record).snapshot()


def _gif_frames(data: bytes) -> list[Image.Image]:
    gif = Image.open(io.BytesIO(data))
    assert isinstance(gif, GifImagePlugin.GifImageFile)
    out = []
    for k in range(gif.n_frames):
        gif.seek(k)
        out.append(gif.convert("RGB"))
    return out


def _in_palette(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """``colour`` as the boards' palette writes it (its nearest colour there)."""
    one = Image.new("RGB", (1, 1), colour).quantize(palette=palette_image(), dither=Image.Dither.NONE)
    return one.convert("RGB").getpixel((0, 0))  # type: ignore[return-value]


def test_each_frames_board_is_the_boards_png_pixel_for_pixel_under_its_caption() -> None:
    """Frames are drawn as images in the boards' own palette: what a replay shows of the board is
    exactly the PNG `render_board` writes (no second palette merging its colours), also the final
    scores, the tallest (a GIF's frames share the first one's size: the others are padded below)."""
    record = _random_game(5, seed=11).record()
    shown = frames(record)
    data, count = animation(record)
    drawn = _gif_frames(data)
    assert len(drawn) == count == len(shown)
    boards = {k: Image.open(io.BytesIO(render_board(shown[k][1], highlight=[], width=700))).convert("RGB")
              for k in (0, len(shown) // 2, len(shown) - 1)}  # fmt: skip
    assert boards[len(shown) - 1].height > boards[0].height, "the final scores' frame is the tallest"
    assert all(d.size == (700, CAPTION_HEIGHT + boards[len(shown) - 1].height) for d in drawn)
    for k, board in boards.items():
        below = drawn[k].crop((0, CAPTION_HEIGHT, 700, CAPTION_HEIGHT + board.height))
        assert below.tobytes() == board.tobytes(), k
        if drawn[k].height > CAPTION_HEIGHT + board.height:
            padding = drawn[k].crop((0, CAPTION_HEIGHT + board.height, 700, drawn[k].height))
            assert {c for _n, c in padding.getcolors() or []} == {_in_palette(PANEL)}, k
