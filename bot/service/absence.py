"""Absent players (part of the service layer): handing a seat to someone else, vacation, and
giving a seat back to a player the bot played for after a missed deadline."""

from __future__ import annotations

import logging

import i18n
from bot.errors import CittaError, NotAllowed, NotSeated
from bot.results import Message, Outcome, Post, User
from bot.service import clock
from bot.service.context import Context
from bot.service.lookup import game_row, seat_of, told
from bot.service.positions import restore
from bot.storage.rows import GameRow, SeatRow
from i18n import _, _n

log = logging.getLogger(__name__)


class VacationError(CittaError):
    """A vacation that does not fit the allowance."""


async def replace(
    ctx: Context, user_id: int, *, channel: int, old: User, new: User, can_manage: bool = False
) -> Outcome:
    """The host (or Manage Server), or the seat's own player, hands ``old``'s seat to ``new``, who
    plays it from now on and sees only what is revealed to it from then on (`bot.service.holders`).

    A seat's secrets stay with its player: someone who plays in the game too (a seated host) may take
    a seat from another player only when the bot plays for them (away, resigned) or their time is up;
    otherwise only its player may hand it over."""
    row = await game_row(ctx, channel, None)
    if user_id != old.id and user_id != row.host and not can_manage:
        raise NotAllowed(_("Only the host or a member with Manage Server can hand a seat to someone else."))
    seats = await ctx.storage.games.seats(row.id)
    seat = next((s for s in seats if s.user_id == old.id), None)
    if seat is None:
        raise NotSeated(_("<@{user}> is not playing in this game.", user=old.id))
    if new.id <= 0 or any(s.user_id == new.id for s in seats):
        raise NotAllowed(_("<@{user}> already plays in this game.", user=new.id))
    seated = any(s.user_id == user_id for s in seats)
    if user_id != old.id and seated and not (seat.away or seat.resigned or await _late(ctx, row, seat)):
        raise NotAllowed(
            _("A player of this game can hand over {name}'s seat only when the bot plays for them or their "
              "time is up: until then, only {name} can hand it over (`/citta replace` themselves).",
              name=seat.name)
        )  # fmt: skip
    if not await ctx.storage.players.replace_player(row.id, seat.seat, new.id, ctx.now()):
        raise NotAllowed(_("The seats changed at that moment; try again."))
    log.info("game %s: seat %s handed to another user", row.id, seat.seat)
    game = restore(row)
    with i18n.speaking(row.settings.language):  # told in the channel
        if seat.seat in game.pending_seats():
            text = _("🔁 <@{new}> takes over {name}'s seat from <@{old}>. It is their turn now.",
                     new=new.id, name=seat.name, old=old.id)  # fmt: skip
        else:
            text = _("🔁 <@{new}> takes over {name}'s seat from <@{old}>.", new=new.id, name=seat.name,
                     old=old.id)  # fmt: skip
    note = Message(text, mentions=(new.id,))
    return await told(ctx, row, Outcome(Message(_("Done."), ephemeral=True), note, game=row.id))


async def _late(ctx: Context, row: GameRow, seat: SeatRow) -> bool:
    """Whether the game waits for ``seat`` past its deadline."""
    now = ctx.now()
    return any(
        c.seat == seat.seat and (end := clock.deadline(c, row.settings)) is not None and now >= end
        for c in await ctx.storage.clocks.get(row.id)
    )


async def vacation(
    ctx: Context, user_id: int, *, channel: int, days: int, request: int | None = None
) -> Outcome:
    """Pause the user's clock for ``days`` (0 ends a vacation and gives back the days unused).
    ``request`` names the request (the interaction's id): a copy of one already applied
    changes nothing, whenever it reads the seat."""
    row = await game_row(ctx, channel, None)
    me = (await seat_of(ctx, row, user_id))[0]
    if request is not None and me.vacation_request == request:
        raise VacationError(
            _("Your vacation changed at that moment (a second request?): see `/citta status`.")
        )
    now, allowance = ctx.now(), row.settings.vacation_days
    year, used = me.vacation_year, me.vacation_used
    if year is None or now - year >= clock.YEAR:
        year, used = now, 0
    current = me.vacation_until if clock.on_vacation(me, now) else None
    if days == 0:
        if current is None:
            raise VacationError(_("You are not on vacation."))
        unused = (current - now) // clock.DAY
        if not await ctx.storage.players.set_vacation(
            row.id, me.seat, until=None, used=max(0, used - unused), year=year, shift=-(current - now),
            was=me.vacation_until, request=request,
        ):  # fmt: skip
            raise VacationError(
                _("Your vacation changed at that moment (a second request?): see `/citta status`.")
            )
        with i18n.speaking(row.settings.language):  # told in the channel
            text = _("🏖 {name} is back from vacation; their clock runs again.", name=me.name)
        back = _n("Welcome back. {count} day returned.", "Welcome back. {count} days returned.", unused)
        return await told(ctx, row, Outcome(Message(back, ephemeral=True), Message(text), game=row.id))
    if days < 0 or used + days > allowance:
        left = max(0, allowance - used)
        raise VacationError(
            _n(
                "You have {left} of {count} vacation day left this year in this game.",
                "You have {left} of {count} vacation days left this year in this game.",
                allowance,
                left=left,
            )
        )
    start = current or now
    until = start + days * clock.DAY
    if not await ctx.storage.players.set_vacation(
        row.id,
        me.seat,
        until=until,
        used=used + days,
        year=year,
        shift=until - start,
        was=me.vacation_until,
        request=request,
    ):
        raise VacationError(
            _("Your vacation changed at that moment (a second request?): see `/citta status`.")
        )
    with i18n.speaking(row.settings.language):  # told in the channel
        text = _n(
            "🏖 {name} is on vacation until <t:{until}:f>: their clock is paused, no reminders "
            "({left} of {count} day left this year).",
            "🏖 {name} is on vacation until <t:{until}:f>: their clock is paused, no reminders "
            "({left} of {count} days left this year).",
            allowance, name=me.name, until=until, left=allowance - used - days,
        )  # fmt: skip
    return await told(
        ctx, row, Outcome(Message(_("Have a good time!"), ephemeral=True), Message(text), game=row.id)
    )


async def come_back(
    ctx: Context, user_id: int, *, channel: int | None = None, game_id: int | None = None
) -> Message | None:
    """A player the bot played for gets their seat back; the channel note (stored for
    delivery), or None."""
    row = await (
        ctx.storage.games.game(game_id) if game_id is not None else ctx.storage.games.open_game(channel or 0)
    )
    if row is None or row.status != "active":
        return None
    seat = next((s for s in await ctx.storage.games.seats(row.id) if s.user_id == user_id), None)
    return None if seat is None else await back(ctx, row, seat)


async def back(ctx: Context, row: GameRow, seat: SeatRow) -> Message | None:
    """``seat``'s player is back in the running game ``row``, if the bot played for them: the channel
    note (stored for delivery), or None when they were not away."""
    if not seat.away or not await ctx.storage.players.come_back(row.id, seat.seat):
        return None
    with i18n.speaking(row.settings.language):  # told in the channel
        note = Message(_("👋 {name} is back and plays their own seat again.", name=seat.name))
    await ctx.storage.outbox.enqueue(row.id, [Post(row.channel, note)], ctx.now())
    return note
