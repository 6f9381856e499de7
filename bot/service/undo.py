"""Taking a move back (part of the service layer).

A player may take back their own last move when nobody has moved since (the bot's answers
for its seats in the same batch are taken back with it) and nothing hidden became known (a
politics card drawn to refill the row, a poll, a pass draw, the voice). The host may take
back anyone's last move, one batch at a time, but never past such a reveal. The engine takes
the moves back (`engine.Game.take_back`: the record replayed without them, refused past a
reveal); the version still goes up, so buttons made before the undo stay stale.
"""

from __future__ import annotations

import asyncio
import logging

import i18n
from bot.errors import AlreadyMade, NoGame, NotAllowed, NotSeated
from bot.results import Message, Outcome, Post
from bot.service import summary
from bot.service.commit import announce, fresh_clocks
from bot.service.context import Context
from bot.service.lookup import game_row
from bot.service.positions import restore
from bot.storage.rows import MoveRow
from engine import IrreversibleMove
from i18n import _, _n

log = logging.getLogger(__name__)


def last_batch(moves: list[MoveRow]) -> list[MoveRow]:
    """The moves stored together last (one player's move and the bot's answers)."""
    if not moves:
        return []
    batch = moves[-1].batch
    if batch is None:
        return moves[-1:]
    k = len(moves)
    while k > 0 and moves[k - 1].batch == batch:
        k -= 1
    return moves[k:]


async def undo(
    ctx: Context, user_id: int, *, channel: int, can_manage: bool = False, based_on: int | None = None
) -> Outcome:
    """Take back the last move (see the module docstring); the table is told.

    ``based_on`` is the game version the request was made at (by default: when it arrived),
    so that a second copy of the same request takes nothing more back."""
    first = await game_row(ctx, channel, None)
    async with ctx.game_lock(first.id):
        return await _undo(
            ctx, user_id, first.id, can_manage, first.version if based_on is None else based_on
        )


async def _undo(ctx: Context, user_id: int, game_id: int, can_manage: bool, based_on: int) -> Outcome:
    row = await game_row(ctx, None, game_id)
    if row.version != based_on:
        if await ctx.storage.moves.moves_after(row.id, based_on):
            raise AlreadyMade(_("The game changed while your request waited: look at it again, and undo "
                                "again if you still want to."))  # fmt: skip
        raise AlreadyMade(_("That move was already taken back."))
    seats = await ctx.storage.games.seats(row.id)
    me = next((s for s in seats if s.user_id == user_id), None)
    host = user_id == row.host or can_manage
    if me is None and not host:
        raise NotSeated(_("You are not playing in this game."))
    batch = last_batch(await ctx.storage.moves.moves(row.id))
    if not batch:
        raise NoGame(_("No move has been made yet."))
    first = batch[0]
    if first.auto:
        raise NotAllowed(_("The last move was made by the bot (a computer player or a deadline); "
                           "it cannot be taken back."))  # fmt: skip
    if not host and (me is None or first.seat != me.seat):
        raise NotAllowed(
            _(
                "Only your own last move can be taken back, and only while nobody has moved since; "
                "anything else needs the host."
            )
        )
    try:
        game = await asyncio.to_thread(restore(row).take_back, len(batch))
    except IrreversibleMove as e:
        raise NotAllowed(e.told(i18n.current())) from None
    names = {s.seat: s.name for s in seats}
    by = me.name if me is not None else f"<@{user_id}>"
    with i18n.speaking(row.settings.language):  # the announcement is public
        extra = "" if len(batch) == 1 else _n(
            " (and the bot's {count} answer)", " (and the bot's {count} answers)", len(batch) - 1
        )  # fmt: skip
        when = summary.when(game.view(None))
        if me is not None and me.seat == first.seat:
            body = _("↩️ {by} took back their move `{move}`{extra}. {when}.", by=by, move=first.text,
                     extra=extra, when=when)  # fmt: skip
        else:
            body = _("↩️ {by} took back {name}'s move `{move}`{extra}. {when}.", by=by,
                     name=names[first.seat], move=first.text, extra=extra, when=when)  # fmt: skip
        announcement = await announce(ctx, row.id, row.version + 1, game, seats, body, [])
    taken = _("Taken back: `{move}`.", move=first.text)
    outcome = Outcome(Message(taken, ephemeral=True), announcement, game=row.id)
    ids = await ctx.storage.moves.commit_moves(
        row.id, based_on=row.version, moves=[], record=game.record().model_dump(mode="json"),
        snapshot=game.snapshot(), status="active", highlight=[], secrets=[], now=ctx.now(),
        clocks=fresh_clocks(ctx, row, game, seats), restart={first.seat}, undo=[m.number for m in batch],
        posts=[Post(row.channel, outcome=outcome)],
    )  # fmt: skip
    if ids is None:
        raise AlreadyMade(_("The game changed while taking the move back; look again and retry."))
    log.info("game %s: %d move(s) taken back", row.id, len(batch))
    return outcome.stored(ids)
