"""End-to-end: a 9-player Swiss tournament of three rounds at tables of three, through the fake
Discord. An organiser (Manage Server; a member without it is not even offered the command) opens it,
nine members sign up with the button, the clock closes the sign-up and seats round 1 by rating; each
table's post opens a thread where its game is played (by the deadline policy ``computer`` as the fake
clock runs, to keep it short). One player drops out in round 2 (forfeit: round 3 seats eight at
3, 3 and 2) and the bot is restarted in the middle. Every round is seated as the formats say from the
results so far, the standings posted after each table are those of the tables finished until then, and
the winner is announced once."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord, FakeDiscordError, FakeMessage, FakeUser
from fakediscord.fixtures import fake_discord
from test_e2e_support import citta_bot, posts_after, private_answer, refusal

from bot.client.bot import CittaBot
from bot.service.tournament_formats import sizes, standings, swiss
from bot.service.tournament_state import State

__all__ = ["fake_discord"]

HOUR = 3600
START = int(time.time())
"""The service's clock at the opening: now, since the tick forgets posts sent a month before its time
(and a table's thread is its post's message, read from the outbox)."""
NAME = "Winter Cup"
TABLE_OVER = re.compile(r"^🏆 \*\*Winter Cup\*\*, round (\d+), table (\d+) is over: (.*)\.$", re.M)
WINNER = "🏆 **Winter Cup** is over. The winner: **"


async def _state(bot: CittaBot, guild: int) -> tuple[str, State]:
    [row] = await bot.service.storage.tournaments.of_guild(guild)
    return row.status, State.model_validate(row.state)


async def _tick(bot: CittaBot, at: int) -> None:
    """The clock at ``at``, one tick of the bot (its computer players then move), and a moment to post."""
    bot.service.clock = lambda: at
    await bot.tick()
    await asyncio.sleep(0.3)


def _check_round(state: State, round: int) -> None:
    """Round ``round``'s tables are what the Swiss format seats after the rounds before."""
    before = [t.result() for t in state.tables if t.round < round]
    dropped = {p.user for p in state.players if p.dropped is not None and p.dropped < round}
    entrants = [replace(e, seated=e.user not in dropped) for e in state.seeded()]
    expected = swiss(entrants, before, state.rules.size)
    assert [t.players for t in state.of_round(round)] == expected, round
    assert [len(t) for t in expected] == sizes(len(state.players) - len(dropped), 3)


def _check_standings_posts(fake: FakeDiscord, state: State, channel: object) -> None:
    """Each table's post, once, with the standings of the tables finished until then."""
    seen: list[tuple[int, int]] = []
    for post in posts_after(fake, 0, channel):  # type: ignore[arg-type]
        m = TABLE_OVER.search(post.text)
        if m is None:
            continue
        seen.append((int(m.group(1)), int(m.group(2))))
        done = [t for t in state.tables if (t.round, t.number) in seen]
        expected = [state.name(x.user) for x in standings(state.seeded(), [t.result() for t in done])]
        shown = re.findall(r"^\d+\. (.+?) — ", post.text, re.M)
        assert shown == expected[: len(shown)] and len(shown) == min(10, len(expected)), (shown, expected)
    assert sorted(seen) == sorted({(t.round, t.number) for t in state.tables}), "each table's post, once"
    assert len(seen) == len(set(seen))


