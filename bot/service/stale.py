"""Lobbies left alone (part of the service layer): the clock closes them, then forgets them.

A lobby nothing happened in for `Context.lobby_days` days (no join, no leave, no computer added,
no setting changed) is closed: abandoned, its message edited (through the outbox, in the same
transaction) to say so and how to open a new one, its buttons gone. A lobby closed without a
start — by the clock, by `/citta abandon`, by its last member leaving — is forgotten (its rows
deleted) once it has been closed for as many days with nothing left to send; one the clock
closed, whose last activity is that old already, as soon as its edit is sent. So lobbies opened
and abandoned over and over leave no rows behind. A game that started is never touched.

Once an hour (`EVERY`), on the lobbies of this process's shards.
"""

from __future__ import annotations

import logging

import i18n
from bot.errors import StorageUnavailable
from bot.results import Message
from bot.service.context import Context
from bot.service.lobby import who
from bot.storage.rows import GameRow, LobbyView, SeatRow
from i18n import _n

log = logging.getLogger(__name__)
DAY = 86400
EVERY = 3600
"""How often the tick looks for stale lobbies (seconds)."""


async def sweep(ctx: Context) -> None:
    """Once an hour: close the stale lobbies, then forget the lobbies closed long enough ago."""
    now = ctx.now()
    if now < ctx.swept_at + EVERY:
        return
    ctx.swept_at = now
    before = now - ctx.lobby_days * DAY
    try:
        closed = 0
        for game_id in await ctx.storage.games.stale_lobbies(before, ctx.shards):
            async with ctx.game_lock(game_id):  # not while a Join of this process is being stored
                closed += await ctx.storage.games.close_lobby(
                    game_id, before=before, now=now, view=closed_view(ctx.lobby_days)
                )
        gone = await ctx.storage.games.prune_lobbies(before, ctx.shards)
    except StorageUnavailable:  # the database's fault: the tick stops here, and tries again
        ctx.swept_at = now - EVERY + 60
        raise
    except Exception:
        ctx.swept_at = now - EVERY + 60  # try again in a minute
        log.exception("Closing stale lobbies failed; trying again shortly")
        return
    if closed or gone:
        log.info("Closed %d idle lobby(ies) (%d days); forgot %d closed one(s)", closed, ctx.lobby_days, gone)


def closed_view(days: int) -> LobbyView:
    """The message of a lobby the clock closed after ``days`` days (in the game's language): who
    was in it, and no button."""

    def shown(row: GameRow, seats: list[SeatRow]) -> Message:
        with i18n.speaking(row.settings.language):
            head = _n(
                "**La Città** game {game} — closed by the bot after {count} day without a start. "
                "`/citta new` opens a new lobby.",
                "**La Città** game {game} — closed by the bot after {count} days without a start. "
                "`/citta new` opens a new lobby.",
                days, game=row.id,
            )  # fmt: skip
            listing = "\n".join(f"{s.seat + 1}. {who(s)}" for s in seats)
        return Message(f"{head}\n{listing}".strip())

    return shown
