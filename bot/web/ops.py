"""The operator's endpoints:

- ``/healthz``: the process is alive (its event loop answers): always 200 while it runs;
- ``/readyz``: ready to play — logged in to Discord, the database answers, and the oldest post
  waiting in the outbox waits no longer than ``CITTA_READY_OUTBOX_AGE`` seconds — 200 when all
  three hold, else 503; the JSON answer names each check, whether it passed and why (logged in
  but not yet connected, the bot may be drawing its running games ahead: `bot.service.predraw`).
  The two database checks run side by side: a database that is gone costs one `health.ANSWER_WAIT`;
- ``/metrics``: Prometheus' text format (`bot.metrics`), the gauges read fresh (`bot.service.health`).

None of them shows a game, a channel, a name or a secret: counts and seconds only.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from aiohttp import web

from bot.metrics import CONTENT_TYPE, Metrics
from bot.service import health
from bot.service.context import Context


class Source(Protocol):
    """What the web server asks of the bot (`bot.client.bot.CittaBot`), without knowing Discord."""

    metrics: Metrics

    def logged_in(self) -> bool:
        """Logged in to Discord and connected to its gateway."""
        ...

    def holding(self) -> bool:
        """Logged in, and drawing the running games ahead before it connects to the gateway."""
        ...

    def opened(self) -> Context | None:
        """The service's context, once the database is open (None before)."""
        ...

    def public(self, channel: int) -> bool:
        """Whether everyone in its server (@everyone) may view the channel or thread ``channel``, as
        far as the bot knows (a channel it does not know: False). A server's page lists only the
        games of such channels (`bot.service.server_page`)."""
        ...


class Ops:
    """The handlers, over the bot they report on (`attach`: a new one at each try to reach Discord)."""

    def __init__(self, outbox_age: int) -> None:
        self.outbox_age = outbox_age
        self.source: Source | None = None
        self.idle_metrics = Metrics()
        """Shown until a bot is attached (its counters all 0)."""

    def attach(self, source: Source) -> None:
        self.source = source

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/healthz", self.healthz),
            web.get("/readyz", self.readyz),
            web.get("/metrics", self.metrics),
        ]

    async def healthz(self, request: web.Request) -> web.Response:
        return web.json_response({"alive": True})

    async def readyz(self, request: web.Request) -> web.Response:
        source = self.source
        ctx = source.opened() if source is not None else None
        discord = source is not None and source.logged_in()
        detail = "logged in" if discord else "not logged in"
        if source is not None and source.holding():
            detail = "drawing the running games ahead, then connecting"
        checks = [health.Check("discord", discord, detail)]
        if ctx is None:
            checks += [
                health.Check("database", False, "not open yet"),
                health.Check("outbox", False, "not read"),
            ]
        else:
            checks += await asyncio.gather(health.database(ctx), health.outbox(ctx, self.outbox_age))
        ready = all(c.ok for c in checks)
        body = {
            "ready": ready,
            "checks": {c.name: {"ok": c.ok, "detail": c.detail, **c.figures} for c in checks},
        }
        return web.json_response(body, status=200 if ready else 503)

    async def metrics(self, request: web.Request) -> web.Response:
        source = self.source
        ctx = source.opened() if source is not None else None
        if ctx is not None:
            await health.measure(ctx)
        metrics = source.metrics if source is not None else self.idle_metrics
        return web.Response(body=metrics.exposition(), headers={"Content-Type": CONTENT_TYPE})
