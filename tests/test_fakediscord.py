"""The fake Discord, proved with a tiny real discord.py bot: commands.Bot, app_commands, a persistent View."""

from __future__ import annotations

import asyncio
import copy
import io
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fakediscord import FakeDiscord, FakeDiscordError, FakeUser, running
from fakediscord.fixtures import fake_discord, serve
from PIL import Image

__all__ = ["fake_discord"]

MOVES = ["build", "bus", "gold", "market"]


def png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 40, 40)).save(out, format="PNG")
    return out.getvalue()


class GameView(discord.ui.View):
    """Persistent: registered with add_view at startup, so it survives a bot restart."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Next", custom_id="citta:next", style=discord.ButtonStyle.primary)
    async def next_turn(self, interaction: discord.Interaction, button: discord.ui.Button[GameView]) -> None:
        await interaction.response.edit_message(content=f"next clicked by {interaction.user.name}")

    @discord.ui.button(label="Later", custom_id="citta:later")
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button[GameView]) -> None:
        await interaction.response.defer()  # for a component: a deferred update of its message
        await interaction.edit_original_response(content=f"later by {interaction.user.name}")
        note = await interaction.followup.send("noted", ephemeral=True, wait=True)
        await note.edit(content="noted, edited")

    @discord.ui.select(
        custom_id="citta:pick",
        options=[discord.SelectOption(label=x, value=x) for x in ("a", "b", "c")],
        max_values=2,
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[GameView]) -> None:
        await interaction.response.send_message(f"picked {','.join(select.values)}", ephemeral=True)


class TinyBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.guild = discord.Object(guild_id)
        self.seen: asyncio.Queue[object] = asyncio.Queue()  # what the commands observed, in order
        self.release = asyncio.Event()  # lets /citta slow answer (too late)
        self.resumed = asyncio.Event()
        self.tree.add_command(citta, guild=self.guild)
        self.tree.add_command(hello)
        self.tree.add_command(perms)
        self.tree.add_command(anywhere)

    async def setup_hook(self) -> None:
        self.add_view(GameView())
        self.synced = await self.tree.sync(guild=self.guild)
        self.synced_global = await self.tree.sync()

    async def on_resumed(self) -> None:
        self.resumed.set()


def tiny(interaction: discord.Interaction) -> TinyBot:
    assert isinstance(interaction.client, TinyBot)
    return interaction.client


citta = app_commands.Group(name="citta", description="Play La Città")


@citta.command(name="play", description="Make a move")
async def play(interaction: discord.Interaction, move: str) -> None:
    await interaction.response.send_message(f"{interaction.user.mention} played {move}", view=GameView())


@play.autocomplete("move")
async def play_move(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=m, value=m) for m in MOVES if m.startswith(current)]


admin = app_commands.Group(name="admin", description="Game admin", parent=citta)


@admin.command(name="reset", description="Reset a game")
async def reset(interaction: discord.Interaction, game: int) -> None:
    await interaction.response.send_message(f"reset game {game:d}", ephemeral=True)


@app_commands.command(name="hello", description="A global command, usable in DMs")
async def hello(interaction: discord.Interaction) -> None:
    where = "guild" if interaction.guild is not None else "DM"
    await interaction.response.send_message(f"hello {interaction.user.name} ({where})")


@app_commands.command(name="anywhere", description="A command users may install to their account")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def anywhere(interaction: discord.Interaction) -> None:
    context = interaction.context
    where = "guild" if context.guild else "bot DM" if context.dm_channel else "private channel"
    text = f"{where}; user install: {interaction.is_user_integration()}"
    await interaction.response.send_message(text, ephemeral=True)


@app_commands.command(name="perms", description="Say whether the member may manage the server")
@app_commands.guild_only()
async def perms(interaction: discord.Interaction) -> None:
    text = f"manage_guild={interaction.permissions.manage_guild}"
    tiny(interaction).seen.put_nowait(interaction.user)  # the member, with their roles
    await interaction.response.send_message(text, ephemeral=True)


@citta.command(name="stuck", description="Defer and never finish")
async def stuck(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True)


@citta.command(name="hand", description="Show your hand privately")
async def hand(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("your hand: 3 gold", ephemeral=True)


@citta.command(name="board", description="Render the board")
async def board(interaction: discord.Interaction, width: int = 64, secret: bool = False) -> None:
    await interaction.response.defer(thinking=True)
    image = discord.File(io.BytesIO(png(width, 48)), "board.png")
    await interaction.followup.send("the board", file=image, ephemeral=secret)


@citta.command(name="twice", description="Answer the same interaction twice")
async def twice(interaction: discord.Interaction) -> None:
    # A second Interaction object for the same interaction, as a second bot process would have.
    twin = copy.copy(interaction)
    await interaction.response.send_message("first")
    try:
        await interaction.response.send_message("again")
    except discord.InteractionResponded as e:
        tiny(interaction).seen.put_nowait(e)
    try:
        await twin.response.send_message("from the twin")
    except discord.HTTPException as e:
        tiny(interaction).seen.put_nowait(e)


@citta.command(name="tell", description="DM a player")
async def tell(interaction: discord.Interaction, player: discord.User) -> None:
    try:
        await player.send("your secret cards")
    except discord.Forbidden as e:
        tiny(interaction).seen.put_nowait(e)
        await interaction.response.send_message("cannot DM you", ephemeral=True)
    else:
        await interaction.response.send_message("sent", ephemeral=True)


@citta.command(name="slow", description="Answer only when the test says so")
async def slow(interaction: discord.Interaction) -> None:
    await tiny(interaction).release.wait()
    try:
        await interaction.response.send_message("too late")
    except discord.NotFound as e:
        tiny(interaction).seen.put_nowait(e)


@citta.command(name="long", description="Try a message Discord refuses")
async def long(interaction: discord.Interaction) -> None:
    try:
        await interaction.response.send_message("x" * 2001)
    except discord.HTTPException as e:
        tiny(interaction).seen.put_nowait(e)
        await interaction.response.send_message("shorter")


@citta.command(name="post", description="Post in the channel and edit it")
async def post(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("posting", ephemeral=True)
    assert interaction.channel is not None and isinstance(interaction.channel, discord.TextChannel)
    msg = await interaction.channel.send("draft", file=discord.File(io.BytesIO(png(8, 8)), "a.png"))
    await msg.edit(
        content="final", attachments=[*msg.attachments, discord.File(io.BytesIO(png(9, 9)), "b.png")]
    )
    fetched = await interaction.channel.fetch_message(msg.id)
    await interaction.delete_original_response()
    tiny(interaction).seen.put_nowait(fetched)


async def next_seen(bot: TinyBot) -> object:
    return await asyncio.wait_for(bot.seen.get(), 5)


@pytest.fixture
async def fake(fake_discord: FakeDiscord) -> FakeDiscord:
    fake_discord.add_user("zoe", dms_closed=True)
    return fake_discord


@pytest.fixture
async def bot(fake: FakeDiscord) -> AsyncIterator[TinyBot]:
    async with running(TinyBot(fake.guild_id), fake) as b:
        yield b


def alice(fake: FakeDiscord) -> FakeUser:
    return fake.user("alice")


async def test_bot_connects_sees_the_guild_and_syncs_its_commands(fake: FakeDiscord, bot: TinyBot) -> None:
    guild = bot.get_guild(fake.guild_id)
    assert bot.is_ready() and guild is not None and not guild.unavailable
    assert guild.member_count == len(fake.users) + 2, "the test users, the owner and the bot"
    assert guild.owner_id not in {u.id for u in fake.users}, "no test user has the owner's every permission"
    assert [c.name for c in guild.text_channels] == [fake.channel.name]
    assert bot.user is not None and bot.user.id == fake.bot_user.id == bot.application_id
    assert [c.name for c in bot.synced] == ["citta"] and bot.synced[0].id == fake.commands["citta"].id
    assert [c.name for c in bot.synced_global] == ["hello", "perms", "anywhere"]
    assert fake.commands["hello"].guild_id is None
    subcommands = {o["name"] for o in fake.commands["citta"].data["options"]}
    assert {"play", "hand", "board", "twice", "tell", "slow"} <= subcommands
    assert fake.unknown_routes == []


async def test_slash_subcommand_gets_a_public_message_with_the_view(fake: FakeDiscord, bot: TinyBot) -> None:
    rec = await fake.slash(alice(fake), "citta play", move="gold")
    assert rec.response_type == 4 and not rec.ephemeral and not rec.deferred
    assert rec.original is not None and rec.original.content == f"{alice(fake).mention} played gold"
    assert rec.original.custom_ids == ["citta:next", "citta:later", "citta:pick"]
    assert fake.messages() == [rec.original]


async def test_ephemeral_reply_is_seen_only_by_the_user(fake: FakeDiscord, bot: TinyBot) -> None:
    rec = await fake.slash(alice(fake), "citta hand")
    assert rec.ephemeral
    assert [m.content for m in fake.ephemerals(alice(fake))] == ["your hand: 3 gold"]
    assert fake.ephemerals(fake.user("bob")) == [] and fake.messages() == []


async def test_deferred_response_then_followup_carries_the_png(fake: FakeDiscord, bot: TinyBot) -> None:
    rec = await fake.slash(alice(fake), "citta board", width=80)
    assert rec.deferred
    msg = await rec.wait_message()
    fake.allow(rec)  # completed by a followup: see the next test
    assert msg.content == "the board" and [a.filename for a in msg.attachments] == ["board.png"]
    assert Image.open(io.BytesIO(msg.attachment("board.png").data)).size == (80, 48)
    async with aiohttp.ClientSession() as http, http.get(msg.attachments[0].url) as resp:
        assert resp.status == 200 and await resp.read() == msg.attachments[0].data
    assert fake.messages() == [msg] and not msg.loading


async def test_first_followup_after_a_public_defer_is_public_even_if_ephemeral(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    rec = await fake.slash(alice(fake), "citta board", secret=True)
    msg = await rec.wait_message()
    assert not msg.ephemeral and fake.messages() == [msg] and rec.followups == [msg]
    assert fake.followups_as_original == [rec]
    with pytest.raises(AssertionError, match="completed by a followup"):
        fake.check()
    fake.allow(rec)
    fake.check()


async def test_autocomplete_returns_the_bots_choices(fake: FakeDiscord, bot: TinyBot) -> None:
    choices = await fake.autocomplete(alice(fake), "citta play", focused="move", value="bu")
    assert choices == [{"name": "build", "value": "build"}, {"name": "bus", "value": "bus"}]


async def test_button_click_reaches_the_view_and_edits_the_message(fake: FakeDiscord, bot: TinyBot) -> None:
    rec = await fake.slash(alice(fake), "citta play", move="bus")
    assert rec.original is not None
    click = await fake.click(rec.original, "citta:next", fake.user("bob"))
    assert click.response_type == 7 and click.original is rec.original
    assert rec.original.content == "next clicked by bob" and len(rec.original.versions) == 2


async def test_deferred_click_edits_the_original_and_sends_an_ephemeral_followup(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    rec = await fake.slash(alice(fake), "citta play", move="bus")
    assert rec.original is not None
    click = await fake.click(rec.original, "citta:later", fake.user("bob"))
    assert click.response_type == 6 and click.original is rec.original
    [note] = await click.wait_followups(1)
    await fake.wait_for(lambda: note.content == "noted, edited")
    assert rec.original.content == "later by bob" and fake.messages() == [rec.original]
    assert fake.ephemerals(fake.user("bob")) == [note] and fake.ephemerals(alice(fake)) == []


async def test_select_reaches_the_view_with_the_values(fake: FakeDiscord, bot: TinyBot) -> None:
    rec = await fake.slash(alice(fake), "citta play", move="bus")
    assert rec.original is not None
    pick = await fake.select(rec.original, "citta:pick", ["a", "c"], fake.user("bob"))
    assert pick.ephemeral and pick.original is not None and pick.original.content == "picked a,c"
    with pytest.raises(FakeDiscordError, match="offers"):
        await fake.select(rec.original, "citta:pick", ["z"], fake.user("bob"))


async def test_second_response_to_an_interaction_is_refused(fake: FakeDiscord, bot: TinyBot) -> None:
    rec = await fake.slash(alice(fake), "citta twice")
    local = await next_seen(bot)
    remote = await next_seen(bot)
    assert isinstance(local, discord.InteractionResponded)  # discord.py stops a 2nd answer on the same object
    assert isinstance(remote, discord.HTTPException) and (remote.status, remote.code) == (400, 40060)
    assert rec.error_codes == [40060] and [m.content for m in rec.messages] == ["first"]


async def test_dm_to_a_user_with_closed_dms_is_forbidden(fake: FakeDiscord, bot: TinyBot) -> None:
    await fake.slash(alice(fake), "citta tell", player=fake.user("bob"))
    assert [m.content for m in fake.dms(fake.user("bob"))] == ["your secret cards"]
    zoe = fake.user("zoe")
    rec = await fake.slash(alice(fake), "citta tell", player=zoe)
    error = await next_seen(bot)
    assert isinstance(error, discord.Forbidden) and error.code == 50007
    assert fake.dms(zoe) == [] and rec.original is not None and rec.original.content == "cannot DM you"


async def test_unanswered_interaction_is_recorded_as_failed(fake: FakeDiscord, bot: TinyBot) -> None:
    assert FakeDiscord().ack_timeout == 3.0
    fake.ack_timeout = 0.2
    rec = await fake.slash(alice(fake), "citta slow")
    assert rec.failed and fake.failed_interactions == [rec]
    with pytest.raises(AssertionError, match="not answered"):
        fake.check()
    bot.release.set()
    late = await next_seen(bot)
    assert isinstance(late, discord.NotFound) and late.code == 10062
    fake.allow(rec)
    fake.check()


async def test_a_defer_never_completed_fails_the_check(fake: FakeDiscord, bot: TinyBot) -> None:
    rec = await fake.slash(alice(fake), "citta stuck")
    assert rec.deferred and rec.original is not None and rec.original.loading and fake.messages() == []
    with pytest.raises(AssertionError, match="never completed"):
        fake.check()
    fake.allow(rec)


async def test_a_forged_press_reaches_the_bot_from_another_guild_a_dm_and_another_channel(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    other = await fake.add_guild("other")
    side = await fake.add_text_channel("side")
    bob = fake.user("bob")
    for where in (other.channel, fake.dm_channel(bob), side):
        rec = await fake.forge(bob, "citta:next", channel=where)
        assert rec.response_type == 7 and rec.channel is where and rec.message is not None
        assert rec.message.content == "next clicked by bob" and rec.message not in where.messages
    pick = await fake.forge(bob, "citta:pick", channel=other.channel, values=["b"])
    assert pick.original is not None and pick.original.content == "picked b"
    assert fake.messages(other.channel) == []


async def test_a_granted_role_reaches_the_bot_as_the_members_permissions(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    other = await fake.add_guild("other")
    bob = fake.user("bob")
    fake.grant(bob, "manage_guild", guild=other)
    answers = []
    for who, where in ((bob, fake.channel), (bob, other.channel), (alice(fake), other.channel)):
        rec = await fake.slash(who, "perms", channel=where)
        assert rec.original is not None
        answers.append(rec.original.content)
    assert answers == ["manage_guild=False", "manage_guild=True", "manage_guild=False"]


async def test_discord_py_computes_who_may_view_a_private_channel_as_the_fake_enforces_it(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    bob, carol, dave = fake.user("bob"), fake.user("carol"), fake.user("dave")
    secret = await fake.add_private_channel("secret", bob, roles=(carol,))
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None
    cached = await fake.wait_for(lambda: guild.get_channel(secret.id))
    assert isinstance(cached, discord.TextChannel)

    async def sees(user: FakeUser) -> tuple[bool, bool]:
        """Whether discord.py, with the member of ``user``'s interaction, and the fake let them view it."""
        await fake.slash(user, "perms")
        member = await asyncio.wait_for(bot.seen.get(), 5)
        assert isinstance(member, discord.Member)
        return cached.permissions_for(member).view_channel, bool(fake.permissions(secret, user) & 1024)

    assert [await sees(u) for u in (bob, carol, dave)] == [(True, True), (True, True), (False, False)]
    assert cached.permissions_for(guild.me).view_channel, "the bot is let in"
    await fake.let_view(secret, dave, by_role=True)
    await fake.wait_for(lambda: len(cached.overwrites) == 5)
    assert await sees(dave) == (True, True), "a role given while the bot runs reaches its cache"
    await fake.give_role(dave, "administrator")
    await fake.wait_for(lambda: (r := guild.get_role(fake.store.guilds[guild.id].role_ids[dave.id]))
                        and r.permissions.administrator)  # fmt: skip
    assert await sees(dave) == (True, True)


