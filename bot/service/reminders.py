"""A running game's clock at a tick (part of the service layer, for `bot.service.tick`): the
deadline policies, the reminders and the stall notice.

Everything it decides comes from stored clocks, so a restart loses nothing: it stores the policy's
moves and who was reminded together with the `Post`s that tell it (the outbox sends them), and
returns those posts.
"""

from __future__ import annotations

import logging

import i18n
from bot.results import DirectMessage, Message, Post
from bot.service import clock, summary
from bot.service.commit import bot_moves, commit, stage
from bot.service.context import Context
from bot.service.positions import restore
from bot.service.settings import policy_text
from bot.storage.rows import Clock, GameRow, Prefs, SeatRow
from engine import Game
from i18n import _, _n

log = logging.getLogger(__name__)


def _waiting(game: Game, c: Clock, seat: SeatRow) -> str:
    return _("{asked} (since <t:{since}:R>)", asked=summary.asked(game, seat.seat), since=c.since)


async def tick_game(ctx: Context, row: GameRow, clocks: list[Clock]) -> list[Post]:
    """What the clock does to one running game now (its clocks claimed by this process): the posts
    stored."""
    now, settings = ctx.now(), row.settings
    seats = await ctx.storage.games.seats(row.id)
    by_seat = {s.seat: s for s in seats}
    game = restore(row)
    pending = set(game.pending_seats())
    live = [
        c for c in clocks
        if c.seat in pending and not by_seat[c.seat].played_by_bot
        and not clock.on_vacation(by_seat[c.seat], now)
    ]  # fmt: skip
    if settings.policy != "wait":
        late = [c.seat for c in live if (end := clock.deadline(c, settings)) is not None and now >= end]
        if late:
            post = await _apply_policy(ctx, row, game, seats, late)
            return [post] if post is not None else []
    posts: list[Post] = []
    users = [by_seat[c.seat].user_id for c in live]
    prefs = await ctx.storage.players.prefs(users)
    due = [
        c for c in live
        if (t := clock.next_reminder(c, settings)) is not None and now >= t
        and not clock.in_quiet(prefs[by_seat[c.seat].user_id], now)
    ]  # fmt: skip
    if due:
        posts.append(_reminder(row, game, due, by_seat, prefs))
    stuck = [c for c in live if (t := clock.stalled_at(c, settings)) is not None and now >= t]
    if stuck:
        posts.append(_stalled(row, stuck, by_seat))
    if not posts:
        return []
    stored = await ctx.storage.clocks.remind(row.id, reminded=due, stalled=stuck, posts=posts, now=now)
    return [] if stored is None else posts  # None: the clocks changed meanwhile; the next tick looks


async def _apply_policy(
    ctx: Context, row: GameRow, game: Game, seats: list[SeatRow], late: list[int]
) -> Post | None:
    """The deadline passed for ``late``: the bot plays their seats until they come back."""
    before = stage(game)
    made = await bot_moves(ctx, game, seats, row, also=late)
    with i18n.speaking(row.settings.language):  # no reader: the channel's posts, in the game's language
        lead = _(
            "⏰ Time is up for {names} ({hours} h): {policy} (any `/citta` command gives the seat back).",
            names=i18n.listing([s.name for s in seats if s.seat in late]),
            hours=row.settings.deadline_hours, policy=policy_text(row.settings),
        )  # fmt: skip
        outcome = await commit(ctx, row, game, seats, made, actor=None, before=before, away=late, lead=lead)
    if outcome is None:  # a move got in first: the next tick looks again
        return None
    log.info("game %s: deadline policy %s for seats %s", row.id, row.settings.policy, late)
    return Post(row.channel, outcome=outcome)


def _reminder(
    row: GameRow, game: Game, due: list[Clock], by_seat: dict[int, SeatRow], prefs: dict[int, Prefs]
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


def _stalled(row: GameRow, stuck: list[Clock], by_seat: dict[int, SeatRow]) -> Post:
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
