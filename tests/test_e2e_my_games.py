"""End-to-end: ``/citta-my-games``, a player's games at a glance. Alice holds seats in three games
of two servers — one waits on her, one on someone else, one is a lobby — and asks in a direct
message with the bot: she sees all three, in that order, with her deadline and a link to each post
that asks; the menu opens her panel right there, and her move made through it is posted in the
game's channel. Added to her account, the command answers her in a group DM the bot is not in."""

from __future__ import annotations

import random
import re
from pathlib import Path

from fakediscord import FakeDiscord, FakeMessage, FakeUser
from fakediscord.fixtures import fake_discord
from test_e2e_support import Table, citta_bot, posts_after
from test_e2e_taps import Tapper

from bot.ids import mine_id
from bot.service.mine import jump_link
from bot.service.panel import words

__all__ = ["fake_discord"]

SEED = 5


async def _asked(table: Table, user: FakeUser, waiting: bool) -> None:
    """Play the game's first moves until it waits on ``user`` (``waiting``) or on another player."""
    for _ in range(6):
        if (user in table.pending()) == waiting:
            return
        mover = table.pending()[0]
        await table.play(mover, (await table.choices(mover))[0])
    raise AssertionError("the game never came to the wanted player")


async def _my_games(fake: FakeDiscord, user: FakeUser, **where: object) -> FakeMessage:
    rec = await fake.slash(user, "citta-my-games", **where)  # type: ignore[arg-type]
    msg = await rec.wait_message()
    await fake.wait_for(lambda: not msg.loading, 10)
    assert msg.ephemeral and msg.recipient is user, msg
    return msg


async def test_her_games_of_two_servers_in_a_dm_waiting_first_and_a_move_made_from_there(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    other = await fake.add_guild("Second server")
    async with citta_bot(fake, database, seed=SEED, global_commands=True) as bot:
        mine = Table(fake, bot)
        await mine.open(bob, [alice])
        await _asked(mine, alice, waiting=True)
        theirs = Table(fake, bot, channel=other.channel)
        await theirs.open(carol, [alice])
        await _asked(theirs, alice, waiting=False)
        side = await fake.add_text_channel("side")
        lobby = await (await fake.slash(carol, "citta new", channel=side)).wait_message()
        join = next(c for c in lobby.custom_ids if c.endswith(":join"))
        await fake.click(lobby, join, alice)
        await fake.wait_for(lambda: alice.mention in lobby.text)
        lobby_id = int(join.split(":")[1])
        await bot.deliverer.settle()

        listing = await _my_games(fake, alice, channel=fake.dm_channel(alice))
        text = listing.text
        heads = [text.index(f"**Game {g}**") for g in (mine.game_id, theirs.game_id, lobby_id)]
        assert heads == sorted(heads), f"waiting on her, then the others, then the lobby:\n{text}"
        assert "**Waiting on you (1)**" in text and "**Your other games (1)**" in text, text
        assert "**Your lobbies (1)**" in text and "lobby: 2 players (Carol, Alice)" in text, text
        storage = bot.service.storage
        [clock] = [c for c in await storage.clocks.get(mine.game_id) if c.seat == mine.seat(alice)]
        row = await storage.games.game(mine.game_id)
        assert row is not None
        assert f"time is up <t:{clock.since + clock.paused + row.settings.deadline_hours * 3600}:R>" in text
        assert mine.last is not None and theirs.last is not None
        assert jump_link(fake.guild_id, fake.channel.id, mine.last.id) in text, "the post that asks her"
        assert jump_link(other.id, other.channel.id, theirs.last.id) in text
        assert f"<#{side.id}>" in text and "Second server" in text
        assert "👉 you to " in text.split(f"**Game {theirs.game_id}**")[0]
        [menu] = [c for c in listing.all_components() if c.get("custom_id") == mine_id()]
        assert [o["value"] for o in menu["options"]] == [str(mine.game_id), str(theirs.game_id)]

        # The menu opens her panel in the DM, and the move she taps there is posted in its channel.
        panel = await (await fake.select(listing, mine_id(), [str(mine.game_id)], alice)).wait_message()
        await fake.wait_for(lambda: not panel.loading, 10)
        assert panel.ephemeral and panel.channel is fake.dm_channel(alice), panel
        tapper = Tapper(fake, bot, mine.game_id, random.Random(SEED))
        game = await tapper.stored()
        target = game.legal_moves(mine.seat(alice))[0]
        after = max(m.id for m in fake.all_messages())
        for _ in range(12):
            confirm = next((c for c in panel.custom_ids if ":c." in c), None)
            if confirm is not None:
                break
            await tapper.tap(panel, lambda: tapper._tap_towards(panel, words(target), alice))
        assert confirm is not None, panel.text
        await tapper.tap(panel, lambda: fake.click(panel, confirm, alice))
        assert panel.text.startswith("✅ You played"), panel.text
        await bot.deliverer.settle()
        posted = [m for m in posts_after(fake, after, fake.channel) if f"`{target}`" in m.text]
        assert len(posted) == 1, "the move is announced once, in the game's channel"
        assert not posts_after(fake, after, fake.dm_channel(alice)), "nothing public in her DM"
        fake.check()


async def test_a_pick_of_a_game_she_does_not_play_is_refused_naming_no_one(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot)
        await table.open(bob, [carol])
        for value in (str(table.game_id), "99999999999999999999", "x"):
            rec = await fake.forge(alice, mine_id(), channel=fake.dm_channel(alice), values=[value])
            msg = await rec.wait_message()
            assert msg.ephemeral and msg.text.startswith("⚠️ You do not play in game"), msg.text
            assert "bob" not in msg.text.lower() and "carol" not in msg.text.lower(), msg.text
        empty = await _my_games(fake, alice, channel=fake.dm_channel(alice))
        assert "You have no open game" in empty.text and not empty.all_components()
        fake.check()


async def test_installed_to_her_account_it_answers_in_a_group_dm_the_bot_is_not_in(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot)
        await table.open(alice, [bob])
        friends = fake.group_dm("friends", alice, bob)
        fake.install_for(alice)
        listing = await _my_games(fake, alice, channel=friends)
        assert re.search(rf"\*\*Game {table.game_id}\*\*", listing.text), listing.text
        assert not fake.messages(friends), "only she sees it"
        fake.check()
