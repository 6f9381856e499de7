"""A hint (part of the service layer): `/citta hint`.

The player privately gets the move the ``strong`` computer player would make for their
pending decision, with one line on why (`engine.ai.hint`), and a button to play it. The
computer player thinks in a worker (it takes a moment) and sees only the player's own view;
its seed is the game's version, so a hint asked twice in one position is the same.
"""

from __future__ import annotations

from typing import Any

from bot.errors import NotAllowed
from bot.results import Button, Message, custom_id
from bot.service import summary
from bot.service.base import ServiceBase
from engine import Game
from engine.ai.hint import Hint, hint


def hint_of(snapshot: dict[str, Any], record: dict[str, Any], seat: int, seed: int) -> Hint:
    """`engine.ai.hint.hint` on a stored position (runs in a worker)."""
    return hint(Game.restore(snapshot, record), seat, seed=seed)


class HintMixin(ServiceBase):
    """`/citta hint`."""

    async def hint(self, user_id: int, *, channel: int | None = None, game_id: int | None = None) -> Message:
        """The strong computer player's move for the user's pending decision and why, privately."""
        row = await self._game_row(channel, game_id)
        me, seats = await self._seat_of(row, user_id)
        if me.resigned:
            raise NotAllowed("You have resigned from this game.")
        game = self._restore(row)
        if not game.legal_moves(me.seat):
            waiting, _ = summary.next_line(game, {s.seat: s.user_id for s in seats})
            return Message(
                f"Nothing is asked of you now, so there is nothing to hint. {waiting}", ephemeral=True
            )
        assert row.snapshot is not None and row.record is not None
        found: Hint = await self.workers.call(hint_of, row.snapshot, row.record, me.seat, row.version)
        move = str(found.move)
        text = f"{found.text()}\nOnly you see this hint. Play it with the button or `/citta play {move}`."
        try:
            buttons: tuple[Button, ...] = (
                Button(f"Play {move}"[:80], custom_id(row.id, row.version, me.seat, move=move), "primary"),
            )
        except ValueError:  # a custom id too long for Discord: the command is enough
            buttons = ()
        return Message(text, ephemeral=True, buttons=buttons)
