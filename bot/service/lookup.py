"""Finding what a request is about: the game of a channel (or by id), the user's seat in it; and
storing a plain announcement of a change (part of the service layer)."""

from __future__ import annotations

from bot.errors import NoGame
from bot.results import Outcome, Post
from bot.service.admission import whose
from bot.service.context import Context
from bot.storage.rows import GameRow, SeatRow
from i18n import N_, _

NOT_RUNNING = {
    "lobby": N_("The game has not started yet: join it in the lobby, the host starts it."),
    "over": N_("That game is over. `/citta score` shows the result."),
    "abandoned": N_("That game was abandoned."),
}
"""Why a game that is not running cannot be played, by its status."""
STOPPED = N_("That game is not running.")
NO_GAME = N_("There is no game in this channel. Start one with `/citta new`.")


async def game_row(ctx: Context, channel: int | None, game_id: int | None, *, active: bool = True) -> GameRow:
    """The game ``game_id``, else the channel's (its running game; with ``active`` False also its
    lobby or, when none is open, the last one played there); `NoGame` saying why there is none."""
    games = ctx.storage.games
    if game_id is not None:
        row = await games.game(game_id)
    elif active:
        row = await games.open_game(channel or 0)
    else:
        row = await games.latest_game(channel or 0)
    if row is None:
        raise NoGame(_(NO_GAME))
    if active and row.status != "active":
        raise NoGame(_(NOT_RUNNING.get(row.status, STOPPED)))
    return row


async def seat_of(ctx: Context, row: GameRow, user_id: int) -> tuple[SeatRow, list[SeatRow]]:
    """The user's seat in the game, and all its seats; `NotSeated` when they do not play in it."""
    seats = await ctx.storage.games.seats(row.id)
    return whose(seats, None, user_id), seats


async def told(ctx: Context, row: GameRow, outcome: Outcome) -> Outcome:
    """Store the outcome's announcement (a plain channel post) for delivery."""
    if outcome.announcement is None:
        return outcome
    post = Post(row.channel, outcome.announcement)
    return outcome.stored(await ctx.storage.outbox.enqueue(row.id, [post], ctx.now()))
