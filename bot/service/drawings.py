"""A turn post's pictures, kept in memory until the post is sent, drawn again if they are not.

The pictures of a turn post (four PNGs, about 330 KB) are a pure function of what they are
drawn from: the public view, the last move's hexes, the move in words, the seat to act next
and the language — the post's `Drawing`, stored with it in the outbox (a few KB). So they are
not written to the database: the service draws them before it stores the move, keeps them
here under the drawing's key, and the delivery task takes them from here when it sends the
post. After a restart, or in another process that took the post over, they are not here,
and the delivery task draws them again from the stored drawing: the same pictures.

Writing each post's pictures into the database and deleting them once sent cost, per move,
about 1.5 ms of CPU in SQLite's thread and about 4 ms in PostgreSQL's server and the driver
(`scripts/bench_load.py`), and as much disk traffic as the pictures' size, twice.

Kept pictures are let go when their post is settled (sent, or refused for good) and, past
`KEEP_BYTES`, oldest first (a post that waits long for its channel is drawn again when its
turn comes); the pictures of a move that was not stored (another move got in first, or the
storage failed) are let go at once.
"""

from __future__ import annotations

import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from bot.results import Drawing, Picture

log = logging.getLogger(__name__)

KEEP_BYTES = 48 * 2**20
"""How much picture data is kept at most (about 150 posts)."""

Draw = Callable[[Drawing], Awaitable[tuple[Picture, ...]]]


def new_key() -> str:
    """A key for a new drawing: random, so that pictures of a drawing whose transaction was
    rolled back never stand in for another post's."""
    return secrets.token_hex(8)


class Drawings:
    """The kept pictures, by drawing key, and how to draw them again (``draw``)."""

    def __init__(self, draw: Draw, keep_bytes: int = KEEP_BYTES) -> None:
        self._draw = draw
        self._keep_bytes = keep_bytes
        self._kept: OrderedDict[str, tuple[Picture, ...]] = OrderedDict()
        self._bytes = 0
        self.drawn_again = 0
        """How many posts' pictures were drawn again (not found here)."""

    def keep(self, drawing: Drawing, pictures: tuple[Picture, ...]) -> None:
        """Keep the ``pictures`` drawn from ``drawing`` until its post is sent."""
        if not pictures:
            return
        self.drop(drawing)
        self._kept[drawing.key] = pictures
        self._bytes += _size(pictures)
        while self._bytes > self._keep_bytes and len(self._kept) > 1:
            _key, old = self._kept.popitem(last=False)
            self._bytes -= _size(old)

    async def pictures(self, drawing: Drawing) -> tuple[Picture, ...]:
        """The pictures of ``drawing``: the kept ones, else drawn again (none if that fails:
        the post then goes out without them, as when drawing failed at first)."""
        kept = self._kept.get(drawing.key)
        if kept is not None:
            return kept
        self.drawn_again += 1
        log.info("Drawing the pictures of a stored post again (%s)", drawing.key)
        pictures = await self._draw(drawing)
        self.keep(drawing, pictures)
        return pictures

    def drop(self, drawing: Drawing) -> None:
        """Let go of the pictures of ``drawing`` (its post was settled)."""
        old = self._kept.pop(drawing.key, None)
        if old is not None:
            self._bytes -= _size(old)

    def __len__(self) -> int:
        return len(self._kept)


def _size(pictures: tuple[Picture, ...]) -> int:
    return sum(len(p.data) for p in pictures)
