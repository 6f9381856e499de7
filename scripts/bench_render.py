"""Benchmark the renderer: time and size of one board, and many different games in turn.

Run: ``python scripts/bench_render.py [--runs N] [--width W] [--layouts N] [--rounds N]
[--processes N]``.
It prints figures; it does not fail. Three cases:

- a late-game 5-player board drawn again and again: median and p95 time, PNG size
  (targets < 80 ms median and < 400 KB at the default width);
- ``--layouts`` games with distinct experienced setups (shuffled terrain), drawn one after
  the other ``--rounds`` times after `render.warm()`, as a bot with many running games does:
  the first board in a fresh process after `warm()` (target < 150 ms), the median, p95 and
  max per board (target p95 < 60 ms) and the process's peak RSS (target < 200 MiB);
- ``--posts`` turn posts (`render.render_post`: overview, close-ups, table) of 3-player games
  in their first moves, the games taken in turn as the load benchmark plays them: CPU per post
  with nothing kept (`render.bands` forgotten before each) and with the table's bands kept,
  drawing and writing apart, the bytes, and the PNG writer's deflate (ISA-L level 1) beside
  zlib's level 3 on the same pictures.

Times are given as wall time and CPU time (`time.process_time`, all threads of the process):
on a busy machine the wall time moves with the load, the CPU time much less.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path

# Run from anywhere: the repository root first on the path (as pytest's rootdir would be).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import zlib

from isal import isal_zlib
from PIL import Image

import render
from engine.views import View
from render import bands, encode, render_board
from render.closeup import closeup_regions, draw_closeup
from render.landscape import layout_key
from render.overview import draw_overview
from render.png_palette import palette_image
from render.post import WIDTH
from render.samples import at, early_posts, late_game, new_game, play
from render.sheet import draw_sheet

Timing = tuple[float, float]
"""(wall, CPU) seconds."""


def timed(f: Callable[[], object]) -> Timing:
    """The wall and CPU time of one call of ``f``."""
    w0, c0 = time.perf_counter(), time.process_time()
    f()
    return time.perf_counter() - w0, time.process_time() - c0


def timings(calls: Iterable[Callable[[], object]]) -> tuple[list[float], list[float]]:
    """The wall and CPU times of the ``calls``, each made once, in turn."""
    walls, cpus = [], []
    for call in calls:
        wall, cpu = timed(call)
        walls.append(wall)
        cpus.append(cpu)
    return walls, cpus


def percentile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    ms = [1000 * percentile(ordered, q) for q in (0.5, 0.95, 1.0)]
    return "median {:.1f} ms, p95 {:.1f} ms, max {:.1f} ms".format(*ms)


def wall_cpu(t: Timing) -> str:
    return f"{t[0] * 1000:.0f} ms (CPU {t[1] * 1000:.0f} ms)"


def peak_rss_mib() -> float:
    """The peak resident set size of this process (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def experienced_views(count: int) -> list[View]:
    """Spectator views of ``count`` experienced games (seeds 0…): every 10th a few years on."""
    views = []
    for seed in range(count):
        game = new_game(2 + seed % 4, seed, "experienced")
        if seed % 10 == 0:
            play(game, random.Random(seed), at(1 + seed % 5, 2))
        views.append(game.view(None))
    return views


def late_game_case(runs: int, width: int) -> None:
    game, last = late_game(players=5)
    view = game.view(None)
    first = timed(lambda: render_board(view, highlight=last, width=width))
    walls, cpus = timings(partial(render_board, view, highlight=last, width=width) for _ in range(runs))
    png = render_board(view, highlight=last, width=width)
    cities = sum(len(p.cities) for p in view.players)
    buildings = sum(len(c.buildings) for p in view.players for c in p.cities)
    print(f"late-game 5-player board: year {view.year}, {cities} cities, {buildings} buildings")
    print(f"  width {width}; first render in this process (no warm()): {wall_cpu(first)}")
    print(f"  render_board, {runs} runs, wall: {summary(walls)}")
    print(f"  render_board, {runs} runs, CPU:  {summary(cpus)}")
    print(f"  PNG size: {len(png) / 1024:.0f} KB ({len(png)} bytes)")


def first_board(warm: bool, width: int) -> dict[str, Timing]:
    """In this (fresh) process: `warm()` if asked, then one experienced board."""
    view = new_game(4, 12345, "experienced").view(None)
    warmed = timed(render.warm) if warm else (0.0, 0.0)
    return {"warm": warmed, "board": timed(lambda: render_board(view, width=width))}


def fresh_first_board(warm: bool, width: int, processes: int) -> dict[str, Timing]:
    """`first_board` in new Python processes, so that nothing is cached yet: the median of
    each figure over ``processes`` of them."""
    args = [sys.executable, __file__, "--first-board", "warm" if warm else "cold", "--width", str(width)]
    runs = []
    for _ in range(processes):
        out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
    return {
        key: (statistics.median(r[key][0] for r in runs), statistics.median(r[key][1] for r in runs))
        for key in ("warm", "board")
    }


def many_layouts_case(count: int, rounds: int, width: int, processes: int) -> None:
    cold = fresh_first_board(False, width, processes)
    warmed = fresh_first_board(True, width, processes)
    views = experienced_views(count)
    distinct = len({layout_key(v) for v in views})
    render.warm()
    walls, cpus = timings(partial(render_board, view, width=width) for _ in range(rounds) for view in views)
    print(f"{count} experienced games ({distinct} distinct layouts), drawn in turn {rounds} times:")
    print(f"  first board in a fresh process (median of {processes}):")
    print(f"    after warm(): {wall_cpu(warmed['board'])}; warm() itself: {wall_cpu(warmed['warm'])}")
    print(f"    without warm(): {wall_cpu(cold['board'])}")
    print(f"  per board, wall: {summary(walls)}")
    print(f"  per board, CPU:  {summary(cpus)}")
    print(f"  peak RSS of this process: {peak_rss_mib():.0f} MiB")


Post = tuple[View, list[str], int | None]
"""A turn post's view, the last move's hexes and the seat to act next."""


def post_pictures(post: Post) -> list[Image.Image]:
    view, lit, focus = post
    return [
        draw_overview(view, lit, WIDTH),
        *(draw_closeup(view, region, lit, WIDTH) for region in closeup_regions(view, lit, focus)),
        draw_sheet(view, WIDTH),
    ]


def _cold_post(post: Post) -> None:
    """`render.render_post` with no band of a table kept (`render.bands`): all drawn."""
    bands.forget()
    render.render_post(post[0], highlight=post[1], focus=post[2])


def posts_case(count: int) -> None:
    posts = early_posts(max(1, count // 4))
    render.warm()
    for post in posts[:20]:
        render.render_post(post[0], highlight=post[1], focus=post[2])
    _, whole = timings(partial(_cold_post, p) for p in posts)
    _, kept = timings(partial(render.render_post, p[0], highlight=p[1], focus=p[2]) for p in posts)
    drawn: list[list[Image.Image]] = []
    _, drawing = timings(partial(lambda p: drawn.append(post_pictures(p)), p) for p in posts)
    pal = palette_image()
    _, writing = timings(partial(lambda pics: [encode.png(i, pal) for i in pics], pics) for pics in drawn)
    rows = [i.quantize(palette=pal, dither=Image.Dither.NONE).tobytes() for pics in drawn for i in pics]
    pixels = sum(i.width * i.height for pics in drawn for i in pics) / len(posts)
    sizes = [sum(len(encode.png(i, pal)) for i in pics) for pics in drawn[:40]]
    print(f"{len(posts)} turn posts of 3-player games in their first moves "
          f"({sum(map(len, drawn)) / len(posts):.2f} pictures, {pixels / 1e6:.1f} Mpx a post):")  # fmt: skip
    print(f"  render_post, CPU (nothing kept): {summary(whole)}")
    print(f"    the table's unchanged bands kept (one process, games in turn): {summary(kept)}")
    print(f"  drawing, CPU:     {summary(drawing)}")
    kb = statistics.median(sizes) / 1024
    print(f"  writing the PNGs, CPU: {summary(writing)}; {kb:.0f} KB a post (median)")
    deflates: list[tuple[str, Callable[[bytes], bytes]]] = [
        ("ISA-L level 1", lambda b: isal_zlib.compress(b, 1)),
        ("zlib level 3", lambda b: zlib.compress(b, 3)),
    ]
    for name, deflate in deflates:
        cpu = time.process_time()
        size = sum(len(deflate(r)) for r in rows)
        per, kb = (time.process_time() - cpu) / len(posts) * 1000, size / len(posts) / 1024
        print(f"  deflate of the palette data, {name}: {per:.1f} ms and {kb:.0f} KB a post")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--layouts", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--processes", type=int, default=3, help="fresh processes for the first board")
    parser.add_argument("--posts", type=int, default=200, help="turn posts to draw (0: skip that case)")
    parser.add_argument("--first-board", choices=["cold", "warm"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.first_board:
        print(json.dumps(first_board(args.first_board == "warm", args.width)))
        return
    late_game_case(args.runs, args.width)
    many_layouts_case(args.layouts, args.rounds, args.width, args.processes)
    if args.posts:
        posts_case(args.posts)


if __name__ == "__main__":
    main()
