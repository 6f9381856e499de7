"""`WebServer`: aiohttp's web server in the bot's process, started once (`bot.client.startup.run`,
or a test) and attached to each bot that runs (`WebServer.attach`: a new client at each try to
reach Discord), so ``/healthz`` answers while the bot waits for Discord or its database.

Where it listens: ``CITTA_WEB_HOST`` (default ``127.0.0.1``, this machine only; the Docker image sets
``0.0.0.0``, every interface of the container, so that compose's reverse proxy reaches it — the
container's port is still published nowhere unless the operator asks) and ``CITTA_WEB_PORT``.
``CITTA_WEB_URL`` is the public address a reverse proxy gives it (docs/deploy.md); the operator's
endpoints are not meant to be reached through it.
"""

from __future__ import annotations

import logging

from aiohttp import web

from bot.web.guard import Rate, guards, secure
from bot.web.ops import Ops, Source
from bot.web.page import Pages
from bot.web.server_page import ServerPages
from bot.web.settings import WebSettings

log = logging.getLogger(__name__)


class WebServer:
    """The web server: `start`, `attach` the bot, `stop`."""

    def __init__(self, settings: WebSettings, rate: Rate | None = None) -> None:
        self.settings = settings
        self.ops = Ops(settings.outbox_age)
        self.app = web.Application(middlewares=guards(rate or Rate(settings.rate, 60.0)))
        self.app.on_response_prepare.append(secure)
        self.app.add_routes(self.ops.routes())
        self.pages = Pages()
        self.app.add_routes(self.pages.routes())
        self.app.on_shutdown.append(self.pages.live.close)
        self.servers = ServerPages()
        self.app.add_routes(self.servers.routes())
        self._runner: web.AppRunner | None = None
        self.port = settings.port
        """The port it listens on, once started."""

    def attach(self, source: Source) -> None:
        """Report on ``source`` from now on."""
        self.ops.attach(source)
        self.pages.attach(source)
        self.servers.attach(source)

    async def start(self) -> None:
        """Listen on the host and port (no access log: no request path is logged, see `bot.web.guard`)."""
        runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, self.settings.host, self.settings.port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        sockets = [s for s in runner.addresses if isinstance(s, tuple)]
        if sockets:
            self.port = int(sockets[0][1])
        where = f", reached at {self.settings.url}" if self.settings.url else ""
        log.info("Web server on %s port %d%s", self.settings.host, self.port, where)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
