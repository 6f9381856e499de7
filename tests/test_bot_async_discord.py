"""The clock through real discord.py on the fake Discord: the bot's tick sends the reminder DM,
falls back to a mention when DMs are closed, and posts the deadline move and stall notices."""

from __future__ import annotations

from pathlib import Path

from fakediscord import FakeDiscord, FakeUser
from fakediscord.driver import running
from fakediscord.fixtures import fake_discord
from test_bot_support import HOUR, MIDNIGHT, SEED, FakeClock

from bot.client.bot import CittaBot
from bot.results import User
from bot.service import lobby as svc_lobby
from bot.service import settings as svc_settings
from engine import Game

__all__ = ["fake_discord"]


async def _game(bot: CittaBot, fake: FakeDiscord, players: list[FakeUser]) -> FakeUser:
    """A started game of ``players`` in the fake's channel; the user who must move first."""
    svc = bot.service
    svc.seeds = lambda: SEED
    users = [User(p.id, p.name) for p in players]
    await svc_lobby.new_game(svc, users[0], channel=fake.channel.id, guild=fake.guild_id)
    row = await svc.storage.games.open_game(fake.channel.id)
    assert row is not None
    for u in users[1:]:
        await svc_lobby.join(svc, row.id, u)
    await svc_lobby.start(svc, row.id, users[0])
    first = Game.new([p.name for p in players], seed=SEED).pending_seats()[0]
    return players[first]


async def test_the_clock_reminds_by_dm_then_tells_the_channel_and_applies_the_policy(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake, clock = fake_discord, FakeClock()
    alice, bob = fake.user("alice"), fake.user("bob")
    async with running(CittaBot(db_path=tmp_path / "c.db", renderer=None, sync_commands=False,
                                clock=clock), fake) as bot:  # fmt: skip
        waiting = await _game(bot, fake, [alice, bob])
        await svc_settings.me(bot.service, waiting.id, remind_by="dm")
        clock.now = MIDNIGHT + 12 * HOUR
        await bot.tick()
        await bot.deliverer.settle()
        [dm] = fake.dms(waiting)
        assert "waits for you" in dm.content
        for hours in (24, 36, 48):
            clock.now = MIDNIGHT + hours * HOUR
            await bot.tick()
        await bot.deliverer.settle()
        assert len(fake.dms(waiting)) == 3
        stalled = fake.messages()[-1]
        assert "stalled" in stalled.content and stalled.author == fake.bot_user
        await svc_settings.settings(bot.service, alice.id, channel=fake.channel.id, policy="skip")
        await bot.tick()
        await bot.deliverer.settle()
        played = fake.messages()[-1]
        assert "Time is up" in played.content and "least harmful move" in played.content


async def test_a_reminder_that_cannot_be_sent_by_dm_becomes_a_mention(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake, clock = fake_discord, FakeClock()
    carol, dave = fake.add_user("carol", dms_closed=True), fake.add_user("dave", dms_closed=True)
    async with running(CittaBot(db_path=tmp_path / "c.db", renderer=None, sync_commands=False,
                                clock=clock), fake) as bot:  # fmt: skip
        waiting = await _game(bot, fake, [carol, dave])
        await svc_settings.me(bot.service, waiting.id, remind_by="dm")
        clock.now = MIDNIGHT + 12 * HOUR
        await bot.tick()
        await bot.deliverer.settle()
        assert fake.dms(waiting) == []
        last = fake.messages()[-1]
        assert last.mentioned == [waiting.id] and waiting.id in last.pinged
        assert "could not send you a direct message" in last.content
