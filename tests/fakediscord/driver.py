"""The test-facing API: act as Discord users (slash commands, autocomplete, clicks, selects), read results,
run the real bot in a subprocess (`spawn_bot`). Faults and changes to the guild are in `server` and `world`.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import discord

from . import payloads, perms
from .commands import check_context, check_permissions, command_data, context_of
from .models import (
    FORUM,
    GROUP_DM,
    Command,
    FakeChannel,
    FakeDiscordError,
    FakeMessage,
    FakeUser,
    InteractionRecord,
)
from .process import BotProcess, spawn
from .world import FakeWorld

ClientT = TypeVar("ClientT", bound=discord.Client)

DEFAULT_MEMBERS = ("alice", "bob", "carol", "dave", "erin")


class FakeDiscord(FakeWorld):
    """A fake Discord (guild + text channel + human members) and the hands of its users."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        ack_timeout: float = 3.0,
        members: Iterable[str] = DEFAULT_MEMBERS,
    ) -> None:
        super().__init__(token=token, ack_timeout=ack_timeout)
        self.allowed: list[InteractionRecord] = []
        self.bot_processes: list[BotProcess] = []
        for name in members:
            self.add_user(name)

    # --- the world -----------------------------------------------------------------------------------

    @property
    def guild_id(self) -> int:
        return self.store.guild_id

    @property
    def application_id(self) -> int:
        return self.store.application_id

    @property
    def bot_user(self) -> FakeUser:
        return self.store.bot

    @property
    def channel(self) -> FakeChannel:
        """The guild's text channel, where the game is played."""
        return self.store.text_channel

    @property
    def users(self) -> list[FakeUser]:
        return list(self.store.members)

    def user(self, name: str) -> FakeUser:
        for u in self.store.members:
            if u.name == name:
                return u
        raise FakeDiscordError(f"no user {name!r}; members: {[u.name for u in self.store.members]}")

    def add_user(self, name: str, *, dms_closed: bool = False) -> FakeUser:
        """A new guild member. Add users before the bot connects (they are in GUILD_CREATE)."""
        u = FakeUser(payloads.snowflake(), name, dms_closed=dms_closed)
        self.store.members.append(u)
        return u

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        return self.store.dm_channel(user)

    def group_dm(self, name: str, *users: FakeUser) -> FakeChannel:
        """A group DM of ``users`` that the bot is not in: its commands run there only for a user who
        installed the app to their account (`install_for`)."""
        return self.store.group_dm(name, list(users))

    def install_for(self, user: FakeUser) -> None:
        """``user`` adds the app to their account (Discord's user install): the commands that allow it
        then run for them in private channels too."""
        self.store.installed_by.add(user.id)

    @property
    def commands(self) -> dict[str, Command]:
        """Synced commands by name (guild commands shadow global ones of the same name)."""
        by_name = {c.name: c for c in self.store.commands.values() if c.guild_id is None}
        by_name.update({c.name: c for c in self.store.commands.values() if c.guild_id is not None})
        return by_name

    # --- reading what users see ------------------------------------------------------------------------

    def messages(self, channel: FakeChannel | None = None) -> list[FakeMessage]:
        """Public messages in a channel (default: the game channel), oldest first, without deleted ones."""
        ch = channel or self.channel
        return [m for m in ch.messages if not m.deleted and not m.ephemeral and not m.loading]

    def all_messages(self) -> list[FakeMessage]:
        """Every message ever created (also deleted, ephemeral and DM ones), oldest first."""
        return sorted(self.store.messages.values(), key=lambda m: m.seq)

    def ephemerals(self, user: FakeUser) -> list[FakeMessage]:
        """Ephemeral messages only ``user`` can see, oldest first."""
        return [m for m in self.all_messages() if m.ephemeral and m.recipient is user and not m.deleted]

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        """Messages the bot sent to ``user`` in their DM channel, oldest first."""
        return [m for m in self.dm_channel(user).messages if not m.deleted]

    @property
    def seq(self) -> int:
        """Sequence number of the newest message; pass it as ``after=`` to wait for newer ones."""
        return self.store.seq

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 15.0) -> Any:
        """Re-check ``predicate`` on every change in the fake until it returns something truthy; return it."""
        return await self.store.wait_for(predicate, timeout)

    async def wait_for_message(
        self,
        check: Callable[[FakeMessage], bool] = lambda m: True,
        *,
        channel: FakeChannel | None = None,
        after: int = 0,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """The first public message in ``channel`` created after sequence ``after`` that passes ``check``."""

        def found() -> FakeMessage | None:
            return next((m for m in self.messages(channel) if m.seq > after and check(m)), None)

        result: FakeMessage = await self.wait_for(found, timeout)
        return result

    def check(self) -> None:
        """Fail if Discord would have shown a user an error, or the bot called an API the fake lacks."""
        problems = []
        if self.internal_errors:
            problems.append(f"the fake itself failed: {self.internal_errors}")
        if self.unknown_routes:
            problems.append(f"unknown routes hit: {self.unknown_routes}")
        failed = [r for r in self.failed_interactions if r not in self.allowed]
        if failed:
            problems.append(f"interactions not answered within {self.ack_timeout}s: {failed}")
        stuck = [m.interaction for m in self.all_messages() if m.loading and not m.deleted]
        stuck = [r for r in stuck if r not in self.allowed]
        if stuck:
            problems.append(f"deferred responses never completed (still 'thinking'): {stuck}")
        followed = [r for r in self.followups_as_original if r not in self.allowed]
        if followed:
            problems.append(
                f"a deferred response completed by a followup (deprecated; edit @original): {followed}"
            )
        if problems:
            raise AssertionError("; ".join(problems))

    def allow(self, rec: InteractionRecord) -> None:
        """Let ``check()`` accept that ``rec`` failed, stayed deferred or was completed by a followup (for
        tests of exactly that)."""
        self.allowed.append(rec)

    # --- acting as users -------------------------------------------------------------------------------

    async def slash(
        self,
        user: FakeUser,
        command: str,
        *,
        channel: FakeChannel | None = None,
        wait: bool = True,
        **options: Any,
    ) -> InteractionRecord:
        """Run ``/command`` ("citta play" = group citta, subcommand play) with ``options`` as ``user`` in
        ``channel`` (default: the text channel; a thread too, unless it is archived: see `user_says`)."""
        data = command_data(self.commands, command, options, focused=None, channel=channel)
        return await self._interact(2, user, channel or self.channel, data, None, wait)

    async def autocomplete(
        self,
        user: FakeUser,
        command: str,
        *,
        focused: str,
        value: str,
        channel: FakeChannel | None = None,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Type ``value`` into option ``focused`` (others filled with ``options``); return the choices."""
        data = command_data(
            self.commands, command, {**options, focused: value}, focused=focused, channel=channel
        )
        rec = await self._interact(4, user, channel or self.channel, data, None, True)
        if rec.choices is None:
            raise FakeDiscordError(
                f"the bot did not answer autocomplete for {command} {focused}={value!r}: {rec}"
            )
        return rec.choices

    async def click(
        self,
        message: FakeMessage,
        custom_id: str,
        user: FakeUser,
        *,
        force: bool = False,
        wait: bool = True,
        channel: FakeChannel | None = None,
    ) -> InteractionRecord:
        """Click button ``custom_id`` on ``message`` (in ``channel``: the message's, the default), at any
        depth (an action row, a container, a section's accessory); ``force``: even if disabled (a stale
        client). The interaction's data carries the button's ``custom_id``, type and numeric ``id``."""
        comp = self._component(message, custom_id, user, force, channel)
        if comp.get("type") != 2:
            raise FakeDiscordError(f"{custom_id!r} is not a button: {comp}")
        data = {"custom_id": custom_id, "component_type": 2, "id": comp.get("id")}
        return await self._interact(3, user, message.channel, data, message, wait)

    async def select(
        self,
        message: FakeMessage,
        custom_id: str,
        values: list[str],
        user: FakeUser,
        *,
        force: bool = False,
        wait: bool = True,
        channel: FakeChannel | None = None,
    ) -> InteractionRecord:
        """Pick ``values`` in the select menu ``custom_id`` on ``message`` (``channel``: as for `click`);
        the select may be nested (in a container), the message ephemeral (then only its user sees it).
        A string select takes only the values it offers, between its ``min_values`` and ``max_values``."""
        comp = self._component(message, custom_id, user, force, channel)
        if comp.get("type") not in (3, 5, 6, 7, 8):
            raise FakeDiscordError(f"{custom_id!r} is not a select menu: {comp}")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise FakeDiscordError(f"select {custom_id!r} takes {lo}..{hi} values, not {values}")
        offered = [o["value"] for o in comp.get("options", [])]
        if comp["type"] == 3 and not set(values) <= set(offered):
            raise FakeDiscordError(f"select {custom_id!r} offers {offered}, not {values}")
        data = {"custom_id": custom_id, "component_type": comp["type"], "id": comp.get("id")}
        data["values"] = list(values)
        return await self._interact(3, user, message.channel, data, message, wait)

    async def forge(
        self,
        user: FakeUser,
        custom_id: str,
        *,
        channel: FakeChannel | None = None,
        values: list[str] | None = None,
        wait: bool = True,
    ) -> InteractionRecord:
        """Press ``custom_id`` as a modified client could: in ``channel`` (default: the text channel; also a
        channel of another guild, or the user's DM channel), on a message of the bot that carries the
        component but was never sent there (with ``values``: a string select picked with them).

        Discord normally rejects a component that is not on the message it names, but its documentation
        tells apps to validate what an interaction carries themselves; tests use this to check that the
        bot does. The message is not stored: only the interaction carries it."""
        where = channel or self.channel
        if values is None:
            comp: dict[str, Any] = {"type": 2, "style": 2, "label": "…", "custom_id": custom_id}
            data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        else:
            options = [{"label": v, "value": v} for v in values]
            comp = {"type": 3, "custom_id": custom_id, "options": options, "min_values": 1, "max_values": 1}
            data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        carrier = FakeMessage(payloads.snowflake(), self.store.seq, where, self.store.bot)
        carrier.components = [{"type": 1, "components": [comp]}]
        return await self._interact(3, user, where, data, carrier, wait)

    async def forge_slash(
        self, user: FakeUser, command: str, raw: dict[str, Any], *, channel: FakeChannel | None = None
    ) -> InteractionRecord:
        """Run ``/command`` as a modified client could: the options' values in ``raw`` sent as they are
        (a string for an integer option, a number past the option's range), each with the type the
        synced command gives it. Discord checks an option's type and range for its own clients, but
        its documentation tells apps to validate what an interaction carries themselves."""
        where = channel or self.channel
        name, *path = command.split()
        cmd = self.commands[name]
        specs: list[dict[str, Any]] = cmd.data.get("options", [])
        chain = []
        for step in path:
            spec = next(o for o in specs if o["name"] == step)
            chain.append(spec)
            specs = spec.get("options", [])
        kinds = {o["name"]: o["type"] for o in specs}  # an option the command lacks: sent as text
        leaf: list[dict[str, Any]] = [
            {"name": k, "type": kinds.get(k, 3), "value": v} for k, v in raw.items()
        ]
        for spec in reversed(chain):
            leaf = [{"name": spec["name"], "type": spec["type"], "options": leaf}]
        data: dict[str, Any] = {"id": str(cmd.id), "name": name, "type": 1, "options": leaf}
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        return await self._interact(2, user, where, data, None, True)

    # --- the real bot in a subprocess -------------------------------------------------------------------

    async def spawn_bot(self, env: dict[str, str] | None = None, *, log: Path | None = None) -> BotProcess:
        """Start ``python -m bot`` (through `launch`) against this fake with ``env`` (CITTA_DB, FAKE_CRASH_AT,
        ...; DISCORD_TOKEN and CITTA_DEV_GUILD default to this fake's); ``await proc.ready()`` next."""
        proc = await spawn(self, env or {}, log)
        self.bot_processes.append(proc)
        return proc

    async def stop(self) -> None:
        for proc in self.bot_processes:
            await proc.close()
        await super().stop()

    # --- internals -------------------------------------------------------------------------------------

    async def _interact(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        message: FakeMessage | None,
        wait: bool,
    ) -> InteractionRecord:
        if user not in self.store.members:
            raise FakeDiscordError(f"{user} is not a member of the guild")
        if channel.recipient is not None and channel.recipient is not user:
            raise FakeDiscordError(f"{user} cannot act in {channel.recipient}'s DM channel")
        if channel.deleted or channel.type == FORUM:
            raise FakeDiscordError(f"{user} cannot use an app in {channel}")
        if kind in (2, 4) and channel.archived:  # a user's message would unarchive it: `user_says`
            raise FakeDiscordError(f"{channel} is archived: a user cannot run a command there")
        if channel.type == GROUP_DM and user not in channel.members:
            raise FakeDiscordError(f"{user} is not in the group DM {channel}")
        context = context_of(channel, user)
        if kind in (2, 4):
            check_context(self.commands[data["name"]], context, user.id in self.store.installed_by)
            member = perms.EVERYONE | self.store.role(channel, user)
            check_permissions(self.commands[data["name"]], context, member)
        rec = InteractionRecord(
            payloads.snowflake(),
            "itoken-" + secrets.token_urlsafe(24),
            kind,
            user,
            channel,
            self.application_id,
            data,
        )
        rec.message, rec._wait = message, self.store.wait_for
        body = payloads.interaction(
            id=rec.id,
            token=rec.token,
            type=kind,
            application_id=self.application_id,
            data=data,
            user_=user,
            channel_=channel,
            bot_id=self.store.bot.id,
            message_=message,
            guild_locale=self.store.guild_locale,
            role=self.store.role(channel, user),
            role_id=self.store.role_id(channel, user),
            bot_role=self.store.role(channel, self.store.bot),
            bot_role_id=self.store.role_id(channel, self.store.bot),
            context=context,
            installed=user.id in self.store.installed_by,
        )
        if not self.connected:
            raise FakeDiscordError("no bot is connected to the fake gateway")
        self.watch(rec)
        await self.dispatch("INTERACTION_CREATE", body)
        if wait:
            await self.wait_for(lambda: rec.response_type is not None or rec.failed, self.ack_timeout + 5)
        return rec

    def _component(
        self, message: FakeMessage, custom_id: str, user: FakeUser, force: bool, channel: FakeChannel | None
    ) -> dict[str, Any]:
        if message.deleted:
            raise FakeDiscordError(f"{message} was deleted")
        if channel is not None and channel is not message.channel:
            raise FakeDiscordError(f"{message} is in {message.channel}, not in {channel}")
        if message.ephemeral and message.recipient is not user:
            raise FakeDiscordError(f"{user} cannot see the ephemeral {message}")
        comp = message.component(custom_id)
        if comp is None:
            raise FakeDiscordError(f"{message} has no component {custom_id!r}; it has {message.custom_ids}")
        if comp.get("disabled") and not force:
            raise FakeDiscordError(f"{custom_id!r} on {message} is disabled")
        return comp


@contextlib.asynccontextmanager
async def running(
    client: ClientT, fake: FakeDiscord, *, timeout: float = 10.0, ready_timeout: float | None = 0.05
) -> AsyncIterator[ClientT]:
    """Log ``client`` in to ``fake``, connect it, wait for on_ready; close it on exit.

    ``ready_timeout`` shortens how long discord.py waits for more GUILD_CREATEs before on_ready (2 s by
    default); pass None to keep the client's own ``guild_ready_timeout``.
    """
    if ready_timeout is not None:
        client._connection.guild_ready_timeout = ready_timeout
    try:
        await client.login(fake.token)
    except BaseException:
        await client.close()
        raise
    conn = asyncio.create_task(client.connect(reconnect=True))
    ready = asyncio.create_task(client.wait_until_ready())
    try:
        await asyncio.wait({conn, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            if conn.done():
                conn.result()  # the connection failed: raise why
            raise TimeoutError(f"{client} did not become ready within {timeout}s")
        yield client
    finally:
        ready.cancel()
        sessions = _session_ids(client)
        await client.close()
        await conn
        # Return only once the fake saw the websockets close, so "no bot connected" is true right after.
        await fake.wait_for(lambda: all(s.id not in sessions for s in fake.connected), timeout)


def _session_ids(client: discord.Client) -> set[str]:
    """The gateway sessions of ``client``: one, or one per shard of an ``AutoShardedClient``."""
    if isinstance(client, discord.AutoShardedClient):
        sockets = [shard._parent.ws for shard in client.shards.values()]  # ShardInfo keeps its socket there
    else:
        sockets = [client.ws]
    return {ws.session_id for ws in sockets if ws is not None and ws.session_id is not None}
