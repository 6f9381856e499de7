"""`render.warm()`: it builds ahead only what boards need anyway, so it changes no picture,
and a second call builds nothing."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from test_render_caches import caches

from engine.views import View
from render import render_board, warm
from render.samples import at, new_game, play

HERE = Path(__file__).resolve().parent


def boards() -> list[tuple[View, int]]:
    """Boards to compare (view, width): an experienced game in year 2, a start."""
    game = new_game(4, 23, "experienced")
    play(game, random.Random(23), at(2, 1))
    start = new_game(3, 24)
    return [(game.view(None), 900), (game.view(game.pending_seats()[0]), 1400), (start.view(1), 1400)]


def test_warm_a_second_time_builds_nothing() -> None:
    warm()
    first = {name: (c.cache_info().misses, c.cache_info().currsize) for name, c in caches().items()}
    warm()
    again = {name: (c.cache_info().misses, c.cache_info().currsize) for name, c in caches().items()}
    assert again == first


def test_boards_are_the_same_bytes_whether_warm_ran_or_not(tmp_path: Path) -> None:
    # Drawn first in a fresh process, where nothing is cached and warm() never runs.
    code = (
        f"import sys; sys.path.insert(0, {str(HERE)!r})\n"
        "from test_render_warm import boards, render_board\n"
        "for k, (view, width) in enumerate(boards()):\n"
        f"    open({str(tmp_path)!r} + f'/{{k}}.png', 'wb').write(render_board(view, width=width))\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=HERE.parent, check=True)
    warm()
    for k, (view, width) in enumerate(boards()):
        assert render_board(view, width=width) == (tmp_path / f"{k}.png").read_bytes(), k
