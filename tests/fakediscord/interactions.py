"""Interaction REST routes: the initial response (callback), followups and edits through the webhook.

Discord's rules: an interaction must get its initial response within ``ack_timeout`` (3 s) or it has
failed (10062 "Unknown interaction" afterwards); only one initial response (40060); the response type
must suit the interaction type; the first followup after a deferred response becomes that response.
That last path is deprecated: Discord's "Create Followup Message" says that used right after a
DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE it "will function as Edit Original Interaction Response for backwards
compatibility", that "the ephemeral flag will be ignored" there (the defer's is kept), and that apps
"should use the Edit Original Interaction Response endpoint in this case instead": the fake does what
Discord does and lists such interactions in ``followups_as_original`` (`driver.FakeDiscord.check` fails
on them).
A component interaction's UPDATE_MESSAGE (7), or DEFERRED_UPDATE_MESSAGE (6) then PATCH of @original,
edits the message the component is on, ephemeral or not, as any edit does (IS_COMPONENTS_V2 can be set,
not cleared; ``attachments`` lists the kept ones); ``InteractionRecord.updated`` is that message.
Channel permissions, deleted channels and archived threads do not affect these routes (as on Discord,
where the bot answers through the interaction's webhook, not as a channel member).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import payloads
from .components import COMPONENTS_V2
from .models import InteractionRecord
from .payloads import EPHEMERAL, LOADING
from .wire import DiscordError, check, check_choices, json_response, read_body

if TYPE_CHECKING:
    from .server import FakeServer, Handler

log = logging.getLogger(__name__)


class InteractionApi:
    def __init__(self, server: FakeServer) -> None:
        self.server = server
        self.store = server.store

    def routes(self) -> list[tuple[str, str, Handler]]:
        return [
            ("POST", "/interactions/{interaction}/{token}/callback", self.callback),
            ("POST", "/webhooks/{app}/{token}", self.followup),
            ("GET", "/webhooks/{app}/{token}/messages/{message}", self.webhook_message),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}", self.webhook_message),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message}", self.webhook_message),
        ]

    def watch(self, rec: InteractionRecord) -> None:
        """Start the 3-second clock: an interaction without an initial response by then has failed."""
        self.store.interactions[rec.id] = rec
        self.store.webhook_tokens[rec.token] = rec
        self.server.timers[rec.id] = asyncio.get_running_loop().call_later(
            self.server.ack_timeout, self._expire, rec
        )

    def _expire(self, rec: InteractionRecord) -> None:
        self.server.timers.pop(rec.id, None)
        if rec.response_type is None:
            log.warning(
                "fake discord: interaction %s got no response in %ss", rec.id, self.server.ack_timeout
            )
            rec.failed = True
            self.server.failed_interactions.append(rec)
            self.store.changed()

    async def callback(self, request: web.Request) -> web.StreamResponse:
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
        if kind == 4:
            check(data, files)
        elif kind == 7:
            check(data, files, partial=True, current=rec.message)
        if kind == 8 and (problem := check_choices(data.get("choices", []))) is not None:
            raise DiscordError.from_body(400, problem)
        timer = self.server.timers.pop(rec.id, None)
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

    async def followup(self, request: web.Request) -> web.StreamResponse:
        rec, st = self._webhook(request), self.store
        body, files = await read_body(request)
        check(body, files)
        first = not rec.followups
        if rec.response_type == 5 and first and rec.original is not None and rec.original.loading:
            msg = rec.original  # Discord turns the first followup after a defer into the deferred message
            st.apply_edit(msg, {"content": None, "embeds": [], "components": [], **body}, files)
            self.server.followups_as_original.append(rec)
        else:
            flags = (body.get("flags") or 0) & (EPHEMERAL | COMPONENTS_V2)
            msg = st.create_message(rec.channel, body, files, interaction=rec, flags=flags)
        rec.followups.append(msg)
        st.changed()
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(payloads.message(msg))
        return web.Response(status=204)

    async def webhook_message(self, request: web.Request) -> web.StreamResponse:
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
        return await self.server.channel_api.edit_or_delete(request, msg)