async def test_nested_group_subcommand_gets_typed_options(fake: FakeDiscord, bot: TinyBot) -> None:
    rec = await fake.slash(alice(fake), "citta admin reset", game="7")
    assert rec.original is not None and rec.original.content == "reset game 7"


async def test_global_command_works_in_a_dm(fake: FakeDiscord, bot: TinyBot) -> None:
    alice_ = alice(fake)
    rec = await fake.slash(alice_, "hello", channel=fake.dm_channel(alice_))
    assert rec.original is not None and fake.dms(alice_) == [rec.original]
    assert rec.original.content == "hello alice (DM)"
    with pytest.raises(FakeDiscordError, match="not available in DMs"):
        await fake.slash(alice_, "citta hand", channel=fake.dm_channel(alice_))
    guild_rec = await fake.slash(alice_, "hello")
    assert guild_rec.original is not None and guild_rec.original.content == "hello alice (guild)"


async def test_a_command_runs_only_in_the_contexts_it_allows_and_installs_to_users(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    alice_, bob = alice(fake), fake.user("bob")
    group = fake.group_dm("friends", alice_, bob)
    with pytest.raises(FakeDiscordError, match="not offered in a DM with the bot"):
        await fake.slash(alice_, "perms", channel=fake.dm_channel(alice_))  # contexts: servers only
    with pytest.raises(FakeDiscordError, match="installed to the user's account"):
        await fake.slash(alice_, "anywhere", channel=group)
    with pytest.raises(FakeDiscordError, match="not offered in a private channel"):
        await fake.slash(alice_, "hello", channel=group)
    fake.install_for(alice_)
    said = []
    for where in (fake.channel, fake.dm_channel(alice_), group):
        rec = await fake.slash(alice_, "anywhere", channel=where)
        assert rec.original is not None and rec.original.ephemeral
        said.append(rec.original.content)
    assert said == [
        "guild; user install: True",
        "bot DM; user install: True",
        "private channel; user install: True",
    ]
    with pytest.raises(FakeDiscordError, match="not in the group DM"):
        await fake.slash(fake.user("carol"), "anywhere", channel=group)


async def test_serve_points_discord_py_at_the_fake_and_restores_it() -> None:
    before = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    async with serve() as fake:
        assert f"http://127.0.0.1:{fake.port}/api/v10" == discord.http.Route.BASE
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == f"ws://127.0.0.1:{fake.port}/"
    assert before == (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)


async def test_discord_limits_are_enforced(fake: FakeDiscord, bot: TinyBot) -> None:
    rec = await fake.slash(alice(fake), "citta long")
    error = await next_seen(bot)
    assert isinstance(error, discord.HTTPException) and error.code == 50035 and "content" in error.text
    assert rec.original is not None and rec.original.content == "shorter"


async def test_channel_message_with_attachments_is_created_edited_and_fetched(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    await fake.slash(alice(fake), "citta post")
    fetched = await next_seen(bot)
    assert isinstance(fetched, discord.Message) and fetched.content == "final"
    [msg] = fake.messages()
    assert [a.filename for a in msg.attachments] == ["a.png", "b.png"] and msg.attachment("b.png").width == 9
    assert [a.filename for a in fetched.attachments] == ["a.png", "b.png"]
    assert await fetched.attachments[1].read() == msg.attachment("b.png").data
    assert [v["content"] for v in msg.versions] == ["draft", "final"]
    assert fake.ephemerals(alice(fake)) == []  # "posting" was deleted


async def test_driver_refuses_what_a_discord_client_cannot_do(fake: FakeDiscord, bot: TinyBot) -> None:
    with pytest.raises(FakeDiscordError, match="unknown command"):
        await fake.slash(alice(fake), "chess play", move="e4")
    with pytest.raises(FakeDiscordError, match="no subcommand"):
        await fake.slash(alice(fake), "citta resign")
    with pytest.raises(FakeDiscordError, match="requires"):
        await fake.slash(alice(fake), "citta play")
    with pytest.raises(FakeDiscordError, match="no option"):
        await fake.slash(alice(fake), "citta play", move="gold", speed=3)
    with pytest.raises(FakeDiscordError, match="not a valid integer"):
        await fake.slash(alice(fake), "citta admin reset", game="seven")
    with pytest.raises(FakeDiscordError, match="has no autocomplete"):
        await fake.autocomplete(alice(fake), "citta admin reset", focused="game", value="1")
    rec = await fake.slash(alice(fake), "citta hand")
    assert rec.original is not None
    with pytest.raises(FakeDiscordError, match="cannot see"):
        await fake.click(rec.original, "citta:next", fake.user("bob"))


async def test_unknown_route_answers_404_and_is_recorded(fake: FakeDiscord, bot: TinyBot) -> None:
    route = discord.http.Route("GET", "/guilds/{guild_id}/roles", guild_id=fake.guild_id)
    with pytest.raises(discord.NotFound):
        await bot.http.request(route)
    assert fake.unknown_routes == [("GET", f"/api/v10/guilds/{fake.guild_id}/roles")]
    fake.unknown_routes.clear()


async def test_two_running_bots_both_answer_and_one_is_refused(fake: FakeDiscord, bot: TinyBot) -> None:
    async with running(TinyBot(fake.guild_id), fake):
        assert len(fake.connected) == 2
        rec = await fake.slash(alice(fake), "citta play", move="gold")
        await fake.wait_for(lambda: rec.errors)
    assert rec.error_codes == [40060] and len(fake.messages()) == 1


async def test_gateway_reconnect_resumes_the_session(fake: FakeDiscord, bot: TinyBot) -> None:
    [session] = fake.sessions.values()
    await fake.request_reconnect()
    await asyncio.wait_for(bot.resumed.wait(), 5)
    assert list(fake.sessions.values()) == [session]
    rec = await fake.slash(alice(fake), "citta hand")
    assert rec.ephemeral


async def test_restarted_bot_answers_buttons_of_the_old_one(fake: FakeDiscord) -> None:
    async with running(TinyBot(fake.guild_id), fake):
        rec = await fake.slash(alice(fake), "citta play", move="gold")
    assert rec.original is not None and fake.connected == []
    with pytest.raises(FakeDiscordError, match="no bot"):
        await fake.click(rec.original, "citta:next", fake.user("bob"))
    async with running(TinyBot(fake.guild_id), fake):
        click = await fake.click(rec.original, "citta:next", fake.user("carol"))
    assert click.response_type == 7 and rec.original.content == "next clicked by carol"
