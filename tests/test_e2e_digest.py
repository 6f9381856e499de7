"""End-to-end: the daily digest (``/citta me digest``). Alice asks for one at 7:00 UTC+1, inside her
quiet hours (22-08): it comes at 08:00, once a day, listing the game waiting on her with a link to
the post that asks; Bob asks for one too, but nothing waits on him: he gets none."""

from __future__ import annotations

import time
from pathlib import Path

from fakediscord import FakeDiscord, FakeMessage, FakeUser
from fakediscord.fixtures import fake_discord
from test_e2e_my_games import _asked
from test_e2e_support import Table, citta_bot

from bot.client.bot import CittaBot
from bot.service.mine import jump_link

__all__ = ["fake_discord"]

SEED = 5
HOUR = 3600


class Fixed:
    """The bot's clock, set by the test."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


async def _said(fake: FakeDiscord, user: FakeUser, command: str, **options: object) -> str:
    msg = await (await fake.slash(user, command, **options)).wait_message()  # type: ignore[arg-type]
    assert msg.ephemeral, msg
    return msg.text


async def _tick_at(bot: CittaBot, clock: Fixed, at: float) -> None:
    clock.now = at
    await bot.tick()
    await bot.deliverer.settle()


def _digests(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    return [m for m in fake.dms(user) if m.text.startswith("📬")]


async def test_the_digest_comes_at_her_hour_outside_quiet_hours_once_a_day_and_only_when_a_game_waits(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    clock = Fixed()
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot)
        await table.open(bob, [alice])
        await _asked(table, alice, waiting=True)
        assert "08:00" in await _said(fake, alice, "citta me quiet", hours="22-08 UTC+1")
        said = await _said(fake, alice, "citta me digest", time="7 UTC+1")
        assert "08:00 UTC+1" in said and "end of your quiet hours" in said, said
        assert "18:00 UTC+0" in await _said(fake, bob, "citta me digest", time="18")
        assert "not a time of day" in await _said(fake, bob, "citta me digest", time="25:00")

        day = (int(time.time()) // 86400 + 1) * 86400  # tomorrow, 00:00 UTC
        bot.service.clock = clock
        await _tick_at(bot, clock, day + 6 * HOUR + 30 * 60)  # 07:30 at UTC+1: her time, but quiet
        assert not _digests(fake, alice)
        await _tick_at(bot, clock, day + 7 * HOUR + 5 * 60)  # 08:05 at UTC+1
        [digest] = _digests(fake, alice)
        assert f"**Game {table.game_id}**" in digest.text and "you to " in digest.text, digest.text
        assert table.last is not None  # the post that asked her, or the reminder her quiet hours held
        asking = [m.id for m in fake.messages() if m.id >= table.last.id]
        assert any(jump_link(fake.guild_id, fake.channel.id, m) in digest.text for m in asking), digest.text
        await _tick_at(bot, clock, day + 9 * HOUR)
        await _tick_at(bot, clock, day + 18 * HOUR + 5 * 60)  # Bob's time: nothing waits on him
        assert len(_digests(fake, alice)) == 1, "once a day"
        assert not _digests(fake, bob), "no digest when nothing waits"
        await _tick_at(bot, clock, day + 86400 + 7 * HOUR + 1)  # the next day, 08:00 at UTC+1
        assert len(_digests(fake, alice)) == 2
        assert "no daily digest" in await _said(fake, alice, "citta me digest", time="off")
        await _tick_at(bot, clock, day + 2 * 86400 + 7 * HOUR + 1)
        assert len(_digests(fake, alice)) == 2, "turned off"
        fake.check()
