""" "You are next" (part of the service layer): a player who asks for it (``/citta me next on``)
gets a direct message when the player before them starts a turn, so they can come back in time.

In the political rounds the seats play in turn from the year's start player (`engine`'s
``turn_seat``), so the player after the one whose turn opens now plays next — but after the last
turn of the year's last round comes the tally, not another turn: no message then. Nobody is told
right after their own move (in a game of two, the player before you is the one who just waited
on you), nor for a seat the bot plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import i18n
from bot.results import DirectMessage, Message
from bot.service.context import Context
from bot.storage.rows import GameRow, SeatRow
from engine import Game
from engine.components import ROUNDS
from i18n import _


def next_seat(game: Game) -> int | None:
    """The seat whose turn follows the turn asked now (None: no turn is asked, or none follows it
    this year)."""
    s = game.state
    if s.phase != "politics" or game.is_over:
        return None
    playing = s.turn_seat()
    if not any(d.kind == "turn" for d in game.pending_decisions(playing)):
        return None
    if s.round >= ROUNDS and s.turn_index >= s.n_players - 1:
        return None
    return (playing + 1) % s.n_players


async def heads_up(
    ctx: Context, row: GameRow, game: Game, seats: Sequence[SeatRow], movers: Sequence[int]
) -> tuple[DirectMessage, ...]:
    """The "you are next" message due now that ``movers`` (the seats whose moves were just stored)
    moved and a turn opened; none when nobody asked for it."""
    seat = next_seat(game)
    if seat is None or not movers or game.state.turn_seat() in movers or seat in movers:
        return ()
    player = next((s for s in seats if s.seat == seat), None)
    if player is None or player.user_id <= 0 or player.played_by_bot:
        return ()
    prefs = (await ctx.storage.players.prefs([player.user_id]))[player.user_id]
    if not prefs.next_ping:
        return ()
    before = game.state.players[game.state.turn_seat()].name
    with i18n.speaking(prefs.language or row.settings.language):
        text = _("⏭ Game {game} in <#{channel}>: {name} is playing their turn — you are next.",
                 game=row.id, channel=row.channel, name=before)  # fmt: skip
    return (DirectMessage(player.user_id, text),)


async def set_next(ctx: Context, user_id: int, on: bool | None = None) -> Message:
    """``/citta me next``: show, or turn on or off, the user's "you are next" messages."""
    prefs = (await ctx.storage.players.prefs([user_id]))[user_id]
    if on is not None and on != prefs.next_ping:
        prefs = replace(prefs, next_ping=on)
        await ctx.storage.players.set_prefs(prefs)
    if prefs.next_ping:
        text = _("You get a direct message when the player before you starts a turn.")
    else:
        text = _("You get no message when the player before you starts a turn.")
    return Message(text + " " + _("`/citta me next` turns it on or off."), ephemeral=True)
