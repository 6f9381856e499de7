"""Bot benchmark: how long a player waits for their own move, and how late the event loop runs,
while strong computer players think (the service layer with the real renderer and the
worker-process pool the bot uses).

Usage: python scripts/bench_bot.py [MOVES] [READY]

1. The mover: one human against four ``strong`` computer players; the time from the human's
   move to its stored announcement (what the bot posts), over MOVES moves. The computers
   answer afterwards (`Context.advance`), as in the bot.
2. The event loop: two such games whose computers think at the same time, while a probe
   measures how late ``asyncio.sleep(5 ms)`` wakes up (targets: p99 < 20 ms).
3. A restart: new workers, started as `CittaBot.login` starts them (warming while the database
   opens and the bot logs in), the running games' posts drawn ahead as `CittaBot.setup_hook` has
   them drawn (`bot.service.predraw`), and READY seconds later (default 0.5: sooner than the real
   bot is ready after a restart, step 4) the human's move in one of those games; its time beside the
   median of the next warm moves, and the ratio (target: at most 2). Then a second restart, whose
   first move waits until the workers have warmed up and the games are drawn ahead: the same
   figures. Each with when the workers were warm and when the games were drawn ahead: a move
   made before then waits for a worker's start-up (imports, then `render.warm_start`: about a
   third of a second of CPU when it reads what the first workers of step 1 kept in the bench's
   folder, `render.stash`; nearly two without it, as at the very first start). The bench's
   workers run this script again (``spawn`` runs the main module as ``__mp_main__``) but skip its
   imports, as ``python -m bot``'s workers import no main module.
4. The real bot restarted (`real_restart`): ``python -m bot`` with two workers against the fake
   Discord of the tests on loopback, stopped as a deploy stops it and started again; the first move
   as soon as it is ready (the soonest a player can act), then, after another restart, once it has
   drawn its games ahead; each move timed from ``/citta play`` to its post in the channel, the first
   beside the median of the next five.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

if __name__ != "__mp_main__":
    # A worker process (``spawn``) runs this script again as ``__mp_main__`` before its start-up: it
    # needs none of these (the bot's workers import no main module: ``python -m bot`` runs a
    # package's ``__main__``, which ``spawn`` leaves alone), and importing them cost a restarted
    # worker about a quarter of a second of CPU that the bot's workers do not spend.
    from real_restart import real_restarts

    from bot.results import User
    from bot.service import advance as svc_advance
    from bot.service import lobby as svc_lobby
    from bot.service import moves as svc_moves
    from bot.service import predraw as svc_predraw
    from bot.service.context import Context
    from bot.service.workers import ProcessWorkers
    from engine import Game

    HUMAN = User(1, "Ann")

PROBE = 0.005
WARM_MOVES = 5


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


async def main(moves: int, ready: float) -> None:
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
        restarts = [await after_restart(Path(tmp) / "bench.db", cache, games, when) for when in (ready, None)]
    print(summary("the mover's own move, stored and announced (board drawn)", waits))
    print(summary("event-loop lag while strong players think in two games", lags))
    print(f"computer players thought for {thinking:.1f} s in all, with {workers.processes} worker processes")
    with tempfile.TemporaryDirectory() as tmp:
        real = await real_restarts(Path(tmp))
    for r in restarts:
        typical = statistics.median(r.warm)
        print(
            f"after a restart (a move {r.moved_at:.1f} s after start; workers warm at {r.warm_at:.1f} s, "
            f"games drawn ahead at {r.drawn_at:.1f} s): the first board {r.first * 1000:.0f} ms, a warm one "
            f"{typical * 1000:.0f} ms (median of {len(r.warm)}): {r.first / typical:.1f}x (target: ≤ 2x)"
        )
    for after, restart in real:
        print(restart.line(after))


@dataclass
class Restart:
    first: float
    """The first move's time (seconds)."""
    warm: list[float]
    """The next `WARM_MOVES` moves' times."""
    moved_at: float
    warm_at: float
    drawn_at: float
    """When the first move was made, the workers were warm, the games drawn ahead (s after start)."""


async def after_restart(db: Path, cache: Path, games: list[int], ready: float | None) -> Restart:
    """A restart on ``db`` (the workers' warm-up kept in ``cache``): the first human move's time
    (``ready`` seconds after the workers were started, as the bot starts them while it logs in;
    None: once they are warm and the running games drawn ahead), then the next `WARM_MOVES`
    moves' times."""
    began = time.perf_counter()
    workers = ProcessWorkers(cache=cache)
    marks: dict[str, float] = {}

    def mark(name: str) -> Callable[[object], None]:
        def done(_task: object) -> None:
            marks.setdefault(name, time.perf_counter() - began)

        return done

    warming = asyncio.create_task(workers.start())
    warming.add_done_callback(mark("warm"))
    svc = await Context.open(db, workers=workers)
    drawing_ahead = asyncio.create_task(svc_predraw.predraw(svc))  # as `CittaBot.setup_hook` does
    drawing_ahead.add_done_callback(mark("drawn"))
    if ready is None:
        await asyncio.gather(warming, drawing_ahead)
    await asyncio.sleep(max(0.0, (ready or 0.0) - (time.perf_counter() - began)))
    moved_at = time.perf_counter() - began
    rnd = random.Random(2)
    times: list[float] = []
    for _ in range(WARM_MOVES + 1):
        live = [g for g in games if (row := await svc.storage.games.game(g)) and row.status == "active"]
        if not live:
            break
        times.append(await human_move(svc, live[0], rnd))
        await svc_advance.advance(svc, live[0])
    await warming
    await drawing_ahead
    await svc.close()
    workers.close()
    return Restart(times[0], times[1:], moved_at, marks["warm"], marks["drawn"])


if __name__ == "__main__":
    asyncio.run(
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 15, float(sys.argv[2]) if len(sys.argv) > 2 else 0.5)
    )
