"""End-to-end: Discord's faults while the bot announces a move — 429, 5xx, a permission taken
away (403), a channel deleted (10003), a dropped gateway — each has one answer, and nothing is
lost or posted twice."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, InteractionRecord
from fakediscord.fixtures import fake_discord
from fakediscord.launch import scale_discord_sleeps
from test_e2e_support import Table, answer, citta_bot, posts_after

from bot.client.bot import CittaBot

__all__ = ["fake_discord"]

SEED = 17


@pytest.fixture
def quick_retries() -> Iterator[None]:
    """discord.py's own retry sleeps (1, 3, 5, 7, 9 s after a 5xx) shortened a hundredfold."""
    undo = scale_discord_sleeps(0.01)
    yield
    undo()


def _posts_of(fake: FakeDiscord, move: str, channel: FakeChannel | None = None) -> list[FakeMessage]:
    return [m for m in posts_after(fake, 0, channel) if m.text.startswith(f"`{move}`")]


async def _table(fake: FakeDiscord, bot: CittaBot) -> Table:
    table = Table(fake, bot, exact_boards=False)
    await table.open(fake.user("alice"), [fake.user("bob")])
    return table


async def _some_move(table: Table) -> tuple[object, str]:
    user = table.pending()[0]
    return user, random.Random(3).choice(await table.choices(user))


async def test_a_rate_limited_post_waits_and_appears_once(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = await _table(fake, bot)
        fake.fail("POST", rf"/channels/{fake.channel.id}/messages", 429, retry_after=0.3, times=2)
        user, move = await _some_move(table)
        await table.play(user, move)  # type: ignore[arg-type]
        assert [f.status for f in fake.faults_served] == [429, 429]
        await bot.deliverer.settle()
        assert len(_posts_of(fake, move)) == 1
    fake.check()


async def test_a_discord_outage_is_outlasted_and_the_post_appears_once(
    fake_discord: FakeDiscord, database: Path | str, quick_retries: None
) -> None:
    fake = fake_discord
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = await _table(fake, bot)
        fake.fail(
            "POST", rf"/channels/{fake.channel.id}/messages", 500, times=7
        )  # discord.py gives up after 5
        user, move = await _some_move(table)
        await table.play(user, move)  # type: ignore[arg-type]
        assert len([f for f in fake.faults_served if f.status == 500]) == 7
        assert len(_posts_of(fake, move)) == 1, "posted once, after the outage"
    fake.check()


async def test_a_missing_permission_is_told_privately_and_posts_resume_once_granted(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = await _table(fake, bot)
        await fake.deny(fake.channel, "attach_files")
        user, move = await _some_move(table)
        rec = await fake.slash(user, "citta play", move=move)  # type: ignore[arg-type]
        assert (await answer(fake, rec)).text.startswith(f"You played `{move}`.")
        note = await fake.wait_for(lambda: next((m for m in rec.messages if "Attach Files" in m.text), None))
        assert note.ephemeral and note.recipient is user and "nothing is lost" in note.text, note.text
        host_dm = await fake.wait_for(
            lambda: next((m for m in fake.dms(alice) if "Attach Files" in m.text), None)
        )
        assert f"<#{fake.channel.id}>" in host_dm.text
        assert not _posts_of(fake, move), "nothing is posted without the permission"
        moves = [move]
        for _ in range(2):  # the movers after the first are told too, at once, each time
            game = await table.stored()
            seat = game.pending_seats()[0]
            nxt = str(game.legal_moves(seat)[0])
            later = await fake.slash(table.players[seat], "citta play", move=nxt)
            assert (await answer(fake, later)).text.startswith(f"You played `{nxt}`.")

            def told_of(r: InteractionRecord = later) -> FakeMessage | None:
                return next((m for m in r.messages if "Attach Files" in m.text), None)

            told = await fake.wait_for(told_of, timeout=2)
            assert told.ephemeral and told.recipient is table.players[seat], told.text
            moves.append(nxt)
        status = await fake.slash(alice, "citta status")
        assert status.original is not None and "lack the **Attach Files** permission" in status.original.text
        await fake.allow_perms(fake.channel, "attach_files")  # the bot hears of it (CHANNEL_UPDATE)
        post = await fake.wait_for(lambda: next(iter(_posts_of(fake, move)), None), timeout=10)
        assert post.attachment("board.png")
        await bot.deliverer.settle()
        sent = [m.text for m in posts_after(fake, 0) if m.text.startswith("`")]
        assert [t.split("`")[1] for t in sent] == moves, "each post once, in their order"
        assert len([m for m in fake.dms(alice) if "Attach Files" in m.text]) == 1, "the host is told once"
    fake.check()


async def test_a_deleted_game_channel_pauses_the_game_without_a_crash_loop(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    thread = await fake.add_thread("citta-1")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot, exact_boards=False, channel=thread)
        await table.open(fake.user("alice"), [fake.user("bob")])
        held = fake.hold("POST", rf"/channels/{thread.id}/messages")
        user, move = await _some_move(table)
        rec = await fake.slash(user, "citta play", move=move, channel=thread)  # type: ignore[arg-type]
        await held.wait_arrived()
        await fake.delete_channel(thread)
        held.release()
        await answer(fake, rec)
        row = None
        for _ in range(50):
            row = await bot.service.storage.games.game(table.game_id)
            if row is not None and row.paused:
                break
            await asyncio.sleep(0.1)
        assert row is not None and row.paused == "the channel was deleted" and row.status == "active"
        tries = len(fake.requests)
        await bot.tick()  # the clock leaves a paused game alone
        await bot.deliverer.settle()
        await asyncio.sleep(0.5)
        # (other requests may still come late on a busy machine: the player's private answer, a DM)
        again = [(verb, path) for verb, path in fake.requests[tries:] if f"/channels/{thread.id}" in path]
        assert not again, f"nothing more is tried in a channel that is gone: {again}"
        fake.allow(rec)
    fake.check()


async def test_a_dropped_gateway_resumes_and_the_game_goes_on(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = await _table(fake, bot)
        session = fake.connected[0]
        await fake.drop_gateway()
        await fake.wait_for(lambda: session.resumes >= 1 and fake.connected, timeout=15)
        for _ in range(3):
            user, move = await _some_move(table)
            await table.play(user, move)  # type: ignore[arg-type]
        assert fake.gateway.identifies == 1, "resumed, not a new session"
    fake.check()
