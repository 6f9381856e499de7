"""Replay benchmark: the CPU time and the peak memory of drawing a whole five-player game's replay
GIF (`render.replay.animation`), as the bot's `aside` worker draws it: in a fresh process that has
warmed up like a worker (`render.warm`).

Usage: python scripts/bench_replay.py [RUNS] [SEED]

Each run plays a seeded five-player game to its end (`render.samples`), then, in a new process:
warms up, forgets the peak of its resident memory (``/proc/self/clear_refs``), draws the replay,
and prints the replay's CPU time, its peak (the highest resident memory while drawing, above what
the warm process held before), its frames and its size. Then the median of each over the runs.
"""

from __future__ import annotations

import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _status(field: str) -> float:
    """A ``/proc/self/status`` field in MiB (VmRSS: resident now; VmHWM: its peak)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise KeyError(field)


def _replay(record: dict[str, Any]) -> tuple[float, float, int, int]:
    """In a fresh process: warm up, then draw the replay of ``record``; (CPU s, peak MiB above the
    warm process, frames, bytes)."""
    import render
    from render.replay import animation

    render.warm()
    Path("/proc/self/clear_refs").write_text("5")  # the peak is counted from here
    before = _status("VmRSS")
    cpu = time.process_time()
    data, frames = animation(record, lang="en")
    cpu = time.process_time() - cpu
    return cpu, _status("VmHWM") - before, frames, len(data)


def finished_game(seed: int) -> dict[str, Any]:
    """The record of a seeded five-player game played to its end, as stored (JSON data)."""
    from render.samples import new_game, play

    game = new_game(5, seed)
    play(game, random.Random(seed), lambda _game: False)
    assert game.is_over
    return game.record().model_dump(mode="json")


def main(runs: int, seed: int) -> None:
    record = finished_game(seed)
    print(f"a five-player game of {len(record['moves'])} moves (seed {seed})")
    context = multiprocessing.get_context("spawn")
    results = []
    for run in range(runs):
        with context.Pool(1) as pool:
            cpu, peak, frames, size = pool.apply(_replay, (record,))
        results.append((cpu, peak))
        print(f"run {run + 1}: {cpu:.2f} s of CPU, peak {peak:.0f} MiB above the warm worker, "
              f"{frames} frames, {size / 1024:.0f} KiB")  # fmt: skip
    print(
        f"median of {runs}: {statistics.median(c for c, _ in results):.2f} s of CPU, "
        f"peak {statistics.median(p for _, p in results):.0f} MiB"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3, int(sys.argv[2]) if len(sys.argv) > 2 else 7)
