"""End-to-end: the bot process stops in the middle of a game and a new one takes over the database."""

from __future__ import annotations

import random
from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.fixtures import fake_discord
from test_e2e_support import Table, announcement, answer, board_of, citta_bot, refusal

__all__ = ["fake_discord"]

SEED = 23


async def snapshot(table: Table) -> tuple[bytes, str, str]:
    """What players can ask about the position: the board PNG, the status and the log."""
    fake, alice = table.fake, table.players[0]
    board = await answer(fake, await fake.slash(alice, "citta board"))
    status = await fake.slash(alice, "citta status")
    log = await fake.slash(alice, "citta log", n=50)
    assert status.original is not None and log.original is not None and status.ephemeral and log.ephemeral
    return board_of(board), status.original.text, log.original.text


async def test_a_restarted_bot_continues_the_game_and_answers_the_old_buttons(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake, db = fake_discord, database
    alice, bob = fake.user("alice"), fake.user("bob")
    rnd = random.Random(7)

    # The first process opens the lobby and stops.
    async with citta_bot(fake, db, seed=SEED):
        lobby = await (await fake.slash(alice, "citta new")).wait_message()
    join, start = (next(c for c in lobby.custom_ids if c.endswith(a)) for a in (":join", ":start"))

    # The second process answers the lobby's buttons, and the game is played for a while.
    async with citta_bot(fake, db, seed=SEED) as bot:
        table = Table(fake, bot, game_id=int(join.split(":")[1]))
        await fake.click(lobby, join, bob)
        await fake.wait_for(lambda: bob.mention in lobby.text)
        first = await table.begin(await announcement(fake, await fake.click(lobby, start, alice)))
        for _ in range(9):
            await table.play_randomly(rnd, table.pending()[0], buttons=0.5)
        assert not table.game.is_over
        before = await snapshot(table)
        version = await table.version()
        waiting = table.last
        assert waiting is not None
        [user] = table.pending()
        old_buttons = table.buttons(user, waiting)
        assert old_buttons, "the newest message has a button for the next player"
        used = table.buttons(alice, first)
        assert used, "the start message had a button for the first player"

    # The third process, on the same database, is where the second one stopped ...
    async with citta_bot(fake, db, seed=SEED + 1) as bot:
        table.bot = bot
        assert await table.version() == version
        assert await snapshot(table) == before
        assert (await table.stored()).snapshot() == table.game.snapshot()
        # ... refuses a button whose move was made long ago ...
        stale = await fake.click(first, used[0], alice)
        assert "already made" in await refusal(fake, stale)
        assert await table.version() == version
        # ... takes the move of a button posted before the restart, and plays on to the end.
        await table.press(user, rnd.choice(old_buttons), waiting)
        while not table.game.is_over:
            await table.play_randomly(rnd, rnd.choice(table.pending()))
        await table.check_final_score(bob)
    fake.check()
