"""The rank roles' part of the storage contract (`bot.storage.protocol`): the roles a server's admins
mapped to a rule (`RankRule`), the (role, member) pairs the bot gave or is about to give or take
(`Grant`), and when each server's holders were last decided (`RankSync`). The service
(`bot.service.ranks`, `bot.service.rank_sync`) decides who should hold what; this part stores the
plan before any Discord call, so that a restart finds what is left to do and the bot only ever takes
a role it gave itself."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from bot.results import Post
from bot.storage.shards import Shards

Rule = Literal["champion", "top", "rating"]
GrantState = Literal["wanted", "putting", "held", "removing"]


@dataclass(frozen=True)
class RankRule:
    """A role of ``guild`` mapped to a ``rule``: ``champion`` (the last season's champion), ``top``
    (places 1 to ``value`` of the running season) or ``rating`` (an all-time rating of at least
    ``value``)."""

    guild: int
    role: int
    rule: Rule
    value: float = 0.0


@dataclass(frozen=True)
class Grant:
    """A role of ``guild`` that the bot gave ``member`` or is about to give or take: ``wanted``
    (decided; whether the member holds it already is not checked yet), ``putting`` (they lacked it:
    the bot gives it), ``held`` (given) or ``removing`` (the bot takes it back)."""

    guild: int
    role: int
    member: int
    state: GrantState


@dataclass(frozen=True)
class RankSync:
    """A server with rank roles: when its holders were last decided (``synced_at``; 0: a rule changed
    since), the last time a game of it ended or a season of it was announced (``changed_at``; 0:
    never), how many grants wait for a Discord call (``pending``), where its admins hear of a refusal
    (``channel``, in ``language``) and since when Discord refuses (``refused_at``; None: it does not)."""

    guild: int
    synced_at: int
    changed_at: int
    pending: int
    channel: int
    language: str
    refused_at: int | None


class RanksProtocol(Protocol):
    """A server's rank roles: the rules, the bot's grants, and when to decide the holders again."""

    async def set_rule(self, rule: RankRule, channel: int, language: str) -> None:
        """Map the role to the rule (replacing its rule), in one transaction with the server's sync
        row: decided again at the next tick, a refusal forgotten (the admins just checked), and the
        admins told in ``channel``, in ``language``, should Discord refuse later."""

    async def drop_rule(self, guild: int, role: int) -> bool:
        """Unmap the role, in one transaction: what the bot gave of it is to be taken back (`held`,
        `putting` → `removing`; `wanted` forgotten) and the holders decided again. False, changing
        nothing, when the role had no rule."""

    async def rules(self, guild: int) -> list[RankRule]:
        """The server's mapped roles, by role id."""

    async def syncs(self, shards: Shards | None = None) -> list[RankSync]:
        """The servers (on ``shards``) with rank roles, or with grants left to take back, by id."""

    async def grants(self, guild: int) -> list[Grant]:
        """The server's grants, by role, then member."""

    async def plan(self, guild: int, wanted: Collection[tuple[int, int]], now: int) -> list[Grant]:
        """Make the grants of ``guild`` match the (role, member) pairs it should give, in one
        transaction: a new pair is `wanted`; a pair no longer wanted is forgotten if `wanted`, else
        `removing`; a `removing` pair wanted again is `putting`. Mark the server decided at ``now``.
        The grants that then wait for a Discord call (all but `held`)."""

    async def settle(self, grant: Grant, state: GrantState | None) -> None:
        """Store what became of ``grant``: its new ``state``, or None to forget it (taken back, or
        not the bot's to give: the member held the role already, or left)."""

    async def refuse(self, guild: int, now: int, posts: Sequence[Post]) -> list[int] | None:
        """Discord refused a change at ``now``: mark the server refused and, if it was not already,
        store ``posts`` (the admins' notice) in the same transaction: their outbox ids. None when it
        was refused already (only the time is updated): the admins are told once."""

    async def accepted(self, guild: int) -> None:
        """Discord made the server's changes: it is not refused any more."""

    async def refused_since(self, guild: int) -> int | None:
        """Since when Discord refuses the server's changes (None: it does not, or no rank roles)."""


def replan(
    grants: Sequence[Grant], wanted: Collection[tuple[int, int]]
) -> tuple[list[tuple[int, int]], list[Grant], list[Grant]]:
    """How `RanksProtocol.plan` changes a server's ``grants`` to give the ``wanted`` (role, member)
    pairs, the same on both backends: the pairs to add as `wanted`, the grants to store with their new
    state, and those to forget."""
    have = {(g.role, g.member): g for g in grants}
    new = sorted(p for p in set(wanted) if p not in have)
    changed: list[Grant] = []
    gone: list[Grant] = []
    for key, g in have.items():
        if key in wanted and g.state == "removing":
            changed.append(Grant(g.guild, g.role, g.member, "putting"))  # it may have been taken: give it
        elif key not in wanted and g.state == "wanted":
            gone.append(g)  # never given
        elif key not in wanted and g.state in ("putting", "held"):
            changed.append(Grant(g.guild, g.role, g.member, "removing"))
    return new, changed, gone