async def test_a_nine_player_swiss_tournament_with_a_drop_out_and_a_restart_ends_with_one_winner(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    players = [fake.user(n) for n in ("alice", "bob", "carol", "dave", "erin")]
    players += [fake.add_user(n) for n in ("frank", "grace", "heidi", "ivan")]
    organiser, quitter = players[0], players[4]
    channel = fake.channel
    async with citta_bot(fake, database, seed=5) as bot:
        with pytest.raises(FakeDiscordError, match="not offered to a member without permissions"):
            await fake.slash(players[1], "citta-organise tournament", name=NAME, format="swiss")
        fake.grant(organiser, "manage_guild")
        bot.service.clock = lambda: START
        options: dict[str, Any] = {
            "name": NAME, "format": "swiss", "size": 3, "rounds": 3, "signup": 1, "hours": 1,
            "policy": "computer", "dropout": "forfeit",
        }  # fmt: skip
        opened = await private_answer(fake, organiser, "citta-organise tournament", **options)
        assert f"<#{channel.id}>" in opened.text, opened.text
        signup: FakeMessage = await fake.wait_for(
            lambda: next((m for m in posts_after(fake, 0) if m.text.startswith(f"🏆 **{NAME}**")), None)
        )
        join = next(c for c in signup.custom_ids if ":t." in c)
        for user in players:
            rec = await fake.click(signup, join, user)
            said = await rec.wait_message()
            assert said.ephemeral and "You are signed up" in said.text, said.text
        again = await (await fake.click(signup, join, players[2])).wait_message()
        assert "already" in again.text
        status, state = await _state(bot, fake.guild_id)
        assert status == "signup" and [p.user for p in state.players] == [u.id for u in players]

        clock = START + HOUR + 60
        await _tick(bot, clock)  # sign-up closes: round 1 is seated
        status, state = await _state(bot, fake.guild_id)
        assert status == "running" and state.round == 1
        by_rating = [[u.id for u in players[k : k + 3]] for k in (0, 3, 6)]  # all unrated: in sign-up order
        assert [t.players for t in state.of_round(1)] == by_rating
        restarted = False
        dropped = False
        while status == "running":
            clock += 2 * HOUR
            await _tick(bot, clock)
            status, state = await _state(bot, fake.guild_id)
            assert clock < START + 200 * HOUR, "the tournament does not end"
            if state.round == 2 and not dropped and any(t.game for t in state.of_round(2)):
                said = await private_answer(fake, quitter, "citta-tournament drop")
                assert "dropped out" in said.text, said.text
                dropped = True
            if state.round == 2 and dropped and not restarted:
                break
        assert dropped
    async with citta_bot(fake, database, seed=5) as bot:  # a restart in the middle of round 2
        restarted = True
        while status == "running":
            clock += 2 * HOUR
            await _tick(bot, clock)
            status, state = await _state(bot, fake.guild_id)
            assert clock < START + 400 * HOUR, "the tournament does not end"
        await _tick(bot, clock + 60)
        assert status == "over" and restarted
        for round in (1, 2, 3):
            _check_round(state, round)
        assert all(quitter.id not in t.players for t in state.of_round(3)), "the drop-out is seated no more"
        assert sorted(len(t.players) for t in state.of_round(3)) == [2, 3, 3]
        await fake.wait_for(lambda: any(m.text.startswith(WINNER) for m in posts_after(fake, 0)))
        winners = [m for m in posts_after(fake, 0) if m.text.startswith(WINNER)]
        assert len(winners) == 1, "the winner is announced once"
        best = standings(state.seeded(), state.results())[0].user
        assert state.winner == best and f"The winner: **{state.name(best)}**" in winners[0].text
        _check_standings_posts(fake, state, channel)
        for table in state.tables:  # each game was played in its table post's thread
            assert table.thread is not None and table.game is not None
            row = await bot.service.storage.games.game(table.game)
            assert row is not None and row.channel == table.thread and row.status == "over"
        standing = await private_answer(fake, players[1], "citta-tournament standings")
        assert f"the winner: **{state.name(best)}**" in standing.text, standing.text
        champion = next(u for u in players if u.id == best)
        stats = await private_answer(fake, players[1], "citta stats", player=champion)
        assert f"Tournaments: 1 of 9 in {NAME}" in stats.text, stats.text
    fake.check()


async def _two_rounds_of_pairs(
    fake: FakeDiscord, bot: CittaBot, organiser: FakeUser, players: list[FakeUser], *, dropout: str
) -> None:
    """At `START`, ``organiser`` opens a Swiss tournament of two rounds at tables of two (sign-up for an
    hour, the deadline policy ``computer``) and every one of ``players`` signs up with the button."""
    bot.service.clock = lambda: START
    options: dict[str, Any] = {
        "name": NAME, "format": "swiss", "size": 2, "rounds": 2, "signup": 1, "hours": 1,
        "policy": "computer", "dropout": dropout,
    }  # fmt: skip
    await private_answer(fake, organiser, "citta-organise tournament", **options)
    signup: FakeMessage = await fake.wait_for(
        lambda: next((m for m in posts_after(fake, 0) if m.text.startswith(f"🏆 **{NAME}**")), None)
    )
    join = next(c for c in signup.custom_ids if ":t." in c)
    for user in players:
        await (await fake.click(signup, join, user)).wait_message()


async def test_a_drop_out_is_played_by_a_computer_from_the_next_round_on_when_the_organiser_chose_so(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    players = [fake.user(n) for n in ("alice", "bob", "carol", "dave")]
    organiser, quitter = players[0], players[1]
    fake.grant(organiser, "manage_guild")
    async with citta_bot(fake, database, seed=8) as bot:
        await _two_rounds_of_pairs(fake, bot, organiser, players, dropout="computer")
        clock = START + HOUR + 60
        await _tick(bot, clock)
        said = await private_answer(fake, organiser, "citta-organise drop", player=quitter)
        assert "Bob dropped out" in said.text, said.text
        status, state = await _state(bot, fake.guild_id)
        while status == "running":
            clock += 2 * HOUR
            await _tick(bot, clock)
            status, state = await _state(bot, fake.guild_id)
            assert clock < START + 300 * HOUR, "the tournament does not end"
        [later] = [t for t in state.of_round(2) if quitter.id in t.players]
        assert later.game is not None
        seats = await bot.service.storage.games.seats(later.game)
        assert [s.computer for s in seats].count(True) == 1 and all(s.user_id != quitter.id for s in seats)
        assert later.places is not None and str(quitter.id) in later.places, "the computer's result is Bob's"
        dropped = [m for m in posts_after(fake, 0) if m.text.startswith("🏳️")]
        assert len(dropped) == 1 and "a computer takes their place" in dropped[0].text
        table_post = next(m for m in posts_after(fake, 0) if ", round 2, table" in m.text and "Bob" in m.text)
        assert "Bob (a computer plays for them)" in table_post.text and quitter.id not in table_post.pinged
    fake.check()


async def test_a_tables_host_cannot_abandon_it_but_a_member_with_manage_server_can(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    """An abandoned table gives all its players a shared first place: a losing host must resign
    instead (the refusal says so, privately, and the game goes on)."""
    fake = fake_discord
    players = [fake.user(n) for n in ("alice", "bob", "carol", "dave")]
    organiser = players[0]
    fake.grant(organiser, "manage_guild")
    async with citta_bot(fake, database, seed=8) as bot:
        await _two_rounds_of_pairs(fake, bot, organiser, players, dropout="forfeit")
        clock = START + HOUR + 60
        await _tick(bot, clock)  # round 1 seated: the tables' posts, then their threads' games
        for _ in range(3):
            clock += 60
            await _tick(bot, clock)
        _, state = await _state(bot, fake.guild_id)
        table = next(t for t in state.of_round(1) if organiser.id not in t.players)
        assert table.game is not None and table.thread is not None
        thread = fake.store.channels[table.thread]
        host = next(u for u in players if u.id == table.players[0])
        text = await refusal(fake, await fake.slash(host, "citta abandon", channel=thread))
        assert "only a member with Manage Server can abandon it" in text and "/citta resign" in text, text
        game = await bot.service.storage.games.game(table.game)
        assert game is not None and game.status == "active"
        prompt = await fake.slash(organiser, "citta abandon", channel=thread)
        confirm = prompt.original
        assert confirm is not None and confirm.custom_ids, confirm
        await (await fake.click(confirm, confirm.custom_ids[0], organiser)).wait_message()
        game = await bot.service.storage.games.game(table.game)
        assert game is not None and game.status == "abandoned"
    fake.check()
