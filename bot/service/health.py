"""What an operator asks of a running bot (its web server's ``/readyz`` and ``/metrics``,
`bot.web`): whether the database answers and the outbox keeps up (`database`, `outbox`), and the
gauges read fresh (`measure`): the outbox's backlog and its oldest post's age, the games by state,
the worker queue's length.

A check's detail is English for the operator, as the log is (no player reads it), and holds
counts and seconds only: no game, channel, name or error text (an error's text may name a host
or a query), only the error's kind.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from bot.service.context import Context
from bot.storage.rows import Backlog

log = logging.getLogger(__name__)
ANSWER_WAIT = 3.0
"""Seconds the database has to answer a check (a server that is gone may not even refuse)."""


@dataclass(frozen=True)
class Check:
    """One readiness check: its name, whether it passed, a detail for the operator, its figures."""

    name: str
    ok: bool
    detail: str
    figures: dict[str, int] = field(default_factory=dict)


async def database(ctx: Context) -> Check:
    """Whether the database answers a query (the schema's version) within `ANSWER_WAIT`."""
    try:
        await asyncio.wait_for(ctx.storage.schema_version(), ANSWER_WAIT)
    except Exception as e:
        return Check("database", False, f"no answer ({type(e).__name__})")
    return Check("database", True, "answers")


async def outbox(ctx: Context, limit: int) -> Check:
    """Whether the oldest post waiting to be sent (of this process's servers) waits ``limit``
    seconds or less (see `OutboxProtocol.backlog` for the posts that do not count)."""
    try:
        backlog = await _backlog(ctx)
    except Exception as e:
        return Check("outbox", False, f"not read ({type(e).__name__})", {"limit_seconds": limit})
    age = _age(ctx, backlog)
    figures = {"posts": backlog.posts, "oldest_seconds": age, "limit_seconds": limit}
    if age > limit:
        return Check("outbox", False, f"the oldest post waits for {age} s, more than {limit} s", figures)
    return Check("outbox", True, f"{backlog.posts} post(s) waiting, the oldest for {age} s", figures)


async def _backlog(ctx: Context) -> Backlog:
    backlog = await asyncio.wait_for(ctx.storage.outbox.backlog(ctx.shards), ANSWER_WAIT)
    ctx.metrics.outbox_backlog.set(backlog.posts)
    ctx.metrics.outbox_oldest.set(_age(ctx, backlog))
    return backlog


def _age(ctx: Context, backlog: Backlog) -> int:
    return 0 if backlog.oldest is None else max(0, ctx.now() - backlog.oldest)


async def measure(ctx: Context) -> None:
    """Read the gauges (`bot.metrics`) fresh: the outbox, the games by state (of this process's
    servers), the worker queue. When the database does not answer, the outbox's and the games'
    gauges keep their last values (and ``/readyz`` says why)."""
    ctx.metrics.worker_queue.set(ctx.workers.queued())
    try:
        await _backlog(ctx)
        states = await asyncio.wait_for(ctx.storage.games.by_state(ctx.shards), ANSWER_WAIT)
    except Exception as e:
        log.debug("The metrics were not read from the database (%s)", type(e).__name__)
        return
    ctx.metrics.games.clear()
    for state, games in states.items():
        ctx.metrics.games.labels(state=state).set(games)
