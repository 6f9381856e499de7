"""A game's web page (issue 34), the service's side: its unguessable address, renewing it, and
what the page shows at a move — the web server (`bot.web.page`) only lays it out.

**Decisions.**

- The address is ``{CITTA_WEB_URL}/g/{token}``, the token `secrets.token_urlsafe` of
  `bot.service.page_address.TOKEN_BYTES` (192 random bits), made on first need (the first link to
  the page — a turn post's 🌐 —, or a renewal) and stored with the game (`GamesProtocol.page`);
  renewing it (`renew`: the host or a member with Manage
  Server) ends the old address at once. Whoever has the address may watch the game: that is what
  the page is for, so it shows what a spectator may see and never more (`Spot`).
- What a spectator may see is the review's (`bot.service.review.position` with no seat): a
  running (or abandoned) game's public view and public events, a finished game everything.
- A page's costly parts — the position in words (`describe.position_words`) and the board at a
  width (`pictures.poster`) — are made in the workers' `aside` lane once per (game, move, what
  may be seen, width, language) and kept (`Context.asked`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import i18n
from bot.errors import CittaError, NotAllowed
from bot.results import Message
from bot.service import clock, pictures, review, summary
from bot.service.context import Context
from bot.service.describe import position_words
from bot.service.lookup import game_row
from bot.service.page_address import fresh_token, url_of
from bot.service.positions import restore
from bot.storage.rows import GameRow, SeatRow
from engine import Game
from i18n import _

WIDTHS = (480, 800, 1200, 1800)
"""The widths (pixels) the board is drawn at for the page's ``srcset``: a phone's screen at 1x
to a large screen at 2x; no other width is drawn (each costs a worker a while)."""


Shown = GameRow
"""A game a page shows (started: it has a record)."""


async def shown(ctx: Context, token: str) -> Shown | None:
    """The game whose page is at ``token`` (None: no game is there, or it has not started)."""
    row = await ctx.storage.games.game_by_page(token)
    return row if row is not None and row.record is not None else None


class NoPages(CittaError):
    """The bot has no web server with a public address."""


async def renew(ctx: Context, user_id: int, *, channel: int, can_manage: bool, alone: bool = True) -> Message:
    """``/citta settings page:renew``: a new address for the channel's game's page, the old one
    ending (the host or a member with Manage Server); answered privately, never posted (so it is
    asked ``alone``, without other settings, whose change is announced)."""
    if not alone:
        raise NoPages(
            _("Renew the page on its own: `/citta settings page:renew`, then change the other settings.")
        )
    row = await game_row(ctx, channel, None, active=False)
    if ctx.web_url is None:
        raise NoPages(_("This bot has no web pages: its operator has not set CITTA_WEB_URL."))
    if user_id != row.host and not can_manage:
        raise NotAllowed(_("Only the host or a member with Manage Server may renew the game's page."))
    fresh = fresh_token()
    await ctx.storage.games.renew_page(row.id, fresh)
    text = _(
        "Game {game}'s page has a new address: {url}\nThe old address no longer opens it.",
        game=row.id, url=url_of(ctx, fresh),
    )  # fmt: skip
    return Message(text, ephemeral=True)


@dataclass(frozen=True)
class Spot:
    """What the page shows after ``moved`` of ``count`` moves, in the current language; all of it
    a spectator may see (a finished game: everything)."""

    game: int
    moved: int
    count: int
    version: int
    head: str
    """The game, the move's number, the year and round."""
    said: str
    """The move in words ("" before the first)."""
    words: list[str]
    """The position in words (the pictures' alt texts: `describe.position_words`)."""
    log: list[str]
    """Each move up to ``moved`` in words, oldest first."""
    turn: list[str]
    """Whom the game waits for, and for what (at the latest position of a running game only)."""
    deadlines: list[tuple[str, int]]
    """Each waited-for player's name and when their time is up (seconds since the epoch)."""


def over(row: GameRow) -> bool:
    """Whether the page may show everything (`review.position`'s ``over``)."""
    return row.status == "over"


async def spot(ctx: Context, row: GameRow, seats: list[SeatRow], moved: int | None, lang: str) -> Spot:
    """The page of ``row`` after ``moved`` moves (None or past the end: the latest), in ``lang``
    (the current language, which the caller set to it)."""
    assert row.record is not None
    at = review.position(row.record, moved, seat=None, over=over(row))
    names = {s.seat: s.name for s in seats}
    head, said = review.words_of(at, row.id, names)
    key = ("page-words", row.id, at.moved, over(row), lang)
    words = await ctx.asked.get(key, lambda: ctx.workers.aside(position_words, at.view, lang))
    turn: list[str] = []
    deadlines: list[tuple[str, int]] = []
    if at.moved == at.count and row.status == "active":
        game = restore(row)
        turn = [
            _("{who} to {what}", who=names.get(s, "?"), what=summary.asked(game, s))
            for s in game.pending_seats()
        ]
        deadlines = [
            (names.get(c.seat, "?"), end)
            for c in await ctx.storage.clocks.get(row.id)
            if (end := clock.deadline(c, row.settings)) is not None
        ]
    return Spot(
        row.id, at.moved, at.count, row.version, summary.plain(head), summary.plain(said), list(words),
        log_lines(row.record, at.moved, names), turn, deadlines,
    )  # fmt: skip


def log_lines(record: dict[str, Any], moved: int, names: Mapping[int, str]) -> list[str]:
    """The first ``moved`` moves in words, their public events only (as the game's posts told them)."""
    moves, words = record["moves"], i18n.current()
    lines: list[str] = []
    for k, (_game, events) in enumerate(Game.walk(record)):
        if k == 0:
            continue
        if k > moved:
            break
        seat, notation = int(moves[k - 1][0]), str(moves[k - 1][1])
        line = summary.summary_line(events, words=words)
        lines.append(summary.plain(f"{names.get(seat, '?')} {notation} — {line}"))
    return lines


async def board(ctx: Context, row: GameRow, moved: int | None, width: int, lang: str) -> bytes | None:
    """The board after ``moved`` moves, ``width`` pixels wide (one of `WIDTHS`), in ``lang``, the
    move's hexes ringed; None: the bot draws no pictures, or drawing failed."""
    assert row.record is not None and width in WIDTHS
    at = review.position(row.record, moved, seat=None, over=over(row))
    key = ("page-board", row.id, at.moved, over(row), width, lang)

    async def draw() -> bytes:
        drawn = await pictures.poster(ctx, at.view, summary.highlight(at.events), lang=lang, width=width)
        if drawn is None:
            raise LookupError("the board could not be drawn")  # not kept: asked again, drawn again
        return drawn

    try:
        return await ctx.asked.get(key, draw)
    except LookupError:
        return None
