"""A hint (part of the service layer): `/citta hint`.

The player privately gets the move the ``strong`` computer player would make for their
pending decision, with one line on why (`engine.ai.hint`), and a button to play it. The
computer player thinks in a worker (it takes a moment) and sees only the player's own view;
its seed is the game's version, so a hint asked twice in one position is the same: it is made
once (`Context.asked`), in the workers' `aside` lane (it never delays a game's posts), and a
member asking for hints at new positions again and again meets `bot.service.limits`.
"""

from __future__ import annotations

from typing import Any

import i18n
from bot.errors import NotAllowed
from bot.ids import custom_id
from bot.results import Button, Message
from bot.service import summary
from bot.service.context import Context
from bot.service.holders import for_holder
from bot.service.lookup import game_row, seat_of
from bot.service.positions import restore
from engine import Game
from engine.ai import hint as strong
from i18n import _


def hint_of(
    snapshot: dict[str, Any], record: dict[str, Any], seat: int, seed: int, lang: str = "en"
) -> strong.Hint:
    """`engine.ai.hint.hint` on a stored position, its words in language ``lang`` (runs in a
    worker, which may be another process: the language goes with the call)."""
    return strong.hint(Game.restore(snapshot, record), seat, seed=seed, words=i18n.lang(lang))


async def hint(
    ctx: Context, user_id: int, *, channel: int | None = None, game_id: int | None = None
) -> Message:
    """The strong computer player's move for the user's pending decision and why, privately."""
    row = await game_row(ctx, channel, game_id)
    me, seats = await seat_of(ctx, row, user_id)
    if me.resigned:
        raise NotAllowed(_("You have resigned from this game."))
    game = restore(row)
    if not game.legal_moves(me.seat):
        waiting, _mentions = summary.next_line(game, {s.seat: s.user_id for s in seats})
        return Message(
            _("Nothing is asked of you now, so there is nothing to hint. {waiting}", waiting=waiting),
            ephemeral=True,
        )
    assert row.snapshot is not None and row.record is not None
    code = i18n.current().code
    secrets = await ctx.storage.moves.secrets(row.id, me.seat, game.state.year) if me.held_since else []
    position = for_holder(row.snapshot, me, secrets)  # what this player may know of the seat
    key = ("hint", row.id, row.version, me.seat, user_id, code)
    if not ctx.asked.holds(key):
        ctx.limits.take(user_id, "hint", now=ctx.clock())
    record = row.record
    found: strong.Hint = await ctx.asked.get(
        key, lambda: ctx.workers.aside(hint_of, position, record, me.seat, row.version, code)
    )
    move = str(found.move)
    only = _("Only you see this hint. Play it with the button or `/citta play {move}`.", move=move)
    text = f"{found.text()}\n{only}"
    try:
        label = _("Play {move}", move=move)[:80]
        buttons: tuple[Button, ...] = (
            Button(label, custom_id(row.id, row.version, me.seat, move=move), "primary"),
        )
    except ValueError:  # a custom id too long for Discord: the command is enough
        buttons = ()
    return Message(text, ephemeral=True, buttons=buttons)
