"""End-to-end: two games finish in a channel (the deadline passes and the bot plays every late
seat to the end); the channel gets each game's scoring post and its replay animation, and
``/citta leaderboard|stats|games|replay`` answer privately from the server's history; a game
finished in a private channel is shown only to those who can view the channel, and its players."""

from __future__ import annotations

import asyncio
import io
import itertools
import time
from pathlib import Path
from typing import Any

import discord
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from fakediscord.fixtures import fake_discord
from PIL import GifImagePlugin, Image
from test_e2e_support import announcement, answer, citta_bot, posts_after, private_answer

from bot.client.bot import CittaBot
from bot.service import tick as svc_tick

__all__ = ["fake_discord"]

HOUR = 3600


def _post(fake: FakeDiscord, start: str, channel: FakeChannel | None = None) -> FakeMessage | None:
    return next((m for m in posts_after(fake, 0, channel) if m.text.startswith(start)), None)


async def _finished_game(fake: FakeDiscord, bot: CittaBot, host: FakeUser, others: list[FakeUser],
                         level: str, channel: FakeChannel | None = None,
                         ) -> tuple[int, FakeMessage, FakeMessage]:  # fmt: skip
    """A game of ``host``, ``others`` and a computer player of ``level`` in ``channel`` (default: the
    text channel), run out by the deadline policy; its id, the final move's post and the replay post."""
    where = channel or fake.channel
    lobby = await (await fake.slash(host, "citta new", channel=where)).wait_message()
    join, start = (next(c for c in lobby.custom_ids if c.endswith(a)) for a in (":join", ":start"))
    game_id = int(join.split(":")[1])
    for user in others:
        await fake.click(lobby, join, user)

        def joined(u: FakeUser = user) -> bool:
            return u.mention in lobby.text

        await fake.wait_for(joined)
    await (await fake.slash(host, "citta add-ai", channel=where, level=level)).wait_message()
    await announcement(fake, await fake.click(lobby, start, host))
    options: dict[str, Any] = {"deadline": 1, "policy": "computer", "level": "random", "board": "round"}
    await (await fake.slash(host, "citta settings", channel=where, **options)).wait_message()
    svc = bot.service
    for k in itertools.count(1):  # the computer players answer in the background between ticks
        assert k < 300, "the game does not end"

        def clock(k: int = k) -> float:
            return time.time() + 2 * k * HOUR

        svc.clock = clock
        await svc_tick.tick(svc)
        row = await svc.storage.games.game(game_id)
        assert row is not None
        if row.status == "over":
            break
        await asyncio.sleep(0.2)
    scoring = await fake.wait_for(lambda: _post(fake, f"🏁 **Game {game_id} — final scoring**", where), 30)
    replay = await fake.wait_for(lambda: _post(fake, f"🎞️ Game {game_id}, replayed", where), 60)
    posts = posts_after(fake, 0, where)
    final = posts[posts.index(scoring) - 1]
    assert "The game is over" in final.text or final.text.endswith("…"), final.text
    return game_id, final, replay


def _gif_frames(msg: FakeMessage, game_id: int) -> int:
    data = msg.attachment(f"citta-game-{game_id}.gif").data
    assert len(data) < 8 * 1024 * 1024
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and isinstance(gif, GifImagePlugin.GifImageFile)
    return int(gif.n_frames)


