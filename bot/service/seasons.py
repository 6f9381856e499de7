"""A server's seasons (part of the service layer): ``/citta-server season``, ``/citta-season
leaderboard|past``, the champion's announcement at a season's end (step 6 of the clock's tick,
`bot.service.tick`) and the titles `/citta stats` shows.

Decisions:

- **A season is a calendar month or quarter in UTC** (`period`). The first one, when the admins turn
  seasons on, is the period running then, from its start: games finished earlier in it count. The
  next one follows on from the end of the last, in the length set at that moment (a change of length
  applies from the next season on). ``off`` drops the running season: it is never announced nor
  listed. Seasons are numbered 1, 2, … per server, never reused.
- **A season's leaderboard** is computed afresh from the results of the games that finished in it,
  in the order they ended (`board`): everyone starts at the default rating and is rated by OpenSkill
  exactly as the all-time ratings are (`bot.service.ratings`, with each game's stored places). The
  ranking is by the shown rating μ − 3σ, then by more games, then by the rating key (code-point
  order), so it never depends on the database's order. Forgotten players are left out.
- **The champion** is the first of the final leaderboard who is a member (not a computer level) with
  at least `MIN_GAMES` games in the season; nobody may qualify, and the post then says so. The
  announcement is stored in the outbox in the same transaction that closes the season and starts the
  next (`SeasonsProtocol.close`), so it is sent once, whatever restarts, in the server's language
  (the one chosen with ``/citta-server season``). Seasons' champions are titles in ``/citta stats``.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import UTC, datetime
from typing import cast

import i18n
from bot.errors import CittaError, NoGame
from bot.results import Message, Post
from bot.service.context import Context
from bot.service.history import number
from bot.service.ratings import rate_places
from bot.storage.rows import FORMER_KEY, Placing, Rating, Season, SeasonLength, SeasonSettings, Standing
from i18n import _, _n

log = logging.getLogger(__name__)
MIN_GAMES = 2
"""The games a member must have finished in a season to be its champion."""
TOP = 10
ANNOUNCED_TOP = 3
"""The places a champion's post lists (short: it is read on phones)."""
MONTHS = {"month": 1, "quarter": 3}


def period(length: SeasonLength, at: int) -> tuple[int, int]:
    """The calendar month or quarter (UTC) holding the time ``at``: its start and its end (the next
    one's start).

    >>> period("quarter", 1_700_000_000)  # 14 November 2023: October to December
    (1696118400, 1704067200)
    >>> period("month", 1_704_067_200)  # 1 January 2024, 0:00: the whole of January
    (1704067200, 1706745600)
    """
    step = MONTHS[length]
    day = datetime.fromtimestamp(at, UTC)
    first = (day.month - 1) // step * step  # months since January, 0-based
    start = datetime(day.year, first + 1, 1, tzinfo=UTC)
    year, month = divmod(first + step, 12)
    return int(start.timestamp()), int(datetime(day.year + year, month + 1, 1, tzinfo=UTC).timestamp())


def board(games: list[list[Placing]]) -> list[Standing]:
    """The leaderboard of a season's games (each game's placings, in the order they ended): see the
    module's decisions."""
    ratings: dict[str, Rating] = {}
    played: Counter[str] = Counter()
    names: dict[str, str] = {}
    for places in games:
        ratings |= rate_places([p.player for p in places], [p.rank for p in places], ratings)
        for p in places:
            names[p.player] = p.name
        played.update({p.player for p in places})
    rows = [Standing(k, names[k], r, played[k]) for k, r in ratings.items() if k != FORMER_KEY]
    return sorted(rows, key=lambda s: (-s.rating.shown, -s.games, s.player))


def champion(standings: list[Standing]) -> Standing | None:
    """The season's champion: the first member with `MIN_GAMES` games (None: nobody qualifies)."""
    return next((s for s in standings if s.player.startswith("user:") and s.games >= MIN_GAMES), None)


def shown(s: Standing) -> str:
    """A player's name on a season's board (a computer level in the reader's language)."""
    if s.player.startswith("computer:"):
        return _("Computer ({level})", level=_(s.player.removeprefix("computer:")))
    return s.name


async def configure(ctx: Context, guild: int, given: str, channel: int, language: str) -> Message:
    """``/citta-server season``: store the server's seasons and start one if none runs (see the module);
    a length that is none of them is refused, saying which are."""
    if given not in MONTHS and given != "off":
        raise CittaError(_("A season lasts a `month` or a `quarter`, or seasons are `off`; not `{given}`.",
                           given=given[:30]))  # fmt: skip
    length = cast(SeasonLength, given)
    opening = None
    if length != "off":
        past = await ctx.storage.seasons.past(guild)
        starts, ends = period(length, ctx.now())
        opening = Season(guild, (past[0].number if past else 0) + 1, starts, ends)
    running = await ctx.storage.seasons.configure(SeasonSettings(guild, length, channel, language), opening)
    if running is None:
        text = _("Seasons are off on this server; a season that was running ends without a champion.")
        return Message(text, ephemeral=True)
    every = _("each calendar month (UTC)") if length == "month" else _("each calendar quarter (UTC)")
    text = _(
        "🏆 Seasons on: {every}. Season {season} ends <t:{ends}:f>; its champion (at least {count} "
        "games) is announced in <#{channel}>. From the next season on, a change of length applies.",
        every=every, season=running.number, ends=running.ends, count=MIN_GAMES, channel=channel,
    )  # fmt: skip
    return Message(text, ephemeral=True)


