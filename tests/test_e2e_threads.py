"""End-to-end: a game played in a thread that Discord archives between moves (idle threads are
archived after an hour to a week, shorter than a slow game): every post still arrives, since a
post unarchives the thread; a locked thread pauses the game like a deleted channel, and
unlocking it lets the game go on."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable
from pathlib import Path

import pytest
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from fakediscord.fixtures import fake_discord
from test_e2e_support import Table, answer, citta_bot, posts_after

from bot.client.bot import CittaBot
from bot.errors import NotAllowed
from bot.ids import parse_custom_id
from bot.service import resume as svc_resume
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
        row = await bot.service.storage.games.game(table.game_id)
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
        row = await bot.service.storage.games.game(table.game_id)
        assert row is not None and row.paused is None
        clocks = await bot.service.storage.clocks.get(table.game_id)
        assert clocks and all(c.since == int(later) for c in clocks), "their full time again"
        await bot.tick()
        assert len(fake.messages(thread)) == before + 2, "no reminder: the clocks started afresh"
    fake.check()


async def _paused(bot: object, game_id: int) -> str | None:
    """Why the game is paused, once it is (within 5 s): the bot hears of a deletion by the gateway."""
    storage = bot.service.storage  # type: ignore[attr-defined]
    for _ in range(50):
        row = await storage.games.game(game_id)
        if row is not None and row.paused:
            return str(row.paused)
        await asyncio.sleep(0.1)
    return None


async def _deleted_under_a_move(
    fake: FakeDiscord, bot: CittaBot, thread: FakeChannel, players: list[FakeUser], delete: Awaitable[None]
) -> tuple[Table, str]:
    """A game of ``players`` in ``thread``, whose thread is deleted (``delete``) while the post of a
    move is on its way: that post gets 404 10003 and the game is paused. The table and the move."""
    table = Table(fake, bot, exact_boards=False, channel=thread)
    await table.open(players[0], players[1:])
    held = fake.hold("POST", rf"/channels/{thread.id}/messages")
    user = table.pending()[0]
    move = random.Random(3).choice(await table.choices(user))
    rec = await fake.slash(user, "citta play", move=move, channel=thread)
    await held.wait_arrived()
    await delete
    held.release()
    await answer(fake, rec)
    assert await _paused(bot, table.game_id) == "the channel was deleted"
    fake.allow(rec)  # its follow-up says the game is paused
    return table, move


async def _unseen(fake: FakeDiscord, thread: FakeChannel) -> None:
    """``thread`` deleted without the gateway's THREAD_DELETE (the bot does not hear of it)."""
    fake.store.remove_channel(thread)


async def _go_on_here(fake: FakeDiscord, user: FakeUser, game_id: int) -> str:
    """``/citta status`` in a channel without a game, then its "Go on here" button for ``game_id``:
    the private answer to the press."""
    offer = await fake.slash(user, "citta status")
    msg = await offer.wait_message()
    assert msg.ephemeral and f"⏸ Game {game_id} (" in msg.text, msg.text
    button = next(c for c in msg.custom_ids if c.startswith(f"citta:{game_id}:") and c.endswith(":-:here"))
    return (await answer(fake, await fake.click(msg, button, user))).text


