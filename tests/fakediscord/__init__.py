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
"""

from __future__ import annotations

from .driver import FakeDiscord, running
from .state import (
    Command,
    FakeAttachment,
    FakeChannel,
    FakeDiscordError,
    FakeMessage,
    FakeUser,
    InteractionRecord,
)

__all__ = [
    "Command",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeMessage",
    "FakeUser",
    "InteractionRecord",
    "running",
]
