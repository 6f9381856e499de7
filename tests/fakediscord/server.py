"""The fake Discord on loopback (aiohttp): the gateway websocket and the REST API v10.

`FakeServer` owns the state (`state.Store`), the gateway (`gateway.Gateway`), the injected faults
(`faults.Faults`) and the REST routes: identity, DMs and commands here, channels in `channels`,
interaction responses in `interactions`, members' roles in `roles`. Every request is recorded in
``requests``; error answers in ``error_responses``; requests to routes the fake lacks in
``unknown_routes`` (answered 404).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from . import payloads
from .channels import ChannelApi
from .faults import Fault, Faults, Hold, ServedFault
from .gateway import Gateway, Session
from .interactions import InteractionApi
from .models import Command, InteractionRecord
from .roles import RoleApi
from .state import Store
from .wire import DiscordError, error_body, json_response, read_body

log = logging.getLogger(__name__)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class FakeServer:
    """Speaks Discord's REST API (v10) and gateway on 127.0.0.1."""

    def __init__(self, token: str = "fake-bot-token", ack_timeout: float = 3.0) -> None:
        self.token = token
        self.ack_timeout = ack_timeout
        self.port = 0
        self.store = Store(lambda: self.http_url)
        self.gateway = Gateway(self)
        self.requests: list[tuple[str, str]] = []
        self.unknown_routes: list[tuple[str, str]] = []
        self.failed_interactions: list[InteractionRecord] = []
        self.followups_as_original: list[InteractionRecord] = []
        """Interactions whose deferred response was completed by a followup (`interactions`: deprecated)."""
        self.error_responses: list[tuple[str, str, int, str]] = []  # (method, path, status, body)
        self.internal_errors: list[str] = []
        self.nonce_window = 300.0  # seconds a nonce sent with enforce_nonce stays unique
        self.recommended_shards = 1  # what GET /gateway/bot answers as "shards"
        self.timers: dict[int, asyncio.TimerHandle] = {}  # interactions' 3-second clocks
        self.faults = Faults(self.store.wait_for, self.store.changed)
        self.channel_api = ChannelApi(self)
        self.interaction_api = InteractionApi(self)
        self.role_api = RoleApi(self)
        self._runner: web.AppRunner | None = None
        self.app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes()

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.http_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    @property
    def sessions(self) -> dict[str, Session]:
        """Gateway sessions by id (connected or resumable)."""
        return self.gateway.sessions

    @property
    def connected(self) -> list[Session]:
        """Gateway sessions with an open websocket: bot processes that are running."""
        return self.gateway.connected

    async def dispatch(self, event: str, data: dict[str, Any]) -> int:
        return await self.gateway.dispatch(event, data)

    # --- faults -------------------------------------------------------------------------------------

    def fail(
        self,
        method: str,
        path_pattern: str,
        status: int,
        *,
        code: int = 0,
        message: str = "",
        times: int = 1,
        retry_after: float | None = None,
        global_: bool = False,
    ) -> Fault:
        """Answer the next ``times`` ``method`` requests whose path below /api/v10 fully matches the regex
        ``path_pattern`` with ``status`` (see `faults` for the bodies and what discord.py does)."""
        fault = Fault(method.upper(), path_pattern, status, code, message, times, retry_after, global_)
        return self.faults.fail(fault)

    def hold(self, method: str, path_pattern: str) -> Hold:
        """Freeze matching requests until ``release()`` (or ``drop()``); ``await wait_arrived()``."""
        return self.faults.hold(method, path_pattern)

    @property
    def faults_served(self) -> list[ServedFault]:
        """The injected errors answered so far, oldest first."""
        return self.faults.served

    def watch(self, rec: InteractionRecord) -> None:
        """Start the 3-second clock: an interaction without an initial response by then has failed."""
        self.interaction_api.watch(rec)

    async def start(self) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self._runner = web.AppRunner(self.app, handle_signals=False, shutdown_timeout=0.5)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()

    async def stop(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        self.faults.close()
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def _add_routes(self) -> None:
        r = self.app.router
        api = "/api/v10"
        r.add_get("/", self.gateway.handle)
        r.add_get("/attachments/{channel}/{attachment}/{filename}", self._download)
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("POST", "/users/@me/channels", self._create_dm),
            ("GET", "/users/{user}", self._get_user),
            ("GET", "/guilds/{guild}/members/{user}", self._get_member),
            ("GET", "/applications/{app}/commands", self._get_commands),
            ("PUT", "/applications/{app}/commands", self._put_commands),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self._get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_commands),
            *self.channel_api.routes(),
            *self.interaction_api.routes(),
            *self.role_api.routes(),
        ]
        for method, path, handler in routes:
            r.add_route(method, api + path, handler)

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        self.requests.append((request.method, request.path))
        response = await self._handle(request, handler)
        if response.status >= 400 and isinstance(response, web.Response) and response.body is not None:
            assert isinstance(response.body, bytes)
            self.error_responses.append(
                (request.method, request.path, response.status, response.body.decode())
            )
        return response

    async def _handle(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            if request.match_info.http_exception is not None:
                raise request.match_info.http_exception
            if request.path.startswith("/api/v10/"):
                injected = await self.faults.intercept(request, request.path.removeprefix("/api/v10"))
                if injected is not None:
                    return injected
            public = ("/api/v10/interactions/", "/api/v10/webhooks/", "/attachments/")
            authorized = request.headers.get("Authorization") == f"Bot {self.token}"
            if request.path.startswith("/api/") and not request.path.startswith(public) and not authorized:
                return json_response({"message": "401: Unauthorized", "code": 0}, 401)
            return await handler(request)
        except DiscordError as e:
            return json_response(e.body, e.status)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            log.warning("fake discord: unknown route %s %s", request.method, request.path)
            self.unknown_routes.append((request.method, request.path))
            return json_response({"message": "404: Not Found", "code": 0}, 404)
        except ValueError:  # e.g. a snowflake that is not a number
            return json_response(error_body(50035, "Invalid Form Body"), 400)
        except Exception as e:  # a bug in the fake: answer 400, not 500 (discord.py retries 5xx for seconds)
            log.exception("fake discord: internal error on %s %s", request.method, request.path)
            self.internal_errors.append(f"{request.method} {request.path}: {e!r}")
            return json_response(error_body(0, f"fake discord internal error: {e!r}"), 400)

    # --- REST: identity, DMs, commands -----------------------------------------------------------------

    async def _get_gateway(self, request: web.Request) -> web.StreamResponse:
        """``GET /gateway``: the URL; ``GET /gateway/bot``: also the recommended shard count (what
        discord.py's AutoShardedClient runs when not told a count) and the session start limit."""
        if not request.path.endswith("/bot"):
            return json_response({"url": self.gateway_url})
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        body = {"url": self.gateway_url, "shards": self.recommended_shards, "session_start_limit": limit}
        return json_response(body)

    async def _get_me(self, request: web.Request) -> web.StreamResponse:
        return json_response(payloads.user(self.store.bot))

    async def _get_application(self, request: web.Request) -> web.StreamResponse:
        st = self.store
        app = {
            "id": str(st.application_id),
            "name": st.bot.name,
            "description": "",
            "icon": None,
            "bot_public": False,
            "bot_require_code_grant": False,
            "owner": payloads.user(st.members[0]),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "summary": "",
            "interactions_endpoint_url": None,
        }
        return json_response(app)

    async def _get_user(self, request: web.Request) -> web.StreamResponse:
        u = self.store.user(int(request.match_info["user"]))
        if u is None:
            raise DiscordError(404, 10013, "Unknown User")
        return json_response(payloads.user(u))

    async def _get_member(self, request: web.Request) -> web.StreamResponse:
        u = self.store.user(int(request.match_info["user"]))
        guild = self.store.guilds.get(int(request.match_info["guild"]))
        if u is None or guild is None:
            raise DiscordError(404, 10007, "Unknown Member")
        return json_response(payloads.member(u, roles=guild.member_role_ids(u.id)))

    async def _create_dm(self, request: web.Request) -> web.StreamResponse:
        body, _ = await read_body(request)
        u = self.store.user(int(body.get("recipient_id", 0)))
        if u is None or u.bot:
            raise DiscordError(400, 50035, "Invalid Form Body", {"recipient_id": {"_errors": []}})
        return json_response(payloads.channel(self.store.dm_channel(u)))

    def _scope(self, request: web.Request) -> int | None:
        if int(request.match_info["app"]) != self.store.application_id:
            raise DiscordError(403, 50001, "Missing Access")
        guild = request.match_info.get("guild")
        if guild is not None and int(guild) not in self.store.guilds:
            raise DiscordError(403, 50001, "Missing Access")
        return None if guild is None else int(guild)

    async def _get_commands(self, request: web.Request) -> web.StreamResponse:
        scope, st = self._scope(request), self.store
        return json_response(
            [c.to_dict(st.application_id) for c in st.commands.values() if c.guild_id == scope]
        )

    async def _put_commands(self, request: web.Request) -> web.StreamResponse:
        scope, st = self._scope(request), self.store
        body, _ = await read_body(request)
        old = {k: c for k, c in st.commands.items() if k[0] == scope}
        for key in old:
            del st.commands[key]
        for data in body:
            key = (scope, data["name"])
            # Discord keeps a command's id when the bot overwrites it with the same name.
            cmd_id = old[key].id if key in old else payloads.snowflake()
            st.commands[key] = Command(cmd_id, scope, data)
        st.changed()
        return json_response(
            [c.to_dict(st.application_id) for c in st.commands.values() if c.guild_id == scope]
        )

    async def _download(self, request: web.Request) -> web.StreamResponse:
        att = self.store.attachments.get(int(request.match_info["attachment"]))
        if att is None or att.filename != request.match_info["filename"]:
            return web.Response(status=404, text="Not Found")
        return web.Response(body=att.data, headers={"Content-Type": att.content_type})
