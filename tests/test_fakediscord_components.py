"""The fake Discord's Components V2, selects and attachment descriptions, proved with the real discord.py:
a LayoutView (container, text display, media gallery of uploads with alt text, action rows) sent, stored,
read back and parsed; a private panel updated from its select (UPDATE_MESSAGE) and its button (deferred
update, then an edit of @original); Discord's 50035 answers to what it refuses."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fakediscord import FakeDiscord, FakeDiscordError, FakeMessage, running
from fakediscord.fixtures import fake_discord
from PIL import Image

__all__ = ["fake_discord"]

V2 = 1 << 15
MOVES = ["build", "bus", "gold"]


def png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (40, 120, 200)).save(out, format="PNG")
    return out.getvalue()


def image(name: str, width: int, description: str | None = None) -> discord.File:
    return discord.File(io.BytesIO(png(width, 30)), name, description=description)


class Announcement(discord.ui.LayoutView):
    """A container: text, a gallery of two uploads with alt text, a row with a button, a row with a select
    (a row holds buttons or one select, not both)."""

    def __init__(self, bot: ComponentBot) -> None:
        super().__init__(timeout=None)
        self.bot = bot
        ready = discord.ui.Button[Announcement](label="Ready", custom_id="v2:ready")
        pick = discord.ui.Select[Announcement](
            custom_id="v2:pick",
            placeholder="Pick a move",
            options=[discord.SelectOption(label=m.title(), value=m) for m in MOVES],
        )
        ready.callback = self.on_ready  # type: ignore[method-assign]
        pick.callback = self.on_pick  # type: ignore[method-assign]
        self.pick = pick
        gallery = discord.ui.MediaGallery[Announcement](
            discord.MediaGalleryItem("attachment://board.png", description="The board: 3 towns"),
            discord.MediaGalleryItem("attachment://hand.png", description="Alice's hand"),
        )
        self.add_item(
            discord.ui.Container(
                discord.ui.TextDisplay("## Turn 3"),
                discord.ui.TextDisplay("alice builds a town"),
                gallery,
                discord.ui.ActionRow(ready),
                discord.ui.ActionRow(pick),
                accent_colour=0x3366CC,
            )
        )

    async def on_ready(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"{interaction.user.name} is ready", ephemeral=True)

    async def on_pick(self, interaction: discord.Interaction) -> None:
        self.bot.seen.put_nowait(interaction.message)
        await interaction.response.send_message(f"picked {','.join(self.pick.values)}", ephemeral=True)


class Panel(discord.ui.LayoutView):
    """A player's private panel: their board, a select of moves and a "Later" button."""

    def __init__(self, bot: ComponentBot, note: str, board: str) -> None:
        super().__init__(timeout=None)
        self.bot = bot
        self.moves = discord.ui.Select[Panel](
            custom_id="panel:move",
            options=[discord.SelectOption(label=m.title(), value=m, description=f"play {m}") for m in MOVES],
        )
        later = discord.ui.Button[Panel](label="Later", custom_id="panel:later")
        self.moves.callback = self.on_move  # type: ignore[method-assign]
        later.callback = self.on_later  # type: ignore[method-assign]
        gallery = discord.ui.MediaGallery[Panel](
            discord.MediaGalleryItem("attachment://board.png", description=board)
        )
        section = discord.ui.Section[Panel](discord.ui.TextDisplay(note), accessory=later)
        self.add_item(discord.ui.Container(section, gallery, discord.ui.ActionRow(self.moves)))

    async def on_move(self, interaction: discord.Interaction) -> None:
        [move] = self.moves.values
        self.bot.seen.put_nowait(interaction.message)
        new = Panel(self.bot, f"you played {move}", f"Board after {move}")
        await interaction.response.edit_message(
            view=new, attachments=[image("board.png", 50, f"after {move}")]
        )

    async def on_later(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # on a component: DEFERRED_UPDATE_MESSAGE (6)
        new = Panel(self.bot, "decide later", "Board, later")
        await interaction.edit_original_response(view=new, attachments=[image("board.png", 60, "later")])


class ComponentBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.guild = discord.Object(guild_id)
        self.seen: asyncio.Queue[Any] = asyncio.Queue()
        self.tree.add_command(v2, guild=self.guild)

    async def setup_hook(self) -> None:
        await self.tree.sync(guild=self.guild)

    def text_channel(self, fake: FakeDiscord) -> discord.TextChannel:
        channel = self.get_channel(fake.channel.id)
        assert isinstance(channel, discord.TextChannel)
        return channel


v2 = app_commands.Group(name="v2", description="Components V2")


@v2.command(name="panel", description="Your private panel")
async def panel(interaction: discord.Interaction) -> None:
    assert isinstance(interaction.client, ComponentBot)
    view = Panel(interaction.client, "your move", "Board, turn 1")
    await interaction.response.send_message(view=view, file=image("board.png", 40, "turn 1"), ephemeral=True)


@v2.command(name="board", description="Think, then show the board")
async def board(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True, ephemeral=True)
    view = discord.ui.LayoutView()
    view.add_item(discord.ui.TextDisplay("the board"))
    view.add_item(
        discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png", description="big"))
    )
    await interaction.followup.send(view=view, file=image("board.png", 70, "board"), ephemeral=True)


@pytest.fixture
async def bot(fake_discord: FakeDiscord) -> AsyncIterator[ComponentBot]:
    async with running(ComponentBot(fake_discord.guild_id), fake_discord) as b:
        yield b


async def announce(fake: FakeDiscord, bot: ComponentBot) -> tuple[discord.Message, FakeMessage]:
    files = [image("board.png", 40, "board, alt"), image("hand.png", 20, "hand, alt")]
    sent = await bot.text_channel(fake).send(view=Announcement(bot), files=files)
    [stored] = fake.messages()
    return sent, stored


async def refused(bot: ComponentBot, channel_id: int, payload: dict[str, Any]) -> discord.HTTPException:
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    with pytest.raises(discord.HTTPException) as info:
        await bot.http.request(route, json=payload)
    assert (info.value.status, info.value.code) == (400, 50035)
    return info.value


def errors(fake: FakeDiscord) -> dict[str, Any]:
    """The nested ``errors`` of the fake's last error answer."""
    body: dict[str, Any] = json.loads(fake.error_responses[-1][3])
    return dict(body["errors"])


def at(tree: dict[str, Any], path: str) -> list[str]:
    """The error codes at a dotted path of Discord's nested errors."""
    for part in path.split("."):
        tree = tree[part]
    return [e["code"] for e in tree["_errors"]]


# --- a Components V2 message: stored, returned, parsed ----------------------------------------------


async def test_layout_view_is_stored_with_ids_media_and_alt_text(
    fake_discord: FakeDiscord, bot: ComponentBot
) -> None:
    _, msg = await announce(fake_discord, bot)
    assert msg.components_v2 and msg.content == "" and msg.flags == V2
    assert msg.text == "## Turn 3\nalice builds a town"
    assert msg.custom_ids == ["v2:ready", "v2:pick"]
    assert [(a.filename, d) for a, d in msg.gallery()] == [
        ("board.png", "The board: 3 towns"),
        ("hand.png", "Alice's hand"),
    ]
    assert [a.description for a in msg.attachments] == ["board, alt", "hand, alt"]
    [container] = msg.components
    ids = [c["id"] for c in (container, *container["components"])]
    assert ids == sorted(ids) and len({c["id"] for c in msg.all_components()}) == len(msg.all_components())
    board = container["components"][2]["items"][0]["media"]
    assert board["attachment_id"] == str(msg.attachment("board.png").id) and board["width"] == 40


async def test_discord_py_parses_the_v2_message_when_sent_fetched_and_in_history(
    fake_discord: FakeDiscord, bot: ComponentBot
) -> None:
    sent, msg = await announce(fake_discord, bot)
    channel = bot.text_channel(fake_discord)
    fetched = await channel.fetch_message(msg.id)
    [listed] = [m async for m in channel.history(limit=5)]
    for parsed in (sent, fetched, listed):
        assert parsed.flags.components_v2 and parsed.content == ""
        [container] = parsed.components
        assert isinstance(container, discord.Container) and container.accent_colour == discord.Colour(
            0x3366CC
        )
        text, _, gallery, buttons, selects = container.children
        assert isinstance(text, discord.TextDisplay) and text.content == "## Turn 3"
        assert isinstance(gallery, discord.MediaGalleryComponent)
        assert [i.description for i in gallery.items] == ["The board: 3 towns", "Alice's hand"]
        assert [i.media.attachment_id for i in gallery.items] == [a.id for a in parsed.attachments]
        assert isinstance(buttons, discord.ActionRow) and isinstance(selects, discord.ActionRow)
        [select] = selects.children
        assert isinstance(select, discord.SelectMenu) and [o.value for o in select.options] == MOVES
        assert all(c.id for c in (container, text, gallery, buttons, select))
        assert [a.description for a in parsed.attachments] == ["board, alt", "hand, alt"]
    assert await fetched.attachments[0].read() == msg.attachment("board.png").data
    cached = await fake_discord.wait_for(lambda: discord.utils.get(bot.cached_messages, id=msg.id))
    assert isinstance(cached.components[0], discord.Container)  # from MESSAGE_CREATE


async def test_a_select_nested_in_a_container_reaches_the_view(
    fake_discord: FakeDiscord, bot: ComponentBot
) -> None:
    _, msg = await announce(fake_discord, bot)
    bob = fake_discord.user("bob")
    rec = await fake_discord.select(msg, "v2:pick", ["gold"], bob)
    assert rec.ephemeral and rec.original is not None and rec.original.content == "picked gold"
    seen = await asyncio.wait_for(bot.seen.get(), 5)
    assert isinstance(seen, discord.Message) and seen.id == msg.id and seen.flags.components_v2
    click = await fake_discord.click(msg, "v2:ready", bob)
    assert click.original is not None and click.original.content == "bob is ready"
    with pytest.raises(FakeDiscordError, match="offers"):
        await fake_discord.select(msg, "v2:pick", ["chess"], bob)
    with pytest.raises(FakeDiscordError, match=r"takes 1\.\.1"):
        await fake_discord.select(msg, "v2:pick", ["gold", "bus"], bob)


# --- a private panel updated from its components -------------------------------------------------------


async def test_select_in_an_ephemeral_panel_updates_it_with_a_new_board(
    fake_discord: FakeDiscord, bot: ComponentBot
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    rec = await fake_discord.slash(alice, "v2 panel")
    panel = await rec.wait_message()
    assert panel.ephemeral and panel.components_v2 and panel.text == "your move"
    [(old_board, _)] = panel.gallery()
    with pytest.raises(FakeDiscordError, match="cannot see"):
        await fake_discord.select(panel, "panel:move", ["bus"], bob)
    pick = await fake_discord.select(panel, "panel:move", ["bus"], alice)
    assert pick.response_type == 7 and pick.updated is panel and pick.original is panel
    assert panel.ephemeral and panel.components_v2 and panel.text == "you played bus"
    [(board, alt)] = panel.gallery()
    assert alt == "Board after bus" and board.description == "after bus" and board.width == 50
    assert panel.attachments == [board] and board is not old_board
    assert [v["descriptions"] for v in panel.versions] == [["turn 1"], ["after bus"]]
    seen = await asyncio.wait_for(bot.seen.get(), 5)
    assert isinstance(seen, discord.Message) and seen.flags.ephemeral and seen.flags.components_v2
    assert fake_discord.messages() == [] and fake_discord.ephemerals(alice) == [panel]


async def test_deferred_update_then_edit_of_original_updates_the_ephemeral_panel(
    fake_discord: FakeDiscord, bot: ComponentBot
) -> None:
    alice = fake_discord.user("alice")
    panel = await (await fake_discord.slash(alice, "v2 panel")).wait_message()
    later = await fake_discord.click(panel, "panel:later", alice)  # a section's accessory
    assert later.response_type == 6 and later.updated is panel
    await fake_discord.wait_for(lambda: panel.text == "decide later")
    [(board, alt)] = panel.gallery()
    assert alt == "Board, later" and board.width == 60 and panel.ephemeral and panel.components_v2
    assert [a.filename for a in panel.attachments] == ["board.png"] and later.messages == []


async def test_a_legacy_message_becomes_v2_only_with_its_content_cleared(
    fake_discord: FakeDiscord, bot: ComponentBot
) -> None:
    msg = await bot.text_channel(fake_discord).send("draft")
    view = discord.ui.LayoutView()
    view.add_item(discord.ui.TextDisplay("the final text"))
    with pytest.raises(discord.HTTPException) as info:
        await msg.edit(view=view)  # the docs: content must be reset to null
    assert info.value.code == 50035 and "content" in info.value.text
    assert at(errors(fake_discord), "content") == ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]
    edited = await msg.edit(content=None, view=view)
    [stored] = fake_discord.messages()
    assert edited.flags.components_v2 and stored.components_v2 and stored.text == "the final text"
    await edited.edit(view=None)  # no flags sent: the message keeps IS_COMPONENTS_V2
    route = discord.http.Route("PATCH", "/channels/{c}/messages/{m}", c=fake_discord.channel.id, m=msg.id)
    await bot.http.request(route, json={"flags": 0})  # the flag cannot be removed
    assert stored.components_v2 and stored.components == []


async def test_a_v2_followup_completes_a_deferred_response(
    fake_discord: FakeDiscord, bot: ComponentBot
) -> None:
    rec = await fake_discord.slash(fake_discord.user("alice"), "v2 board")
    msg = await rec.wait_message()
    assert msg.ephemeral and msg.components_v2 and msg.text == "the board" and not msg.loading
    [(board_png, alt)] = msg.gallery()
    assert alt == "big" and board_png.description == "board" and board_png.width == 70
    fake_discord.allow(rec)  # the deprecated path (`interactions`), tested as such


# --- what Discord refuses: 400 / 50035 -------------------------------------------------------------------


async def test_content_with_the_v2_flag_is_refused(fake_discord: FakeDiscord, bot: ComponentBot) -> None:
    view = discord.ui.LayoutView()
    view.add_item(discord.ui.TextDisplay("hello"))
    with pytest.raises(discord.HTTPException) as info:
        # deliberately what discord.py's overloads forbid (content with a LayoutView), for the fake to refuse
        await bot.text_channel(fake_discord).send("hello", view=view)  # type: ignore[call-overload]
    assert info.value.code == 50035 and "content" in info.value.text
    assert at(errors(fake_discord), "content") == ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]
    assert fake_discord.messages() == []


