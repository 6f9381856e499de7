"""The HTTP wire: JSON responses, Discord's error bodies, request bodies, and Discord's checks of what
the bot sends (400 / 50035 "Invalid Form Body", 50006 "Cannot send an empty message"); the checks of
message components are in `components`."""

from __future__ import annotations

import email
import email.policy
import json
from email.message import EmailMessage
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import components

if TYPE_CHECKING:
    from .models import FakeAttachment, FakeMessage

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
#
# Discord nests the errors by path: {"errors": {"embeds": {"0": {"title": {"_errors": [...]}}}}}; discord.py
# flattens them into the exception's text ("In embeds.0.title: Must be 256 or fewer in length.").
#
# With IS_COMPONENTS_V2 (docs, "Create Message": "the message can only contain components. Providing
# content, embeds, sticker_ids, poll, or shared_client_theme will fail with a 400"; "Edit Message": the
# flag "can only be set", and then "any of the used content, embeds, sticker_ids, or poll fields must have
# their values reset to empty") the error is MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2, as
# Discord answers it (quoted in public code). Attachment request objects: ``description`` (alt text) ≤ 1024;
# an ``id`` is a kept attachment's id or the ``n`` of an uploaded ``files[n]`` (docs, "Attachment Object").

LEGACY_FIELDS = ("content", "embeds", "sticker_ids", "poll", "shared_client_theme")


def add_error(errors: dict[str, Any], path: str, code: str, message: str) -> None:
    """Add an error at the dotted ``path`` ("components.0.custom_id") to Discord's nested ``errors``."""
    node = errors
    for part in path.split("."):
        node = node.setdefault(part, {})
    node.setdefault("_errors", []).append({"code": code, "message": message})


def _too_long(errors: dict[str, Any], key: str, value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        add_error(errors, key, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def plan_attachments(
    payload: dict[str, Any], files: list[tuple[str, bytes]], existing: list[FakeAttachment]
) -> list[tuple[FakeAttachment | int | None, str, str | None]] | None:
    """The message's attachments after this create or edit, or None if they do not change: for each, the
    kept attachment or the index of the uploaded file (None: an ``id`` that is neither), its file name and
    description. Without an ``attachments`` list the uploads are appended (docs, "Edit Message")."""
    specs = payload.get("attachments")
    if specs is None:
        if not files:
            return None
        kept: list[tuple[FakeAttachment | int | None, str, str | None]] = [
            (a, a.filename, a.description) for a in existing
        ]
        return kept + [(i, name, None) for i, (name, _) in enumerate(files)]
    out: list[tuple[FakeAttachment | int | None, str, str | None]] = []
    for spec in specs:
        ref = int(spec.get("id", -1))
        old = next((a for a in existing if a.id == ref), None)
        if old is not None:
            out.append((old, old.filename, spec.get("description", old.description)))
        elif 0 <= ref < len(files):
            out.append((ref, str(spec.get("filename") or files[ref][0]), spec.get("description")))
        else:
            out.append((None, str(spec.get("filename", "")), None))
    return out


def check_message(
    payload: dict[str, Any],
    files: list[tuple[str, bytes]],
    *,
    partial: bool = False,
    current: FakeMessage | None = None,
) -> dict[str, Any] | None:
    """The 50035 error body Discord would answer for this message payload (creating a message, or editing
    ``current``), or None if it is valid."""
    errors: dict[str, Any] = {}
    _too_long(errors, "content", payload.get("content"), 2000)
    if payload.get("nonce") is not None:
        _too_long(errors, "nonce", str(payload["nonce"]), 25)
    embeds = payload.get("embeds") or []
    _check_embeds(errors, embeds)
    v2 = bool((payload.get("flags") or 0) & components.COMPONENTS_V2)
    if current is not None:
        v2 = v2 or current.components_v2
    if v2:
        kept: dict[str, Any] = (
            {} if current is None else {"content": current.content, "embeds": current.embeds}
        )
        for key in LEGACY_FIELDS:
            if payload.get(key) if key in payload else kept.get(key):
                add_error(
                    errors,
                    key,
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"The '{key}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                )
    existing = [] if current is None else current.attachments
    plan = plan_attachments(payload, files, existing)
    for i, spec in enumerate(payload.get("attachments") or []):
        _too_long(errors, f"attachments.{i}.description", spec.get("description"), 1024)
        if plan is not None and plan[i][0] is None:
            add_error(errors, f"attachments.{i}.id", "ATTACHMENT_NOT_FOUND", "Unknown attachment id.")
    names = [a.filename for a in existing] if plan is None else [name for _, name, _ in plan]
    if "components" in payload:
        problems = components.check(payload["components"] or [], v2=v2, attachments=names)
        for path, code, message in problems:
            add_error(errors, path, code, message)
    if errors:
        return error_body(50035, "Invalid Form Body", errors)
    if not partial and not (payload.get("content") or embeds or payload.get("components") or files):
        return error_body(50006, "Cannot send an empty message")
    return None


def _check_embeds(errors: dict[str, Any], embeds: list[dict[str, Any]]) -> None:
    if len(embeds) > 10:
        add_error(errors, "embeds", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, e in enumerate(embeds):
        _too_long(errors, f"embeds.{i}.title", e.get("title"), 256)
        _too_long(errors, f"embeds.{i}.description", e.get("description"), 4096)
        fields = e.get("fields", [])
        if len(fields) > 25:
            add_error(errors, f"embeds.{i}.fields", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, f in enumerate(fields):
            _too_long(errors, f"embeds.{i}.fields.{j}.name", f.get("name"), 256)
            _too_long(errors, f"embeds.{i}.fields.{j}.value", f.get("value"), 1024)
            total += len(f.get("name", "")) + len(f.get("value", ""))
        total += len(e.get("title") or "") + len(e.get("description") or "")
    if total > 6000:
        add_error(errors, "embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def check_choices(choices: list[dict[str, Any]]) -> dict[str, Any] | None:
    errors: dict[str, Any] = {}
    if len(choices) > 25:
        add_error(errors, "data.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for i, c in enumerate(choices):
        _too_long(errors, f"data.choices.{i}.name", c.get("name"), 100)
        _too_long(errors, f"data.choices.{i}.value", c.get("value"), 100)
    return error_body(50035, "Invalid Form Body", errors) if errors else None


def check(
    body: dict[str, Any],
    files: list[tuple[str, bytes]],
    *,
    partial: bool = False,
    current: FakeMessage | None = None,
) -> None:
    """Raise the DiscordError Discord answers to this message payload (an edit of ``current``), if invalid."""
    problem = check_message(body, files, partial=partial, current=current)
    if problem is not None:
        raise DiscordError.from_body(400, problem)
