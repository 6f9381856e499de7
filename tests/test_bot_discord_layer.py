"""The Discord layer without Discord: set-up, the command tree, buttons, message building."""

from __future__ import annotations

import re
from pathlib import Path

import discord

from bot.client.bot import CittaBot, intents
from bot.client.ui import CittaButton, message_kwargs
from bot.results import CUSTOM_ID_TEMPLATE, Button, Message, custom_id, parse_custom_id

COMMANDS = {"new", "play", "board", "status", "log", "score", "rules", "secrets", "resign", "abandon",
            "settings", "me", "replace", "vacation", "undo", "recap", "export", "add-ai",
            "leaderboard", "stats", "games", "replay"}  # fmt: skip


async def test_setup_hook_opens_the_database_loads_commands_and_registers_buttons(tmp_path: Path) -> None:
    bot = CittaBot(db_path=tmp_path / "bot.db", renderer=None, sync_commands=False)
    try:
        await bot.__aenter__()  # what `async with` and login do before setup_hook
        await bot.setup_hook()
        group = bot.tree.get_command("citta")
        assert isinstance(group, discord.app_commands.Group)
        assert {c.name for c in group.commands} == COMMANDS
        play = group.get_command("play")
        assert (
            isinstance(play, discord.app_commands.Command) and play._params["move"].autocomplete is not None
        )
        assert re.compile(CUSTOM_ID_TEMPLATE) in bot._connection._view_store._dynamic_items
        assert await bot.service.storage.schema_version() >= 1
        assert (tmp_path / "bot.db").exists()
        assert bot.clock_loop.is_running(), "the clock (deadlines, reminders) runs from set-up on"
        assert group.guild_only
        texts = [group.description] + [c.description for c in group.commands]
        leaves = [c for c in group.walk_commands() if isinstance(c, discord.app_commands.Command)]
        texts += [c.description for c in leaves] + [p.description for c in leaves for p in c.parameters]
        assert all(0 < len(t) <= 100 for t in texts), "Discord limits descriptions to 100 characters"
    finally:
        await bot.close()


def test_no_privileged_intent_is_requested() -> None:
    wanted = intents()
    assert not (wanted.members or wanted.presences or wanted.message_content)


def test_message_kwargs_ping_only_the_listed_users_and_attach_the_board() -> None:
    cid = custom_id(3, 4, 1, move="demolish F6 G7")
    msg = Message(
        "hello <@5> <@6>", image=b"png", mentions=(5,), buttons=(Button("Firenze", cid, "primary"),)
    )
    kw = message_kwargs(msg)
    allowed = kw["allowed_mentions"].to_dict()
    assert allowed["parse"] == [] and allowed["users"] == [5]
    assert isinstance(kw["file"], discord.File) and kw["file"].filename == "board.png"
    (item,) = kw["view"].children
    assert isinstance(item, CittaButton) and item.item.custom_id == cid
    assert item.ref == parse_custom_id(cid) and item.ref is not None and item.ref.move == "demolish F6 G7"
    assert kw["view"].timeout is None


def test_custom_ids_stay_under_100_characters_or_are_refused() -> None:
    long_move = "starve " + " ".join(["A10"] * 30)
    try:
        custom_id(10**9, 10**4, 4, move=long_move)
    except ValueError:
        pass
    else:
        raise AssertionError("a custom id of 100 characters or more was made")
    assert len(custom_id(10**9, 10**4, 4, move="bread 3 J10 education")) < 100
