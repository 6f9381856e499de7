"""Discord JSON objects the fake sends, the HTTP wire format, and Discord's checks of what the bot sends."""

from __future__ import annotations

import itertools
import json
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

if TYPE_CHECKING:
    from .state import FakeAttachment, FakeChannel, FakeMessage, FakeUser

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
ALL_PERMISSIONS = (1 << 51) - 1
# What a member may do in the text channel: view, send, embed, attach, read history, use commands.
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

_counter = itertools.count()


def snowflake() -> int:
    """A fresh, time-ordered Discord snowflake."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


def error_body(code: int, message: str, errors: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if errors:
        body["errors"] = errors
    return body


def user(u: FakeUser) -> dict[str, Any]:
    return {
        "id": str(u.id),
        "username": u.name,
        "global_name": None if u.bot else u.name.title(),
        "discriminator": "0",
        "avatar": None,
        "bot": u.bot,
        "public_flags": 0,
        "flags": 0,
        "verified": True,
        "mfa_enabled": False,
    }


def member(u: FakeUser, *, permissions: int | None = None, with_user: bool = True) -> dict[str, Any]:
    data: dict[str, Any] = {
        "roles": [],
        "nick": None,
        "avatar": None,
        "joined_at": u.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user(u)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def channel(ch: FakeChannel) -> dict[str, Any]:
    if ch.recipient is not None:
        return {
            "id": str(ch.id),
            "type": 1,
            "last_message_id": None,
            "flags": 0,
            "recipients": [user(ch.recipient)],
        }
    return {
        "id": str(ch.id),
        "type": 0,
        "guild_id": str(ch.guild_id),
        "name": ch.name,
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }


def guild_create(
    guild_id: int, name: str, owner: FakeUser, channels: list[FakeChannel], members: list[FakeUser]
) -> dict[str, Any]:
    return {
        "id": str(guild_id),
        "name": name,
        "icon": None,
        "owner_id": str(owner.id),
        "unavailable": False,
        "large": False,
        "member_count": len(members),
        "joined_at": now_iso(),
        "preferred_locale": "en-US",
        "features": [],
        "verification_level": 0,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "system_channel_id": None,
        "afk_channel_id": None,
        "roles": [
            {
                "id": str(guild_id),
                "name": "@everyone",
                "permissions": str(MEMBER_PERMISSIONS),
                "position": 0,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }
        ],
        "emojis": [],
        "stickers": [],
        "channels": [channel(c) for c in channels],
        "threads": [],
        "members": [member(m) for m in members],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def attachment(a: FakeAttachment) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(a.id),
        "filename": a.filename,
        "size": len(a.data),
        "url": a.url,
        "proxy_url": a.url,
        "content_type": a.content_type,
        "flags": 0,
    }
    if a.description is not None:
        data["description"] = a.description
    if a.width is not None:
        data["width"], data["height"] = a.width, a.height
    return data


def message(m: FakeMessage) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(m.id),
        "channel_id": str(m.channel.id),
        "type": m.type,
        "author": user(m.author),
        "content": m.content,
        "embeds": m.embeds,
        "components": m.components,
        "attachments": [attachment(a) for a in m.attachments],
        "flags": m.flags,
        "timestamp": m.timestamp,
        "edited_timestamp": m.edited_timestamp,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "pinned": False,
    }
    if m.channel.guild_id is not None:
        data["guild_id"] = str(m.channel.guild_id)
    if m.interaction is not None:
        rec = m.interaction
        data["webhook_id"] = str(rec.application_id)
        data["application_id"] = str(rec.application_id)
        data["interaction_metadata"] = {
            "id": str(rec.id),
            "type": rec.type,
            "user": user(rec.user),
            "authorizing_integration_owners": {"0": str(m.channel.guild_id or 0)},
        }
    return data


# --- the wire: JSON responses, errors, request bodies ------------------------------------------------


def json_response(body: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py does not parse "application/json; charset=utf-8".
    return web.Response(
        body=dumps(body).encode(), status=status, headers={"Content-Type": "application/json"}
    )


class DiscordError(Exception):
    """Raised by a route handler: answered as Discord's JSON error ``{"code": ..., "message": ...}``."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.body = status, error_body(code, message, errors)

    @classmethod
    def from_body(cls, status: int, body: dict[str, Any]) -> DiscordError:
        err = cls(status, body["code"], body["message"])
        err.body = body
        return err