async def test_more_than_40_components_are_refused(fake_discord: FakeDiscord, bot: ComponentBot) -> None:
    lines = [{"type": 10, "content": f"line {i}"} for i in range(40)]
    channel = fake_discord.channel.id
    in_container = [{"type": 17, "components": lines[:39]}]  # 40 with the container
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel)
    await bot.http.request(route, json={"flags": V2, "components": in_container})
    await refused(bot, channel, {"flags": V2, "components": [*in_container, lines[39]]})
    assert "_errors" in errors(fake_discord)["components"]
    await refused(bot, channel, {"components": [{"type": 10, "content": "no flag"}]})
    assert at(errors(fake_discord), "components.0.type") == ["COMPONENT_TYPE_INVALID"]
    assert len(fake_discord.messages()) == 1


async def test_select_with_26_options_and_bad_buttons_are_refused(
    fake_discord: FakeDiscord, bot: ComponentBot
) -> None:
    # as discord.py sends it (discord.py leaves LayoutView.to_components unannotated)
    components = Announcement(bot).to_components()  # type: ignore[no-untyped-call]
    container = components[0]["components"]
    select = container[4]["components"][0]
    select["options"] = [{"label": f"o{i}", "value": f"o{i}"} for i in range(26)]
    select["max_values"] = 26
    container[3]["components"][0]["label"] = "x" * 81
    container[3]["components"].append({"type": 2, "style": 5, "label": "Rules", "custom_id": "v2:rules"})
    channel = fake_discord.channel.id
    e = await refused(bot, channel, {"flags": V2, "components": components})
    assert "components.0.components.4.components.0.options" in e.text
    tree = errors(fake_discord)["components"]["0"]["components"]
    assert at(tree, "4.components.0.options") == ["BASE_TYPE_BAD_LENGTH"]
    assert at(tree, "4.components.0.max_values") == ["NUMBER_TYPE_MAX"]
    assert at(tree, "3.components.0.label") == ["BASE_TYPE_MAX_LENGTH"]
    assert at(tree, "3.components.1.url") == ["BUTTON_COMPONENT_URL_REQUIRED"]
    assert at(tree, "3.components.1.custom_id") == ["BUTTON_COMPONENT_INVALID_FIELD"]
    mixed = {"type": 1, "components": [container[3]["components"][0], select]}
    await refused(bot, channel, {"flags": V2, "components": [mixed]})
    assert "COMPONENT_LAYOUT_WIDTH_EXCEEDED" in at(errors(fake_discord), "components.0.components")


