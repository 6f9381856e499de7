"""What every request and answer of the web server passes, whatever its path (safe by construction):

- only GET and HEAD: any other method is answered 405 (with ``Allow``), before any handler;
- a rate per client address (`Rate`): past it, 429 with ``Retry-After`` (whole seconds);
- on every answer, errors included: a strict Content-Security-Policy (nothing may load, run or
  frame it; a game's page, `bot.web.page`, may load its own pictures, script and style: `PAGE_CSP`;
  a server's page only its style: `SERVER_CSP`),
  ``X-Content-Type-Options: nosniff``, no referrer, no caching, no server version
  (`HEADERS`);
- no request is logged at INFO (aiohttp's access log is off, see `bot.web.server`): a path may one
  day hold a game page's secret address.

The client address is the connection's peer: behind a reverse proxy that is the proxy, so the
rate then holds for all its clients together (the proxy should limit per address itself; see
docs/deploy.md).

>>> rate = Rate(2, 60.0, clock=iter([0.0, 0.0, 0.0, 30.0]).__next__)
>>> rate.wait("a"), rate.wait("a"), rate.wait("a"), rate.wait("a")
(0, 0, 30, 0)
"""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.typedefs import Middleware

ALLOWED = ("GET", "HEAD")
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Server": "citta",
}
"""Set on every answer (`secure`); ``Server`` in place of aiohttp's, which names its version."""
PAGE_CSP = (
    "default-src 'none'; img-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
"""The policy of a game's page and its files (`bot.web.page`): pictures, scripts, styles and
connections from the bot's own address only, no inline script or style, never framed."""
SERVER_CSP = (
    "default-src 'none'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)
"""The policy of a server's page (`bot.web.server_page`): its style sheet from the bot's own address,
nothing else — no script, no picture, no connection, never framed."""
POLICY: web.RequestKey[str] = web.RequestKey("citta_csp", str)
"""A handler that answers a page sets its policy here (`PAGE_CSP`); every other answer, errors
included, has the strict one of `HEADERS`."""
CLIENTS_KEPT = 10_000
"""Addresses whose rate is remembered; past that, those with their whole allowance back are forgotten
(they lose nothing), so a flood from many addresses cannot fill the memory."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Rate:
    """At most ``requests`` per ``period`` seconds for each client address, as a token bucket: each
    address starts with ``requests`` tokens, a request takes one, and they come back evenly over
    ``period``."""

    def __init__(self, requests: int, period: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.requests = requests
        self.period = period
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        """Per address: the tokens left, and when they were counted."""

    def wait(self, client: str) -> int:
        """Take a token for ``client``: 0 when there was one, else the whole seconds until there is."""
        now = self.clock()
        per_second = self.requests / self.period
        tokens, then = self._buckets.get(client, (float(self.requests), now))
        tokens = min(float(self.requests), tokens + (now - then) * per_second)
        if tokens < 1.0:
            self._buckets[client] = (tokens, now)
            return max(1, math.ceil((1.0 - tokens) / per_second))
        if client not in self._buckets and len(self._buckets) >= CLIENTS_KEPT:
            self._forget(now, per_second)
        self._buckets[client] = (tokens - 1.0, now)
        return 0

    def _forget(self, now: float, per_second: float) -> None:
        full = [c for c, (t, then) in self._buckets.items() if t + (now - then) * per_second >= self.requests]
        for client in full or list(self._buckets)[: len(self._buckets) // 2]:
            del self._buckets[client]


def guards(rate: Rate) -> list[Middleware]:
    """The middlewares, in order: the rate first (a flood of any method is refused cheaply), then
    the method."""

    @web.middleware
    async def limit(request: web.Request, handler: Handler) -> web.StreamResponse:
        wait = rate.wait(request.remote or "")
        if wait:
            raise web.HTTPTooManyRequests(
                text="Too many requests: try again later.\n", headers={"Retry-After": str(wait)}
            )
        return await handler(request)

    @web.middleware
    async def methods(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.method not in ALLOWED:
            raise web.HTTPMethodNotAllowed(
                request.method, ALLOWED, text="Only GET and HEAD are answered here.\n"
            )
        return await handler(request)

    return [limit, methods]


async def secure(request: web.Request, response: web.StreamResponse) -> None:
    """The `HEADERS` on an answer about to be sent (aiohttp's ``on_response_prepare``: errors too),
    with a page's own policy when its handler set one (`POLICY`)."""
    response.headers.update(HEADERS)
    policy = request.get(POLICY)
    if policy is not None:
        response.headers["Content-Security-Policy"] = policy
