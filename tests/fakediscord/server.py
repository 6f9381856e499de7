"""The fake Discord on loopback: REST routes and the gateway websocket, on aiohttp."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from . import payloads
from .gateway import Gateway, Session
from .payloads import EPHEMERAL, LOADING, DiscordError, error_body, json_response, read_body
from .state import Command, FakeChannel, FakeMessage, InteractionRecord, Store

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
        self.error_responses: list[tuple[str, str, int, str]] = []  # (method, path, status, body)
        self.internal_errors: list[str] = []
        self._timers: dict[int, asyncio.TimerHandle] = {}
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

    async def start(self) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self._runner = web.AppRunner(self.app, handle_signals=False, shutdown_timeout=0.5)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()

    async def stop(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
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
            ("POST", "/interactions/{interaction}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app}/{token}", self._followup),
            ("GET", "/webhooks/{app}/{token}/messages/{message}", self._webhook_message),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}", self._webhook_message),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message}", self._webhook_message),
            ("GET", "/channels/{channel}", self._get_channel),
            ("POST", "/channels/{channel}/typing", self._typing),
            ("POST", "/channels/{channel}/messages", self._create_message),
            ("GET", "/channels/{channel}/messages/{message}", self._channel_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self._channel_message),
            ("DELETE", "/channels/{channel}/messages/{message}", self._channel_message),
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

    # --- helpers -------------------------------------------------------------------------------------

    def _channel(self, request: web.Request) -> FakeChannel:
        ch = self.store.channels.get(int(request.match_info["channel"]))
        if ch is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return ch

    def _check(self, body: dict[str, Any], files: list[tuple[str, bytes]], *, partial: bool = False) -> None:
        problem = payloads.check_message(body, len(files), partial=partial)
        if problem is not None:
            raise DiscordError.from_body(400, problem)

    # --- REST: identity, DMs, commands -----------------------------------------------------------------

    async def _get_gateway(self, request: web.Request) -> web.StreamResponse:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.gateway_url, "shards": 1, "session_start_limit": limit})

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
        if u is None or int(request.match_info["guild"]) != self.store.guild_id:
            raise DiscordError(404, 10007, "Unknown Member")
        return json_response(payloads.member(u))

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
        if guild is not None and int(guild) != self.store.guild_id:
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

    # --- REST: channel messages ----------------------------------------------------------------------

    async def _get_channel(self, request: web.Request) -> web.StreamResponse:
        return json_response(payloads.channel(self._channel(request)))

    async def _typing(self, request: web.Request) -> web.StreamResponse:
        self._channel(request)
        return web.Response(status=204)

    async def _create_message(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        body, files = await read_body(request)
        if ch.recipient is not None and ch.recipient.dms_closed:
            raise DiscordError(403, 50007, "Cannot send messages to this user")
        self._check(body, files)
        msg = self.store.create_message(ch, body, files, flags=(body.get("flags") or 0) & ~EPHEMERAL)
        return json_response(payloads.message(msg))

    async def _channel_message(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        msg = self.store.messages.get(int(request.match_info["message"]))
        if msg is None or msg.channel is not ch or msg.deleted or msg.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message")
        if request.method == "GET":
            return json_response(payloads.message(msg))
        if msg.author is not self.store.bot:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        return await self._edit_or_delete(request, msg)

    async def _edit_or_delete(self, request: web.Request, msg: FakeMessage) -> web.StreamResponse:
        if request.method == "DELETE":
            msg.deleted = True
            self.store.changed()
            return web.Response(status=204)
        body, files = await read_body(request)
        self._check(body, files, partial=True)
        self.store.apply_edit(msg, body, files)
        return json_response(payloads.message(msg))

    async def _download(self, request: web.Request) -> web.StreamResponse:
        att = self.store.attachments.get(int(request.match_info["attachment"]))
        if att is None or att.filename != request.match_info["filename"]:
            return web.Response(status=404, text="Not Found")
        return web.Response(body=att.data, headers={"Content-Type": att.content_type})

    # --- REST: interaction responses and webhooks -------------------------------------------------------

    def watch(self, rec: InteractionRecord) -> None:
        """Start the 3-second clock: an interaction without an initial response by then has failed."""
        self.store.interactions[rec.id] = rec
        self.store.webhook_tokens[rec.token] = rec
        self._timers[rec.id] = asyncio.get_running_loop().call_later(self.ack_timeout, self._expire, rec)

    def _expire(self, rec: InteractionRecord) -> None:
        self._timers.pop(rec.id, None)
        if rec.response_type is None:
            log.warning("fake discord: interaction %s got no response in %ss", rec.id, self.ack_timeout)
            rec.failed = True
            self.failed_interactions.append(rec)
            self.store.changed()

    async def _callback(self, request: web.Request) -> web.StreamResponse:
        rec = self.store.interactions.get(int(request.match_info["interaction"]))
        if rec is None or rec.token != request.match_info["token"]:
            raise DiscordError(404, 10062, "Unknown interaction")
        body, files = await read_body(request)
        try:
            return self._respond(rec, body, files)
        except DiscordError as e:
            rec.errors.append(e.body)
            self.store.changed()
            raise

    def _respond(
        self, rec: InteractionRecord, body: dict[str, Any], files: list[tuple[str, bytes]]
    ) -> web.Response:
        if rec.failed:
            raise DiscordError(404, 10062, "Unknown interaction")
        if rec.response_type is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        kind, data = int(body.get("type", 0)), body.get("data") or {}
        # pong (1) answers only PING interactions, which come over HTTP, never through the gateway
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}[rec.type]
        if kind not in allowed:
            raise DiscordError(
                400, 50035, f"Invalid Form Body: response type {kind} to interaction type {rec.type}"
            )
        if kind in (4, 7):
            self._check(data, files, partial=kind == 7)
        if kind == 8 and (problem := payloads.check_choices(data.get("choices", []))) is not None:
            raise DiscordError.from_body(400, problem)
        timer = self._timers.pop(rec.id, None)
        if timer is not None:
            timer.cancel()
        rec.response_type = kind
        st, msg = self.store, None
        msg_type = 20 if rec.type == 2 else 0
        if kind == 4:
            msg = st.create_message(rec.channel, data, files, interaction=rec, type=msg_type)
        elif kind == 5:
            flags = LOADING | ((data.get("flags") or 0) & EPHEMERAL)
            msg = st.create_message(rec.channel, {}, [], interaction=rec, flags=flags, type=msg_type)
        elif kind in (6, 7):
            msg = rec.message
            if kind == 7 and msg is not None:
                st.apply_edit(msg, data, files)
        elif kind == 8:
            rec.choices = data.get("choices", [])
        elif kind == 9:
            rec.modal = data
        rec.original = msg
        st.changed()
        answer: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        resource: dict[str, Any] = {"type": kind}
        if msg is not None:
            answer |= {"response_message_id": str(msg.id), "response_message_loading": msg.loading}
            answer["response_message_ephemeral"] = msg.ephemeral
            resource["message"] = payloads.message(msg)
        return json_response({"interaction": answer, "resource": resource})

    def _webhook(self, request: web.Request) -> InteractionRecord:
        rec = self.store.webhook_tokens.get(request.match_info["token"])
        if rec is None or int(request.match_info["app"]) != rec.application_id or rec.response_type is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        return rec

    async def _followup(self, request: web.Request) -> web.StreamResponse:
        rec, st = self._webhook(request), self.store
        body, files = await read_body(request)
        self._check(body, files)
        first = not rec.followups
        if rec.response_type == 5 and first and rec.original is not None and rec.original.loading:
            msg = rec.original  # Discord turns the first followup after a defer into the deferred message
            st.apply_edit(msg, {"content": None, "embeds": [], "components": [], **body}, files)
        else:
            flags = (body.get("flags") or 0) & EPHEMERAL
            msg = st.create_message(rec.channel, body, files, interaction=rec, flags=flags)
        rec.followups.append(msg)
        st.changed()
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(payloads.message(msg))
        return web.Response(status=204)

    async def _webhook_message(self, request: web.Request) -> web.StreamResponse:
        rec = self._webhook(request)
        ref = request.match_info["message"]
        if ref == "@original":
            msg = rec.original
        else:
            msg = next(
                (m for m in [rec.original, *rec.followups] if m is not None and m.id == int(ref)), None
            )
        if msg is None or msg.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        if request.method == "GET":
            return json_response(payloads.message(msg))
        return await self._edit_or_delete(request, msg)
