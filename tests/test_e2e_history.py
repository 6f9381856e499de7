"""End-to-end: two games finish in a channel (the deadline passes and the bot plays every late
seat to the end); the channel gets each game's scoring post and its replay animation, and
``/citta leaderboard|stats|games|replay`` answer privately from the server's history."""

from __future__ import annotations

import asyncio
import io
import itertools
import time
from pathlib import Path

from fakediscord import FakeDiscord, FakeMessage, FakeUser
from fakediscord.fixtures import fake_discord
from PIL import Image
from test_e2e_support import announcement, answer, citta_bot, posts_after

from bot.client.bot import CittaBot
from bot.service import tick as svc_tick

__all__ = ["fake_discord"]

HOUR = 3600


def _post(fake: FakeDiscord, start: str) -> FakeMessage | None:
    return next((m for m in posts_after(fake, 0) if m.text.startswith(start)), None)


async def _finished_game(fake: FakeDiscord, bot: CittaBot, host: FakeUser, others: list[FakeUser],
                         level: str) -> tuple[int, FakeMessage, FakeMessage]:  # fmt: skip
    """A game of ``host``, ``others`` and a computer player of ``level``, run out by the deadline
    policy; its id, the final move's post and the replay post."""
    lobby = await (await fake.slash(host, "citta new")).wait_message()
    join, start = (next(c for c in lobby.custom_ids if c.endswith(a)) for a in (":join", ":start"))
    game_id = int(join.split(":")[1])
    for user in others:
        await fake.click(lobby, join, user)
        await fake.wait_for(lambda u=user: u.mention in lobby.text)
    await (await fake.slash(host, "citta add-ai", level=level)).wait_message()
    await announcement(fake, await fake.click(lobby, start, host))
    options = {"deadline": 1, "policy": "computer", "level": "random", "board": "round"}
    await (await fake.slash(host, "citta settings", **options)).wait_message()
    svc = bot.service
    for k in itertools.count(1):  # the computer players answer in the background between ticks
        assert k < 300, "the game does not end"
        svc.clock = lambda k=k: time.time() + 2 * k * HOUR
        await svc_tick.tick(svc)
        row = await svc.storage.games.game(game_id)
        assert row is not None
        if row.status == "over":
            break
        await asyncio.sleep(0.2)
    scoring = await fake.wait_for(lambda: _post(fake, f"🏁 **Game {game_id} — final scoring**"), 30)
    replay = await fake.wait_for(lambda: _post(fake, f"🎞️ Game {game_id}, replayed"), 60)
    posts = posts_after(fake, 0)
    final = posts[posts.index(scoring) - 1]
    assert "The game is over" in final.text or final.text.endswith("…"), final.text
    return game_id, final, replay


def _gif_frames(msg: FakeMessage, game_id: int) -> int:
    data = msg.attachment(f"citta-game-{game_id}.gif").data
    assert len(data) < 8 * 1024 * 1024
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF"
    return int(gif.n_frames)


async def _private(fake: FakeDiscord, user: FakeUser, command: str, **options: object) -> FakeMessage:
    rec = await fake.slash(user, command, **options)
    msg = await answer(fake, rec) if rec.deferred else rec.original
    assert msg is not None and msg.ephemeral and msg.recipient is user, (command, rec)
    assert len(msg.text) <= 2000
    return msg


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

        board = await _private(fake, alice, "citta leaderboard")
        assert board.text.startswith("🏆 **Leaderboard**"), board.text
        for name in ("Alice", "Bob", "Computer (strong)", "Computer (basic)"):
            assert f"**{name}**" in board.text, (name, board.text)
        assert board.text.count("← you") == 1

        mine = await _private(fake, alice, "citta stats")
        assert "**Alice**" in mine.text and "1 game," in mine.text and "Rating" in mine.text
        theirs = await _private(fake, alice, "citta stats", player=bob)
        assert "**Bob**" in theirs.text and "2 games" in theirs.text, theirs.text

        games = await _private(fake, bob, "citta games")
        assert games.text.index(f"**Game {second}**") < games.text.index(f"**Game {first}**")
        assert f"https://discord.com/channels/{fake.guild_id}/{fake.channel.id}/{final.id}" in games.text

        latest = await _private(fake, alice, "citta replay")
        assert _gif_frames(latest, second) >= 30
        chosen = await _private(fake, alice, "citta replay", game=first)
        assert _gif_frames(chosen, first) == frames

        prompt = await _private(fake, bob, "citta me forget")
        assert "the 2 finished games" in prompt.text and "cannot be undone" in prompt.text, prompt.text
        assert "**Bob**" in (await _private(fake, alice, "citta leaderboard")).text, "asking forgets nothing"
        [forget] = prompt.custom_ids
        done = await answer(fake, await fake.click(prompt, forget, bob))
        assert done.ephemeral and done.recipient is bob and done.text.startswith("Done:"), done.text
        assert "**Bob**" not in (await _private(fake, alice, "citta leaderboard")).text
    fake.check()
