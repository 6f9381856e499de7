"""Turning a test's ``/citta play move=gold`` into the interaction data Discord would send."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import payloads, perms
from .models import Command, FakeChannel, FakeDiscordError, FakeRole, FakeUser

# option types: 1 subcommand, 2 group, 3 string, 4 integer, 5 boolean, 6 user, 7 channel, 10 number
_CONVERT: dict[int, Callable[[Any], Any]] = {3: str, 4: int, 5: bool, 10: float}
_TYPE_NAMES = {3: "string", 4: "integer", 5: "boolean", 10: "number"}


GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
"""Discord's interaction context types: a server, the DM with the app's bot user, any other private
channel (a group DM, a DM between users)."""
_WHERE = {GUILD: "in a server", BOT_DM: "in a DM with the bot", PRIVATE_CHANNEL: "in a private channel"}


def context_of(channel: FakeChannel, user: FakeUser) -> int:
    """The context type of an interaction by ``user`` in ``channel``."""
    if channel.guild_id is not None:
        return GUILD
    return BOT_DM if channel.recipient is user else PRIVATE_CHANNEL


def check_context(cmd: Command, context: int, installed: bool) -> None:
    """Raise as a Discord client would not offer ``cmd`` there: a command runs only in the contexts
    it lists (``contexts``; unset: servers, and the bot's DM unless ``dm_permission`` is false, and
    private channels for a command that may be installed to users), and in a private channel only if
    it may be installed to users (``integration_types`` has 1) and the user installed the app."""
    types: list[int] = cmd.data.get("integration_types") or [0]
    contexts: list[int] | None = cmd.data.get("contexts")
    if contexts is None:
        contexts = [GUILD, BOT_DM] if cmd.data.get("dm_permission", True) else [GUILD]
        contexts += [PRIVATE_CHANNEL] if 1 in types else []
    if cmd.guild_id is not None:
        contexts = [GUILD]
    if context not in contexts:
        raise FakeDiscordError(f"/{cmd.name} is not offered {_WHERE[context]} (its contexts: {contexts})")
    if context == PRIVATE_CHANNEL and not (1 in types and installed):
        raise FakeDiscordError(
            f"/{cmd.name} runs in a private channel only when installed to the user's account "
            f"(integration_types {types}; installed: {installed})"
        )


def check_permissions(cmd: Command, context: int, member: int) -> None:
    """Raise as Discord does not offer ``cmd`` to a server member who lacks its
    ``default_member_permissions`` (``member``: their permissions in the server, the @everyone role's
    and their role's): an administrator has them all; ``"0"`` is for administrators only; unset (null)
    is for everyone. (The overrides an admin may set in the server's Integrations settings are not
    modelled.)"""
    wanted = cmd.data.get("default_member_permissions")
    if context != GUILD or wanted is None or member & perms.ADMINISTRATOR:
        return
    bits = int(wanted)
    if bits == 0 or member & bits != bits:
        raise FakeDiscordError(f"/{cmd.name} is not offered to a member without permissions {bits}")


def command_data(
    commands: dict[str, Command],
    command: str,
    options: dict[str, Any],
    *,
    focused: str | None,
    channel: FakeChannel | None,
) -> dict[str, Any]:
    """The ``data`` of an INTERACTION_CREATE for ``/command`` with ``options``, checked like a Discord client.

    ``command`` is the full path ("citta play": command citta, subcommand play; groups nest one level
    deeper). With ``focused`` it is an autocomplete: that option's value is sent as typed, marked focused.
    """
    name, *path = command.split()
    cmd = commands.get(name)
    if cmd is None:
        raise FakeDiscordError(f"unknown command /{command}; synced commands: {sorted(commands)}")
    if cmd.guild_id is not None and channel is not None and channel.guild_id != cmd.guild_id:
        where = "in DMs" if channel.guild_id is None else f"in guild {channel.guild_id}"
        raise FakeDiscordError(f"/{name} is a command of guild {cmd.guild_id}, not available {where}")
    specs: list[dict[str, Any]] = cmd.data.get("options", [])
    chain = []  # the group / subcommand specs along the path
    for step in path:
        spec = next((o for o in specs if o["name"] == step and o["type"] in (1, 2)), None)
        if spec is None:
            raise FakeDiscordError(f"/{command}: /{name} has no subcommand {step!r}")
        chain.append(spec)
        specs = spec.get("options", [])
    if any(o["type"] in (1, 2) for o in specs):
        raise FakeDiscordError(f"/{command} needs a subcommand: {[o['name'] for o in specs]}")
    resolved: dict[str, dict[str, Any]] = {}
    leaf = _options(specs, options, focused, resolved, command)
    for spec in reversed(chain):
        leaf = [{"name": spec["name"], "type": spec["type"], "options": leaf}]
    data: dict[str, Any] = {"id": str(cmd.id), "name": name, "type": 1, "options": leaf}
    if cmd.guild_id is not None:
        data["guild_id"] = str(cmd.guild_id)
    if resolved:
        data["resolved"] = resolved
    return data


def _options(
    specs: list[dict[str, Any]],
    given: dict[str, Any],
    focused: str | None,
    resolved: dict[str, dict[str, Any]],
    command: str,
) -> list[dict[str, Any]]:
    """The leaf options payload for ``command``, checked against the synced option specs."""
    by_name = {o["name"]: o for o in specs}
    for name in given:
        if name not in by_name:
            raise FakeDiscordError(f"/{command} has no option {name!r}; it has {sorted(by_name)}")
    missing = [o["name"] for o in specs if o.get("required") and o["name"] not in given]
    if missing and focused is None:
        raise FakeDiscordError(f"/{command} requires {missing}")
    out = []
    for name, value in given.items():
        spec = by_name[name]
        opt: dict[str, Any] = {"name": name, "type": spec["type"]}
        if name == focused:
            if not spec.get("autocomplete"):
                raise FakeDiscordError(f"/{command} option {name!r} has no autocomplete")
            opt |= {"value": str(value), "focused": True}
        else:
            opt["value"] = _option_value(spec, value, resolved, command)
        out.append(opt)
    return out


def _option_value(spec: dict[str, Any], value: Any, resolved: dict[str, Any], command: str) -> Any:
    kind, name = spec["type"], spec["name"]
    if kind == 6:
        if not isinstance(value, FakeUser):
            raise FakeDiscordError(f"/{command} {name}: pass a FakeUser, not {value!r}")
        resolved.setdefault("users", {})[str(value.id)] = payloads.user(value)
        resolved.setdefault("members", {})[str(value.id)] = payloads.member(
            value, permissions=perms.EVERYONE, with_user=False
        )
        return str(value.id)
    if kind == 7:
        if not isinstance(value, FakeChannel):
            raise FakeDiscordError(f"/{command} {name}: pass a FakeChannel, not {value!r}")
        resolved.setdefault("channels", {})[str(value.id)] = {
            **payloads.channel(value),
            "permissions": "0",
        }
        return str(value.id)
    if kind == 8:
        if not isinstance(value, FakeRole):
            raise FakeDiscordError(f"/{command} {name}: pass a FakeRole, not {value!r}")
        resolved.setdefault("roles", {})[str(value.id)] = payloads.other_role(value)
        return str(value.id)
    if kind not in _CONVERT:
        raise FakeDiscordError(f"/{command} {name}: option type {kind} is not supported by the fake")
    if kind == 5 and not isinstance(value, bool):
        raise FakeDiscordError(f"/{command} {name}: pass True or False, not {value!r}")
    try:
        value = _CONVERT[kind](value)
    except ValueError:
        raise FakeDiscordError(f"/{command} {name}: {value!r} is not a valid {_TYPE_NAMES[kind]}") from None
    choices = [c["value"] for c in spec.get("choices", [])]
    if choices and value not in choices:
        raise FakeDiscordError(f"/{command} {name}: {value!r} is not one of the choices {choices}")
    if kind in (4, 10) and not spec.get("min_value", value) <= value <= spec.get("max_value", value):
        raise FakeDiscordError(f"/{command} {name}: {value} is out of range")
    if kind == 3 and not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", 6000):
        raise FakeDiscordError(f"/{command} {name}: {value!r} has a bad length")
    return value
