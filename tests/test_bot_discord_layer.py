"""The Discord layer without Discord: set-up, the command tree, buttons, message building."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import discord

from bot import ids
from bot.client.bot import CittaBot, intents
from bot.client.components import REGISTERED, Choose, Close, Move, OpenPanel
from bot.client.door import Component
from bot.client.layout import message_kwargs
from bot.ids import custom_id, parse_custom_id, step_id
from bot.results import Button, Message, Option, Picture, Select

COMMANDS = {"new", "play", "panel", "hint", "board", "describe", "status", "log", "score", "rules", "secrets",
            "resign", "abandon", "settings", "me", "replace", "vacation", "undo", "recap", "export", "add-ai",
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
        registered = bot._connection._view_store._dynamic_items
        assert {c.__discord_ui_compiled_template__ for c in REGISTERED} <= set(registered)
        assert len(REGISTERED) == len(ids.KINDS) + 1, "a class per kind, and the base for any other id"
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
    assert isinstance(item, Move) and isinstance(item.item, discord.ui.Button) and item.item.custom_id == cid
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


def test_a_message_with_pictures_is_one_container_of_text_gallery_and_buttons() -> None:
    cid = custom_id(3, 4, None, "panel")
    pictures = (
        Picture("board.png", b"png1", "The board: Ann to play."),
        Picture("table.png", b"png2", "The table."),
    )
    msg = Message("`gold` — Ann takes 2 gold\nNext: <@5>", mentions=(5,), buttons=(Button("🎲", cid),),
                  pictures=pictures)  # fmt: skip
    kw = message_kwargs(msg)
    assert "content" not in kw and kw["allowed_mentions"].to_dict()["users"] == [5]
    assert [(f.filename, f.description) for f in kw["files"]] == [(p.filename, p.alt) for p in pictures]
    view = kw["view"]
    assert isinstance(view, discord.ui.LayoutView)
    (container,) = view.children
    text, gallery, row = container.children  # type: ignore[attr-defined]
    assert isinstance(text, discord.ui.TextDisplay) and text.content == msg.text
    assert isinstance(gallery, discord.ui.MediaGallery)
    assert [(i.media.url, i.description) for i in gallery.items] == [
        ("attachment://board.png", "The board: Ann to play."),
        ("attachment://table.png", "The table."),
    ]
    assert isinstance(row, discord.ui.ActionRow) and isinstance(row.children[0], OpenPanel)


def test_a_panel_puts_each_select_on_its_own_row_and_the_buttons_below() -> None:
    options = tuple(Option(f"Hex {k}", f"A{k}", "food +1") for k in range(1, 4))
    selects = tuple(
        Select(step_id(3, 4, 1, ("build", "farm"), select=k), "Choose", options) for k in range(2)
    )
    msg = Message(
        "panel", ephemeral=True, selects=selects, buttons=(Button("Close", custom_id(3, 4, 1, "close")),)
    )
    view = message_kwargs(msg)["view"]
    rows = [[c["type"] for c in row["components"]] for row in view.to_components()]
    assert rows == [[3], [3], [2]], "two select rows, then the row of buttons"
    first = view.children[0]
    assert isinstance(first, Choose) and isinstance(view.children[-1], Close)
    assert [o.value for o in first.item.options] == ["A1", "A2", "A3"]  # type: ignore[attr-defined]


def test_every_id_matches_exactly_one_component_class() -> None:
    made = [
        custom_id(7, 0, None, "join"), custom_id(7, 0, None, "leave"), custom_id(7, 0, None, "start"),
        custom_id(7, 0, None, "peek"), custom_id(7, 3, None, "abandon"), custom_id(7, 3, None, "panel"),
        custom_id(7, 3, 1, "close"), custom_id(0, 0, None, "forget"), custom_id(7, 3, None, "here"),
        custom_id(7, 3, 1, move="found I9 from L11"), custom_id(7, 3, 1, "confirm", "build farm D13"),
        step_id(7, 3, 1, ("build", "farm")), step_id(7, 3, 1, ("build",), page=1, select=2), ids.mine_id(),
        ids.review_id(7, 12, 3), ids.review_id(7, 12, 9, select=True), ids.review_at_id(7, 40),
        ids.review_game_id(), ids.why_id(7, 12), ids.decisive_id(7), ids.sign_up_id(4), ids.withdraw_id(4),
    ]  # fmt: skip
    others = ["citta:7:0:-:jump", "cittas:1:2:3:m.gold", "citta:x", "citta:7:0:2:join"]
    for cid in [*made, *others]:
        matching = [c for c in REGISTERED if c.__discord_ui_compiled_template__.fullmatch(cid)]
        assert len(matching) == 1, (cid, matching)
        if cid in others:
            assert matching == [Component], cid
    assert {ids.kind_of(cid).name for cid in made} == {k.name for k in ids.KINDS}
    too_large = "citta:99999999999999999999:0:-:join"  # its kind's class answers it: no longer used
    assert ids.kind_of(too_large) is ids.JOIN and parse_custom_id(too_large) is None


def test_the_sender_alone_sends_each_button_as_its_kinds_class() -> None:
    """What the delivery sends needs the component classes (`bot.client.layout.ITEMS`): importing
    the sender is enough (a load benchmark, another process, import nothing else)."""
    code = (
        "from bot.client.sender import DiscordSender\n"
        "from bot.client.layout import message_kwargs\n"
        "from bot.ids import custom_id\n"
        "from bot.results import Button, Message\n"
        "kw = message_kwargs(Message('hi', buttons=(Button('🎲', custom_id(1, 2, None, 'panel')),)))\n"
        "print(type(kw['view'].children[0]).__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "OpenPanel", done.stderr


def test_a_link_button_is_sent_as_a_link_and_kept_through_the_outbox() -> None:
    from bot.client.layout import message_kwargs
    from bot.results import Button, Message, Post
    from bot.storage import envelope

    link = Button("🌐 Live page", "", "secondary", "https://citta.example.org/g/abc")
    msg = Message("a move", buttons=(Button("🎲", custom_id(1, 2, None, "panel")), link))
    [panel, sent] = message_kwargs(msg)["view"].children
    assert sent.url == link.url and sent.style is discord.ButtonStyle.link and sent.custom_id is None
    assert panel.custom_id == "citta:1:2:-:panel"
    payload, image = envelope.dump(Post(5, msg))
    assert envelope.load(5, payload, image).message == msg