async def test_gallery_url_naming_no_attachment_is_refused(
    fake_discord: FakeDiscord, bot: ComponentBot
) -> None:
    view = discord.ui.LayoutView()
    view.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://missing.png")))
    with pytest.raises(discord.HTTPException) as info:
        await bot.text_channel(fake_discord).send(view=view, file=image("board.png", 10))
    assert info.value.code == 50035 and "components.0.items.0.media.url" in info.value.text
    assert at(errors(fake_discord), "components.0.items.0.media.url") == [
        "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND"
    ]
    assert fake_discord.messages() == []


async def test_duplicate_custom_ids_and_ids_are_refused_at_any_depth(
    fake_discord: FakeDiscord, bot: ComponentBot
) -> None:
    view = discord.ui.LayoutView()
    nested: discord.ui.Section[discord.ui.LayoutView] = discord.ui.Section(
        "top", accessory=discord.ui.Button(label="A", custom_id="dup", id=7)
    )  # in a section's accessory
    view.add_item(discord.ui.Container(nested))
    view.add_item(discord.ui.ActionRow(discord.ui.Button(label="B", custom_id="dup", id=7)))
    with pytest.raises(discord.HTTPException) as info:
        await bot.text_channel(fake_discord).send(view=view)
    assert info.value.code == 50035
    tree = errors(fake_discord)
    assert at(tree, "components.1.components.0.custom_id") == ["COMPONENT_CUSTOM_ID_DUPLICATED"]
    assert at(tree, "components.1.components.0.id") == ["COMPONENT_ID_DUPLICATED"]


