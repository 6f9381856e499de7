"""End-to-end: the same move sent twice at once is made once; simultaneous decisions all count."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fakediscord import FakeDiscord, FakeUser, InteractionRecord
from fakediscord.fixtures import fake_discord
from test_e2e_support import Table, announcement, answer, citta_bot, next_mentions, refusal

__all__ = ["fake_discord"]

SEED = 37


async def one_of_them_plays(table: Table, user: FakeUser, recs: list[InteractionRecord]) -> str:
    """Exactly one of ``recs`` made its move (checked as usual); the others were refused privately."""
    fake, before = table.fake, len(table.fake.messages())
    replies = [await answer(fake, r) for r in recs]
    made = [(r, m) for r, m in zip(recs, replies, strict=True) if m.text.startswith("You played")]
    assert len(made) == 1, [m.text for m in replies]
    [(winner, reply)] = made
    for rec in recs:
        if rec is not winner:
            assert "already made" in await refusal(fake, rec) or "not your turn" in rec.messages[0].text
    move = reply.text.split("`")[1]
    await table.check_move(await announcement(fake, winner), table.seat(user), move, reply)
    assert len(fake.messages()) == before + 1, "one channel message for the one move"
    return move


async def test_a_button_clicked_twice_at_once_makes_its_move_once(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot)
        start = await table.open(alice, [bob])
        [user] = table.pending()
        cid = table.buttons(user)[0]
        clicks = await asyncio.gather(fake.click(start, cid, user), fake.click(start, cid, user))
        await one_of_them_plays(table, user, list(clicks))
        assert await table.version() == 1
        # A third click, long after, is refused too.
        again = await fake.click(start, cid, user)
        assert "That move was already made" in await refusal(fake, again)
        assert await table.version() == 1 and (await table.stored()).snapshot() == table.game.snapshot()
    fake.check()


async def test_two_plays_sent_at_once_make_one_move(fake_discord: FakeDiscord, database: Path | str) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot)
        await table.open(alice, [bob])
        for k in range(4):
            [user] = table.pending()
            offered = await table.choices(user)
            # the same move twice, then two different moves
            moves = [offered[0], offered[0]] if k % 2 == 0 else [offered[0], offered[-1]]
            plays = await asyncio.gather(*(fake.slash(user, "citta play", move=m) for m in moves))
            assert await one_of_them_plays(table, user, list(plays)) in moves
            assert await table.version() == k + 1
        assert (await table.stored()).snapshot() == table.game.snapshot()
    fake.check()


async def test_simultaneous_decisions_of_five_players_are_all_accepted(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    """Players feeding at the same time each make their own decision; none is refused.

    (At commit b462c9a two of five were refused as "That move was already made." after losing the
    version race ``ATTEMPTS`` = 3 times.)"""
    fake = fake_discord
    users = [fake.user(n) for n in ("alice", "bob", "carol", "dave", "erin")]
    async with citta_bot(fake, database, seed=1) as bot:
        table = Table(fake, bot, exact_boards=False)
        await table.open(users[0], users[1:], players=5)
        while len(table.pending()) < 4:  # play the first offered move until most players must feed
            [user] = table.pending()
            await table.play(user, (await table.choices(user))[0])
            assert len(table.played) < 60
        assert table.last is not None and len(next_mentions(table.last)) >= 4
        pending, version = table.pending(), await table.version()
        moves = {u: (await table.choices(u))[0] for u in pending}
        plays = await asyncio.gather(*(fake.slash(u, "citta play", move=m) for u, m in moves.items()))
        replies = [(await answer(fake, rec)).text for rec in plays]
        for rec, text in zip(plays, replies, strict=True):
            if text.startswith("You played"):
                await announcement(fake, rec)
        assert replies == [f"You played `{m}`." for m in moves.values()]
        made = (await table.stored()).record().moves[version:]
        assert sorted(made) == sorted((table.seat(u), m) for u, m in moves.items())
    fake.check()


async def test_undo_sent_twice_at_once_takes_back_one_move(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot)
        await table.open(alice, [bob])
        for _ in range(2):  # two moves that reveal nothing
            [user] = table.pending()
            await table.play(
                user, next(m for m in await table.choices(user, "build") if m.startswith("build"))
            )
        undos = await asyncio.gather(*(fake.slash(alice, "citta undo") for _ in range(2)))
        replies = sorted([(await answer(fake, r)).text for r in undos])
        assert replies[0].startswith("Taken back:"), replies
        assert replies[1] == "⚠️ That move was already taken back.", replies
        stored = await table.stored()
        assert stored.record().moves == table.played[:1], "one move taken back, not two"
        await bot.deliverer.settle()
        assert len([m for m in fake.messages() if "took back" in m.text]) == 1
    fake.check()


async def test_joins_and_starts_pressed_at_once_tell_each_presser_what_happened(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    async with citta_bot(fake, database, seed=SEED):
        # Two players fill a lobby for three at the same moment: both are seated, one game starts.
        lobby = await (await fake.slash(alice, "citta new", players=3)).wait_message()
        join = next(c for c in lobby.custom_ids if c.endswith(":join"))
        clicks = await asyncio.gather(fake.click(lobby, join, bob), fake.click(lobby, join, carol))
        await fake.wait_for(lambda: "— started" in lobby.text)
        assert all(not r.followups for r in clicks), "nobody is told the lobby changed under them"
        start = await announcement(fake, clicks[0])
        assert all(u.mention in start.text for u in (alice, bob, carol))
        # A host who presses Start three times at once (in another channel): one game starts, and
        # the two other presses are told it has started with them in it.
        thread = await fake.add_thread("second-table")
        lobby = await (await fake.slash(alice, "citta new", channel=thread)).wait_message()
        join, go = (next(c for c in lobby.custom_ids if c.endswith(a)) for a in (":join", ":start"))
        await fake.click(lobby, join, bob)
        await fake.wait_for(lambda: bob.mention in lobby.text)
        presses = await asyncio.gather(*(fake.click(lobby, go, alice) for _ in range(3)))
        await announcement(fake, presses[0])
        await fake.wait_for(lambda: sum(len(r.followups) for r in presses) >= 2)
        notes = [m.text for r in presses for m in r.followups if m.ephemeral]
        assert sorted(notes) == ["⚠️ The game has already started, and you are in it (seat 1)."] * 2, notes
        await asyncio.sleep(0.3)
        starts = [m for m in fake.messages(thread) if " begins (" in m.text]
        assert len(starts) == 1, "one start announcement"
    fake.check()
