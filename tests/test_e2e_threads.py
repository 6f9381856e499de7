"""End-to-end: a game played in a thread that Discord archives between moves (idle threads are
archived after an hour to a week, shorter than a slow game): every post still arrives, since a
post unarchives the thread; a locked thread pauses the game like a deleted channel, and
unlocking it lets the game go on."""

from __future__ import annotations

import random
import time
from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.fixtures import fake_discord
from test_e2e_support import Table, answer, citta_bot

from bot.results import parse_custom_id
from bot.service.clock import DAY

__all__ = ["fake_discord"]

SEED = 29


async def test_a_whole_game_in_a_thread_archived_between_moves(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    thread = await fake.add_thread("la-citta-game", auto_archive_minutes=60)
    alice, bob = fake.user("alice"), fake.user("bob")
    rnd = random.Random(2)
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot, exact_boards=False, channel=thread)
        await table.open(alice, [bob])
        pressed = 0
        while not table.game.is_over:
            await fake.advance(61 * 60)  # an hour without a message: Discord archives the thread
            assert thread.archived
            user = rnd.choice(table.pending())
            mine = table.buttons(user)
            if mine and rnd.random() < 0.6:  # a button still works; the bot's post unarchives the thread
                await table.press(user, rnd.choice(mine))
                pressed += 1
            else:  # a command needs an active thread: the player writes in it first
                await fake.user_says(user, thread, "my turn")
                await table.play_randomly(rnd, user, buttons=0)
            assert not thread.archived, "the announcement unarchived the thread"
        await table.check_final_score(alice)
        assert pressed > 5
    assert fake.messages() == [], "nothing went to the parent channel"
    fake.check()


async def test_a_locked_thread_pauses_the_game_until_it_is_unlocked(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    thread = await fake.add_thread("la-citta-game")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot, exact_boards=False, channel=thread)
        await table.open(fake.user("alice"), [fake.user("bob")])
        user = table.pending()[0]
        cid = next(iter(table.buttons(user)), None)
        await fake.archive(thread, locked=True)
        before = len(fake.messages(thread))
        assert cid is not None, "the start message has a button for the first player"
        rec = await fake.click(table.last, cid, user)  # type: ignore[arg-type]
        assert (await answer(fake, rec)).text.startswith("You played")
        note = await fake.wait_for(lambda: next((m for m in rec.messages if "paused" in m.text), None))
        assert note.ephemeral and "the thread is archived and locked" in note.text, note.text
        row = await bot.service.storage.game(table.game_id)
        assert row is not None and row.paused == "the thread is archived and locked"
        assert [f for f in fake.error_responses if "50083" in f[3]], "Discord refused the post"
        later = time.time() + 3 * DAY  # days pass while the game is paused
        bot.service.clock = lambda: later
        await bot.tick()
        assert len(fake.messages(thread)) == before, "nothing is posted in a locked thread"

        await fake.unarchive(thread)  # a moderator unlocks it: THREAD_UPDATE
        note = await fake.wait_for(
            lambda: next((m for m in fake.messages(thread)[before:] if "The game goes on" in m.text), None)
        )
        posted = fake.messages(thread)[before:]
        assert len(posted) == 2 and posted[1] is note, [m.text for m in posted]
        ref = parse_custom_id(cid)
        move = ref.move if ref is not None else None
        assert posted[0].text.startswith(f"`{move}`") and posted[0].attachments, "the held turn post, drawn"
        row = await bot.service.storage.game(table.game_id)
        assert row is not None and row.paused is None
        clocks = await bot.service.storage.clocks(table.game_id)
        assert clocks and all(c.since == int(later) for c in clocks), "their full time again"
        await bot.tick()
        assert len(fake.messages(thread)) == before + 2, "no reminder: the clocks started afresh"
    fake.check()
