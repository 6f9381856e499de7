"""Bot benchmark: how long a player waits for their own move, and how late the event loop runs,
while strong computer players think (the service layer with the real renderer and the
worker-process pool the bot uses).

Usage: python scripts/bench_bot.py [MOVES]

1. The mover: one human against four ``strong`` computer players; the time from the human's
   move to its stored announcement (what the bot posts), over MOVES moves. The computers
   answer afterwards (`Context.advance`), as in the bot.
2. The event loop: two such games whose computers think at the same time, while a probe
   measures how late ``asyncio.sleep(5 ms)`` wakes up (targets: p99 < 20 ms).
3. A restart (`real_restart`): ``python -m bot`` with two workers against the fake Discord of the
   tests on loopback, stopped as a deploy stops it and started again, three times; the first move
   as soon as it is ready (the soonest a player can act: it connects once its running games are
   drawn ahead), timed from ``/citta play`` to its post in the channel, beside the median of the
   next five (target: at most 2x).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

if __name__ != "__mp_main__":
    # A worker process (``spawn``) runs this script again as ``__mp_main__`` before its start-up: it
    # needs none of these (the bot's workers import no main module: ``python -m bot`` runs a
    # package's ``__main__``, which ``spawn`` leaves alone), and importing them cost each worker
    # about a quarter of a second of CPU that the bot's workers do not spend.
    from real_restart import real_restarts

    from bot.results import User
    from bot.service import advance as svc_advance
    from bot.service import lobby as svc_lobby
    from bot.service import moves as svc_moves
    from bot.service.context import Context
    from bot.service.workers import ProcessWorkers
    from engine import Game

    HUMAN = User(1, "Ann")

PROBE = 0.005


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(name: str, values: list[float]) -> str:
    ms = {"median": statistics.median(values), "p95": percentile(values, 0.95),
          "p99": percentile(values, 0.99), "max": max(values)}  # fmt: skip
    return f"{name}: " + ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in ms.items()) + f" (n={len(values)})"


async def new_game(
    svc: Context, channel: int, players: int = 5, level: str = "strong", guild: int | None = None
) -> int:
    """A game of `HUMAN` and ``players - 1`` computer players of ``level`` in ``channel`` (of
    ``guild``), started and advanced to the first decision that is the human's: its id."""
    await svc_lobby.new_game(svc, HUMAN, channel=channel, guild=guild, players=players)
    real = svc.clock
    for k in range(players - 1):  # one request each, as if a few seconds apart (`svc_lobby.SAME_REQUEST`)
        svc.clock = lambda k=k: real() + k * (svc_lobby.SAME_REQUEST + 1)  # type: ignore[misc]
        await svc_lobby.add_ai(svc, HUMAN, channel=channel, level=level)
    svc.clock = real
    row = await svc.storage.games.latest_game(channel)
    assert row is not None
    await svc_advance.advance(svc, row.id)
    return row.id


async def human_move(svc: Context, game_id: int, rnd: random.Random) -> float:
    """The human's move (a random legal one): seconds until its announcement is stored."""
    row = await svc.storage.games.game(game_id)
    assert row is not None and row.snapshot is not None and row.record is not None
    game = Game.restore(row.snapshot, row.record)
    move = rnd.choice(game.legal_moves(0))
    start = time.perf_counter()
    await svc_moves.play(svc, HUMAN.id, str(move), game_id=game_id, confirmed=True)
    return time.perf_counter() - start


async def probe(stop: asyncio.Event, lags: list[float]) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(PROBE)
        lags.append(time.perf_counter() - start - PROBE)


async def main(moves: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "render-cache"  # as the bot's, beside its database
        workers = ProcessWorkers(cache=cache)
        await workers.start()
        svc = await Context.open(Path(tmp) / "bench.db", workers=workers)
        rnd = random.Random(1)
        games = [await new_game(svc, channel) for channel in (1, 2)]
        waits: list[float] = []
        lags: list[float] = []
        stop = asyncio.Event()
        lagging = asyncio.create_task(probe(stop, lags))
        thinking = 0.0
        for _ in range(moves):
            for g in games:
                row = await svc.storage.games.game(g)
                if row is None or row.status != "active":
                    continue
                waits.append(await human_move(svc, g, rnd))
            start = time.perf_counter()
            await asyncio.gather(
                *(svc_advance.advance(svc, g) for g in games)
            )  # both games' computers at once
            thinking += time.perf_counter() - start
        stop.set()
        await lagging
        await svc.close()
        workers.close()
    print(summary("the mover's own move, stored and announced (board drawn)", waits))
    print(summary("event-loop lag while strong players think in two games", lags))
    print(f"computer players thought for {thinking:.1f} s in all, with {workers.processes} worker processes")
    with tempfile.TemporaryDirectory() as tmp:
        for restart in await real_restarts(Path(tmp)):
            print(restart.line())


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 15))
