"""A fake Discord (REST + gateway on 127.0.0.1) for the real discord.py bot, and its test driver.

Usage (tests/ is on sys.path, so the package imports as ``fakediscord``)::

    from fakediscord import FakeDiscord, running
    from fakediscord.fixtures import fake_discord  # the fixture; fails the test on unanswered interactions

    async def test_play(fake_discord: FakeDiscord) -> None:
        alice = fake_discord.user("alice")
        async with running(make_bot(guild_id=fake_discord.guild_id), fake_discord):
            rec = await fake_discord.slash(alice, "citta play", move="gold")
            msg = await rec.wait_message()  # the response, once no longer "thinking"
            board = msg.attachment("board.png").data  # PNG bytes
            [button] = [c for c in msg.all_components() if c.get("label") == "Next"]
            await fake_discord.click(msg, button["custom_id"], fake_discord.user("bob"))

Components V2 (``LayoutView``: containers, text displays, media galleries, sections...): ``msg.text`` includes
the text displays, ``msg.component(custom_id)`` / ``custom_ids`` find buttons and selects at any depth,
``msg.gallery()`` lists ``(attachment, alt text)`` per gallery item, ``rec.updated`` is the message a
component's UPDATE_MESSAGE changed; Discord's rules for them are in `components`.

Faults and the world (each module's docstring says exactly how Discord and discord.py behave):

- ``fake.fail(method, path_pattern, status, ...)``, ``fake.hold(...)``, ``fake.faults_served``: `faults`;
- ``fake.forge(user, custom_id, channel=...)``: a press a modified client could send (any id, any
  channel, another guild, a DM), to check that the bot validates what it receives: `driver`;
- ``fake.check()`` fails a test on an unanswered interaction, a defer never completed, or a defer
  completed by a followup (deprecated: Discord asks for an edit of the original): `interactions`;
- ``await fake.add_guild(name, shard=1, shards=2)`` (a guild on a chosen shard; the gateway is sharded
  as Discord's: `gateway`), ``await fake.deny(channel, "send_messages")``, ``allow_perms``, ``reset_perms``,
  ``grant`` / ``give_role`` (a member's role in a guild, e.g. Manage Server), ``add_private_channel``
  and ``let_view`` (a channel @everyone cannot view), ``add_text_channel``,
  ``delete_channel``, ``add_thread``, ``archive``, ``unarchive``, ``user_says``, ``advance``,
  ``request_reconnect``, ``drop_gateway``, ``gateway_paused()``: `world`; what REST then enforces: `channels`;
- ``await fake.spawn_bot(env)`` → `process.BotProcess` (``ready``, ``kill9``, ``wait``, ``output``): the
  real bot in a subprocess through `launch` (also ``FAKE_CRASH_AT``).

Modules: `models` (dataclasses), `state` (the store), `payloads` (Discord's JSON objects), `wire` (HTTP
bodies and Discord's checks), `components` (message components: checks, stored form), `perms`, `server`
+ `channels` + `interactions` (REST), `gateway`, `faults`, `world`, `commands` (slash command data),
`driver` (`FakeDiscord`, `running`), `process`, `launch`, `fixtures`.
"""

from __future__ import annotations

from .driver import FakeDiscord, running
from .faults import Hold, ServedFault
from .models import (
    Command,
    FakeAttachment,
    FakeChannel,
    FakeDiscordError,
    FakeGuild,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionRecord,
)

__all__ = [
    "Command",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeGuild",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "Hold",
    "InteractionRecord",
    "ServedFault",
    "running",
]