async def test_a_game_whose_thread_was_deleted_goes_on_in_another_channel_with_its_held_post(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    thread = await fake.add_thread("la-citta-game")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table, move = await _deleted_under_a_move(
            fake, bot, thread, [alice, bob], fake.delete_channel(thread)
        )

        status = await (await fake.slash(carol, "citta status")).wait_message()
        assert "There is no game in this channel" in status.text and not status.custom_ids, "not carol's game"
        with pytest.raises(
            NotAllowed, match="Only the game's players, its host or a member with Manage Server"
        ):
            await svc_resume.move_here(bot.service, carol.id, guild=fake.guild_id, channel=fake.channel.id,
                                        game_id=table.game_id)  # fmt: skip

        before = len(fake.messages())
        done = await _go_on_here(fake, bob, table.game_id)
        assert done == f"Done: game {table.game_id} goes on in this channel.", done
        note = await fake.wait_for(
            lambda: next((m for m in fake.messages()[before:] if "moved game" in m.text), None)
        )
        posted = posts_after(fake, 0)
        assert len(posted) == 2 and posted[1] is note, [m.text for m in posted]
        assert posted[0].text.startswith(f"`{move}`") and posted[0].attachments, "the held turn post, drawn"
        assert {alice.id, bob.id} <= set(note.mentioned), note.text
        assert not note.attachments, "the held turn post brought the board"
        row = await bot.service.storage.games.game(table.game_id)
        assert row is not None and (row.channel, row.paused) == (fake.channel.id, None)

        def paused_dms() -> list[FakeMessage]:  # sent from the outbox: on a busy machine they may come later
            return [m for p in (alice, bob) for m in fake.dms(p) if "is paused" in m.text]

        await fake.wait_for(lambda: len(paused_dms()) >= 2)
        await asyncio.sleep(0.2)  # (a third would come now)
        told = paused_dms()
        assert len(told) == 2 and all(_status(fake) in m.text for m in told), "each told once, by DM"

        for player in (alice, bob):  # the game is played on where it now is
            legal = await fake.autocomplete(player, "citta play", focused="move", value="")
            if legal:
                rec = await fake.slash(player, "citta play", move=legal[0]["value"])
                assert (await answer(fake, rec)).text.startswith("You played")
                await fake.wait_for(lambda: len(posts_after(fake, 0)) == 3)
                break
        else:
            raise AssertionError("nobody has a move in the game's new channel")
    fake.check()


async def test_a_deletion_seen_first_by_a_posts_404_pauses_the_game_and_tells_its_players_once(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    """The post's 404 comes before the gateway's THREAD_DELETE (a busy bot; or one that was down when
    the thread was deleted): the post pauses the game and its players are told by DM; the event, when
    it comes, tells them nothing twice."""
    fake = fake_discord
    thread = await fake.add_thread("la-citta-game")
    alice, bob = fake.user("alice"), fake.user("bob")
    async with citta_bot(fake, database, seed=SEED) as bot:
        await _deleted_under_a_move(
            fake, bot, thread, [alice, bob], _unseen(fake, thread)
        )  # bot not told yet

        def paused_dms() -> list[FakeMessage]:
            return [m for p in (alice, bob) for m in fake.dms(p) if "is paused" in m.text]

        await fake.wait_for(lambda: len(paused_dms()) == 2)
        await fake.gateway.channel_event("THREAD_DELETE", thread)  # the event, late
        await asyncio.sleep(0.5)
        assert len(paused_dms()) == 2, "each told once"
    fake.check()


async def test_an_idle_game_whose_channel_is_deleted_is_paused_at_once_and_moves_with_its_board(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    old, new = await fake.add_thread("old-game"), await fake.add_thread("new-home")
    alice, bob = fake.user("alice"), fake.user("bob")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot, exact_boards=False, channel=old)
        await table.open(alice, [bob])
        other = Table(fake, bot, exact_boards=False, channel=new)
        await other.open(bob, [alice])
        await fake.delete_channel(old)  # nothing was being posted there
        assert await _paused(bot, table.game_id) == "the channel was deleted"
        for player in (alice, bob):  # told where the game went, and how it goes on

            def told_of(p: FakeUser = player) -> list[FakeMessage]:
                return [m for m in fake.dms(p) if "is paused" in m.text]

            told = await fake.wait_for(told_of)
            assert len(told) == 1 and _status(fake) in told[0].text, [m.text for m in told]
        status = await (await fake.slash(alice, "citta status", channel=new)).wait_message()
        assert f"Game {other.game_id} (" in status.text and not status.custom_ids, "this channel's own game"
        with pytest.raises(NotAllowed, match="This channel has a game already"):
            await svc_resume.move_here(
                bot.service, alice.id, guild=fake.guild_id, channel=new.id, game_id=table.game_id
            )
        assert (await bot.service.storage.games.game(table.game_id)).paused  # type: ignore[union-attr]

        before = len(fake.messages())
        await _go_on_here(fake, alice, table.game_id)
        note = await fake.wait_for(
            lambda: next((m for m in fake.messages()[before:] if "moved game" in m.text), None)
        )
        assert note.channel is fake.channel and {alice.id, bob.id} <= set(note.mentioned)
        assert note.attachments, "no held post brought the board: the note has it"
        assert "Next:" in note.text
        status = await (await fake.slash(alice, "citta status")).wait_message()
        assert f"Game {table.game_id} (" in status.text and "paused" not in status.text, status.text
    fake.check()


async def test_deleting_a_channel_pauses_the_games_in_its_threads_at_once(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    thread = await fake.add_thread("la-citta-game")  # in the text channel
    alice, bob = fake.user("alice"), fake.user("bob")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot, exact_boards=False, channel=thread)
        await table.open(alice, [bob])
        await fake.delete_channel(fake.channel)  # CHANNEL_DELETE only: its threads go with it
        assert await _paused(bot, table.game_id) == "the channel was deleted"
        told = await fake.wait_for(lambda: [m for m in fake.dms(bob) if "is paused" in m.text])
        assert len(told) == 1
    fake.check()


def _status(fake: FakeDiscord) -> str:
    """How a message names ``/citta status``: a mention of it, which a player taps to run it."""
    return f"</citta status:{fake.commands['citta'].id}>"
