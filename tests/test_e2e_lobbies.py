"""End-to-end: lobbies no member can pile up or leave stale, edited through the outbox, and one computer
player per ``/citta add-ai`` request — the real bot on the fake Discord, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from pathlib import Path
from typing import Any

import asyncpg
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from fakediscord.fixtures import fake_discord
from test_e2e_crash import _storage
from test_e2e_support import citta_bot, posts_after, refusal

from bot.client.bot import CittaBot
from bot.client.mentions import unlink
from bot.service import lobby as svc_lobby

__all__ = ["fake_discord"]

SEED = 5
DAY = 86400


class Shifted:
    """The bot's clock moved on by ``offset`` seconds (the tests' days pass at once)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


async def _open(
    fake: FakeDiscord, host: FakeUser, channel: FakeChannel | None = None, **options: Any
) -> FakeMessage:
    lobby = await (await fake.slash(host, "citta new", channel=channel, **options)).wait_message()
    assert lobby.text.startswith("**La Città** — new game"), lobby.text
    return lobby


def _id(lobby: FakeMessage) -> int:
    return int(next(c for c in lobby.custom_ids if c.endswith(":join")).split(":")[1])


async def _join(fake: FakeDiscord, lobby: FakeMessage, user: FakeUser) -> None:
    await fake.click(lobby, next(c for c in lobby.custom_ids if c.endswith(":join")), user)
    await fake.wait_for(lambda: user.mention in lobby.text)


async def _tick(bot: CittaBot, clock: Shifted, days: float) -> None:
    """``days`` later, the clock's tick, and what it stored sent."""
    clock.offset += days * DAY
    await bot.tick()
    await bot.deliverer.settle()


