"""A server's web page (issue 34, point 3): ``GET /s/<token>`` lists the server's running and
finished games that everyone in it may see, each linking its game page, and its leaderboards.

What it lists is the service's (`bot.service.server_page`); which channels everyone may view, the
Discord side's (`Source.public`, from discord.py's cache). Its language as a game page's
(`bot.web.page.language`). An address that opens no page — never made, renewed since, or switched
off — answers 404, the same for each. It has no script: its policy (`SERVER_CSP`) lets it load its
style sheet and nothing else.
"""

from __future__ import annotations

from aiohttp import web

import i18n
from bot.service import server_page
from bot.web import server_html
from bot.web.guard import POLICY, SERVER_CSP
from bot.web.ops import Source
from bot.web.page import language


class ServerPages:
    """The handler, over the bot whose servers it shows (`attach`)."""

    def __init__(self) -> None:
        self.source: Source | None = None

    def attach(self, source: Source) -> None:
        self.source = source

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/s/{token}", self.page)]

    async def page(self, request: web.Request) -> web.Response:
        source = self.source
        ctx = source.opened() if source is not None else None
        if source is None or ctx is None:
            raise web.HTTPServiceUnavailable(text="The bot is starting: try again in a moment.\n")
        guild = await server_page.server_of(ctx, request.match_info["token"])
        if guild is None:
            raise web.HTTPNotFound(text="There is no page at this address.\n")
        request[POLICY] = SERVER_CSP
        code = language(request)
        with i18n.speaking(code):
            shown = await server_page.view(ctx, guild, source.public)
            text = server_html.page(shown, code)
        return web.Response(text=text, content_type="text/html", headers={"Content-Language": code})
