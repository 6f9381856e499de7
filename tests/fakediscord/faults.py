"""Fault injection: answer chosen REST requests with an error instead of handling them, or freeze them.

``fake.fail(method, path_pattern, status, ...)`` makes the next ``times`` requests whose method is
``method`` ("*": any) and whose path below ``/api/v10`` (no query string; e.g.
``/channels/123/messages``) matches the regex ``path_pattern`` *entirely* (`re.fullmatch`) get that
error. Each one served is recorded in ``fake.faults_served``. ``fake.hold(method, path_pattern)``
freezes matching requests before they are handled until ``release()`` (then they are handled, even if
the client is gone by then: Discord got the request) or ``drop()`` (their connections are closed
unanswered: Discord never handled them). A held request is frozen before any fault is looked up.

What discord.py 2.7 does with the answers (``HTTPClient.request`` in discord/http.py for bot routes;
``AsyncWebhookAdapter.request`` in discord/webhook/async_.py for ``/interactions/…`` callbacks and
``/webhooks/…`` followups, which make the same 5 tries):

- 429: sleeps the body's ``retry_after`` and tries again, 5 tries in all, then raises
  ``discord.HTTPException`` (``.status`` 429). With ``global_`` the whole client waits meanwhile. If
  ``retry_after`` exceeds the client's ``max_ratelimit_timeout`` (None by default) it raises
  ``discord.RateLimited`` at once. A 429 without a ``Via`` header is taken for a Cloudflare ban and
  raised at once: the fake sends ``Via: 1.1 google`` as Discord does.
- 500, 502, 504, 524 (webhook routes: any status >= 500): sleeps 1, 3, 5, 7 and 9 s after tries 1 to 5
  and tries again; after the 5th failure (25 s of sleeping) raises ``discord.DiscordServerError``. So
  ``times=1`` costs 1 s and then succeeds, ``times=5`` exhausts the tries. Any other 5xx on a bot
  route (503): ``DiscordServerError`` at once. `launch.scale_discord_sleeps` shortens these sleeps.
- 403: ``discord.Forbidden``; 404: ``discord.NotFound``; other 4xx: ``discord.HTTPException``: at
  once, with ``.status``, ``.code`` (the body's ``code``) and ``.text`` (its ``message``).
- A dropped held request: aiohttp's ``ServerDisconnectedError`` (a ``ClientError``, not retried).
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from aiohttp import web

from .wire import json_response

DEFAULT_RETRY_AFTER = 0.1  # seconds, for a 429 injected without retry_after
Wait = Callable[[Callable[[], Any], float], Awaitable[Any]]


def _matches(rule_method: str, pattern: str, method: str, path: str) -> bool:
    return rule_method in ("*", method) and re.fullmatch(pattern, path) is not None


@dataclass(eq=False)
class Fault:
    """A pending injected error: answers the next ``times`` matching requests."""

    method: str
    pattern: str
    status: int
    code: int = 0
    message: str = ""
    times: int = 1
    retry_after: float | None = None
    global_: bool = False

    def matches(self, method: str, path: str) -> bool:
        return _matches(self.method, self.pattern, method, path)

    def answer(self) -> tuple[dict[str, Any], dict[str, str]]:
        """The JSON body and the headers Discord sends with this error."""
        if self.status != 429:
            phrase = f"{self.status}: {HTTPStatus(self.status).phrase}"
            headers = {} if self.retry_after is None else {"Retry-After": str(math.ceil(self.retry_after))}
            return {"message": self.message or phrase, "code": self.code}, headers
        retry = DEFAULT_RETRY_AFTER if self.retry_after is None else self.retry_after
        body = {
            "message": self.message or "You are being rate limited.",
            "retry_after": retry,
            "global": self.global_,
            "code": self.code,
        }
        headers = {"Retry-After": str(math.ceil(retry)), "Via": "1.1 google"}
        if self.global_:
            return body, headers | {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
        bucket = hashlib.sha1(f"{self.method} {self.pattern}".encode()).hexdigest()[:32]
        return body, headers | {
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + retry:.3f}",
            "X-RateLimit-Reset-After": f"{retry:.3f}",
            "X-RateLimit-Bucket": bucket,
            "X-RateLimit-Scope": "user",
        }


@dataclass(frozen=True)
class ServedFault:
    """An injected error the fake answered: ``path`` is below /api/v10."""

    method: str
    path: str
    status: int
    code: int
    body: dict[str, Any]


@dataclass(eq=False)
class Hold:
    """Freezes matching requests until `release` or `drop`; ``arrived`` lists them as (method, path)."""

    method: str
    pattern: str
    _wait: Wait = field(repr=False)
    _changed: Callable[[], None] = field(repr=False)
    arrived: list[tuple[str, str]] = field(default_factory=list)
    _outcome: asyncio.Future[bool] = field(default_factory=lambda: asyncio.get_running_loop().create_future())

    def matches(self, method: str, path: str) -> bool:
        return _matches(self.method, self.pattern, method, path)

    @property
    def active(self) -> bool:
        return not self._outcome.done()

    async def wait_arrived(self, count: int = 1, timeout: float = 5.0) -> None:
        """Wait until ``count`` requests are (or were) held."""
        await self._wait(lambda: len(self.arrived) >= count, timeout)

    def release(self) -> None:
        """Let the held requests (and later matching ones) be handled."""
        if self.active:
            self._outcome.set_result(True)

    def drop(self) -> None:
        """Close the held requests' connections unanswered; later matching ones pass."""
        if self.active:
            self._outcome.set_result(False)

    async def stop(self, request: web.Request, method: str, path: str) -> bool:
        """Freeze ``request`` until released (True) or dropped (False)."""
        await request.read()  # the client sent it all: handle it even if the client is gone by then
        self.arrived.append((method, path))
        self._changed()
        return await asyncio.shield(self._outcome)


class Faults:
    """The pending faults and holds of a fake server, and the faults it served."""

    def __init__(self, wait: Wait, changed: Callable[[], None]) -> None:
        self._wait, self._changed = wait, changed
        self.pending: list[Fault] = []
        self.served: list[ServedFault] = []
        self.holds: list[Hold] = []

    def fail(self, fault: Fault) -> Fault:
        re.compile(fault.pattern)  # a bad pattern fails here, not in a request
        if fault.times < 1:
            raise ValueError(f"times must be at least 1, not {fault.times}")
        self.pending.append(fault)
        return fault

    def hold(self, method: str, pattern: str) -> Hold:
        re.compile(pattern)
        held = Hold(method.upper(), pattern, self._wait, self._changed)
        self.holds.append(held)
        return held

    async def intercept(self, request: web.Request, path: str) -> web.StreamResponse | None:
        """The injected answer to ``request`` (path below /api/v10), or None to handle it normally."""
        method = request.method
        for held in [h for h in self.holds if h.active and h.matches(method, path)]:
            if not await held.stop(request, method, path):
                if request.transport is not None:
                    request.transport.close()
                return web.Response(status=499)  # never reaches the client
        fault = next((f for f in self.pending if f.matches(method, path)), None)
        if fault is None:
            return None
        fault.times -= 1
        if fault.times == 0:
            self.pending.remove(fault)
        body, headers = fault.answer()
        self.served.append(ServedFault(method, path, fault.status, fault.code, body))
        self._changed()
        return json_response(body, fault.status, headers)

    def close(self) -> None:
        for held in self.holds:
            held.drop()
