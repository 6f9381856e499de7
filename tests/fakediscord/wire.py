"""The HTTP wire: JSON responses, Discord's error bodies, request bodies, and Discord's checks of what
the bot sends (400 / 50035 "Invalid Form Body", 50006 "Cannot send an empty message")."""

from __future__ import annotations

import email
import email.policy
import json
from email.message import EmailMessage
from typing import Any

from aiohttp import web

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


def error_body(code: int, message: str, errors: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if errors:
        body["errors"] = errors
    return body


# --- the wire: JSON responses, errors, request bodies ------------------------------------------------


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # Exactly "application/json": discord.py does not parse "application/json; charset=utf-8".
    return web.Response(
        body=dumps(body).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
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
    """The JSON payload and the uploaded files (``payload_json`` + ``files[n]`` for multipart).

    Parsed from ``request.read()``, which aiohttp keeps: a held request reads its body before it waits,
    so it can still be handled after its client is gone."""
    raw = await request.read()
    if not request.content_type.startswith("multipart/"):
        return (json.loads(raw) if raw else {}), []
    head = f"Content-Type: {request.headers['Content-Type']}\r\n\r\n".encode()
    form = email.message_from_bytes(head + raw, policy=email.policy.HTTP)
    if not isinstance(form, EmailMessage) or not form.is_multipart():
        raise DiscordError(400, 50035, "Invalid Form Body")
    body: dict[str, Any] = {}
    files: dict[int, tuple[str, bytes]] = {}
    for part in form.iter_parts():
        assert isinstance(part, EmailMessage)
        name = str(part.get_param("name", "", header="content-disposition"))
        data = part.get_payload(decode=True)
        assert isinstance(data, bytes)
        if name == "payload_json":
            body = json.loads(data)
        elif name.startswith("files["):
            if len(data) > ATTACHMENT_SIZE_LIMIT:
                raise DiscordError(413, 40005, "Request entity too large")
            files[int(name[6:-1])] = (part.get_filename() or "unknown", data)
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
    if payload.get("nonce") is not None:
        _too_long(errors, "nonce", str(payload["nonce"]), 25)
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


def check(body: dict[str, Any], files: list[tuple[str, bytes]], *, partial: bool = False) -> None:
    """Raise the DiscordError Discord answers to this message payload, if it is not valid."""
    problem = check_message(body, len(files), partial=partial)
    if problem is not None:
        raise DiscordError.from_body(400, problem)
