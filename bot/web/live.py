"""A game page's live updates: ``GET /g/<token>/events``, server-sent events.

**Decision** (how a move is noticed): one `Watcher` per page token, shared by all its listeners,
reads the game every `INTERVAL` seconds and tells them when its version changed — so a move
reaches every open page within about half a second whichever process stored it (several shards,
or a move made while the page's process was busy), at one small query per watched game, however
many watch it. A listener is told at once what the watcher last saw (a move made between the
page's answer and its events' connection is not missed).

An event says only how many moves the game has and whether it is over (``move``), or that the
address no longer opens it (``gone``: renewed): nothing a spectator could not see.

**Decision** (the work per move with many viewers): the watcher writes each event's bytes once
(`frame`) and hands the same bytes to every listener, which only writes them: with 1,000 open
connections to one game, encoding the event per connection cost the bot's event loop up to
0.4 s at each move (`scripts/bench_web.py`; figures in docs/deploy.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable

from aiohttp import web

from bot.service.context import Context

log = logging.getLogger(__name__)

INTERVAL = 0.5
"""Seconds between two reads of a watched game."""
KEEP_ALIVE = 15.0
"""Seconds of quiet after which a comment line is sent (proxies close idle connections)."""
GONE = "gone"
Note = bytes | None
"""What a listener is told: an event's bytes as they are sent (`frame`), or None: the stream ends."""


def frame(note: dict[str, object]) -> bytes:
    """An event as server-sent events write it: ``event: move`` (or `GONE`) and its data.

    >>> frame({"count": 3, "over": False})
    b'event: move\\ndata: {"count": 3, "over": false}\\n\\n'
    """
    kind = str(note.get("event", "move"))
    data = json.dumps({k: v for k, v in note.items() if k != "event"})
    return f"event: {kind}\ndata: {data}\n\n".encode()


GONE_FRAME = frame({"event": GONE})


class Watcher:
    """Reads one page's game every `INTERVAL` seconds while someone listens (`join`)."""

    def __init__(self, ctx: Context, token: str, done: Callable[[str], None]) -> None:
        self.ctx = ctx
        self.token = token
        self.done = done
        self.listeners: set[asyncio.Queue[Note]] = set()
        self.last: Note = None
        self.task = asyncio.create_task(self._watch())

    def join(self) -> asyncio.Queue[Note]:
        queue: asyncio.Queue[Note] = asyncio.Queue()
        if self.last is not None:
            queue.put_nowait(self.last)
        self.listeners.add(queue)
        return queue

    def leave(self, queue: asyncio.Queue[Note]) -> None:
        self.listeners.discard(queue)
        if not self.listeners:
            self.stop()

    def stop(self) -> None:
        self.task.cancel()
        for queue in self.listeners:
            queue.put_nowait(None)
        self.done(self.token)

    async def _watch(self) -> None:
        version: int | None = None
        while True:
            try:
                row = await self.ctx.storage.games.game_by_page(self.token)
            except Exception:  # the database is away: try again, the page stays as it was
                log.warning("A game page's watcher could not read its game", exc_info=True)
                await asyncio.sleep(INTERVAL * 4)
                continue
            if row is None or row.record is None:
                self._tell(GONE_FRAME)
                self.stop()
                return
            if row.version != version:
                version = row.version
                self._tell(frame({"count": len(row.record["moves"]), "over": row.status == "over"}))
            await asyncio.sleep(INTERVAL)

    def _tell(self, note: bytes) -> None:
        self.last = note
        for queue in self.listeners:
            queue.put_nowait(note)


class Live:
    """The watchers of the pages being watched, by token."""

    def __init__(self) -> None:
        self.watchers: dict[str, Watcher] = {}

    def watcher(self, ctx: Context, token: str) -> Watcher:
        if token not in self.watchers:
            self.watchers[token] = Watcher(ctx, token, self._forget)
        return self.watchers[token]

    def _forget(self, token: str) -> None:
        self.watchers.pop(token, None)

    async def close(self, app: web.Application | None = None) -> None:
        """End every stream (the server stops: aiohttp's ``on_shutdown``)."""
        for watcher in list(self.watchers.values()):
            watcher.stop()

    async def stream(self, request: web.Request, ctx: Context, token: str) -> web.StreamResponse:
        """The events of the page ``token`` until the viewer leaves, the address is renewed or the
        server stops."""
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        watcher = self.watcher(ctx, token)
        queue = watcher.join()
        try:
            await response.write(b"retry: 2000\n\n")
            while True:
                try:
                    async with asyncio.timeout(KEEP_ALIVE):  # not `wait_for`: a task per event and viewer
                        note = await queue.get()
                except TimeoutError:
                    await response.write(b": still here\n\n")
                    continue
                if note is None:
                    break
                await response.write(note)
                if note is GONE_FRAME:
                    break
            with contextlib.suppress(ConnectionResetError):
                await response.write_eof()
        except ConnectionResetError:  # the viewer left
            pass
        finally:
            watcher.leave(queue)
        return response
