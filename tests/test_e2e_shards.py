"""End-to-end: two real bot processes (``python -m bot``), shards 0 and 1 of 2, on one PostgreSQL
database, with a game in a server of each shard, played through the fake Discord. The process of
shard 1 is killed with SIGKILL while a move's announcement is on its way to Discord, and a
reminder becomes due while it is down; the process of shard 0 leaves that game alone, and the
restarted process of shard 1 takes over at once what its predecessor had claimed (a process
started in the same slot — host and shards — frees its predecessor's claims; any other would
wait for them to expire). Nothing is lost or doubled: every stored move is announced exactly
once, in its own server's channel, by the process of its shard, and each reminder is posted once.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest
from fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser
from fakediscord.fixtures import fake_discord
from fakediscord.process import BotProcess
from test_bot_support import query
from test_e2e_support import announcement, next_mentions, posts_after

from bot.storage import StorageProtocol, open_storage

__all__ = ["fake_discord"]

SHARDS = 2
HOURS_13 = 13 * 3600
"""Moving a clock this far back makes its first reminder due (every 12 hours by default)."""
REMINDER = "⏰"


@pytest.fixture
async def store(postgres: str) -> AsyncIterator[StorageProtocol]:
    """The test's own look into the bots' database."""
    opened = await open_storage(postgres)
    yield opened
    await opened.close()


async def _start(fake: FakeDiscord, url: str, shard: int) -> BotProcess:
    """The bot process of ``shard`` (of `SHARDS`), ready; its clock ticks every 0.2 s."""
    env = {
        "CITTA_DB": url, "CITTA_SHARD_COUNT": str(SHARDS), "CITTA_SHARD_IDS": str(shard),
        "CITTA_DEV_GUILD": "",  # global commands: the bot is in several servers
        "FAKE_TICK_SECONDS": "0.2",
    }  # fmt: skip
    proc = await fake.spawn_bot(env)
    session = await proc.ready(timeout=60)
    assert session.shard == (shard, SHARDS)
    return proc


def _user(fake: FakeDiscord, user_id: int) -> FakeUser:
    return next(u for u in fake.users if u.id == user_id)


async def _open(fake: FakeDiscord, channel: FakeChannel, alice: FakeUser, bob: FakeUser) -> FakeMessage:
    """A two-player game started in ``channel``; its start announcement."""
    lobby = await (await fake.slash(alice, "citta new", channel=channel)).wait_message()
    join, start = (next(c for c in lobby.custom_ids if c.endswith(a)) for a in (":join", ":start"))
    await fake.click(lobby, join, bob)
    await fake.wait_for(lambda: bob.mention in lobby.text)
    return await announcement(fake, await fake.click(lobby, start, alice), timeout=30)


async def _next_move(fake: FakeDiscord, channel: FakeChannel, last: FakeMessage) -> tuple[FakeUser, str]:
    """Who moves next after the post ``last``, and a legal move of theirs (not a golden one, which
    may ask to be confirmed)."""
    mover = _user(fake, next_mentions(last)[0])
    offered = [c["value"] for c in await fake.autocomplete(mover, "citta play", focused="move", value="",
                                                            channel=channel)]  # fmt: skip
    return mover, next((m for m in offered if not m.startswith("golden")), offered[0])


async def _play(fake: FakeDiscord, channel: FakeChannel, last: FakeMessage) -> FakeMessage:
    """One move by whoever is asked in ``last``; its announcement."""
    mover, move = await _next_move(fake, channel, last)
    rec = await fake.slash(mover, "citta play", channel=channel, move=move)
    assert (await rec.wait_message(timeout=30)).text.startswith(f"You played `{move}`.")
    return await announcement(fake, rec, move=move, timeout=30)


async def _game_of(store: StorageProtocol, channel: FakeChannel) -> int:
    row = await store.games.latest_game(channel.id)
    assert row is not None
    return row.id


async def _reminders(store: StorageProtocol, game: int) -> int:
    """The reminders counted on the game's clocks (each stored with the post that tells it)."""
    return sum(c.reminders for c in await store.clocks.get(game))


async def _make_reminders_due(store: StorageProtocol, games: list[int]) -> None:
    """Move the games' clocks back, in one statement: their first reminder is due now."""
    marks = ", ".join("?" for _ in games)
    await query(store, f"UPDATE clocks SET since = since - ? WHERE game IN ({marks})", HOURS_13, *games)


