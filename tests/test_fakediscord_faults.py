"""The fake's faults, proved with a real discord.py client: injected errors and held requests, channel
permissions, deleted channels, threads and forum posts, nonces and history, gateway disconnects."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from fakediscord import FakeChannel, FakeDiscord, FakeDiscordError, running
from fakediscord.fixtures import fake_discord
from fakediscord.launch import scale_discord_sleeps

__all__ = ["fake_discord"]

MESSAGES = r"/channels/\d+/messages"


class ProbeBot(discord.Client):
    """A bare client with two guild commands; it records what discord.py tells it."""

    def __init__(self, guild_id: int, **options: Any) -> None:
        super().__init__(intents=discord.Intents.default(), **options)
        self.tree = app_commands.CommandTree(self)
        self.guild = discord.Object(guild_id)
        self.seen: list[discord.Message] = []
        self.resumed = asyncio.Event()
        self.app_permissions: list[discord.Permissions] = []
        self.tree.add_command(app_commands.Command(name="where", description="Where am I", callback=where))
        self.tree.add_command(app_commands.Command(name="both", description="Answer, post", callback=both))
        for cmd in self.tree.get_commands():
            self.tree.add_command(cmd, guild=self.guild, override=True)

    async def setup_hook(self) -> None:
        await self.tree.sync(guild=self.guild)

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message)

    async def on_resumed(self) -> None:
        self.resumed.set()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            kind = type(interaction.channel).__name__
            await interaction.response.send_message(f"clicked in a {kind}", ephemeral=True)


def probe(interaction: discord.Interaction) -> ProbeBot:
    assert isinstance(interaction.client, ProbeBot)
    return interaction.client


async def where(interaction: discord.Interaction) -> None:
    channel = interaction.channel
    parent = getattr(channel, "parent", None)
    probe(interaction).app_permissions.append(interaction.app_permissions)
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Here", custom_id="probe:here"))
    kind = type(channel).__name__
    await interaction.response.send_message(f"{kind} in {getattr(parent, 'name', None)}", view=view)


async def both(interaction: discord.Interaction) -> None:
    """Answers through the interaction (always allowed), then posts in the channel (may be refused)."""
    await interaction.response.send_message("answer", ephemeral=True)
    await interaction.followup.send("followup")
    assert isinstance(interaction.channel, discord.abc.Messageable)
    try:
        await interaction.channel.send("post")
    except discord.HTTPException as e:
        await interaction.followup.send(f"refused {e.status} {e.code}", ephemeral=True)


@pytest.fixture
async def bot(fake_discord: FakeDiscord) -> AsyncIterator[ProbeBot]:
    async with running(ProbeBot(fake_discord.guild_id), fake_discord) as b:
        yield b


@pytest.fixture
def fast() -> Iterator[None]:
    """discord.py's retry sleeps (1, 3, 5, 7, 9 s after 5xx) a hundred times shorter."""
    restore = scale_discord_sleeps(0.01)
    yield
    restore()


def text_channel(bot: discord.Client, fake: FakeDiscord) -> discord.TextChannel:
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


def bot_perms(channel: discord.TextChannel | discord.Thread) -> discord.Permissions:
    """What discord.py's cache says the bot may do in ``channel``."""
    assert channel.guild.me is not None
    return channel.permissions_for(channel.guild.me)


def partial(bot: discord.Client, channel: FakeChannel) -> discord.PartialMessageable:
    return bot.get_partial_messageable(channel.id, guild_id=channel.guild_id)


def png() -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG\r\n\x1a\n"), "a.png")


# --- injected errors and held requests ----------------------------------------------------------------


