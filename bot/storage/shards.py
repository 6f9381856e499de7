"""Several bot processes on one database: which games a process works on (`Shards`), and the
claims it takes on work that must be done once (`Claimant`).

**Shards.** Discord sends a server's events to one shard: ``(guild_id >> 22) % shard_count``
(`shard_of`; direct messages go to shard 0, and so does a game without a server). A process
runs some shards (``CITTA_SHARD_COUNT``, ``CITTA_SHARD_IDS``) and works only on the games of
the servers on them: their clocks, their announcements, their computer players, their replays.
The storage filters its scans with the SQL twin of `shard_of` (`SQLITE_ON_SHARDS`,
`POSTGRES_ON_SHARDS`). ``None`` for shards means every game (one process runs all shards).

**Claims.** A game's clock (its deadlines and reminders) and a channel's next announcement are
claimed before they are worked on, until ``now + lease``: a claim held by another owner until
later is left alone, an expired one is taken over. A process that stops cleanly releases its
claims; one that dies leaves them to expire (`LEASE` seconds), except to its successor in the
same slot (the same host and shards: two processes for the same shards on one host is a
misconfiguration, so a process starting there takes over at once what its predecessor held).

>>> shard_of(81384788769906688, 2), shard_of(None, 4)
(1, 0)
>>> Shards(4, (0, 2)).owns(81384788769906688), str(Shards(4, (0, 2)))
(False, 'shards 0,2 of 4')
"""

from __future__ import annotations

import json
import secrets
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

LEASE = 60
"""Seconds a claim lasts: longer than sending one post takes (discord.py's own retries
included), and how long the work of a process that died waits for another one."""

SQLITE_ON_SHARDS = "(? IS NULL OR ((COALESCE({guild}, 0) >> 22) % ?) IN (SELECT value FROM json_each(?)))"
"""`shard_of` in SQLite: true when the guild column ``{guild}`` is on the shards (`sqlite_params`)."""
POSTGRES_ON_SHARDS = "(${n}::int IS NULL OR ((COALESCE({guild}, 0) >> 22) % ${n}) = ANY(${m}::int[]))"
"""`shard_of` in PostgreSQL, with the count in parameter ``$n`` and the ids in ``$m`` (`postgres_params`)."""


def shard_of(guild: int | None, count: int) -> int:
    """The shard of a server (Discord's formula); shard 0 for a game without a server."""
    return ((guild or 0) >> 22) % count


@dataclass(frozen=True)
class Shards:
    """The shards a process runs: ``ids`` of ``count`` in all."""

    count: int
    ids: tuple[int, ...]

    @classmethod
    def of(cls, count: int | None, ids: Sequence[int] | None) -> Shards | None:
        """The shards of the settings; None when the process runs them all (no count: discord.py
        asks Discord how many and runs every one)."""
        if count is None or ids is None or set(ids) >= set(range(count)):
            return None
        return cls(count, tuple(sorted(set(ids))))

    def owns(self, guild: int | None) -> bool:
        return shard_of(guild, self.count) in self.ids

    def __str__(self) -> str:
        return f"shards {','.join(map(str, self.ids))} of {self.count}"


def sqlite_on_shards(guild: str) -> str:
    """`SQLITE_ON_SHARDS` for the guild column ``guild``."""
    return SQLITE_ON_SHARDS.format(guild=guild)


def postgres_on_shards(guild: str, n: int) -> str:
    """`POSTGRES_ON_SHARDS` for the guild column ``guild``, its parameters from ``$n``."""
    return POSTGRES_ON_SHARDS.format(guild=guild, n=n, m=n + 1)


def sqlite_params(shards: Shards | None) -> tuple[Any, ...]:
    """The parameters of `SQLITE_ON_SHARDS`."""
    if shards is None:
        return None, None, "[]"
    return shards.count, shards.count, json.dumps(list(shards.ids))


def postgres_params(shards: Shards | None) -> tuple[int | None, list[int] | None]:
    """The parameters of `POSTGRES_ON_SHARDS` (count, ids)."""
    return (None, None) if shards is None else (shards.count, list(shards.ids))


@dataclass(frozen=True)
class Claimant:
    """Who takes claims: ``owner`` (unique to this process) in ``slot`` (its host and shards)."""

    slot: str
    owner: str
    lease: int = LEASE

    @classmethod
    def new(cls, shards: Shards | None, lease: int = LEASE) -> Claimant:
        slot = f"{socket.gethostname()} {shards or 'all shards'}"
        return cls(slot, f"{slot}#{secrets.token_hex(6)}", lease)
