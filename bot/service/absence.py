"""Absent players (part of the service layer): handing a seat to someone else, vacation, and
giving a seat back to a player the bot played for after a missed deadline."""

from __future__ import annotations

from bot.errors import CittaError, NotAllowed, NotSeated
from bot.results import Message, Outcome, Post, User
from bot.service import clock
from bot.service.base import ServiceBase, log


class VacationError(CittaError):
    """A vacation that does not fit the allowance."""


class AbsenceMixin(ServiceBase):
    """`/citta replace`, `/citta vacation`, and coming back."""

    async def replace(
        self, user_id: int, *, channel: int, old: User, new: User, can_manage: bool = False
    ) -> Outcome:
        """The host (or Manage Server) hands ``old``'s seat to ``new``, who plays it from now on."""
        row = await self._game_row(channel, None)
        if user_id != row.host and not can_manage:
            raise NotAllowed("Only the host or a member with Manage Server can hand a seat to someone else.")
        seats = await self.storage.seats(row.id)
        seat = next((s for s in seats if s.user_id == old.id), None)
        if seat is None:
            raise NotSeated(f"<@{old.id}> is not playing in this game.")
        if new.id <= 0 or any(s.user_id == new.id for s in seats):
            raise NotAllowed(f"<@{new.id}> already plays in this game.")
        if not await self.storage.replace_player(row.id, seat.seat, new.id, self.now()):
            raise NotAllowed("The seats changed at that moment; try again.")
        log.info("game %s: seat %s handed to another user", row.id, seat.seat)
        game = self._restore(row)
        turn = " It is their turn now." if seat.seat in game.pending_seats() else ""
        text = f"🔁 <@{new.id}> takes over {seat.name}'s seat from <@{old.id}>.{turn}"
        note = Message(text, mentions=(new.id,))
        return await self._told(row, Outcome(Message("Done.", ephemeral=True), note, game=row.id))

    async def vacation(self, user_id: int, *, channel: int, days: int) -> Outcome:
        """Pause the user's clock for ``days`` (0 ends a vacation and gives back the days unused)."""
        row = await self._game_row(channel, None)
        me, _ = await self._seat_of(row, user_id)
        now, allowance = self.now(), row.settings.vacation_days
        year, used = me.vacation_year, me.vacation_used
        if year is None or now - year >= clock.YEAR:
            year, used = now, 0
        current = me.vacation_until if clock.on_vacation(me, now) else None
        if days == 0:
            if current is None:
                raise VacationError("You are not on vacation.")
            unused = (current - now) // clock.DAY
            if not await self.storage.set_vacation(
                row.id, me.seat, until=None, used=max(0, used - unused), year=year, shift=-(current - now),
                was=me.vacation_until,
            ):  # fmt: skip
                raise VacationError(
                    "Your vacation changed at that moment (a second request?): see `/citta status`."
                )
            text = f"🏖 {me.name} is back from vacation; their clock runs again."
            welcome = Message(f"Welcome back. {unused} day(s) returned.", ephemeral=True)
            return await self._told(row, Outcome(welcome, Message(text), game=row.id))
        if days < 0 or used + days > allowance:
            left = max(0, allowance - used)
            raise VacationError(f"You have {left} of {allowance} vacation days left this year in this game.")
        start = current or now
        until = start + days * clock.DAY
        if not await self.storage.set_vacation(
            row.id,
            me.seat,
            until=until,
            used=used + days,
            year=year,
            shift=until - start,
            was=me.vacation_until,
        ):
            raise VacationError(
                "Your vacation changed at that moment (a second request?): see `/citta status`."
            )
        text = (
            f"🏖 {me.name} is on vacation until <t:{until}:f>: their clock is paused, no reminders "
            f"({allowance - used - days} of {allowance} days left this year)."
        )
        return await self._told(
            row, Outcome(Message("Have a good time!", ephemeral=True), Message(text), game=row.id)
        )

    async def come_back(
        self, user_id: int, *, channel: int | None = None, game_id: int | None = None
    ) -> Message | None:
        """A player the bot played for gets their seat back; the channel note (stored for
        delivery), or None."""
        row = await (
            self.storage.game(game_id) if game_id is not None else self.storage.open_game(channel or 0)
        )
        if row is None or row.status != "active":
            return None
        seat = next((s for s in await self.storage.seats(row.id) if s.user_id == user_id), None)
        if seat is None or not seat.away or not await self.storage.come_back(row.id, seat.seat):
            return None
        note = Message(f"👋 {seat.name} is back and plays their own seat again.")
        await self.storage.enqueue(row.id, [Post(row.channel, note)], self.now())
        return note
