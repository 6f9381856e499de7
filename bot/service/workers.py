"""Where the slow work runs: the computer players' thinking and drawing the boards.

The event loop must stay responsive while a strong computer player thinks for a second in
two games at once, so the bot hands that work to a pool of worker processes, one per core
(`ProcessWorkers`): the loop only waits for the answer. Functions sent there are module-level
and their arguments plain data (snapshots, records, views), so they pickle. `ThreadWorkers`
runs the same calls in a thread, for tests with an injected renderer and for one-off tools.

Two lanes. What a game waits for — a turn post's pictures, a computer player's move — is sent
with `call` / `call_near`. What one member asked for privately — a replay, a hint, the full
board, the position in words — is sent with `aside`: it runs in a lane of its own, one job at a
time, in a worker that yields the CPU to every other (`ASIDE_NICENESS`). A flood of those
therefore queues behind itself and never delays a game's posts or its computer players.

A third, the lowest: `idle`, for work nobody waits for that makes a later job quicker (after a
restart, drawing the running games' current posts where their next ones will be drawn, so their
caches are warm: `bot.service.predraw`). Such a job starts only on its key's worker, only once
that worker has warmed up, and only while no other job waits: a turn post sent meanwhile goes
first, and waits at most for the one idle job already running.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from bot.service.host import rss_mib, usable_cpus
from bot.service.thread_workers import ThreadWorkers
from bot.service.worker_start import WORKER_NICENESS, cache_folder, run_job, trim_heap, warm_worker

if TYPE_CHECKING:
    from bot.config import Settings

log = logging.getLogger(__name__)
T = TypeVar("T")
__all__ = ["ProcessWorkers", "ThreadWorkers", "Workers", "bot_workers", "workers_for"]


class Workers(Protocol):
    async def call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T: ...

    async def call_near(self, key: int | None, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """`call`, preferring the worker that ran ``key``'s earlier jobs (its caches are warm)."""
        ...

    async def aside(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """`call` for what one member asked for privately: in the lane that never delays a game's
        posts and computer players (see the module docstring), one job at a time."""
        ...

    async def idle(self, key: int, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """`call_near` at the lowest priority (see the module docstring): only on ``key``'s own
        worker, warm and with nothing else to do."""
        ...

    def queued(self) -> int: ...  # jobs waiting for a worker now: ``citta_worker_queue_length``

    def close(self) -> None: ...


def workers_for(count: int | None, memory: int | None = None, cache: Path | None = None) -> Workers:
    """The workers of a bot: ``count`` processes (None: one per usable CPU, `usable_cpus`; 0:
    threads of the bot's own process, for the smallest hosts), each replaced between jobs once it
    holds more than ``memory`` MiB (None or 0: never), keeping their warm-up in ``cache``."""
    return ThreadWorkers() if count == 0 else ProcessWorkers(count, memory=memory, cache=cache)


def bot_workers(settings: Settings) -> Workers:
    """The workers ``settings`` ask for (`workers_for`: ``CITTA_WORKERS``, ``CITTA_WORKER_MEMORY``),
    keeping their warm-up in ``CITTA_RENDER_CACHE``, else beside the database (`cache_folder`)."""
    cache = settings.render_cache or cache_folder(settings.db_path)
    return workers_for(settings.workers, settings.worker_memory, cache)


class ProcessWorkers:
    """Worker processes (``spawn``: no event loop, thread or database connection is inherited),
    each fed by this process's event loop (`call`, `call_near`).

    A job may name a key (`call_near`: the bot names the game whose pictures it draws): it goes
    to the worker of that key when that worker is free, so a game's pictures are mostly drawn
    where the bands of its last table are kept (`render.bands`). No worker waits while a job
    does: a worker that comes free takes the first of the next `LOOK_AHEAD` waiting jobs meant
    for it, else the oldest one, and a new job goes to its own worker if that one is free, else
    to any free one.

    A worker that dies (killed, out of memory) breaks its pool; a new one is started and the job
    it held is tried once more.

    A memory budget (``memory``, MiB per worker) keeps a long-running bot's workers from growing
    without end (the heap of a process that drew many boards is fragmented, and some of it is
    never given back): after each job, a worker that holds more than the budget (its RSS) is
    replaced, its result kept. Its pool is shut down once idle and a new worker is started and
    warmed at once, so the next job it takes waits for the warm-up at most once.
    """

    def __init__(
        self, processes: int | None = None, memory: float | None = None, cache: Path | None = None
    ) -> None:
        self.processes = processes or usable_cpus()
        self.cache = cache
        """Where the workers keep what their warm-up draws, for the next ones (`render.stash`;
        None: nowhere, each draws it)."""
        self.memory = memory or None
        """The budget in MiB of each worker's resident memory (None: none)."""
        self.replaced = 0
        """Workers replaced for passing the memory budget."""
        self.finished = 0
        """Jobs of the game lanes finished (every `OWN_TRIM_EVERY`-th trims this process's heap)."""
        self._pools = [self._new_pool() for _ in range(self.processes)]
        self._spawned: dict[int, Future[int]] = {}  # each worker's first job, if `spawn` started it
        self._aside_pool: ProcessPoolExecutor | None = None
        """The `aside` lane's worker, started when first needed, stopped after `ASIDE_IDLE`."""
        self._aside_turn: asyncio.Lock | None = None
        self._aside_jobs = 0
        """Jobs sent to the `aside` lane so far (an idle worker is stopped only if none came since)."""
        self._busy = [False] * self.processes
        self._ready = [False] * self.processes
        """Workers known to be warm (their start-up done): only those take `idle` jobs."""
        self._waiting: deque[_Job] = deque()
        self._idle: deque[_Job] = deque()
        """`idle` jobs, each for its key's worker, started when nothing else waits."""
        self.near = 0
        """Jobs with a key that ran on their key's worker."""
        self.keyed = 0
        """Jobs with a key that ran."""

    def _new_pool(self, niceness: int = WORKER_NICENESS) -> ProcessPoolExecutor:
        """A pool of one worker that runs at ``niceness`` (a game's worker warms before it yields:
        `warm_worker`)."""
        return ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=warm_worker,
            initargs=(os.getpid(), niceness, self.cache, niceness == WORKER_NICENESS),
        )

    async def aside(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` in the `aside` lane's worker, after the jobs sent there before it
        (a worker that dies is replaced and the job tried once more)."""
        self._aside_turn = self._aside_turn or asyncio.Lock()
        self._aside_jobs += 1
        async with self._aside_turn:
            try:
                return await self._aside_run(fn, *args, **kwargs)
            finally:
                asyncio.get_running_loop().call_later(ASIDE_IDLE, self._retire_aside, self._aside_jobs)

    def _retire_aside(self, jobs: int) -> None:
        """Stop the `aside` worker if no job was sent to it since the ``jobs``-th (its memory back)."""
        if jobs == self._aside_jobs and self._aside_pool is not None:
            self._drop_aside(self._aside_pool)

    def _drop_aside(self, pool: ProcessPoolExecutor, *, cancel: bool = False) -> None:
        """Shut the `aside` lane's ``pool`` down; the next private request starts a fresh one."""
        pool.shutdown(wait=False, cancel_futures=cancel)
        if self._aside_pool is pool:
            self._aside_pool = None

    async def _aside_run(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        for attempt in (1, 2):
            if self._aside_pool is None:
                self._aside_pool = self._new_pool(ASIDE_NICENESS)
            pool = self._aside_pool
            try:
                job = functools.partial(fn, *args, **kwargs)
                result = await asyncio.wrap_future(pool.submit(run_job, job))
                if self._over_budget(pool):
                    self._drop_aside(pool)
                return result
            except BrokenProcessPool:
                log.warning("The worker of private requests died; starting another")
                self._drop_aside(pool, cancel=True)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        return await self.call_near(None, fn, *args, **kwargs)

    async def idle(self, key: int, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` on ``key``'s worker, once it is warm and free and no other job
        waits (see the module docstring); not tried again if that worker dies."""
        job = _Job(key, functools.partial(fn, *args, **kwargs), asyncio.get_running_loop().create_future())
        job.idle = True
        self._idle.append(job)
        self._dispatch()
        result: T = await job.done
        return result

    async def call_near(self, key: int | None, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` in a worker: the worker of ``key`` when it is free (None: any)."""
        job = _Job(key, functools.partial(fn, *args, **kwargs), asyncio.get_running_loop().create_future())
        self._waiting.append(job)
        self._dispatch()
        result: T = await job.done
        return result

    def _home(self, job: _Job) -> int | None:
        """The worker of ``job``'s key. Keys are spread by Fibonacci hashing, evenly whatever
        their pattern: a process of a sharded bot may see only every other game id."""
        return None if job.key is None else (job.key * FIBONACCI % 2**64) * self.processes >> 64

    def _dispatch(self) -> None:
        """Start waiting jobs on the free workers; then, if none waits, `idle` jobs on theirs."""
        for queue in (self._waiting, self._idle):
            for gone in [j for j in queue if j.done.done()]:  # given up by their caller
                queue.remove(gone)
        while self._waiting:
            free = [w for w, busy in enumerate(self._busy) if not busy]
            taken = next(((w, job) for w in free if (job := self._take(w, free)) is not None), None)
            if taken is None:
                return
            self._start(*taken)
        for worker in range(self.processes):
            if self._busy[worker] or not self._ready[worker]:
                continue
            job = next((j for j in self._idle if self._home(j) == worker), None)
            if job is not None:
                self._idle.remove(job)
                self._start(worker, job)

    def _take(self, worker: int, free: list[int]) -> _Job | None:
        """The job the free ``worker`` takes: the first of the next few meant for it, else the
        oldest, unless that one's own worker is free too (it takes it)."""
        ahead = list(itertools.islice(self._waiting, LOOK_AHEAD))
        job = next((j for j in ahead if self._home(j) == worker), None)
        if job is None:
            home = self._home(ahead[0])
            if home is not None and home in free:
                return None
            job = ahead[0]
        self._waiting.remove(job)
        return job

    def _start(self, worker: int, job: _Job) -> None:
        self._busy[worker] = True
        if job.key is not None and not job.idle:
            self.keyed += 1
            self.near += self._home(job) == worker
        try:
            try:
                running = self._pools[worker].submit(run_job, job.call)
            except BrokenProcessPool:  # it died while it had nothing to do
                log.warning("A worker process died while it was idle; starting another")
                self._renew(worker, cancel=True)
                running = self._pools[worker].submit(run_job, job.call)
        except Exception as error:  # no worker could be started, or the workers were closed
            self._busy[worker] = False
            job.done.set_exception(error)
            return
        loop = job.done.get_loop()

        def report(done: Future[Any]) -> None:  # in the pool's thread
            with contextlib.suppress(RuntimeError):  # the event loop has closed: nobody waits
                loop.call_soon_threadsafe(self._finished, worker, job, done)

        running.add_done_callback(report)

    def _finished(self, worker: int, job: _Job, done: Future[Any]) -> None:
        self._busy[worker] = False
        self._ready[worker] = True
        if done.cancelled():
            job.done.cancel()
        elif isinstance(error := done.exception(), BrokenProcessPool) and not job.retried and not job.idle:
            log.warning("A worker process died while running a job; the job is tried once more")
            self._renew(worker, cancel=True)
            job.retried = True
            self._waiting.appendleft(job)
        elif not job.done.done():
            if error is not None:
                job.done.set_exception(error)
            else:
                job.done.set_result(done.result())
        if self._over_budget(self._pools[worker]):
            log.info("A worker passed its memory budget of %s MiB; starting a fresh one", self.memory)
            self.replaced += 1
            self._renew(worker, warm=True)
        self.finished += 1
        if self.finished % OWN_TRIM_EVERY == 0:
            trim_heap()  # this process's: the results it took in (pictures) were freed meanwhile
        self._dispatch()

    def _over_budget(self, pool: ProcessPoolExecutor) -> bool:
        """Whether ``pool``'s worker holds more memory than the budget (never without one)."""
        if self.memory is None:
            return False
        rss = max((rss_mib(pid) or 0.0 for pid in (pool._processes or {})), default=0.0)
        return rss > self.memory

    def _renew(self, worker: int, *, cancel: bool = False, warm: bool = False) -> None:
        """A fresh worker in place of ``worker`` (dead: ``cancel`` what its pool still held; past
        its budget: ``warm`` the new one now, so the next job waits for the warm-up at most once)."""
        self._pools[worker].shutdown(wait=False, cancel_futures=cancel)
        self._pools[worker] = self._new_pool()
        self._spawned.pop(worker, None)
        self._ready[worker] = False
        if warm:
            self._watch_warm(worker)

    def _watch_warm(self, worker: int) -> asyncio.Future[int]:
        """Warm ``worker`` now (its first job, a trivial one, waits for its start-up); once it is
        done the worker takes `idle` jobs."""
        pool = self._pools[worker]
        early = self._spawned.pop(worker, None)
        warmed = asyncio.wrap_future(early if early is not None else pool.submit(os.getpid))

        def ready(_: object) -> None:
            if self._pools[worker] is pool and not self._busy[worker]:
                self._ready[worker] = True
                self._dispatch()

        warmed.add_done_callback(ready)
        return warmed

    def queued(self) -> int:  # the jobs waiting for a worker (`call_near`'s; not `idle` nor `aside`)
        return sum(not job.done.done() for job in self._waiting)

    def pids(self) -> list[int]:
        """The worker processes' ids (those started so far; the `aside` lane's last)."""
        pools = [*self._pools, *([self._aside_pool] if self._aside_pool else [])]
        return [pid for pool in pools for pid in (pool._processes or {})]

    def spawn(self) -> None:
        """Start every worker's process now, before there is an event loop (``python -m bot`` calls
        it before it imports discord.py, so the workers warm meanwhile); `start` waits for them."""
        self._spawned = {w: pool.submit(os.getpid) for w, pool in enumerate(self._pools)}

    async def start(self) -> None:
        """Start every worker now (each imports the engine and warms up), or those `spawn` started."""
        await asyncio.gather(*(self._watch_warm(w) for w in range(self.processes)))

    def close(self) -> None:
        """Stop every worker now, even one still warming (they start while the bot logs in: a bot
        that stops at once, a token refused, must not wait for them) or running a job (nobody will
        read its result)."""
        pools = [*self._pools, *([self._aside_pool] if self._aside_pool else [])]
        threads: list[threading.Thread | None] = [getattr(p, "_executor_manager_thread", None) for p in pools]
        for pool in pools:
            processes = list((pool._processes or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
        for job in (*self._waiting, *self._idle):
            job.done.cancel()
        self._waiting.clear()
        self._idle.clear()
        deadline = time.monotonic() + CLOSE_WAIT
        for thread in threads:  # each pool's thread sees its worker gone and closes its pipes
            if thread is not None:
                thread.join(max(0.0, deadline - time.monotonic()))


CLOSE_WAIT = 5.0
"""Seconds `ProcessWorkers.close` waits for its pools' threads to end: one still running when the
interpreter exits may close its wake-up pipe while Python's exit hook writes to it (Python 3.11's
``concurrent.futures`` checks, then writes, unlocked), which prints a traceback at every stop."""
ASIDE_IDLE = 30.0
"""Seconds without a job after which the `aside` worker is stopped: it holds as much memory as a
game's worker, for requests that come seldom (a replay when a game ends, a member's full board or
hint), so it is given back soon; the next request starts it again in a third of a second of CPU
(it warms as a game's worker does and draws the rest of what its job needs: a full board's
tiles, a quarter of a second more)."""
ASIDE_NICENESS = 19
"""The `aside` worker's niceness, the highest: where it and a game's worker (`WORKER_NICENESS`) both
want the CPU, Linux gives it about a twentieth of that worker's share."""
OWN_TRIM_EVERY = 64
"""Jobs between two trims of the bot process's own heap (`worker_start.trim_heap`): it takes in
every job's result (a post's pictures, up to a few MB) and frees it once sent, in the heaps of
several threads; untrimmed, it crept up by a third over a ten-minute soak while the objects it
held did not grow (tracemalloc)."""
LOOK_AHEAD = 4
"""How far down the waiting jobs a free worker looks for one meant for it: jobs start at most
a few places out of turn."""
FIBONACCI = 0x9E3779B97F4A7C15
"""2**64 divided by the golden ratio (made odd): a key times it, modulo 2**64, falls evenly
over the range; its top bits pick the worker."""


@dataclass(eq=False)
class _Job:
    key: int | None
    call: Callable[[], Any]
    done: asyncio.Future[Any]
    retried: bool = False
    idle: bool = False
    """An `idle` job: it starts only on its key's worker, when no other job waits."""