async def test_two_finished_games_make_a_history_that_the_commands_show(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    async with citta_bot(fake, database, seed=21) as bot:
        first, final, replay = await _finished_game(fake, bot, alice, [bob], "strong")
        frames = _gif_frames(replay, first)
        assert frames >= 30 and f"({frames} frames)" in replay.text
        second, _, replay2 = await _finished_game(fake, bot, bob, [], "basic")
        assert _gif_frames(replay2, second) >= 30

        board = await private_answer(fake, alice, "citta leaderboard", wait=60)
        assert board.text.startswith("🏆 **Leaderboard**"), board.text
        for name in ("Alice", "Bob", "Computer (strong)", "Computer (basic)"):
            assert f"**{name}**" in board.text, (name, board.text)
        assert board.text.count("← you") == 1

        mine = await private_answer(fake, alice, "citta stats", wait=60)
        assert "**Alice**" in mine.text and "1 game," in mine.text and "Rating" in mine.text
        theirs = await private_answer(fake, alice, "citta stats", wait=60, player=bob)
        assert "**Bob**" in theirs.text and "2 games" in theirs.text, theirs.text

        games = await private_answer(fake, bob, "citta games", wait=60)
        assert games.text.index(f"**Game {second}**") < games.text.index(f"**Game {first}**")
        assert f"https://discord.com/channels/{fake.guild_id}/{fake.channel.id}/{final.id}" in games.text

        latest = await private_answer(fake, alice, "citta replay", wait=60)
        assert _gif_frames(latest, second) >= 30
        chosen = await private_answer(fake, alice, "citta replay", wait=60, game=first)
        assert _gif_frames(chosen, first) == frames

        prompt = await private_answer(fake, bob, "citta me forget", wait=60)
        assert "the 2 finished games" in prompt.text and "cannot be undone" in prompt.text, prompt.text
        assert "**Bob**" in (await private_answer(fake, alice, "citta leaderboard", wait=60)).text, (
            "asking forgets nothing"
        )
        [forget] = prompt.custom_ids
        done = await answer(fake, await fake.click(prompt, forget, bob))
        assert done.ephemeral and done.recipient is bob and done.text.startswith("Done:"), done.text
        assert "**Bob**" not in (await private_answer(fake, alice, "citta leaderboard", wait=60)).text
    fake.check()


async def test_a_game_finished_in_a_private_channel_is_shown_only_to_who_can_view_it_and_its_players(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob, carol, dave, erin = (fake.user(n) for n in ("alice", "bob", "carol", "dave", "erin"))
    async with citta_bot(fake, database, seed=5) as bot:
        private = await fake.add_private_channel("back-room", alice, roles=(dave,))
        await fake.let_view(private, erin)
        game, final, posted = await _finished_game(fake, bot, alice, [], "random", private)
        await fake.let_view(private, bob)  # then Bob's view is taken away again: his list follows
        listed = await private_answer(fake, bob, "citta games", wait=60)
        assert f"**Game {game}**" in listed.text and f"/{private.id}/{final.id}" in listed.text, listed.text
        private.overwrites.pop(bob.id)
        await fake.gateway.channel_event("CHANNEL_UPDATE", private)

        def bob_left() -> bool:
            seen = bot.get_channel(private.id)
            assert isinstance(seen, discord.abc.GuildChannel), seen
            return bob.id not in {o.id for o in seen.overwrites}

        await fake.wait_for(bob_left)

        for outsider in (bob, carol):
            games = await private_answer(fake, outsider, "citta games", wait=60)
            assert "No game has finished on this server yet." in games.text and "Game" not in games.text
            rec = await fake.slash(outsider, "citta replay", game=game)
            refused = await answer(fake, rec)
            assert "There is no such game on this server." in refused.text, refused.text
            assert not refused.attachments and not any(m.attachments for m in rec.messages)
            unknown = await answer(fake, await fake.slash(outsider, "citta replay", game=game + 1000))
            assert unknown.text == refused.text, "a hidden game is answered as one that does not exist"

        for member in (alice, dave, erin):  # its player; a member let in by role; by name
            games = await private_answer(fake, member, "citta games", wait=60)
            assert f"**Game {game}**" in games.text, (member, games.text)
        shown = await (await fake.slash(dave, "citta replay", game=game)).wait_message(60)  # a drawing
        assert shown.ephemeral and shown.recipient is dave
        assert _gif_frames(shown, game) == _gif_frames(posted, game)

        await fake.delete_channel(private)  # a channel gone: its games stay with their players
        await fake.wait_for(lambda: bot.get_channel(private.id) is None)
        assert "No game has finished" in (await private_answer(fake, dave, "citta games", wait=60)).text
        assert f"**Game {game}**" in (await private_answer(fake, alice, "citta games", wait=60)).text
    fake.check()


async def test_a_game_finished_in_a_thread_since_archived_is_shown_to_who_can_view_its_parent(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    async with citta_bot(fake, database, seed=5) as bot:
        club = await fake.add_private_channel("club", alice, bob)
        thread = await fake.add_thread("a game", club)
        game, final, _ = await _finished_game(fake, bot, alice, [], "random", thread)
        await fake.archive(thread)
        await fake.wait_for(lambda: bot.get_channel(thread.id) is None)  # discord.py keeps no archived thread
        listed = await private_answer(fake, bob, "citta games", wait=60)
        assert f"**Game {game}**" in listed.text and f"/{thread.id}/{final.id}" in listed.text, listed.text
        hidden = await private_answer(fake, carol, "citta games", wait=60)
        assert "No game has finished on this server yet." in hidden.text, hidden.text
    fake.check()
