"""Who answers for a seat the bot plays: a computer player (`engine.ai`) or the least harmful move.

The bot plays a seat when it is a computer player, when its player resigned, and when its
player missed a deadline under the policies ``computer`` and ``skip`` (until they come back).
"""

from __future__ import annotations

import logging

from bot.storage.rows import GameSettings, SeatRow
from engine import Action, Game
from engine.ai import LEVELS, choose

log = logging.getLogger(__name__)


def levels() -> tuple[str, ...]:
    """The computer levels `engine.ai` offers."""
    return LEVELS


def decide(game: Game, seat: SeatRow, settings: GameSettings, seed: int) -> tuple[Action, str]:
    """The bot's move for ``seat`` and who made it: ``computer`` or ``default``."""
    level = seat.ai_level or (settings.ai_level if seat.away and settings.policy == "computer" else None)
    if level is not None:
        try:
            return choose(game, seat.seat, level, seed=seed), "computer"
        except Exception:
            log.exception("The computer player failed; making the least harmful move instead")
    move = game.default_move(seat.seat)
    assert move is not None, "the seat has a decision to make"
    return move, "default"


def played_for(seat: SeatRow, how: str) -> str:
    """The note after a move the bot made, e.g. ``(computer player, basic)``."""
    if seat.computer:
        return f" 🤖 (computer player, {seat.ai_level})"
    if seat.resigned:
        return f" (for {seat.name}, who resigned)"
    who = "a computer player" if how == "computer" else "the least harmful move"
    return f" (for {seat.name}, who is away: {who})"
