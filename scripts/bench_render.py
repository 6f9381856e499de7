"""Benchmark the renderer: median and p95 time and PNG size of a late-game 5-player board.

Run: ``python scripts/bench_render.py [--runs N] [--width W]``. It prints figures; it does
not fail (the targets are < 80 ms and < 400 KB at the default width).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

# Run from anywhere: the repository root first on the path (as pytest's rootdir would be).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from render import render_board
from render.samples import late_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--width", type=int, default=1400)
    args = parser.parse_args()
    game, last = late_game(players=5)
    view = game.view(None)
    t0 = time.perf_counter()
    png = render_board(view, highlight=last, width=args.width)
    first = time.perf_counter() - t0
    times = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        png = render_board(view, highlight=last, width=args.width)
        times.append(time.perf_counter() - t0)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    cities = sum(len(p.cities) for p in view.players)
    buildings = sum(len(c.buildings) for p in view.players for c in p.cities)
    median, size = statistics.median(times) * 1000, len(png)
    print(f"late-game 5-player board: year {view.year}, {cities} cities, {buildings} buildings")
    print(f"width {args.width}; first render (draws the cached layers): {first * 1000:.0f} ms")
    print(f"render_board, {args.runs} runs: median {median:.1f} ms, p95 {p95 * 1000:.1f} ms")
    print(f"PNG size: {size / 1024:.0f} KB ({size} bytes)")


if __name__ == "__main__":
    main()
