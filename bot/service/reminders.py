"""The clock tick (part of the service layer): deadline policies, reminders, stalled games.

`tick` is called by the bot's background task (every minute) and by tests with their own
clock; once an hour it also forgets announcements sent more than 30 days ago. Everything it
decides comes from stored clocks, so a restart loses nothing: it stores the policy's moves and
who was reminded together with the `Post`s that tell it (the outbox sends them), and returns
those posts.
"""

from __future__ import annotations

import logging

import i18n
from bot.results import DirectMessage, Message, Post
from bot.service import clock, summary
from bot.service.commit import CommitMixin, stage
from bot.service.settings import policy_text
from bot.storage.rows import Clock, GameRow, Prefs, SeatRow
from engine import Game
from i18n import _, _n

log = logging.getLogger(__name__)


def _waiting(game: Game, c: Clock, seat: SeatRow) -> str:
    return _("{asked} (since <t:{since}:R>)", asked=summary.asked(game, seat.seat), since=c.since)


KEEP_SENT = 30 * 86400
"""How long a sent announcement stays in the outbox (seconds): a game's last post stays for good."""
PRUNE_EVERY = 3600
"""How often the tick forgets older sent announcements (seconds)."""


class TickMixin(CommitMixin):
    """`tick`: what the clock does to the running games."""

    _pruned_at: int = 0
    """When this process last forgot old sent announcements (`_prune`)."""

    async def tick(self) -> list[Post]:
        """Apply due deadline policies, send due reminders and stall notices in the games of this
        process's shards whose clocks it could claim (another process may be working on some);
        what to post."""
        posts: list[Post] = []
        now, me = self.now(), self.claimant
        await self._prune(now)
        claimed = await self.storage.claim_clocks(me.owner, now, now + me.lease, self.shards)
        try:
            for game_id in claimed:
                try:
                    async with self.game_lock(game_id):
                        row = await self.storage.game(game_id)
                        if row is not None and row.status == "active" and row.paused is None:
                            posts.extend(await self._tick_game(row, await self.storage.clocks(game_id)))
                except Exception:  # one broken game must not stop the others' clocks
                    log.exception("The clock of game %s failed", game_id)
        finally:
            await self.storage.release_clocks(me.owner, claimed)
        return posts

    async def _prune(self, now: int) -> None:
        """Once an hour: forget the announcements sent more than `KEEP_SENT` ago (each is a row of
        a few KB; a game's last post stays, the server's history links to it)."""
        if now < self._pruned_at + PRUNE_EVERY:
            return
        self._pruned_at = now
        try:
            gone = await self.storage.prune_outbox(now - KEEP_SENT)
        except Exception:
            log.exception("Forgetting old sent announcements failed; the next hour tries again")
            return
        if gone:
            log.info("Forgot %d announcement(s) sent more than %d days ago", gone, KEEP_SENT // 86400)

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
            posts.append(self._reminder(row, game, due, by_seat, prefs))
        stuck = [c for c in live if (t := clock.stalled_at(c, settings)) is not None and now >= t]
        if stuck:
            posts.append(self._stalled(row, stuck, by_seat))
        if not posts:
            return []
        stored = await self.storage.remind(row.id, reminded=due, stalled=stuck, posts=posts, now=now)
        return [] if stored is None else posts  # None: the clocks changed meanwhile; the next tick looks

    async def _apply_policy(
        self, row: GameRow, game: Game, seats: list[SeatRow], late: list[int]
    ) -> Post | None:
        """The deadline passed for ``late``: the bot plays their seats until they come back."""
        before = stage(game)
        made = await self._bot_moves(game, seats, row, also=late)
        with i18n.speaking(row.settings.language):  # no reader: the channel's posts, in the game's language
            lead = _(
                "⏰ Time is up for {names} ({hours} h): {policy} (any `/citta` command gives the seat back).",
                names=i18n.listing([s.name for s in seats if s.seat in late]),
                hours=row.settings.deadline_hours, policy=policy_text(row.settings),
            )  # fmt: skip
            outcome = await self._commit(
                row, game, seats, made, actor=None, before=before, away=late, lead=lead
            )
        if outcome is None:  # a move got in first: the next tick looks again
            return None
        log.info("game %s: deadline policy %s for seats %s", row.id, row.settings.policy, late)
        return Post(row.channel, outcome=outcome)

    def _reminder(
        self, row: GameRow, game: Game, due: list[Clock], by_seat: dict[int, SeatRow], prefs: dict[int, Prefs]
    ) -> Post:
        """One channel message for everyone reminded by mention (in the game's language); a DM
        for those who prefer it (in their own language, else the game's)."""
        s = row.settings
        mentioned: list[tuple[int, str]] = []
        dms: list[DirectMessage] = []
        for c in due:
            seat = by_seat[c.seat]
            end = clock.deadline(c, s)
            mine = prefs[seat.user_id]
            if mine.remind_by == "dm":
                with i18n.speaking(mine.language or s.language):
                    dms.append(DirectMessage(seat.user_id, _reminded(row, game, c, seat, end, dm=True)))
            else:
                with i18n.speaking(s.language):
                    mentioned.append((seat.user_id, _reminded(row, game, c, seat, end, dm=False)))
        with i18n.speaking(s.language):
            message = None
            if mentioned:
                text = _("⏰ Reminder — game {game} waits for {whom}.", game=row.id,
                         whom="; ".join(t for _u, t in mentioned))  # fmt: skip
                message = Message(text, mentions=tuple(u for u, _t in mentioned))
            fallback = _("⏰ reminder: game {game} waits for you (I could not send you a direct message).",
                         game=row.id)  # fmt: skip
        return Post(row.channel, message, tuple(dms), fallback)

    def _stalled(self, row: GameRow, stuck: list[Clock], by_seat: dict[int, SeatRow]) -> Post:
        """The table is told the game is stalled, and what it can do (in the game's language)."""
        with i18n.speaking(row.settings.language):
            who = "; ".join(
                _n(
                    "{name} (since <t:{since}:R>, reminded {count} time)",
                    "{name} (since <t:{since}:R>, reminded {count} times)",
                    c.reminders,
                    name=by_seat[c.seat].name,
                    since=c.since,
                )
                for c in stuck
            )
            text = _(
                "⏸ Game {game} is stalled, waiting for {who}. What the table can do: the player plays or "
                "takes `/citta vacation`; the host can `/citta replace` them, let a computer decide "
                "(`/citta settings policy:computer`) or skip them (`policy:skip`), or `/citta abandon` "
                "the game.",
                game=row.id, who=who,
            )  # fmt: skip
        host = () if row.host < 0 else (row.host,)
        return Post(row.channel, Message(text, mentions=host))


def _reminded(row: GameRow, game: Game, c: Clock, seat: SeatRow, end: int | None, *, dm: bool) -> str:
    """One player's reminder in the current language: a whole DM, or their part of the post."""
    waiting = _waiting(game, c, seat)
    policy = policy_text(row.settings)
    if dm:
        if end is None:
            return _("⏰ La Città game {game} in <#{channel}> waits for you to {waiting}.",
                     game=row.id, channel=row.channel, waiting=waiting)  # fmt: skip
        return _("⏰ La Città game {game} in <#{channel}> waits for you to {waiting}; time is up "
                 "<t:{end}:R>, then {policy}.", game=row.id, channel=row.channel, waiting=waiting, end=end,
                 policy=policy)  # fmt: skip
    if end is None:
        return _("<@{user}> to {waiting}", user=seat.user_id, waiting=waiting)
    return _("<@{user}> to {waiting}; time is up <t:{end}:R>, then {policy}", user=seat.user_id,
             waiting=waiting, end=end, policy=policy)  # fmt: skip