async def test_a_429_is_waited_out_and_retried(fake_discord: FakeDiscord, bot: ProbeBot) -> None:
    fake = fake_discord
    fake.fail("POST", MESSAGES, 429, retry_after=0.2)
    started = time.monotonic()
    msg = await text_channel(bot, fake).send("hi")
    assert time.monotonic() - started >= 0.2
    [served] = fake.faults_served
    assert (served.method, served.path, served.status) == (
        "POST",
        f"/channels/{fake.channel.id}/messages",
        429,
    )
    assert served.body == {
        "message": "You are being rate limited.",
        "retry_after": 0.2,
        "global": False,
        "code": 0,
    }
    assert [m.id for m in fake.messages()] == [msg.id]
    assert fake.requests.count(("POST", f"/api/v10/channels/{fake.channel.id}/messages")) == 2


async def test_rate_limit_headers_are_discords(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.fail("GET", "/users/@me", 429, retry_after=1.5)
    fake.fail("GET", "/users/@me", 429, retry_after=0.5, global_=True)
    async with aiohttp.ClientSession() as http:
        for _ in range(2):
            async with http.get(f"{fake.api_base}/users/@me") as resp:
                assert resp.status == 429 and resp.headers["Via"] == "1.1 google"
                headers = dict(resp.headers)
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert [f.body["global"] for f in fake.faults_served] == [False, True]


async def test_five_429s_exhaust_discord_py_and_a_global_one_is_retried(
    fake_discord: FakeDiscord, bot: ProbeBot
) -> None:
    fake = fake_discord
    fake.fail("POST", MESSAGES, 429, retry_after=0.01, times=5)
    with pytest.raises(discord.HTTPException) as info:
        await text_channel(bot, fake).send("hi")
    assert info.value.status == 429 and len(fake.faults_served) == 5 and fake.messages() == []
    fake.fail("*", r"/channels/\d+(/.*)?", 429, retry_after=0.01, global_=True)
    await text_channel(bot, fake).send("again")
    assert fake.faults_served[-1].body["global"] is True and len(fake.messages()) == 1


async def test_a_long_rate_limit_raises_at_once_past_max_ratelimit_timeout(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with running(ProbeBot(fake.guild_id, max_ratelimit_timeout=30.0), fake) as bot:
        fake.fail("POST", MESSAGES, 429, retry_after=60.0)
        with pytest.raises(discord.RateLimited) as info:
            await text_channel(bot, fake).send("hi")
    assert info.value.retry_after == 60.0 and fake.messages() == []


async def test_one_500_costs_a_second_and_five_exhaust_discord_py(
    fake_discord: FakeDiscord, bot: ProbeBot
) -> None:
    fake = fake_discord
    fake.fail("POST", MESSAGES, 500)
    started = time.monotonic()
    await text_channel(bot, fake).send("hi")
    assert time.monotonic() - started >= 1.0 and len(fake.messages()) == 1
    restore = scale_discord_sleeps(0.01)
    try:
        fake.fail("POST", MESSAGES, 502, times=5)
        with pytest.raises(discord.DiscordServerError) as info:
            await text_channel(bot, fake).send("again")
    finally:
        restore()
    assert info.value.status == 502 and [f.status for f in fake.faults_served] == [500] + [502] * 5
    assert len(fake.messages()) == 1


async def test_a_503_and_4xx_are_raised_at_once(fake_discord: FakeDiscord, bot: ProbeBot) -> None:
    fake = fake_discord
    fake.fail("POST", MESSAGES, 503)
    fake.fail("POST", MESSAGES, 403, code=50013, message="Missing Permissions")
    fake.fail("GET", r"/channels/\d+", 404, code=10003, message="Unknown Channel")
    with pytest.raises(discord.DiscordServerError):
        await text_channel(bot, fake).send("hi")
    with pytest.raises(discord.Forbidden) as forbidden:
        await text_channel(bot, fake).send("hi")
    with pytest.raises(discord.NotFound) as not_found:
        await bot.fetch_channel(fake.channel.id)
    assert (forbidden.value.code, forbidden.value.text) == (50013, "Missing Permissions")
    assert not_found.value.code == 10003 and len(fake.faults_served) == 3 and fake.messages() == []
    assert await bot.fetch_channel(fake.channel.id)  # faults are used up


async def test_interaction_callbacks_are_retried_after_a_5xx(
    fake_discord: FakeDiscord, bot: ProbeBot, fast: None
) -> None:
    fake = fake_discord
    fake.fail("POST", r"/interactions/\d+/[^/]+/callback", 503, times=2)
    fake.fail("POST", r"/webhooks/\d+/[^/]+", 500)
    rec = await fake.slash(fake.user("alice"), "both")
    await fake.wait_for_message(lambda m: m.content == "post")
    assert [f.status for f in fake.faults_served] == [503, 503, 500]
    assert [m.content for m in rec.messages] == ["answer", "followup"]


async def test_a_held_request_is_handled_on_release_even_if_its_client_is_gone(
    fake_discord: FakeDiscord, bot: ProbeBot
) -> None:
    fake = fake_discord
    held = fake.hold("POST", MESSAGES)
    sending = asyncio.create_task(text_channel(bot, fake).send("held"))
    await held.wait_arrived()
    await asyncio.sleep(0.05)
    assert not sending.done() and fake.messages() == []
    sending.cancel()  # the client gives up (a killed process would too) ...
    await asyncio.sleep(0.05)
    held.release()  # ... but Discord had the request: the message exists
    msg = await fake.wait_for_message()
    assert msg.content == "held" and held.arrived == [("POST", f"/channels/{fake.channel.id}/messages")]
    assert (await text_channel(bot, fake).send("not held")).content == "not held"


async def test_a_dropped_held_request_is_never_handled(fake_discord: FakeDiscord, bot: ProbeBot) -> None:
    fake = fake_discord
    held = fake.hold("POST", MESSAGES)
    sending = asyncio.create_task(text_channel(bot, fake).send("lost"))
    await held.wait_arrived()
    held.drop()
    with pytest.raises(aiohttp.ClientError):
        await sending
    assert fake.messages() == []


# --- channel permissions --------------------------------------------------------------------------------


async def test_denied_send_messages_is_seen_by_discord_py_and_enforced(
    fake_discord: FakeDiscord, bot: ProbeBot
) -> None:
    fake = fake_discord
    channel = text_channel(bot, fake)
    before = bot_perms(channel)
    assert before.send_messages and before.attach_files and before.embed_links and before.view_channel
    assert before.value == fake.permissions(fake.channel)
    await fake.deny(fake.channel, "send_messages")
    await fake.wait_for(lambda: not bot_perms(channel).send_messages)
    after = bot_perms(channel)
    assert not after.attach_files and not after.embed_links and after.view_channel  # implicit denials
    assert after.value == fake.permissions(fake.channel)
    with pytest.raises(discord.Forbidden) as info:
        await channel.send("hi")
    assert (info.value.status, info.value.code, info.value.text) == (403, 50013, "Missing Permissions")
    await fake.allow_perms(fake.channel, "send_messages")
    await fake.wait_for(lambda: bot_perms(channel).send_messages)
    assert (await channel.send("hi")).content == "hi"
    send = str(discord.Permissions(send_messages=True).value)
    overwrite = {"id": str(fake.bot_user.id), "type": 1, "allow": send, "deny": "0"}
    assert fake.channel.overwrites[fake.bot_user.id].to_dict() == overwrite


async def test_attach_files_embed_links_and_view_channel(fake_discord: FakeDiscord, bot: ProbeBot) -> None:
    fake = fake_discord
    channel = text_channel(bot, fake)
    await fake.deny(fake.channel, "attach_files", "embed_links")
    with pytest.raises(discord.Forbidden) as files:
        await channel.send("board", file=png())
    with pytest.raises(discord.Forbidden) as embed_only:
        await channel.send(embed=discord.Embed(title="t"))
    kept = await channel.send("text", embed=discord.Embed(title="t"))  # Discord drops the embed
    assert files.value.code == embed_only.value.code == 50013
    assert kept.embeds == [] and [m.content for m in fake.messages()] == ["text"]
    await fake.reset_perms(fake.channel)
    await fake.deny(fake.channel, "view_channel")
    await fake.wait_for(lambda: not bot_perms(channel).view_channel)
    assert bot_perms(channel).value == 0
    for call in (channel.send("x"), channel.fetch_message(kept.id), bot.fetch_channel(channel.id)):
        with pytest.raises(discord.Forbidden) as info:
            await call
        assert info.value.code == 50001 and info.value.text == "Missing Access"


async def test_interaction_answers_ignore_channel_permissions(
    fake_discord: FakeDiscord, bot: ProbeBot
) -> None:
    fake = fake_discord
    await fake.deny(fake.channel, "send_messages", "view_channel")
    alice = fake.user("alice")
    rec = await fake.slash(alice, "both")
    [followup, refusal] = await rec.wait_followups(2)
    assert followup.content == "followup" and not followup.ephemeral
    assert refusal.content == "refused 403 50001" and refusal.ephemeral
    await fake.allow_perms(fake.channel, "view_channel")
    where_rec = await fake.slash(alice, "where")
    assert where_rec.original is not None and where_rec.original.content == "TextChannel in None"
    [app] = bot.app_permissions
    assert app.view_channel and not app.send_messages and not app.attach_files


async def test_sending_in_threads_is_its_own_permission(fake_discord: FakeDiscord, bot: ProbeBot) -> None:
    fake = fake_discord
    side = await fake.add_thread("side")
    thread = await fake.wait_for(lambda: bot.get_channel(side.id))
    assert isinstance(thread, discord.Thread)
    assert bot_perms(thread).value == fake.permissions(side)
    with pytest.raises(FakeDiscordError, match="no permission overwrites"):
        await fake.deny(side, "send_messages_in_threads")
    await fake.deny(fake.channel, "send_messages_in_threads")
    await fake.wait_for(lambda: not bot_perms(thread).send_messages_in_threads)
    assert bot_perms(thread).value == fake.permissions(side)
    with pytest.raises(discord.Forbidden) as info:
        await thread.send("in the thread")
    assert info.value.code == 50013
    assert (await text_channel(bot, fake).send("in the channel")).content == "in the channel"


# --- deleted channels ---------------------------------------------------------------------------------


async def test_a_deleted_channel_or_thread_is_unknown(fake_discord: FakeDiscord, bot: ProbeBot) -> None:
    fake = fake_discord
    side = await fake.add_thread("side")
    await fake.wait_for(lambda: bot.get_channel(side.id))
    await fake.delete_channel(side)
    await fake.wait_for(lambda: bot.get_channel(side.id) is None)
    channel = text_channel(bot, fake)
    await fake.delete_channel(fake.channel)
    await fake.wait_for(lambda: bot.get_channel(fake.channel.id) is None)
    for call in (channel.send("x"), bot.fetch_channel(channel.id), partial(bot, side).send("x")):
        with pytest.raises(discord.NotFound) as info:
            await call
        assert (info.value.code, info.value.text) == (10003, "Unknown Channel")
    with pytest.raises(FakeDiscordError, match="cannot use an app"):
        await fake.slash(fake.user("alice"), "where")


# --- threads and forum posts --------------------------------------------------------------------------


async def test_threads_reach_discord_py_in_guild_create_and_thread_create(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    early = await fake.add_thread("early", auto_archive_minutes=60)
    async with running(ProbeBot(fake.guild_id), fake) as bot:
        thread = bot.get_channel(early.id)
        assert isinstance(thread, discord.Thread) and thread.parent_id == fake.channel.id
        assert thread.auto_archive_duration == 60 and not thread.archived and not thread.locked
        late = await fake.add_thread("late")
        await fake.wait_for(lambda: bot.get_channel(late.id))
        post = await fake.add_thread("a post", forum=True)
        await fake.wait_for(lambda: bot.get_channel(post.id))
        forum_post = bot.get_channel(post.id)
        assert isinstance(forum_post, discord.Thread) and isinstance(forum_post.parent, discord.ForumChannel)
        starter = await forum_post.fetch_message(post.id)  # a forum post's first message has its id
        assert starter.content == "a post" and starter.author.id == fake.user("alice").id
        assert post.parent is not None and forum_post.parent.id == post.parent.id
        with pytest.raises(discord.HTTPException) as info:
            await partial(bot, post.parent).send("x")
        assert (info.value.status, info.value.code) == (400, 50008)
        sent = await forum_post.send("in the post")
        assert fake.messages(post)[-1].id == sent.id


async def test_a_message_unarchives_an_archived_thread(fake_discord: FakeDiscord, bot: ProbeBot) -> None:
    fake = fake_discord
    side = await fake.add_thread("side")
    await fake.wait_for(lambda: bot.get_channel(side.id))
    await fake.archive(side)
    await fake.wait_for(lambda: bot.get_channel(side.id) is None)  # discord.py drops archived threads
    fetched = await bot.fetch_channel(side.id)
    assert isinstance(fetched, discord.Thread) and fetched.archived
    await partial(bot, side).send("wake up")
    assert not side.archived and fake.messages(side)[-1].content == "wake up"
    await fake.wait_for(lambda: bot.get_channel(side.id))  # THREAD_UPDATE brought it back
    await fake.archive(side)
    thread = await bot.fetch_channel(side.id)
    assert isinstance(thread, discord.Thread)
    await thread.edit(archived=False)
    assert not side.archived


async def test_a_locked_archived_thread_refuses_the_bot(fake_discord: FakeDiscord, bot: ProbeBot) -> None:
    fake = fake_discord
    side = await fake.add_thread("side")
    await fake.archive(side, locked=True)
    with pytest.raises(discord.Forbidden) as info:
        await partial(bot, side).send("let me in")
    assert (info.value.code, info.value.text) == (50083, "Thread is archived")
    thread = await bot.fetch_channel(side.id)
    assert isinstance(thread, discord.Thread) and thread.locked
    with pytest.raises(discord.Forbidden) as edit:
        await thread.edit(archived=False)
    assert edit.value.code == 50083 and side.archived
    with pytest.raises(FakeDiscordError, match="locked"):
        await fake.user_says(fake.user("alice"), side, "hello?")
    await fake.allow_perms(fake.channel, "manage_threads")
    await thread.edit(archived=False, locked=False)
    assert not side.archived and not side.locked


async def test_users_use_the_bot_in_a_thread_but_not_an_archived_one(
    fake_discord: FakeDiscord, bot: ProbeBot
) -> None:
    fake = fake_discord
    alice, side = fake.user("alice"), await fake.add_thread("side")
    rec = await fake.slash(alice, "where", channel=side)
    msg = await rec.wait_message()
    assert msg.channel is side and msg.content == f"Thread in {fake.channel.name}"
    click = await fake.click(msg, "probe:here", fake.user("bob"), channel=side)
    assert click.original is not None and click.original.content == "clicked in a Thread"
    with pytest.raises(FakeDiscordError, match="is in"):
        await fake.click(msg, "probe:here", alice, channel=fake.channel)
    await fake.archive(side)
    with pytest.raises(FakeDiscordError, match="archived"):
        await fake.slash(alice, "where", channel=side)
    said = await fake.user_says(alice, side, "anyone?")
    assert not side.archived and fake.messages(side)[-1] is said
    again = await fake.slash(alice, "where", channel=side)
    assert (await again.wait_message()).channel is side


async def test_threads_auto_archive_when_the_clock_moves(fake_discord: FakeDiscord, bot: ProbeBot) -> None:
    fake = fake_discord
    quick, slow = await fake.add_thread("quick", auto_archive_minutes=60), await fake.add_thread("slow")
    await fake.advance(3600)
    assert quick.archived and not slow.archived
    await fake.wait_for(lambda: bot.get_channel(quick.id) is None and bot.get_channel(slow.id))


# --- nonces and history -------------------------------------------------------------------------------


async def test_a_repeated_nonce_returns_the_first_message(fake_discord: FakeDiscord, bot: ProbeBot) -> None:
    fake = fake_discord
    channel = text_channel(bot, fake)
    first = await channel.send("once", nonce=4242)
    again = await channel.send("twice?", nonce=4242)
    assert again.id == first.id and again.content == "once" and first.nonce == "4242"
    assert [m.content for m in fake.messages()] == ["once"]
    await fake.wait_for(lambda: bot.seen)
    assert [(m.id, m.nonce) for m in bot.seen] == [(first.id, "4242")]  # MESSAGE_CREATE carries it
    assert (await channel.fetch_message(first.id)).nonce is None
    [listed] = [m async for m in channel.history()]
    assert listed.id == first.id and listed.nonce is None
    await fake.advance(fake.nonce_window)
    later = await channel.send("later", nonce=4242)
    assert later.id != first.id and len(fake.messages()) == 2


async def test_nonce_without_enforce_nonce_and_a_deleted_nonce_message(
    fake_discord: FakeDiscord, bot: ProbeBot
) -> None:
    fake = fake_discord
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=fake.channel.id)
    for _ in range(2):
        await bot.http.request(route, json={"content": "loose", "nonce": "n1"})
    assert len(fake.messages()) == 2
    first = await text_channel(bot, fake).send("strict", nonce="n2")
    await first.delete()
    with pytest.raises(discord.NotFound) as info:
        await text_channel(bot, fake).send("strict", nonce="n2")
    assert info.value.code == 10008 and len(fake.messages()) == 2
    with pytest.raises(discord.HTTPException) as too_long:
        await text_channel(bot, fake).send("x", nonce="n" * 26)  # Discord: 25 characters at most
    assert too_long.value.code == 50035 and "nonce" in too_long.value.text


async def test_history_pages_newest_first(fake_discord: FakeDiscord, bot: ProbeBot) -> None:
    fake = fake_discord
    channel = text_channel(bot, fake)
    sent = [await channel.send(str(i)) for i in range(7)]
    assert [m.content async for m in channel.history(limit=3)] == ["6", "5", "4"]
    assert [m.content async for m in channel.history(limit=None, before=sent[2])] == ["1", "0"]
    assert [m.content async for m in channel.history(limit=2, after=sent[3])] == ["4", "5"]
    assert [m.content async for m in channel.history(limit=None, oldest_first=True)] == [
        str(i) for i in range(7)
    ]
    await fake.deny(fake.channel, "read_message_history")
    assert [m async for m in channel.history()] == []


# --- gateway disconnects ------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["reconnect", "drop"])
async def test_a_disconnected_bot_resumes_and_gets_what_it_missed(
    fake_discord: FakeDiscord, bot: ProbeBot, how: str
) -> None:
    fake = fake_discord
    [session] = fake.sessions.values()
    alice = fake.user("alice")
    async with fake.gateway_paused():
        await (fake.request_reconnect() if how == "reconnect" else fake.drop_gateway())
        await fake.wait_for(lambda: not session.connected)
        missed = await fake.user_says(alice, fake.channel, "while you were away")
        assert bot.seen == []
    await asyncio.wait_for(bot.resumed.wait(), 5)
    await fake.wait_for(lambda: bot.seen)
    assert [m.id for m in bot.seen] == [missed.id] and bot.seen[0].author.id == alice.id
    assert list(fake.sessions.values()) == [session] and fake.gateway.identifies == 1
    assert session.resumes == 1 and len(session.replayed) == 1
    rec = await fake.slash(alice, "where")
    assert rec.original is not None
