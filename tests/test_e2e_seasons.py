"""End-to-end: a server's seasons. An admin turns seasons on (a member without Manage Server is not
even offered the command), two games finish in the season, ``/citta-season leaderboard`` ranks its
players, the service's clock passes the season's end and the champion is announced once in the chosen
channel — ticked twice and with a restart of the bot between — then ``/citta-season past`` and
``/citta stats`` show the title, and the next season runs."""

from __future__ import annotations

import asyncio
import itertools
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeChannel, FakeDiscord, FakeDiscordError, FakeMessage, FakeUser
from fakediscord.fixtures import fake_discord
from test_e2e_support import announcement, citta_bot, posts_after, private_answer

from bot.client.bot import CittaBot
from bot.service import seasons
from bot.service import tick as svc_tick

__all__ = ["fake_discord"]

HOUR = 3600
START = int(datetime(2030, 1, 2, tzinfo=UTC).timestamp())
"""The service's clock when seasons are turned on: in the first quarter of 2030."""
QUARTER_ENDS = int(datetime(2030, 4, 1, tzinfo=UTC).timestamp())
OVER = "🏆 **Season 1 is over**"


async def _play_out(fake: FakeDiscord, bot: CittaBot, host: FakeUser, others: list[FakeUser], level: str,
                    start: int) -> int:  # fmt: skip
    """A game of ``host``, ``others`` and a computer of ``level``, run out by the deadline policy from
    the clock's time ``start`` on, two hours a tick: the clock's time when it ended."""
    svc = bot.service
    svc.clock = lambda: start
    lobby = await (await fake.slash(host, "citta new")).wait_message()
    join, begin = (next(c for c in lobby.custom_ids if c.endswith(a)) for a in (":join", ":start"))
    game_id = int(join.split(":")[1])
    for user in others:
        await fake.click(lobby, join, user)

        def joined(u: FakeUser = user) -> bool:
            return u.mention in lobby.text

        await fake.wait_for(joined)
    await (await fake.slash(host, "citta add-ai", level=level)).wait_message()
    await announcement(fake, await fake.click(lobby, begin, host))
    options: dict[str, Any] = {"deadline": 1, "policy": "computer", "level": "random", "board": "round"}
    await (await fake.slash(host, "citta settings", **options)).wait_message()
    for k in itertools.count(1):
        assert k < 400, "the game does not end"

        def clock(k: int = k) -> float:
            return start + 2 * k * HOUR

        svc.clock = clock
        await svc_tick.tick(svc)
        row = await svc.storage.games.game(game_id)
        assert row is not None
        if row.status == "over":
            return start + 2 * k * HOUR
        await asyncio.sleep(0.2)
    raise AssertionError


def _champion_posts(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    return [m for m in posts_after(fake, 0, channel) if m.text.startswith(OVER)]


async def _settled(bot: CittaBot, channel: FakeChannel) -> None:
    """Until the channel's posts are all sent."""
    for _ in range(100):
        if not [h for h in await bot.service.storage.outbox.heads() if h.channel == channel.id]:
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the season's post is not sent")


async def test_a_seasons_champion_is_announced_once_across_ticks_and_a_restart(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    hall = await fake.add_text_channel("hall-of-fame")
    async with citta_bot(fake, database, seed=21) as bot:
        with pytest.raises(FakeDiscordError, match="not offered to a member without permissions"):
            await fake.slash(carol, "citta-server season", length="quarter", channel=hall)
        fake.grant(alice, "manage_guild")
        bot.service.clock = lambda: START
        on = await private_answer(fake, alice, "citta-server season", length="quarter", channel=hall)
        assert (
            "Season 1 ends" in on.text and f"<t:{QUARTER_ENDS}:f>" in on.text and f"<#{hall.id}>" in on.text
        )
        empty = await private_answer(fake, carol, "citta-season leaderboard")
        assert "No game has finished in this season yet." in empty.text, empty.text
        none = await private_answer(fake, carol, "citta-season past")
        assert "No season has ended on this server yet." in none.text, none.text

        ended = await _play_out(fake, bot, alice, [bob], "strong", START)
        ended = await _play_out(fake, bot, bob, [alice], "basic", ended)
        assert ended < QUARTER_ENDS, "both games finish in the season"
        board = await private_answer(fake, carol, "citta-season leaderboard")
        assert board.text.startswith("🏆 **Season 1**"), board.text
        for name in ("Alice", "Bob"):
            assert f"**{name}**" in board.text and "(2 games)" in board.text, (name, board.text)
        assert "← you" not in board.text, "Carol played no game"
        store = bot.service.storage
        best = seasons.champion(
            seasons.board(await store.seasons.results(fake.guild_id, START, QUARTER_ENDS))
        )
        assert best is not None and best.name in ("Alice", "Bob")

        bot.service.clock = lambda: QUARTER_ENDS + 60
        await svc_tick.tick(bot.service)
        await svc_tick.tick(bot.service)
        await _settled(bot, hall)
        [post] = _champion_posts(fake, hall)
        assert f"Champion: **{best.name}**" in post.text and "(2 games)" in post.text, post.text
        assert "Season 2 has begun" in post.text and len(post.text.splitlines()) <= 6, post.text
    async with citta_bot(fake, database, seed=21) as bot:
        bot.service.clock = lambda: QUARTER_ENDS + 120
        await svc_tick.tick(bot.service)
        await _settled(bot, hall)
        assert len(_champion_posts(fake, hall)) == 1, "announced once, whatever restarts"
        assert not [m for m in posts_after(fake, 0) if m.text.startswith(OVER)], "in the chosen channel only"

        past = await private_answer(fake, carol, "citta-season past")
        assert "Season 1" in past.text and f"champion **{best.name}**" in past.text, past.text
        champ = alice if best.name == "Alice" else bob
        stats = await private_answer(fake, carol, "citta stats", player=champ)
        assert "Champion of season 1" in stats.text, stats.text
        other = await private_answer(fake, carol, "citta stats", player=bob if champ is alice else alice)
        assert "Champion of season" not in other.text
        now = await private_answer(fake, alice, "citta-season leaderboard")
        assert now.text.startswith("🏆 **Season 2**") and "No game has finished" in now.text, now.text
    fake.check()