async def test_ids_given_are_kept_and_the_others_numbered_around_them(
    fake_discord: FakeDiscord, bot: ComponentBot
) -> None:
    view = discord.ui.LayoutView()
    view.add_item(discord.ui.Container(discord.ui.TextDisplay("a", id=2), discord.ui.TextDisplay("b")))
    view.add_item(discord.ui.TextDisplay("c", id=1000))
    sent = await bot.text_channel(fake_discord).send(view=view)
    [msg] = fake_discord.messages()
    assert [c["id"] for c in msg.all_components()] == [1, 2, 3, 1000]
    container, text = sent.components
    assert isinstance(container, discord.components.Container), container
    assert isinstance(text, discord.components.TextDisplay), text
    assert [container.id, text.id] == [1, 1000] and msg.text == "a\nb\nc"


# --- attachment descriptions -------------------------------------------------------------------------------


async def test_attachment_descriptions_round_trip_and_edits_keep_only_what_they_list(
    fake_discord: FakeDiscord, bot: ComponentBot
) -> None:
    channel = bot.text_channel(fake_discord)
    files = [image("a.png", 8, "first"), image("b.png", 9, None)]
    sent = await channel.send("pictures", files=files)
    [msg] = fake_discord.messages()
    assert [(a.filename, a.description) for a in msg.attachments] == [("a.png", "first"), ("b.png", None)]
    assert [a.description for a in sent.attachments] == ["first", None]
    edited = await sent.edit(attachments=[sent.attachments[0], image("c.png", 10, "third")])
    assert [(a.filename, a.description) for a in msg.attachments] == [("a.png", "first"), ("c.png", "third")]
    fetched = await channel.fetch_message(msg.id)
    assert [a.description for a in edited.attachments] == [a.description for a in fetched.attachments]
    assert [a.description for a in fetched.attachments] == ["first", "third"]
    route = discord.http.Route("PATCH", "/channels/{c}/messages/{m}", c=fake_discord.channel.id, m=msg.id)
    kept = msg.attachments[0].id
    await bot.http.request(route, json={"attachments": [{"id": str(kept), "description": "renamed"}]})
    assert [(a.filename, a.description) for a in msg.attachments] == [("a.png", "renamed")]
    with pytest.raises(discord.HTTPException) as info:
        await bot.http.request(route, json={"attachments": [{"id": str(kept), "description": "x" * 1025}]})
    assert info.value.code == 50035 and "attachments.0.description" in info.value.text
    with pytest.raises(discord.HTTPException):
        await bot.http.request(route, json={"attachments": [{"id": "12345"}]})
    assert at(errors(fake_discord), "attachments.0.id") == ["ATTACHMENT_NOT_FOUND"]


