"""Where the slow work runs: the computer players' thinking and drawing the boards.

The event loop must stay responsive while a strong computer player thinks for a second in
two games at once, so the bot hands that work to a pool of worker processes, one per core
(`ProcessWorkers`): the loop only waits for the answer. Functions sent there are module-level
and their arguments plain data (snapshots, records, views), so they pickle. `ThreadWorkers`
runs the same calls in a thread, for tests with an injected renderer and for one-off tools.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import functools
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from bot.service.computer import decide
from bot.storage.rows import GameSettings, SeatRow
from engine import Action, Game

log = logging.getLogger(__name__)
T = TypeVar("T")
WORKER_NICENESS = 5
PR_SET_PDEATHSIG = 1


class Workers(Protocol):
    async def call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T: ...

    def close(self) -> None: ...


class ThreadWorkers:
    """Runs each call in a thread of the default executor."""

    async def call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        return await asyncio.to_thread(fn, *args, **kwargs)

    def close(self) -> None:
        return None


def _die_with_parent(parent: int) -> None:
    """End this worker when the bot's process (``parent``) ends, even by SIGKILL (a pool's
    workers would otherwise live on, each holding the renderer's memory): Linux's parent-death
    signal, and elsewhere a thread that watches for the parent to go. A parent that died while
    this worker was starting ends it at once."""
    if os.getppid() != parent:
        os._exit(1)
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL) == 0 and os.getppid() == parent:
            return
    except (OSError, AttributeError):
        pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _warm(parent: int) -> None:
    """Worker start-up: die with the bot, yield the CPU to the event loop's process when both
    want it, import the engine and the renderer, and build what every board needs."""
    _die_with_parent(parent)
    os.nice(WORKER_NICENESS)
    import engine.ai  # noqa: F401
    import render

    render.warm()


class ProcessWorkers:
    """A process pool (``spawn``: no event loop, thread or database connection is inherited).

    A worker that dies (killed, out of memory) breaks the pool; the next call makes a new one
    and tries once more.
    """

    def __init__(self, processes: int | None = None) -> None:
        self.processes = processes or os.cpu_count() or 1
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_warm,
            initargs=(os.getpid(),),
        )

    async def call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        job = functools.partial(fn, *args, **kwargs)
        try:
            return await loop.run_in_executor(self._pool, job)
        except BrokenProcessPool:
            log.warning("A worker process died; starting the pool again")
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            return await loop.run_in_executor(self._pool, job)

    async def start(self) -> None:
        """Start every worker now (each imports the engine and warms the renderer)."""
        await asyncio.gather(*(self.call(os.getpid) for _ in range(self.processes)))

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def decide_move(
    snapshot: dict[str, Any], record: dict[str, Any], seat: SeatRow, settings: GameSettings, seed: int
) -> tuple[Action, str]:
    """`bot.service.computer.decide` on a stored position (runs in a worker)."""
    return decide(Game.restore(snapshot, record), seat, settings, seed)


def plan_moves(
    snapshot: dict[str, Any], record: dict[str, Any], seats: list[SeatRow], settings: GameSettings,
    version: int, also: frozenset[int] = frozenset(),
) -> list[tuple[int, Action, str]]:  # fmt: skip
    """The bot's moves for the seats it plays (and ``also``, played as if away) until a human
    must decide: (seat, move, ``computer`` or ``default``) each (runs in a worker)."""
    game = Game.restore(snapshot, record)
    by_seat = {s.seat: s for s in seats}
    gone = {s.seat for s in seats if s.played_by_bot} | also
    planned: list[tuple[int, Action, str]] = []
    while not game.is_over and (todo := [s for s in game.pending_seats() if s in gone]):
        seat = by_seat[todo[0]]
        if seat.seat in also and not seat.played_by_bot:
            seat = replace(seat, away=True)
        move, how = decide(game, seat, settings, seed=version + len(planned))
        game.play(seat.seat, move)
        planned.append((seat.seat, move, how))
    return planned
