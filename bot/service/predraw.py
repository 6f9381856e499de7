"""After a restart, the running games' current posts drawn ahead, nobody waiting for them (part of
the service layer), so that the first board after a restart comes as quickly as any other.

A worker that has warmed up (`bot.service.worker_start`) still draws a game's first post slowly:
what the renderer keeps for a game — the bands of its last table (`render.bands`), its layout's
landscape and its players' pieces — is not there yet (measured with `scripts/bench_bot.py`: some
three times a warm post). `predraw` draws the current post of the most recently active running
games, each in the worker that will draw its next post (`Workers.idle`, keyed by the game's id as
`pictures.post_pictures` is), and restores their positions in this process (`Context.positions`):
a move made then finds everything it needs ready. The post after the next move also shows close-ups
of other parts of the board (the move's, and the cities of the player after): for the
`CLOSEUP_GAMES` most recently active games, their landscape is drawn ahead too (`Renderer.ahead`).

It is bounded — the `PREDRAW_GAMES` most recently active games of this process's shards, one
picture set each — and comes last: an `idle` job starts only on its game's warm worker with no
other job waiting, so a turn post goes first (waiting at most for the one pre-draw already
running). The pictures are thrown away; the next post is drawn as usual, the same pictures
whether or not its game was pre-drawn (what the renderer keeps changes times, never pictures).

The bot connects to Discord's gateway — from when a player can act — only once this is done, or
`HOLD` seconds after it began (`bot.client.bot.CittaBot.setup_hook`): a move made the moment the
bot is ready then finds its game drawn ahead and its worker warm. Without the hold such a move
came while the workers still warmed and drew, on the same cores: measured with the real bot on
two cores (`scripts/real_restart.py`), its board took 2.9–4.6 times a warm one; with it, 0.9–1.6
times, and the bot is ready 0.3–0.5 s later (figures in docs/deploy.md). A player sees no
difference in that time: while a bot restarts, its commands are not answered either way.
"""

from __future__ import annotations

import asyncio
import logging

from bot.service.context import Context
from bot.storage.rows import GameRow

log = logging.getLogger(__name__)
PREDRAW_GAMES = 16
"""Running games pre-drawn after a restart, the most recently active first: about a fifth of a
second of a worker's time each, 2 MB of kept bands (`render.bands` keeps some 400 games' worth)."""
HOLD = 2.0
"""Seconds at most that the bot waits for `predraw` before it connects to the gateway (see the
module docstring): about ten games' worth with one worker; what is left is drawn meanwhile."""
CLOSEUP_GAMES = 3
"""Of those, the games whose next close-ups' landscape is drawn ahead too (`render.draw_ahead`: a
tenth of a second and up to a hundred blocks each; a worker keeps 360, `render.landscape.BLOCKS`)."""


async def predraw(ctx: Context, limit: int = PREDRAW_GAMES) -> int:
    """Draw ahead the current post of the ``limit`` most recently active running games (see the
    module docstring): how many were drawn. A failure is logged and skipped: nobody waits for it."""
    if ctx.renderer is None or limit <= 0:
        return 0
    try:
        rows = [
            r for r in await ctx.storage.games.active_games(ctx.shards) if r.status == "active" and r.record
        ]
    except Exception:
        log.warning("The running games could not be read to draw their posts ahead", exc_info=True)
        return 0
    rows.sort(key=lambda r: (r.updated_at, r.id), reverse=True)
    drawn = await asyncio.gather(
        *(_draw_ahead(ctx, row, closeups=k < CLOSEUP_GAMES) for k, row in enumerate(rows[:limit]))
    )
    log.info("Drew ahead the posts of %d running game(s)", sum(drawn))
    return sum(drawn)


async def _draw_ahead(ctx: Context, row: GameRow, *, closeups: bool) -> bool:
    """The current post of ``row``'s game drawn in its worker, at the lowest priority, and with
    ``closeups`` the landscape of the close-ups the next posts show (the cities of the seats who
    act now and of the one after them); whether the post was drawn."""
    assert ctx.renderer is not None
    try:
        game = ctx.positions.look(row)  # restored now: the game's next move finds it
        pending = game.pending_seats()
        view = game.view(None)
        await ctx.workers.idle(
            row.id, ctx.renderer.post, view, highlight=list(row.highlight), last_move="",
            focus=pending[0] if pending else None, lang=row.settings.language,
        )  # fmt: skip
        if closeups:
            after = [] if view.turn is None else [(view.turn + 1) % view.player_count]
            await ctx.workers.idle(
                row.id, ctx.renderer.ahead, view, seats=list(dict.fromkeys(pending + after))
            )
    except Exception as error:
        log.info("Drawing game %s's post ahead failed: %r", row.id, error)
        return False
    return True
