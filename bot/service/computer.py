"""Who answers for a seat the bot plays: a computer player (`engine.ai`) or the least harmful move.

The bot plays a seat when it is a computer player, when its player resigned, and when its
player missed a deadline under the policies ``computer`` and ``skip`` (until they come back).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from bot.storage.rows import GameSettings, SeatRow
from engine import Action, Game
from engine.ai import LEVELS, choose
from i18n import N_, _

log = logging.getLogger(__name__)
LEVEL_NAMES = {"random": N_("random"), "basic": N_("basic"), "strong": N_("strong")}
"""Each computer level's name for a reader (the level itself is a setting's value)."""


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


def level_name(level: str | None) -> str:
    """A computer level in the current language."""
    return _(LEVEL_NAMES[level]) if level in LEVEL_NAMES else str(level)


def played_for(seat: SeatRow, how: str) -> str:
    """The note after a move the bot made, e.g. ``(computer player, basic)``, in the current
    language (the game's, in the channel post)."""
    if how == "ahead":
        return " " + _("({name}'s answer ahead)", name=seat.name)
    if seat.computer:
        return " 🤖 " + _("(computer player, {level})", level=level_name(seat.ai_level))
    if seat.resigned:
        return " " + _("(for {name}, who resigned)", name=seat.name)
    if how == "computer":
        return " " + _("(for {name}, who is away: a computer player)", name=seat.name)
    return " " + _("(for {name}, who is away: the least harmful move)", name=seat.name)


def decide_move(
    snapshot: dict[str, Any], record: dict[str, Any], seat: SeatRow, settings: GameSettings, seed: int
) -> tuple[Action, str]:
    """`decide` on a stored position (runs in a worker)."""
    return decide(Game.restore(snapshot, record), seat, settings, seed)


def plan_moves(
    snapshot: dict[str, Any], record: dict[str, Any], seats: list[SeatRow], settings: GameSettings,
    version: int, also: frozenset[int] = frozenset(),
) -> list[tuple[int, Action, str]]:  # fmt: skip
    """The bot's moves for the seats it plays (and ``also``, played as if away) until a human
    must decide: (seat, move, ``computer`` or ``default``) each (runs in a worker)."""
    game = Game.restore(snapshot, record)
    by_seat = {s.seat: s for s in seats}
    gone = {s.seat for s in seats if s.played_by_bot} | also
    planned: list[tuple[int, Action, str]] = []
    while not game.is_over and (todo := [s for s in game.pending_seats() if s in gone]):
        seat = by_seat[todo[0]]
        if seat.seat in also and not seat.played_by_bot:
            seat = replace(seat, away=True)
        move, how = decide(game, seat, settings, seed=version + len(planned))
        game.play(seat.seat, move)
        planned.append((seat.seat, move, how))
    return planned