async def read_body(request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
    """The JSON payload and the uploaded files (``payload_json`` + ``files[n]`` for multipart)."""
    if not request.content_type.startswith("multipart/"):
        raw = await request.read()
        return (json.loads(raw) if raw else {}), []
    body: dict[str, Any] = {}
    files: dict[int, tuple[str, bytes]] = {}
    reader = await request.multipart()
    async for part in reader:
        if not isinstance(part, BodyPartReader):
            raise DiscordError(400, 50035, "Invalid Form Body")
        if part.name == "payload_json":
            body = json.loads(await part.text())
        elif part.name and part.name.startswith("files["):
            data = bytes(await part.read())
            if len(data) > ATTACHMENT_SIZE_LIMIT:
                raise DiscordError(413, 40005, "Request entity too large")
            files[int(part.name[6:-1])] = (part.filename or "unknown", data)
    return body, [files[i] for i in sorted(files)]


# --- checks of what the bot sends: Discord answers 400 / 50035 "Invalid Form Body" -----------------


def _too_long(errors: dict[str, Any], key: str, value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        errors[key] = {
            "_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {limit} or fewer in length."}]
        }


def _check_components(errors: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    if len(rows) > 5:
        errors["components"] = {
            "_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 5 or fewer."}]
        }
    seen: set[str] = set()
    for r, row in enumerate(rows):
        children = row.get("components", [])
        if row.get("type") == 1 and not 1 <= len(children) <= 5:
            errors[f"components.{r}.components"] = {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH"}]}
        for c, comp in enumerate(children):
            where = f"components.{r}.components.{c}"
            cid = comp.get("custom_id")
            if cid is not None:
                _too_long(errors, f"{where}.custom_id", cid, 100)
                if cid in seen:
                    errors[f"{where}.custom_id"] = {"_errors": [{"code": "COMPONENT_CUSTOM_ID_DUPLICATED"}]}
                seen.add(cid)
            _too_long(errors, f"{where}.label", comp.get("label"), 80)
            options = comp.get("options", [])
            if comp.get("type") == 3 and not 1 <= len(options) <= 25:
                errors[f"{where}.options"] = {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH"}]}


def check_message(payload: dict[str, Any], n_files: int, *, partial: bool = False) -> dict[str, Any] | None:
    """The 50035 error body Discord would answer for this message payload, or None if it is valid."""
    errors: dict[str, Any] = {}
    _too_long(errors, "content", payload.get("content"), 2000)
    embeds = payload.get("embeds") or []
    if len(embeds) > 10:
        errors["embeds"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 10 or fewer."}]}
    total = 0
    for i, e in enumerate(embeds):
        _too_long(errors, f"embeds.{i}.title", e.get("title"), 256)
        _too_long(errors, f"embeds.{i}.description", e.get("description"), 4096)
        fields = e.get("fields", [])
        if len(fields) > 25:
            errors[f"embeds.{i}.fields"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH"}]}
        for j, f in enumerate(fields):
            _too_long(errors, f"embeds.{i}.fields.{j}.name", f.get("name"), 256)
            _too_long(errors, f"embeds.{i}.fields.{j}.value", f.get("value"), 1024)
            total += len(f.get("name", "")) + len(f.get("value", ""))
        total += len(e.get("title") or "") + len(e.get("description") or "")
    if total > 6000:
        errors["embeds"] = {"_errors": [{"code": "MAX_EMBED_SIZE_EXCEEDED"}]}
    _check_components(errors, payload.get("components") or [])
    if errors:
        return error_body(50035, "Invalid Form Body", errors)
    if not partial and not (payload.get("content") or embeds or payload.get("components") or n_files):
        return error_body(50006, "Cannot send an empty message")
    return None


def check_choices(choices: list[dict[str, Any]]) -> dict[str, Any] | None:
    errors: dict[str, Any] = {}
    if len(choices) > 25:
        errors["data.choices"] = {
            "_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 25 or fewer."}]
        }
    for i, c in enumerate(choices):
        _too_long(errors, f"data.choices.{i}.name", c.get("name"), 100)
        _too_long(errors, f"data.choices.{i}.value", c.get("value"), 100)
    return error_body(50035, "Invalid Form Body", errors) if errors else None


def interaction(
    *,
    id: int,
    token: str,
    type: int,
    application_id: int,
    data: dict[str, Any],
    user_: FakeUser,
    channel_: FakeChannel,
    message_: FakeMessage | None = None,
) -> dict[str, Any]:
    """An INTERACTION_CREATE payload with everything discord.py 2.7 reads."""
    guild_id = channel_.guild_id
    out: dict[str, Any] = {
        "id": str(id),
        "application_id": str(application_id),
        "type": type,
        "data": data,
        "token": token,
        "version": 1,
        "locale": "en-US",
        "app_permissions": str(MEMBER_PERMISSIONS),
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": {"0": str(guild_id or 0)},
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "channel": channel(channel_),
        "channel_id": str(channel_.id),
    }
    if guild_id is not None:
        out["guild_id"] = str(guild_id)
        out["guild"] = {"id": str(guild_id), "locale": "en-US", "features": []}
        out["guild_locale"] = "en-US"
        out["member"] = member(user_, permissions=MEMBER_PERMISSIONS)
        out["context"] = 0
    else:
        out["user"] = user(user_)
        out["context"] = 1
    if message_ is not None:
        out["message"] = message(message_)
    return out
