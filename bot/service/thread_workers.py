"""`ThreadWorkers`: the workers' calls (`bot.service.workers.Workers`) run in threads of the bot's own
process — for the smallest hosts (``CITTA_WORKERS=0``), tests with an injected renderer and one-off
tools."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any, TypeVar

from bot.service.worker_start import run_job

T = TypeVar("T")


class ThreadWorkers:
    """Runs each call in a thread of the default executor (the `aside` lane: one at a time)."""

    _aside: asyncio.Lock | None = None
    _idle: asyncio.Lock | None = None
    _queued = 0

    def queued(self) -> int:  # the `aside` and `idle` calls waiting for their turn (a call starts at once)
        return self._queued

    async def _lane(self, lock: asyncio.Lock, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        self._queued += 1
        try:
            await lock.acquire()
        finally:
            self._queued -= 1
        try:
            return await self.call(fn, *args, **kwargs)
        finally:
            lock.release()

    async def call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        return await asyncio.to_thread(run_job, functools.partial(fn, *args, **kwargs))

    async def call_near(self, key: int | None, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        return await self.call(fn, *args, **kwargs)

    async def aside(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        self._aside = self._aside or asyncio.Lock()
        return await self._lane(self._aside, fn, *args, **kwargs)

    async def idle(self, key: int, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """One at a time, in a thread (threads have no priority: this is the best they can do)."""
        self._idle = self._idle or asyncio.Lock()
        return await self._lane(self._idle, fn, *args, **kwargs)

    def close(self) -> None:
        return None
