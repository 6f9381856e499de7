"""Playing a move (part of the service layer): `/citta play`, a move's button, the panel's Confirm.

The engine checks the move; it is stored with its announcement in one transaction guarded by the
game's version (`bot.service.commit`), and only then announced. The seats the bot plays answer
afterwards (`bot.service.advance`).
"""

from __future__ import annotations

import logging
from dataclasses import replace

import i18n
from bot.errors import AlreadyMade, CittaError, MoveRefused, NotAllowed
from bot.ids import ButtonRef, custom_id
from bot.results import Button, Message, Outcome
from bot.service import absence, summary
from bot.service.admission import Admitted, whose
from bot.service.commit import ATTEMPTS, Made, commit, stage
from bot.service.context import Context
from bot.service.lookup import game_row
from bot.storage.rows import GameRow, SeatRow
from engine import Action, Game, IllegalMove, MalformedMove
from i18n import _

log = logging.getLogger(__name__)


async def play(
    ctx: Context, user_id: int, text: str, *, channel: int | None = None, game_id: int | None = None,
    based_on: int | None = None, seat: int | None = None, confirmed: bool = False,
    table: tuple[GameRow, list[SeatRow]] | None = None,
) -> Outcome:  # fmt: skip
    """Play ``text`` for the user's seat; raises a `CittaError` (nothing stored) if refused.

    ``based_on`` is the game version the player saw: a button carries it; for a typed move it is
    the version when the request arrived. If the seat has moved since (for a typed move: made this
    same move since), the move was already made, so a second copy of the same request applies once.
    A move that loses the race against another move is checked again on the new position. A move
    that wastes something (`engine.Game.waste`) is asked about first, unless ``confirmed``.
    ``seat``: the seat a button is for (only its player may press it); ``table``: the game and its
    seats as the door read them (`bot.service.admission`), for the first try.
    """
    first = table[0] if table is not None else await game_row(ctx, channel, game_id)
    async with ctx.game_lock(first.id):
        return await _play(ctx, user_id, text, first, first.version if based_on is None else based_on, seat,
                           confirmed, None if table is None else table[1])  # fmt: skip


async def play_pressed(
    ctx: Context, user_id: int, ref: ButtonRef, admitted: Admitted | None = None
) -> Outcome:
    """Play the move of a pressed button (a move's, the panel's Confirm), the game and its seats as the
    door read them (``admitted``; None: read here)."""
    table = None
    if admitted is not None:
        assert admitted.row is not None
        table = (admitted.row, admitted.seats)
    return await play(ctx, user_id, ref.move or "", game_id=ref.game, based_on=ref.version, seat=ref.seat,
                      confirmed=True, table=table)  # fmt: skip


async def _play(
    ctx: Context, user_id: int, text: str, first: GameRow, based_on: int, seat: int | None, confirmed: bool,
    first_seats: list[SeatRow] | None,
) -> Outcome:  # fmt: skip
    for attempt in range(ATTEMPTS):
        # The row read before the lock will do for a first try: a move stored meanwhile makes the commit
        # find a newer version (and a refusal look again: `_current`), and the next try reads it again.
        row = first if attempt == 0 else await game_row(ctx, None, first.id)
        if row.status != "active":
            row = await game_row(ctx, None, first.id)  # raises, saying why the game cannot be played
        seats = (
            first_seats if attempt == 0 and first_seats is not None else await ctx.storage.games.seats(row.id)
        )
        me = whose(seats, seat, user_id)
        if me.resigned:
            raise NotAllowed(_("You have resigned from this game."))
        if me.away:  # the bot played for them: they are back
            await absence.back(ctx, row, me)
            me = replace(me, away=False)
            seats = [me if s.seat == me.seat else s for s in seats]
        if based_on > row.version:
            raise NotAllowed(_("That button does not belong to this game's current position."))
        same = None if seat is not None else _canonical(text)
        # Nothing was made since ``based_on`` on a row still at it (were the row behind, the commit would
        # fail and the next try, on a newer row, look).
        copy = (seat is not None or same is not None) and row.version > based_on
        earlier = await ctx.storage.moves.moved_since(row.id, based_on, me.seat, same) if copy else None
        if earlier is not None:
            raise AlreadyMade(_("That move was already made: your `{move}` (move {number}) counts.",
                                move=earlier.text, number=earlier.number))  # fmt: skip
        game = ctx.positions.take(row)
        try:
            action = game.check(me.seat, text)[0]
        except IllegalMove as e:
            if not await _current(ctx, row, first):
                continue
            raise await _refusal(ctx, row, game, me, text, e) from None
        if not confirmed and (warning := summary.waste_warning(game, me.seat, action)) is not None:
            if not await _current(ctx, row, first):
                continue
            return _waste_question(row, me, action, warning)
        before = stage(game)
        made = [Made(me.seat, action, game.play(me.seat, action))]
        outcome = await commit(ctx, row, game, seats, made, actor=me, before=before)
        if outcome is not None:
            log.info("game %s: seat %s played %s", row.id, me.seat, action)
            return outcome
    raise AlreadyMade(_("That move was already made."))


def _waste_question(row: GameRow, me: SeatRow, action: Action, warning: str) -> Outcome:
    """The private question before a move that wastes something: what it wastes, and a button to play
    it anyway."""
    cid = custom_id(row.id, row.version, me.seat, move=str(action))
    button = Button(_("Play {move} anyway", move=action), cid, "danger")
    return Outcome(reply=Message(warning, ephemeral=True, buttons=(button,)), game=row.id)


def _canonical(text: str) -> str | None:
    """The notation's canonical form of a typed move; None when it does not parse."""
    try:
        return str(Action.parse(text))
    except MalformedMove:
        return None


def _same_move(stored: str, typed: str | None) -> bool:
    """Whether ``typed`` (canonical) asks for the move ``stored``: the same, or ``found HEX`` without
    its source, which the record keeps in full (``found HEX from HEX2``).

    >>> _same_move("found I9 from L11", "found I9"), _same_move("found I9 from L11", "found J9")
    (True, False)
    """
    return typed is not None and (stored == typed or stored.startswith(f"{typed} from "))


async def _current(ctx: Context, row: GameRow, first: GameRow) -> bool:
    """Whether a move may be refused (or questioned) on ``row``: a row read inside the game's lock may;
    ``first``, read before it, only while the game is still at its version (a move stored as this one
    waited for the lock may have made it legal)."""
    return row is not first or (await game_row(ctx, None, first.id)).version == first.version


async def _refusal(
    ctx: Context, row: GameRow, game: Game, me: SeatRow, text: str, error: IllegalMove
) -> CittaError:
    """Why a move is refused. When it is the seat's last stored move (the player tries again, e.g. after
    the bot restarted before announcing it), say that it counted."""
    last = await ctx.storage.moves.last_move_of(row.id, me.seat)
    if last is not None and not last.auto and _same_move(last.text, _canonical(text)):
        users = {s.seat: s.user_id for s in await ctx.storage.games.seats(row.id)}
        waiting = summary.next_line(game, users)[0]
        made = _("Your move `{move}` was already made (move {number}, {when}) and counts.",
                 move=last.text, number=last.number, when=f"<t:{last.created_at}:R>")  # fmt: skip
        return AlreadyMade(f"{made} {waiting}".strip())
    return MoveRefused(error.told(i18n.current()))
