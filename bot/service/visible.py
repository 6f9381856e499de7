"""Who is shown a finished game of a server's history (part of the service layer).

The rule, for every answer that shows a specific finished game to a member who asks (the list of
``/citta games``, ``/citta replay``): a finished game is shown to a member who can view its
channel — Discord's View Channel for that member in that channel, with their roles and the
channel's overwrites; for a game played in a thread, the thread's (its parent's; a private
thread's, which the Discord side decides) — and always to its own players, wherever it was played.
A channel the bot does not know any more (deleted) is viewable by nobody: its games stay with their
players.

A game hidden from the asker is answered exactly as a game that does not exist ("There is no such
game on this server."), so that the answer does not reveal that it exists; a list leaves it out and
is filled with the newest games the asker is shown. Counts over a player's games (``stats``,
``leaderboard``) name no game and are not filtered.

What a member can view is Discord's to say: the Discord side gives a `Viewer` (the member's id and
a question per channel id), the service asks it; no Discord object comes here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Viewer:
    """A member asking about a server's history: their user id and whether they can view a channel
    of the server (by id; False for a channel that is gone)."""

    user_id: int
    can_view: Callable[[int], Awaitable[bool]]

    @classmethod
    def of(cls, user_id: int, channels: Collection[int]) -> Viewer:
        """A viewer who can view exactly ``channels`` (local play, tests)."""

        async def can_view(channel: int) -> bool:
            return channel in channels

        return cls(user_id, can_view)


async def sees(viewer: Viewer, channel: int, players: Iterable[int | None]) -> bool:
    """Whether ``viewer`` is shown a finished game played in ``channel`` by the users ``players``
    (None: a computer or a forgotten player): one of its players always, else whoever can view
    the channel."""
    return viewer.user_id in set(players) or await viewer.can_view(channel)