async def test_two_processes_on_two_shards_play_on_one_database_and_survive_a_kill(
    fake_discord: FakeDiscord, postgres: str, store: StorageProtocol
) -> None:
    fake = fake_discord
    zero = await fake.add_guild("On shard 0", shard=0, shards=SHARDS)
    one = await fake.add_guild("On shard 1", shard=1, shards=SHARDS)
    alice, bob = fake.user("alice"), fake.user("bob")
    first = await _start(fake, postgres, 0)
    second = await _start(fake, postgres, 1)
    heard = {first: {zero.id}, second: {one.id}}

    last: dict[FakeGuild, FakeMessage] = {}
    for guild in (one, zero):  # shard 1's game first: it gets the lower id (see below)
        last[guild] = await _open(fake, guild.channel, alice, bob)
    for guild in (zero, one):
        last[guild] = await _play(fake, guild.channel, last[guild])
    game = {g: await _game_of(store, g.channel) for g in (zero, one)}
    assert game[one] < game[zero]

    # Shard 1's process dies while the announcement of a move it stored is on its way to Discord.
    held = fake.hold("POST", rf"/channels/{one.channel.id}/messages")
    mover, move = await _next_move(fake, one.channel, last[one])
    played = await fake.slash(mover, "citta play", channel=one.channel, move=move)
    assert (await played.wait_message(timeout=30)).text.startswith(f"You played `{move}`.")
    await held.wait_arrived(timeout=30)
    second.kill9()
    assert await second.wait() == -9
    held.release()  # Discord got the post before the process died: it is made
    in_flight = await announcement(fake, played, move=move)

    # Both games' first reminders fall due while shard 1 has no process. Shard 0's process claims
    # the clocks of its own games only: had it claimed shard 1's too, it would have reminded that
    # game (the lower id) first, in the same tick.
    await _make_reminders_due(store, [game[one], game[zero]])
    reminder = await fake.wait_for(lambda: next(iter(_posts(fake, zero.channel, REMINDER)), None), timeout=30)
    assert await _reminders(store, game[zero]) == 1 and await _reminders(store, game[one]) == 0
    assert not _posts(fake, one.channel, REMINDER)

    # Shard 1's process starts again: it finds the post its predecessor made, and reminds once.
    third = await _start(fake, postgres, 1)
    heard[third] = {one.id}
    await fake.wait_for(lambda: _posts(fake, one.channel, REMINDER), timeout=30)
    await _all_sent(store)
    again = [m for m in posts_after(fake, played.id, one.channel) if m.text.startswith(f"`{move}`")]
    assert again == [in_flight], "posted once, not again after the restart"
    last[one] = in_flight
    for guild in (zero, one):  # both go on
        last[guild] = await _play(fake, guild.channel, last[guild])
    await _all_sent(store)

    for guild in (zero, one):
        moves = [m.text for m in await store.moves.moves(game[guild])]
        assert len(moves) == (2 if guild is zero else 3), moves
        announced = Counter(
            m.text.split("`")[1] for m in posts_after(fake, 0, guild.channel) if m.text.startswith("`")
        )
        assert announced == Counter(moves), "each stored move announced once, none lost"
        assert len(_posts(fake, guild.channel, REMINDER)) == 1, "one reminder, sent once"
        assert len(_posts(fake, guild.channel, "**La Città** game")) == 1, "one start announcement"
    assert reminder in _posts(fake, zero.channel, REMINDER)
    await _sent_by_their_shard(store, {game[zero]: 0, game[one]: 1})
    for proc, guilds in heard.items():  # Discord sent each process the events of its own servers only
        assert _interaction_guilds(proc) == guilds, proc
    fake.check()


def _posts(fake: FakeDiscord, channel: FakeChannel, prefix: str) -> list[FakeMessage]:
    return [m for m in posts_after(fake, 0, channel) if m.text.startswith(prefix)]


async def _states(store: StorageProtocol) -> set[str]:
    return {r["state"] for r in await query(store, "SELECT DISTINCT state FROM outbox")}


async def _all_sent(store: StorageProtocol, timeout: float = 30) -> None:
    """Wait until every announcement in the outbox is marked sent (the database is polled: the
    fake sees its own changes only)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (states := await _states(store)) != {"sent"}:
        assert loop.time() < deadline, f"the outbox is not all sent within {timeout}s: {states}"
        await asyncio.sleep(0.05)


async def _sent_by_their_shard(store: StorageProtocol, shard_of_game: dict[int, int]) -> None:
    """Every announcement was claimed (and sent) by a process of its game's shard."""
    rows = await query(store, "SELECT game, claimed_by FROM outbox ORDER BY id")
    assert rows and all(r["claimed_by"] is not None for r in rows), rows
    for r in rows:
        assert f" shards {shard_of_game[r['game']]} of {SHARDS}#" in r["claimed_by"], r


def _interaction_guilds(proc: BotProcess) -> set[int]:
    """The guilds of the interactions the fake sent to the process's gateway session."""
    assert proc.session is not None
    events: list[dict[str, Any]] = [json.loads(text) for _, text in proc.session.log]
    return {int(e["d"]["guild_id"]) for e in events if e["t"] == "INTERACTION_CREATE"}
