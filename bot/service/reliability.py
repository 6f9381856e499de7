"""Reliability and pace (part of the service layer): what a player did in their games over the last
`WINDOW` (90 days, by the context's clock), in one server and in all, as `Figures`; shown beside each
player who joins a lobby (`short`) and in ``/citta stats`` (`long`); and the minimum a lobby's host
may ask of whoever joins (`refusal`).

What is counted (from what the storage keeps: `bot.storage.protocol.PlayersProtocol.deeds`):

- **finished**: a game that ended with the player in their seat, not resigned;
- **resigned**: a running game they resigned (``/citta resign``);
- **abandoned**: a running game they left without resigning: their seat handed to someone else
  (``/citta replace``, by themselves, or by the host when they had vanished). A game its host
  abandons counts for no one: it is not the players' doing;
- **deadlines missed**: a decision not answered by its deadline: the bot answered it for them (the
  policies ``computer`` and ``skip``), or they answered after it (``wait``);
- **time to move**: for each decision they answered, from when it was asked (their clock started,
  a vacation added) to their answer; the median is the lower middle one of an even count.

The minimum applies to the figures of all servers (a player's habits do not change with the
server), and a player is never refused for lack of history: the share of games finished counts
from `MIN_GAMES` games finished or left, the median time to move from `MIN_MOVES` answers.
"""

from __future__ import annotations

import statistics
from collections.abc import Collection
from dataclasses import dataclass

from bot.service.clock import DAY, HOUR
from bot.service.context import Context
from bot.storage.rows import Deed, GameSettings
from i18n import _, _n, percent

WINDOW = 90 * DAY
"""How far back the figures look (seconds)."""
MIN_GAMES = 3
"""Games finished or left from which the share finished is a figure (and its minimum applies)."""
MIN_MOVES = 5
"""Answers from which the median time to move counts against a minimum."""


@dataclass(frozen=True)
class Figures:
    """A player's figures over `WINDOW` in one scope (a server, or all)."""

    finished: int = 0
    resigned: int = 0
    abandoned: int = 0
    missed: int = 0
    """Deadlines missed."""
    waits: tuple[int, ...] = ()
    """Seconds each answered decision took, by time of the answer."""

    @property
    def ended(self) -> int:
        """Games finished or left (resigned, abandoned)."""
        return self.finished + self.resigned + self.abandoned

    @property
    def median(self) -> int | None:
        """The median time to move (seconds); None: no answer counted."""
        return statistics.median_low(self.waits) if self.waits else None

    @property
    def empty(self) -> bool:
        return not (self.ended or self.missed or self.waits)


def tally(deeds: Collection[Deed]) -> Figures:
    """The figures of these deeds (all of one player and scope)."""
    kinds = [d.kind for d in deeds]
    waits = tuple(max(0, d.waited or 0) for d in deeds if d.kind == "moved")
    return Figures(
        kinds.count("finished"), kinds.count("resigned"), kinds.count("left"), kinds.count("missed"), waits
    )


async def figures(
    ctx: Context, user_ids: Collection[int], guild: int | None
) -> dict[int, tuple[Figures, Figures]]:
    """Each user's figures over `WINDOW`: in ``guild`` (None: no server) and in all servers."""
    people = sorted({u for u in user_ids if u > 0})
    deeds = await ctx.storage.players.deeds(people, ctx.now() - WINDOW) if people else []
    here = guild or 0
    return {
        u: (
            tally([d for d in deeds if d.user_id == u and d.guild == here]),
            tally([d for d in deeds if d.user_id == u]),
        )
        for u in people
    }


async def everywhere(ctx: Context, user_ids: Collection[int]) -> dict[int, Figures]:
    """Each user's figures in all servers (what a lobby shows and its minimum checks)."""
    return {u: both[1] for u, both in (await figures(ctx, user_ids, None)).items()}


def duration(seconds: int) -> str:
    """A time to move, short (in the current language): minutes, hours, or days."""
    if seconds < HOUR:
        return _("{minutes} min", minutes=max(1, round(seconds / 60)))
    if seconds < 2 * DAY:
        return _("{hours} h", hours=round(seconds / HOUR))
    return _("{days} d", days=round(seconds / DAY))


def short(f: Figures) -> str | None:
    """One player's figures for the lobby, short for a phone (in the current language); None for a
    player with nothing in the last 90 days (the lobby then shows them as before: nothing to tell)."""
    if f.empty:
        return None
    parts = [_n("{count} finished", "{count} finished", f.finished)]
    if f.resigned:
        parts.append(_n("{count} resigned", "{count} resigned", f.resigned))
    if f.abandoned:
        parts.append(_n("{count} abandoned", "{count} abandoned", f.abandoned))
    if f.missed:
        parts.append(_n("{count} deadline missed", "{count} deadlines missed", f.missed))
    if (median := f.median) is not None:
        parts.append(_("moves in ~{time}", time=duration(median)))
    return " · ".join(parts)


def long(f: Figures) -> str:
    """One scope's figures for ``/citta stats`` (in the current language)."""
    if f.empty:
        return _("no games in the last 90 days.")
    text = _(
        "{finished} finished, {resigned} resigned, {abandoned} abandoned; deadlines missed: {missed}.",
        finished=f.finished, resigned=f.resigned, abandoned=f.abandoned, missed=f.missed,
    )  # fmt: skip
    if (median := f.median) is not None:
        text += " " + _n(
            "Median time to move: {time} ({count} move).",
            "Median time to move: {time} ({count} moves).",
            len(f.waits),
            time=duration(median),
        )
    return text


def minimum_text(s: GameSettings) -> str | None:
    """The host's minimum to join, for the lobby (in the current language); None: none set."""
    parts = []
    if s.min_finished:
        parts.append(_("finished at least {percent}% of their games", percent=s.min_finished))
    if s.max_pace_hours:
        parts.append(_("moves within {hours} h at the median", hours=s.max_pace_hours))
    if not parts:
        return None
    return _("Minimum to join (last 90 days): {minimum}.", minimum=" · ".join(parts))


def refusal(f: Figures, s: GameSettings) -> str | None:
    """Why a player with figures ``f`` (all servers) may not join a lobby with settings ``s``, saying
    their figure and the minimum (in the current language); None: they may."""
    reasons = []
    if s.min_finished and f.ended >= MIN_GAMES and f.finished * 100 < s.min_finished * f.ended:
        share = percent(f.finished / f.ended)
        reasons.append(
            _n(
                "In the last 90 days you finished {finished} of your {count} game ({share}); the host of "
                "this game asks for at least {percent}%.",
                "In the last 90 days you finished {finished} of your {count} games ({share}); the host of "
                "this game asks for at least {percent}%.",
                f.ended,
                finished=f.finished,
                share=share,
                percent=s.min_finished,
            )
        )
    median = f.median
    timed = median is not None and len(f.waits) >= MIN_MOVES
    if s.max_pace_hours and timed and median is not None and median > s.max_pace_hours * HOUR:
        reasons.append(
            _(
                "In the last 90 days your median time to move was {time}; the host of this game asks for "
                "at most {hours} h.",
                time=duration(median),
                hours=s.max_pace_hours,
            )
        )
    return "\n".join(reasons) if reasons else None
