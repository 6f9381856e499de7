"""A game's web page (issue 34): ``GET /g/<token>`` (the page, `bot.web.html`), its board
``/g/<token>/board.png?move=K&w=W`` (one of `webpage.WIDTHS`), its live updates
``/g/<token>/events`` (`bot.web.live`), and its script and style under ``/static/``.

What it shows is the service's (`bot.service.webpage`: a spectator's view, never more). Its
language: ``?lang=`` when given, else the browser's (``Accept-Language``), else English. An
address that opens no game — never made, renewed since, or a game not started — answers 404,
the same for each, so an address cannot be told from a guess.
"""

from __future__ import annotations

from importlib import resources

from aiohttp import web

import i18n
from bot.service import webpage
from bot.service.context import Context
from bot.web import html
from bot.web.guard import PAGE_CSP, POLICY
from bot.web.live import Live
from bot.web.ops import Source

STATIC = {"page.js": "text/javascript", "page.css": "text/css"}
"""The page's files (``bot/web/static/``), read once."""


def language(request: web.Request) -> str:
    """``?lang=``, else the first language of ``Accept-Language`` (by its weight) we speak.

    >>> from aiohttp.test_utils import make_mocked_request as asked
    >>> language(asked("GET", "/g/x", headers={"Accept-Language": "pt-BR, fr;q=0.8, de;q=0.9"}))
    'de'
    >>> language(asked("GET", "/g/x?lang=nl", headers={"Accept-Language": "de"})), language(asked("GET", "/"))
    ('nl', 'en')
    """
    wanted: list[tuple[float, str]] = []
    for part in request.headers.get("Accept-Language", "").split(","):
        code, _, weight = part.strip().partition(";q=")
        try:
            wanted.append((float(weight or 1), code.strip()))
        except ValueError:
            continue
    ranked = [code for _, code in sorted(wanted, key=lambda w: -w[0])]
    return i18n.choose(request.query.get("lang"), *ranked)


def whole(request: web.Request, name: str) -> int | None:
    """The whole number ``?name=`` (None: not given); 400 saying so when it is not one."""
    text = request.query.get(name)
    if text is None or text == "":
        return None
    if not text.isdigit() or len(text) > 6:
        raise web.HTTPBadRequest(text=f"{name} must be a whole number, such as {name}=3.\n")
    return int(text)


class Pages:
    """The handlers, over the bot they show the games of (`attach`)."""

    def __init__(self) -> None:
        self.source: Source | None = None
        self.live = Live()
        self.files = {name: (resources.files("bot.web") / "static" / name).read_bytes() for name in STATIC}

    def attach(self, source: Source) -> None:
        self.source = source

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/g/{token}", self.page),
            web.get("/g/{token}/board.png", self.board),
            web.get("/g/{token}/events", self.events),
            web.get("/static/{name}", self.static),
        ]

    def _ctx(self) -> Context:
        ctx = self.source.opened() if self.source is not None else None
        if ctx is None:
            raise web.HTTPServiceUnavailable(text="The bot is starting: try again in a moment.\n")
        return ctx

    async def _game(self, request: web.Request) -> tuple[Context, webpage.Shown]:
        ctx = self._ctx()
        row = await webpage.shown(ctx, request.match_info["token"])
        if row is None:
            raise web.HTTPNotFound(text="There is no game at this address.\n")
        request[POLICY] = PAGE_CSP
        return ctx, row

    async def page(self, request: web.Request) -> web.Response:
        moved = whole(request, "move")
        ctx, row = await self._game(request)
        seats = await ctx.storage.games.seats(row.id)
        code = language(request)
        with i18n.speaking(code):
            spot = await webpage.spot(ctx, row, seats, moved, code)
            text = html.page(spot, request.match_info["token"], code)
        return web.Response(text=text, content_type="text/html", headers={"Content-Language": code})

    async def board(self, request: web.Request) -> web.Response:
        moved, width = whole(request, "move"), whole(request, "w")
        if width not in webpage.WIDTHS:
            sizes = ", ".join(str(w) for w in webpage.WIDTHS)
            raise web.HTTPBadRequest(text=f"w must be one of the widths {sizes}.\n")
        ctx, row = await self._game(request)
        drawn = await webpage.board(ctx, row, moved, width, language(request))
        if drawn is None:
            raise web.HTTPNotFound(text="The board cannot be drawn now.\n")
        return web.Response(body=drawn, content_type="image/png")

    async def events(self, request: web.Request) -> web.StreamResponse:
        ctx, _ = await self._game(request)
        return await self.live.stream(request, ctx, request.match_info["token"])

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound(text="No such file.\n")
        request[POLICY] = PAGE_CSP
        return web.Response(body=self.files[name], content_type=STATIC[name])
