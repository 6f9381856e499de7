"""Review benchmark: how long one step of ``/citta-review`` takes to make, pictures drawn (the service
layer with the real renderer in the worker-process pool the bot uses; Discord's round trip is not in it).

Usage: python scripts/bench_review.py [PLAYERS] [STEPS]

A game of one human (random legal moves) and PLAYERS-1 ``basic`` computer players is played to its
end through the service, then reviewed: first a warm-up step, then STEPS steps to random positions
(a finished game: everything shown), and STEPS to random positions of the game as a player saw it
(its seat's view). Printed: the wall time of a step (p50, p95, max) and the CPU of the bot's own part
(walking the record to the position, without the drawing).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bot import HUMAN, human_move, new_game, percentile, summary

from bot.service import advance as svc_advance
from bot.service import review as svc_review
from bot.service.context import Context
from bot.service.limits import RATES, Limits, Rate
from bot.service.visible import Viewer
from bot.service.workers import ProcessWorkers
from bot.storage.rows import GameRow

CHANNEL = 1


async def finished_game(svc: Context, players: int) -> int:
    game_id = await new_game(svc, CHANNEL, players, level="basic")
    rnd = random.Random(3)
    while (row := await svc.storage.games.game(game_id)) is not None and row.status == "active":
        await human_move(svc, row.id, rnd)
        await svc_advance.advance(svc, row.id)
    assert row is not None and row.status == "over"
    return row.id


async def main(players: int, count: int) -> None:
    workers = ProcessWorkers()
    await workers.start()
    with tempfile.TemporaryDirectory() as tmp:
        svc = await Context.open(Path(tmp) / "bench.db", workers=workers)
        svc.limits = Limits({**RATES, "review": Rate(10**6, 0.001)})  # the steps as fast as they come
        game_id = await finished_game(svc, players)
        row = await svc.storage.games.game(game_id)
        assert row is not None and row.record is not None
        print(f"a finished game of {players} players, {len(row.record['moves'])} moves in its record")
        rnd = random.Random(5)
        for name, status in (("finished (everything shown)", "over"), ("as a player saw it", "active")):
            walls, cpus = await steps(svc, replace(row, status=status), count, rnd)
            print(summary(f"a review step, {name}, pictures drawn", walls))
            walk = (
                f"median {1000 * statistics.median(cpus):.1f} ms, p95 {1000 * percentile(cpus, 0.95):.1f} ms"
            )
            print(f"  of which walking the record to the position (CPU): {walk}")
        await svc.close()
    workers.close()


async def steps(
    svc: Context, row: GameRow, count: int, rnd: random.Random
) -> tuple[list[float], list[float]]:
    """``count`` review steps of ``row`` to random positions: their wall times (pictures drawn), and
    the CPU of walking the record to them."""
    assert row.record is not None
    seats = await svc.storage.games.seats(row.id)
    viewer = Viewer.of(HUMAN.id, [CHANNEL])
    await svc_review.step(svc, viewer, row, seats, guild=None, position=0)  # the worker warms up
    moves = len(row.record["moves"])
    walls, cpus = [], []
    for _ in range(count):
        target = rnd.randrange(moves + 1)
        start = time.perf_counter()
        msg = await svc_review.step(svc, viewer, row, seats, guild=None, position=target)
        walls.append(time.perf_counter() - start)
        assert msg.pictures, "the pictures are drawn"
        cpu = time.process_time()
        svc_review.position(row.record, target, seat=0, over=row.status == "over")
        cpus.append(time.process_time() - cpu)
    return walls, cpus


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    asyncio.run(main(args[0] if args else 4, args[1] if len(args) > 1 else 40))