async def leaderboard(ctx: Context, guild: int, user_id: int) -> Message:
    """``/citta-season leaderboard``: the running season's ten best and the asker's place."""
    season = await ctx.storage.seasons.running(guild)
    if season is None:
        raise NoGame(_("This server runs no season: its admins start them with `/citta-server season`."))
    standings = board(await ctx.storage.seasons.results(guild, season.starts, season.ends))
    head = _(
        "🏆 **Season {season}** until <t:{ends}:d> (rating: OpenSkill μ − 3σ of this season's games; "
        "a champion needs {count} games)", season=season.number, ends=season.ends, count=MIN_GAMES,
    )  # fmt: skip
    if not standings:
        return Message(head + "\n" + _("No game has finished in this season yet."), ephemeral=True)
    me = f"user:{user_id}"
    lines = [head]
    for k, s in enumerate(standings, start=1):
        values = {"place": k, "name": shown(s), "rating": number(s.rating.shown)}
        if k > TOP and s.player == me:  # the all-time leaderboard's words (`bot.service.archive`)
            lines.append("…\n" + _("{place}. **{name}** {rating} ← you", **values))
        elif k <= TOP and s.player == me:
            line = _n("{place}. **{name}** {rating} ({count} game) ← you",
                      "{place}. **{name}** {rating} ({count} games) ← you", s.games, **values)  # fmt: skip
            lines.append(line)
        elif k <= TOP:
            lines.append(_n("{place}. **{name}** {rating} ({count} game)",
                            "{place}. **{name}** {rating} ({count} games)", s.games, **values))  # fmt: skip
    return Message("\n".join(lines), ephemeral=True)


async def past(ctx: Context, guild: int) -> Message:
    """``/citta-season past``: the server's past seasons, the newest first, and their champions."""
    seasons = await ctx.storage.seasons.past(guild)
    if not seasons:
        raise NoGame(_("No season has ended on this server yet."))
    lines = [_("📜 **Past seasons** of this server, newest first")]
    for s in seasons[: TOP * 2]:
        who = _("champion **{name}**", name=s.champion_name) if s.champion_name else _("no champion")
        lines.append(_("Season {season} (<t:{starts}:d> – <t:{ends}:d>): {champion}",
                       season=s.number, starts=s.starts, ends=s.ends - 1, champion=who))  # fmt: skip
    return Message("\n".join(lines), ephemeral=True)


async def titles(ctx: Context, guild: int, user_id: int) -> str | None:
    """The line of ``/citta stats`` with a member's titles in this server (None: they have none)."""
    won = await ctx.storage.seasons.titles(guild, f"user:{user_id}")
    if not won:
        return None
    return "🏆 " + ", ".join(_("Champion of season {season}", season=s.number) for s in won)


def announcement(
    season: Season, standings: list[Standing], best: Standing | None, following: Season | None
) -> str:
    """The post that ends a season (in the language being spoken): its champion, or that nobody
    qualified, the first places, and the next season."""
    lines = [_("🏆 **Season {season} is over** (<t:{starts}:d> – <t:{ends}:d>)",
               season=season.number, starts=season.starts, ends=season.ends - 1)]  # fmt: skip
    if best is None:
        lines.append(_n(
            "No champion: nobody finished the {count} game a champion needs.",
            "No champion: nobody finished the {count} games a champion needs.", MIN_GAMES,
        ))  # fmt: skip
    else:
        lines.append(_n("Champion: **{name}**, rating {rating} ({count} game)",
                        "Champion: **{name}**, rating {rating} ({count} games)", best.games,
                        name=best.name, rating=number(best.rating.shown)))  # fmt: skip
    for k, s in enumerate(standings[:ANNOUNCED_TOP], start=1):
        lines.append(_n("{place}. {name} {rating} ({count} game)", "{place}. {name} {rating} ({count} games)",
                        s.games, place=k, name=shown(s), rating=number(s.rating.shown)))  # fmt: skip
    if following is not None:
        lines.append(_("Season {season} has begun: `/citta-season leaderboard`.", season=following.number))
    return "\n".join(lines)


async def close_due(ctx: Context) -> int:
    """The clock's step: end the seasons (of this process's shards) whose time is up, each with its
    announcement stored once, and start the next ones; how many ended."""
    now, ended = ctx.now(), 0
    for season in await ctx.storage.seasons.due(now, ctx.shards):
        settings = await ctx.storage.seasons.settings(season.guild)
        if settings is None:  # a season is only started with its settings: never
            continue
        following = None
        if settings.length != "off":
            ends = period(settings.length, season.ends)[1]
            following = Season(season.guild, season.number + 1, season.ends, ends)
        standings = board(await ctx.storage.seasons.results(season.guild, season.starts, season.ends))
        best = champion(standings)
        with i18n.speaking(settings.language):
            post = Post(settings.channel, Message(announcement(season, standings, best, following)))
        ids = await ctx.storage.seasons.close(
            season, champion=best.player if best else None, name=best.name if best else None,
            posts=[post], now=now, following=following,
        )  # fmt: skip
        if ids is not None:
            ended += 1
            log.info("Season %d of server %d ended", season.number, season.guild)
    return ended
