"""The delivery's parts of the storage contract (`bot.storage.protocol`): the outbox, which holds
every announcement until it is sent, and the claims a process holds on background work."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Protocol

from bot.results import Post
from bot.storage.rows import Backlog, OutboxRow
from bot.storage.shards import Shards


class OutboxProtocol(Protocol):
    """The announcements: stored with their change, sent in order per channel, marked as sent."""

    async def enqueue(self, game: int | None, posts: Iterable[Post], now: int) -> list[int]:
        """Store ``posts`` for delivery in a transaction of their own: their outbox ids."""

    async def get(self, outbox_id: int) -> OutboxRow | None:
        """One stored announcement."""

    async def heads(self, shards: Shards | None = None) -> list[OutboxRow]:
        """The oldest pending announcement of each channel (due or not, claimed or not) of the
        servers on ``shards``, by id, without its attached file (``image`` None: the delivery
        task schedules by these; `claim` reads the file). Not a claim: see `claim`."""

    async def backlog(self, shards: Shards | None = None) -> Backlog:
        """How many posts (of the servers on ``shards``) wait to be sent, and since when the oldest
        does: pending ones, due or being tried again later, but not those waiting for a permission
        the server's admins must grant (`MISSING`), nor those held for a channel that is gone (the
        operator can do nothing about either: they do not make the bot unready)."""

    async def head(self, channel: int) -> OutboxRow | None:
        """The oldest pending announcement of one channel (the next to send there)."""

    async def claim(self, channel: int, owner: str, now: int, until: int) -> OutboxRow | None:
        """Claim the channel's next announcement (its oldest pending one) for ``owner`` until
        ``until``, if it is due (``next_try``) and not claimed by another owner until after
        ``now``: the row, or None. Never a later post of the channel while that one is pending."""

    async def trying(self, outbox_id: int, now: int) -> None:
        """The channel post is about to be sent: one attempt more, tried at ``now``."""

    async def dm_done(self, outbox_id: int, index: int, message_id: int) -> None:
        """The ``index``-th DM was sent (``message_id``), cannot be delivered (0), or is being
        sent (minus the time); the other DMs' marks are kept."""

    async def sent(self, outbox_id: int, message_id: int | None, now: int) -> bool:
        """Delivered: state ``sent``, the attached file dropped, the error cleared, and the
        game's channel no longer marked as lacking a permission; whether another post of the
        channel is pending (the delivery then claims it; else its lane may end)."""

    async def retry(self, outbox_id: int, next_try: int, error: str) -> None:
        """Not sent this time: due again at ``next_try`` (the channel's later posts wait), and no
        longer claimed."""

    async def unblock(self, shards: Shards | None = None) -> None:
        """Permissions changed somewhere: the posts (of servers on ``shards``) waiting for one are
        due again at once."""

    async def failed(self, outbox_id: int, error: str) -> None:
        """Discord refused this post for good: state ``failed``, passed over."""

    async def prune(self, before: int) -> int:
        """Forget the posts sent (or refused for good) before ``before`` (epoch seconds), but
        each game's post of its current version (the server's history links to a finished
        game's last post); how many were forgotten. Pending and held posts stay."""

    async def last_posts(self, games: Collection[int]) -> dict[int, tuple[int, int]]:
        """The last message each of ``games`` posted in its channel (an edit does not count), as
        (channel, message id), for the games whose last sent post is still kept (`prune`)."""

    async def hold_channel(self, channel: int, reason: str, now: int) -> list[int]:
        """The channel is gone: its pending posts are held and its open games paused for ``reason``;
        the ids of those this call paused (not those paused already: of two calls at once, for the
        gateway's event and a post's 404, one alone tells the players)."""

    async def release_channel(self, channel: int, now: int) -> list[int]:
        """The channel can be posted in again (a locked thread unlocked): its held posts are due
        at once and its paused games go on, not paused since ``now`` (their ids)."""


class ClaimsProtocol(Protocol):
    """The claims a process holds on clocks and pending announcements, all at once."""

    async def release(self, owner: str) -> None:
        """Give up every claim ``owner`` holds on clocks and pending announcements (it stops); a
        sent announcement keeps the name of the process that sent it."""

    async def take_over(self, slot: str, owner: str) -> None:
        """Free the claims of earlier owners in ``slot`` (``slot#…``, not ``owner``) on clocks and
        pending announcements: a process that starts where one died takes its work over at once
        instead of after the leases."""
