"""The clock tick (part of the service layer): deadline policies, reminders, stalled games.

`tick` is called by the bot's background task (every minute) and by tests with their own
clock. Everything it decides comes from stored clocks, so a restart loses nothing: it stores
the policy's moves and who was reminded together with the `Post`s that tell it (the outbox
sends them), and returns those posts.
"""

from __future__ import annotations

import logging

from bot.results import DirectMessage, Message, Post
from bot.service import clock, summary
from bot.service.commit import CommitMixin, stage
from bot.service.settings import policy_text
from bot.storage.rows import Clock, GameRow, SeatRow
from engine import Game

log = logging.getLogger(__name__)


def _waiting(game: Game, c: Clock, seat: SeatRow) -> str:
    return f"{summary.asked(game, seat.seat)} (since <t:{c.since}:R>)"


class TickMixin(CommitMixin):
    """`tick`: what the clock does to the running games."""

    async def tick(self) -> list[Post]:
        """Apply due deadline policies, send due reminders and stall notices; what to post."""
        posts: list[Post] = []
        for game_id in sorted({c.game for c in await self.storage.clocks()}):
            try:
                async with self.game_lock(game_id):
                    row = await self.storage.game(game_id)
                    if row is not None and row.status == "active" and row.paused is None:
                        posts.extend(await self._tick_game(row, await self.storage.clocks(game_id)))
            except Exception:  # one broken game must not stop the others' clocks
                log.exception("The clock of game %s failed", game_id)
        return posts

    async def _tick_game(self, row: GameRow, clocks: list[Clock]) -> list[Post]:
        now, settings = self.now(), row.settings
        seats = await self.storage.seats(row.id)
        by_seat = {s.seat: s for s in seats}
        game = self._restore(row)
        pending = set(game.pending_seats())
        live = [
            c for c in clocks
            if c.seat in pending and not by_seat[c.seat].played_by_bot
            and not clock.on_vacation(by_seat[c.seat], now)
        ]  # fmt: skip
        if settings.policy != "wait":
            late = [c.seat for c in live if (end := clock.deadline(c, settings)) is not None and now >= end]
            if late:
                post = await self._apply_policy(row, game, seats, late)
                return [post] if post is not None else []
        posts: list[Post] = []
        users = [by_seat[c.seat].user_id for c in live]
        prefs = await self.storage.prefs(users)
        due = [
            c for c in live
            if (t := clock.next_reminder(c, settings)) is not None and now >= t
            and not clock.in_quiet(prefs[by_seat[c.seat].user_id], now)
        ]  # fmt: skip
        if due:
            posts.append(self._reminder(row, game, due, by_seat, {u: p.remind_by for u, p in prefs.items()}))
        stuck = [c for c in live if (t := clock.stalled_at(c, settings)) is not None and now >= t]
        if stuck:
            posts.append(self._stalled(row, stuck, by_seat))
        if posts:
            await self.storage.remind(row.id, reminded=[c.seat for c in due], stalled=[c.seat for c in stuck],
                                      posts=posts, now=now)  # fmt: skip
        return posts

    async def _apply_policy(
        self, row: GameRow, game: Game, seats: list[SeatRow], late: list[int]
    ) -> Post | None:
        """The deadline passed for ``late``: the bot plays their seats until they come back."""
        before = stage(game)
        made = await self._bot_moves(game, seats, row, also=late)
        names = " and ".join(s.name for s in seats if s.seat in late)
        lead = (
            f"⏰ Time is up for {names} ({row.settings.deadline_hours} h): {policy_text(row.settings)} "
            "(any `/citta` command gives the seat back)."
        )
        outcome = await self._commit(row, game, seats, made, actor=None, before=before, away=late, lead=lead)
        if outcome is None:  # a move got in first: the next tick looks again
            return None
        log.info("game %s: deadline policy %s for seats %s", row.id, row.settings.policy, late)
        return Post(row.channel, outcome=outcome)

    def _reminder(
        self, row: GameRow, game: Game, due: list[Clock], by_seat: dict[int, SeatRow], how: dict[int, str]
    ) -> Post:
        """One channel message for everyone reminded by mention; a DM for those who prefer it."""
        s = row.settings
        mentioned, dms = [], []
        for c in due:
            seat = by_seat[c.seat]
            end = clock.deadline(c, s)
            late = "" if end is None else f"; time is up <t:{end}:R>, then {policy_text(s)}"
            if how[seat.user_id] == "dm":
                where = f"La Città game {row.id} in <#{row.channel}>"
                text = f"⏰ {where} waits for you to {_waiting(game, c, seat)}{late}."
                dms.append(DirectMessage(seat.user_id, text))
            else:
                mentioned.append((seat.user_id, f"<@{seat.user_id}> to {_waiting(game, c, seat)}{late}"))
        message = None
        if mentioned:
            text = f"⏰ Reminder — game {row.id} waits for " + "; ".join(t for _, t in mentioned) + "."
            message = Message(text, mentions=tuple(u for u, _ in mentioned))
        fallback = f"⏰ reminder: game {row.id} waits for you (I could not send you a direct message)."
        return Post(row.channel, message, tuple(dms), fallback)

    def _stalled(self, row: GameRow, stuck: list[Clock], by_seat: dict[int, SeatRow]) -> Post:
        """The table is told the game is stalled, and what it can do."""
        who = "; ".join(
            f"{by_seat[c.seat].name} (since <t:{c.since}:R>, reminded {c.reminders} times)" for c in stuck
        )
        text = (
            f"⏸ Game {row.id} is stalled, waiting for {who}. What the table can do: the player plays or "
            "takes `/citta vacation`; the host can `/citta replace` them, let a computer decide "
            "(`/citta settings policy:computer`) or skip them (`policy:skip`), or `/citta abandon` the game."
        )
        host = () if row.host < 0 else (row.host,)
        return Post(row.channel, Message(text, mentions=host))
