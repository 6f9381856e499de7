"""The end of a game (part of the service layer): its results, ratings and the replay.

When a move ends a game, `bot.service.commit.commit` stores the placings and the new ratings
(`bot.service.history`, `bot.service.ratings`) and a post with the scoring breakdown and the rating changes
in the same transaction as the move, so none of them can be lost. The replay animation
takes seconds to draw, so it follows in a post of its own (`post_replay`): made in a worker
once the final move is announced, and stored at most once (``games.replayed``); a game whose
replay was not stored (the bot stopped meanwhile) gets it at the next clock tick. A replay is
drawn in the workers' `aside` lane (it never delays another game's turn post) and kept per game
and language (`Context.replays`): `/citta replay` asked again, by anyone, draws nothing.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

import i18n
from bot.ids import review_at_id
from bot.results import Button, Message, Post
from bot.service.context import Context
from bot.service.history import final_text, placings, player_key
from bot.service.pictures import default_renderer
from bot.storage.rows import GameRow, Placing, SeatRow
from engine import Game
from i18n import _, _n

log = logging.getLogger(__name__)


@contextlib.asynccontextmanager
async def placings_of(
    ctx: Context, row: GameRow, game: Game, seats: list[SeatRow]
) -> AsyncIterator[list[Placing]]:
    """The placings of ``game`` if it is over ([] otherwise), holding the server's rating lock until they
    are stored: two games ending at once in a server are rated one after the other."""
    if not game.is_over:
        yield []
        return
    guild = row.guild or 0
    async with ctx.rating_lock(guild):
        ratings = await ctx.storage.history.ratings(guild, sorted({player_key(s) for s in seats}))
        yield placings(game, seats, ratings)


def final_posts(row: GameRow, places: list[Placing], seats: list[SeatRow]) -> list[Post]:
    """The end-of-game post (scoring breakdown, rating changes, in the game's language, and 🔎: the
    presser's review of the game from its start); none while the game runs."""
    if not places:
        return []
    with i18n.speaking(row.settings.language):
        review = Button(_("🔎 Review this game"), review_at_id(row.id, 0))
        text = final_text(row.id, places, {s.seat: s.name for s in seats})
        return [Post(row.channel, Message(text, buttons=(review,)))]


async def post_replay(ctx: Context, game_id: int) -> list[int]:
    """Draw a finished game's replay in a worker and store its post, once (the outbox ids; [] when it was
    stored before, or is being drawn). A replay that cannot be drawn is logged and given up."""
    row = await ctx.storage.games.game(game_id)
    if row is None or row.status != "over" or row.record is None or game_id in ctx.replaying:
        return []
    ctx.replaying.add(game_id)
    try:
        posts = [Post(row.channel, await replay_message(ctx, row))] if ctx.renderer is not None else []
    except Exception:
        log.warning("The replay of game %s could not be drawn; posting none", game_id, exc_info=True)
        posts = []
    finally:
        ctx.replaying.discard(game_id)
    return await ctx.storage.history.store_replay(game_id, posts, ctx.now()) or []


async def replay_message(ctx: Context, row: GameRow, *, ephemeral: bool = False) -> Message:
    """The replay of a finished game as a message with its GIF, drawn in a worker once per language:
    for the reader (``ephemeral``), or posted in the channel in the game's language."""
    from render.replay import animation  # the renderer, imported where a replay is drawn

    assert row.record is not None and ctx.renderer is not None
    code = i18n.current().code if ephemeral else row.settings.language
    record = row.record
    renderer = None if ctx.renderer is default_renderer else ctx.renderer  # None: frames drawn as images
    data, frames = await ctx.replays.get(
        (row.id, code), lambda: ctx.workers.aside(animation, record, renderer, lang=code)
    )
    with i18n.speaking(code):
        text = _n(
            "🎞️ Game {game}, replayed: the board after each political round and each year ({count} frame).",
            "🎞️ Game {game}, replayed: the board after each political round and each year ({count} frames).",
            frames,
            game=row.id,
        )
    return Message(text, image=data, filename=f"citta-game-{row.id}.gif", ephemeral=ephemeral)