async def test_legacy_components_get_ids_too(fake_discord: FakeDiscord, bot: ComponentBot) -> None:
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="One", custom_id="one"))
    sent = await bot.text_channel(fake_discord).send("legacy", view=view)
    [msg] = fake_discord.messages()
    assert not msg.components_v2 and [c["id"] for c in msg.components] == [1]
    assert (msg.component("one") or {}).get("id") == 2
    [row] = sent.components
    assert isinstance(row, discord.ActionRow) and row.id == 1 and row.children[0].id == 2


async def test_layout_rules_of_the_component_reference(fake_discord: FakeDiscord, bot: ComponentBot) -> None:
    channel = fake_discord.channel.id
    media = {"url": "https://example.com/a.png"}
    thumbnail = {"type": 11, "media": media}
    item = {"media": media, "description": "x" * 1025}
    payload = {
        "flags": V2,
        "components": [
            thumbnail,  # only as a section's accessory
            {"type": 17, "components": [thumbnail, {"type": 14, "spacing": 3}]},
            {"type": 12, "items": [item] * 11},
            {"type": 9, "components": [{"type": 10, "content": "t"}]},  # no accessory
            {"type": 13, "file": media},  # a file takes only attachment://
            {"type": 10, "content": "y" * 4001},
        ],
    }
    await refused(bot, channel, payload)
    tree = errors(fake_discord)
    assert at(tree, "components.0.type") == ["COMPONENT_TYPE_INVALID"]
    assert at(tree, "components.1.components.0.type") == ["COMPONENT_TYPE_INVALID"]
    assert at(tree, "components.1.components.1.spacing") == ["BASE_TYPE_CHOICES"]
    assert at(tree, "components.2.items") == ["BASE_TYPE_BAD_LENGTH"]
    assert at(tree, "components.2.items.0.description") == ["BASE_TYPE_MAX_LENGTH"]
    assert at(tree, "components.3.accessory") == ["BASE_TYPE_REQUIRED"]
    assert at(tree, "components.4.file.url") == ["UNFURLED_MEDIA_ITEM_ATTACHMENT_REQUIRED"]
    assert "MESSAGE_TEXT_TOO_LONG" in at(tree, "components")