async def test_a_member_with_three_open_lobbies_is_refused_a_fourth_privately_naming_them(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    channels = [fake.channel, *[await fake.add_text_channel(f"table-{k}") for k in (2, 3, 4)]]
    async with citta_bot(fake, database, seed=SEED) as bot:
        for channel in channels[:3]:
            await _open(fake, alice, channel)
        stored, posted = await ids(bot), public(fake)
        text = unlink(await refusal(fake, await fake.slash(alice, "citta new", channel=channels[3])))
        assert all(f"<#{c.id}>" in text for c in channels[:3]), text
        assert "3 open lobbies" in text and "`/citta abandon`" in text, text
        assert await ids(bot) == stored, "nothing stored"
        assert public(fake) == posted, "nothing posted"
        await _open(fake, bob, channels[3])  # another member may, in the fourth channel
        prompt = await (await fake.slash(alice, "citta abandon", channel=channels[0])).wait_message()
        await (await fake.click(prompt, prompt.custom_ids[0], alice)).wait_message()
        await _open(fake, alice, channels[0])  # a lobby closed: a new one may open
    fake.check()


async def ids(bot: CittaBot) -> list[int]:
    return [g.id for g in await bot.service.storage.games.active_games()]


def public(fake: FakeDiscord) -> list[FakeMessage]:
    return [m for m in fake.all_messages() if not m.ephemeral]


async def test_a_lobby_left_alone_is_closed_after_the_days_and_closed_lobbies_leave_no_rows(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake, clock = fake_discord, Shifted()
    alice, bob = fake.user("alice"), fake.user("bob")
    side = await fake.add_text_channel("side")
    async with citta_bot(fake, database, seed=SEED) as bot:
        bot.service.clock = clock
        games = bot.service.storage.games
        started = await _open(fake, alice, side)
        await _join(fake, started, bob)
        await fake.click(started, next(c for c in started.custom_ids if c.endswith(":start")), alice)
        await fake.wait_for(lambda: "— started" in started.text)
        cycles = []
        for _ in range(20):  # opened and abandoned over and over
            cycles.append(_id(await _open(fake, alice)))
            prompt = await (await fake.slash(alice, "citta abandon")).wait_message()
            await (await fake.click(prompt, prompt.custom_ids[0], alice)).wait_message()
        lobby = await _open(fake, alice)
        lobby_id = _id(lobby)
        clock.offset += DAY
        await _join(fake, lobby, bob)  # a join: the lobby's days count from here
        await _tick(bot, clock, 5)
        assert all([await games.game(g) for g in cycles]), "abandoned 6 days ago: kept"
        await _tick(bot, clock, 1.5)
        assert [await games.game(g) for g in cycles] == [None] * 20, "abandoned 7½ days ago: forgotten"
        assert lobby.custom_ids and "new game" in lobby.text, "not yet: 6½ days since the join"
        await _tick(bot, clock, 1)
        assert unlink(lobby.text).startswith(
            f"**La Città** game {lobby_id} — closed by the bot after 7 days without a start. "
            "`/citta new` opens a new lobby."
        ), lobby.text
        assert bob.mention in lobby.text and not lobby.custom_ids, "who was in it; no button left"
        await _tick(bot, clock, 1 / 24 + 0.001)  # the next hour's sweep: its edit was sent
        assert await games.game(lobby_id) is None
        game = await games.open_game(side.id)
        assert game is not None and game.status == "active", "a started game is never touched"
        assert await games.seats(game.id)
    fake.check()


async def _lobby_message(db: str) -> int | None:
    """The lobby message the bot noted for its newest game."""
    sql = "SELECT lobby_message FROM games ORDER BY id DESC LIMIT 1"
    if db.startswith("postgresql://"):
        conn = await asyncpg.connect(db)
        try:
            value: int | None = await conn.fetchval(sql)
            return value
        finally:
            await conn.close()
    with contextlib.closing(sqlite3.connect(db)) as con:
        row = con.execute(sql).fetchone()
    return None if row is None else row[0]


async def test_a_join_stored_before_a_kill_has_the_lobby_message_edited_by_the_next_process(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake, db = fake_discord, str(database)
    alice, bob = fake.user("alice"), fake.user("bob")
    first = await fake.spawn_bot(
        {"CITTA_DB": db, "FAKE_CRASH_AT": f"{_storage(db)}.games.Games.join_lobby:after"}
    )
    await first.ready()
    lobby = await _open(fake, alice)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while await _lobby_message(db) != lobby.id:  # noted just after the answer
        assert loop.time() < deadline, "the lobby's message was never noted"
        await asyncio.sleep(0.05)
    click = await fake.click(lobby, next(c for c in lobby.custom_ids if c.endswith(":join")), bob)
    assert await first.wait() == -9, first.output()  # killed right after the join was stored
    fake.allow(click)
    assert bob.mention not in lobby.text, "the kill came before any edit"
    second = await fake.spawn_bot({"CITTA_DB": db})
    await second.ready()
    await fake.wait_for(lambda: f"2. {bob.mention}" in lobby.text, timeout=30)
    assert lobby.custom_ids, "still a lobby, with its buttons"
    await second.close()
    fake.check()


async def test_two_add_ai_at_once_add_one_computer_and_the_other_is_told_privately(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake, clock = fake_discord, Shifted()
    alice = fake.user("alice")
    async with citta_bot(fake, database, seed=SEED) as bot:
        bot.service.clock = clock
        lobby = await _open(fake, alice)
        recs = await asyncio.gather(*(fake.slash(alice, "citta add-ai", level="random") for _ in range(2)))
        answers = sorted([unlink((await r.wait_message()).text) for r in recs])
        assert answers == [
            "⚠️ Computer 1 was added a moment ago at your request; send `/citta add-ai` again in a few "
            "seconds to add another.",
            "🤖 Computer 1 (random) joins the lobby.",
        ], answers
        await fake.wait_for(lambda: "2. 🤖 Computer 1 (random)" in lobby.text)
        seats = await bot.service.storage.games.seats(_id(lobby))
        assert [s.name for s in seats][1:] == ["Computer 1"]
        clock.offset += svc_lobby.SAME_REQUEST + 1  # a few seconds later: a request of its own
        again = await fake.slash(alice, "citta add-ai", level="basic")
        assert (await again.wait_message()).text == "🤖 Computer 2 (basic) joins the lobby."
        await fake.wait_for(lambda: "3. 🤖 Computer 2 (basic)" in lobby.text)
        assert not posts_after(fake, 0), "the lobby's own message is edited, nothing else is posted"

        # A lobby for two and three requests at once: one computer fills it, never a third seat.
        side = await fake.add_text_channel("side")
        pair = await _open(fake, alice, side, players=2)
        pair_id = _id(pair)
        clock.offset += svc_lobby.SAME_REQUEST + 1
        done = await asyncio.gather(*(fake.slash(alice, "citta add-ai", channel=side) for _ in range(3)))
        for rec in done:
            await rec.wait_message()
        await fake.wait_for(lambda: "— started" in pair.text)
        assert [s.name for s in await bot.service.storage.games.seats(pair_id)][1:] == ["Computer 1"]
    fake.check()
