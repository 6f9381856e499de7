"""Move clocks as pure functions of the stored rows and the time: deadlines, reminders, quiet
hours, stalls. Nothing here reads the clock; the caller passes ``now``.

>>> quiet = parse_quiet("22-08 UTC+1")
>>> quiet
(1320, 480, 60)
>>> prefs = Prefs(1, *quiet)
>>> in_quiet(prefs, 21 * 3600 + 30 * 60)  # 21:30 UTC is 22:30 at UTC+1
True
>>> in_quiet(prefs, 7 * 3600)  # 08:00 at UTC+1
False
"""

from __future__ import annotations

import re

from bot.storage.rows import Clock, GameSettings, Prefs, SeatRow
from i18n import _

HOUR, DAY, YEAR = 3600, 86400, 365 * 86400
MAX_REMINDERS = 3
"""Reminders per wait; then the table is told the game is stalled."""
_QUIET = re.compile(
    r"^\s*(\d{1,2})(?::(\d\d))?\s*-\s*(\d{1,2})(?::(\d\d))?\s*(?:(?:UTC|GMT)\s*(?:([+-])\s*(\d{1,2})(?::(\d\d))?)?)?\s*$",
    re.IGNORECASE,
)


class QuietHoursError(ValueError):
    """Quiet hours that cannot be read."""


def parse_quiet(text: str) -> tuple[int, int, int]:
    """``22-08 UTC+1`` → (start, end, offset) in minutes (local time; offset east of UTC)."""
    m = _QUIET.match(text)
    if m is None:
        raise QuietHoursError(
            _("Write quiet hours like `22-08 UTC+1` or `23:30-07:00 UTC-5`, not {text}.", text=repr(text))
        )
    h1, m1, h2, m2, sign, oh, om = m.groups()
    if int(h1) > 24 or int(h2) > 24 or int(m1 or 0) > 59 or int(m2 or 0) > 59 or int(oh or 0) > 14:
        raise QuietHoursError(
            _("{text} is not a time of day with a UTC offset between −14 and +14.", text=repr(text))
        )
    start = (int(h1) * 60 + int(m1 or 0)) % 1440
    end = (int(h2) * 60 + int(m2 or 0)) % 1440
    if start == end:
        raise QuietHoursError(_("Quiet hours must start and end at different times."))
    offset = (int(oh or 0) * 60 + int(om or 0)) * (-1 if sign == "-" else 1)
    return start, end, offset


def quiet_text(prefs: Prefs) -> str:
    """The quiet hours as the player wrote them (``22:00-08:00 UTC+1``), or ``none`` (in the
    current language)."""
    if prefs.quiet_start is None or prefs.quiet_end is None:
        return _("none")
    s, e = prefs.quiet_start, prefs.quiet_end
    return f"{s // 60:02d}:{s % 60:02d}-{e // 60:02d}:{e % 60:02d} {zone_text(prefs.utc_offset)}"


def zone_text(offset: int) -> str:
    """A UTC offset in minutes as written: ``UTC+1``, ``UTC-5:30``, ``UTC+0``."""
    sign = "-" if offset < 0 else "+"
    off = abs(offset)
    return f"UTC{sign}{off // 60}" + (f":{off % 60:02d}" if off % 60 else "")


def parse_offset(text: str) -> int:
    """``UTC+1`` (or ``UTC-5:30``, ``UTC``) → minutes east of UTC; ValueError past ±14 hours.

    >>> parse_offset("UTC-5:30"), parse_offset("utc + 2"), parse_offset("UTC")
    (-330, 120, 0)
    """
    found = re.fullmatch(r"\s*(?:UTC|GMT)\s*(?:([+-])\s*(\d{1,2})(?::(\d\d))?)?\s*", text, re.IGNORECASE)
    if found is None or int(found[2] or 0) > 14 or int(found[3] or 0) > 59:
        raise ValueError(text)
    return (int(found[2] or 0) * 60 + int(found[3] or 0)) * (-1 if found[1] == "-" else 1)


def in_quiet(prefs: Prefs, now: int) -> bool:
    """Whether ``now`` falls in the player's quiet hours."""
    return quiet_at(prefs, (now // 60 + prefs.utc_offset) % 1440)


def quiet_at(prefs: Prefs, minute: int) -> bool:
    """Whether ``minute`` of the player's local day falls in their quiet hours."""
    if prefs.quiet_start is None or prefs.quiet_end is None:
        return False
    start, end = prefs.quiet_start, prefs.quiet_end
    return start <= minute < end if start < end else minute >= start or minute < end


def on_vacation(seat: SeatRow, now: int) -> bool:
    return seat.vacation_until is not None and seat.vacation_until > now


def fresh(game: int, seat: SeatRow, now: int) -> Clock:
    """A new clock for a seat we start waiting for (paused while its player is on vacation)."""
    paused = max(0, (seat.vacation_until or 0) - now)
    return Clock(game, seat.seat, now, paused)


def deadline(clock: Clock, settings: GameSettings) -> int | None:
    """When the seat's time is up (None: the game has no deadline)."""
    if settings.deadline_hours <= 0:
        return None
    return clock.since + clock.paused + settings.deadline_hours * HOUR


def next_reminder(clock: Clock, settings: GameSettings) -> int | None:
    """When the next reminder is due (None: no reminders, or all have been sent)."""
    if settings.remind_hours <= 0 or clock.reminders >= MAX_REMINDERS:
        return None
    every = settings.remind_hours * HOUR
    due = clock.since + clock.paused + (clock.reminders + 1) * every
    return due if clock.last_reminded is None else max(due, clock.last_reminded + every)


def stalled_at(clock: Clock, settings: GameSettings) -> int | None:
    """When the table is told the game is stalled: a reminder interval after the last
    reminder, and not before the deadline (None: never, or not yet known)."""
    if clock.stalled:
        return None
    times: list[int] = []
    if settings.remind_hours > 0:
        if clock.reminders < MAX_REMINDERS or clock.last_reminded is None:
            return None
        times.append(clock.last_reminded + settings.remind_hours * HOUR)
    if (end := deadline(clock, settings)) is not None:
        times.append(end)
    return max(times) if times else None