async def test_select_option_rules(fake_discord: FakeDiscord, bot: ComponentBot) -> None:
    options = [{"label": "A", "value": "a"}, {"label": "B", "value": "a", "description": "d" * 101}]
    select = {"type": 3, "custom_id": "s" * 101, "placeholder": "p" * 151, "options": options}
    row = {"type": 1, "components": [select | {"min_values": 2, "max_values": 1}]}
    await refused(bot, fake_discord.channel.id, {"content": "legacy", "components": [row]})
    tree = errors(fake_discord)["components"]["0"]["components"]["0"]
    assert at(tree, "custom_id") == ["BASE_TYPE_BAD_LENGTH"]
    assert at(tree, "placeholder") == ["BASE_TYPE_MAX_LENGTH"]
    assert at(tree, "min_values") == ["SELECT_COMPONENT_MIN_VALUES_TOO_HIGH"]
    assert at(tree, "options.1.value") == ["SELECT_COMPONENT_OPTION_VALUE_DUPLICATED"]
    assert at(tree, "options.1.description") == ["BASE_TYPE_MAX_LENGTH"]
    too_many = {"type": 1, "components": [select | {"custom_id": "ok", "placeholder": None, "max_values": 3}]}
    await refused(bot, fake_discord.channel.id, {"content": "legacy", "components": [too_many]})
    tree = errors(fake_discord)["components"]["0"]["components"]["0"]
    assert at(tree, "max_values") == ["SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS"]
