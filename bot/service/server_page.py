"""A server's web page (issue 34, point 3), the service's side: ``/citta-server page on|off|renew``,
the server a page's address opens, and what the page lists — the web server (`bot.web.server_page`)
only lays it out.

**Decisions.**

- **Off unless the server's admins switch it on** (``/citta-server page on``, only for members who
  may manage the server). Its address is ``{CITTA_WEB_URL}/s/{token}``, the token as unguessable as
  a game page's (`bot.service.page_address.fresh_token`, 192 random bits), stored per server
  (`ServerPagesProtocol`); ``renew`` gives a new one, ending the old address at once; ``off``
  forgets it (on again: a new address). Every answer is private: the address is never posted.
- **Only games everyone in the server may see are listed**: a game whose channel @everyone cannot
  view — a private channel, a thread of one, a private thread, a channel deleted since — is left
  out as if it did not exist. What @everyone may view is Discord's to say: the Discord side gives a
  `Public` (a question per channel id, from its cache); no Discord object comes here.
- **What a listed game shows is what its own page shows a spectator**: its number, its players, whose
  turn it is (a running game) or the winner and the scores (a finished one), and a link to its page
  (its token made on first need, `GamesProtocol.page`). Nothing a player holds hidden.
- **The leaderboards** are the server's, as ``/citta leaderboard`` and ``/citta-season leaderboard``
  show them to every member (the all-time one from the ratings, the running season's computed by
  `bot.service.seasons.board`): counts over players' games, naming no game, so they are not
  filtered by channel (the rule of `bot.service.visible`). The admins who switch the page on publish
  them to whoever has the address; the command's answer says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.errors import CittaError
from bot.results import Message
from bot.service import seasons, summary
from bot.service.archive import finished_where, shown
from bot.service.context import Context
from bot.service.history import number
from bot.service.page_address import fresh_token
from bot.service.positions import restore
from bot.service.webpage import NoPages
from bot.storage.rows import Finished, Standing
from i18n import _

ACTIONS = ("on", "off", "renew")
LISTED = 20
"""The running games, and the finished ones, a page lists at most (the newest)."""
TOP = 20
"""The places of each leaderboard a page shows."""

Public = Callable[[int], bool]
"""Whether everyone in the server (@everyone) may view the channel (or thread) of this id."""


def url_of(ctx: Context, token: str) -> str:
    """The server page's full address (``ctx.web_url`` set)."""
    return f"{ctx.web_url}/s/{token}"


async def switch(ctx: Context, guild: int, action: str) -> Message:
    """``/citta-server page``: switch the server's page ``on`` (its address), ``off``, or ``renew`` its
    address; answered privately. An action that is none of these is refused, saying which are."""
    if action not in ACTIONS:
        raise CittaError(_("The server's page is switched `on` or `off`, or its address is `renew`ed; "
                           "not `{given}`.", given=action[:30]))  # fmt: skip
    if ctx.web_url is None:
        raise NoPages(_("This bot has no web pages: its operator has not set CITTA_WEB_URL."))
    pages = ctx.storage.server_pages
    if action == "off":
        if not await pages.switch_off(guild):
            return Message(_("This server's page is off already."), ephemeral=True)
        return Message(_("This server's page is off: its address no longer opens it."), ephemeral=True)
    if action == "renew":
        fresh = fresh_token()
        await pages.renew(guild, fresh)
        text = _("This server's page has a new address: {url}\nThe old address no longer opens it.",
                 url=url_of(ctx, fresh))  # fmt: skip
        return Message(text, ephemeral=True)
    token = await pages.switch_on(guild, fresh_token())
    text = _(
        "This server's page is on: {url}\nWhoever has this address sees the games played in channels "
        "everyone here may view, and the leaderboards. `/citta-server page renew` gives it a new "
        "address; `/citta-server page off` switches it off.", url=url_of(ctx, token),
    )  # fmt: skip
    return Message(text, ephemeral=True)


async def server_of(ctx: Context, token: str) -> int | None:
    """The server whose page is at ``token`` (None: none, or its page is off or renewed since)."""
    return await ctx.storage.server_pages.server_by_page(token)


@dataclass(frozen=True)
class Listed:
    """A game on the page: its number, its page's token, its players, and its state in words."""

    game: int
    page: str
    players: list[str]
    state: str


@dataclass(frozen=True)
class Ranked:
    """A place on a leaderboard."""

    place: int
    name: str
    rating: str
    games: int


@dataclass(frozen=True)
class ServerView:
    """What a server's page shows, in the current language."""

    running: list[Listed]
    finished: list[Listed]
    leaderboard: list[Ranked]
    season: int | None
    """The running season's number (None: the server runs no season)."""
    season_ends: int | None
    season_board: list[Ranked]


async def view(ctx: Context, guild: int, public: Public) -> ServerView:
    """The server's page (see the module's decisions)."""
    running: list[Listed] = []
    for row in await ctx.storage.server_pages.running_games(guild, LISTED * 3):
        if len(running) == LISTED or row.record is None or row.snapshot is None or not public(row.channel):
            continue
        seats = await ctx.storage.games.seats(row.id)
        names = {s.seat: s.name for s in seats}
        game = restore(row)
        waited = game.pending_seats()
        turn = "; ".join(_("{who} to {what}", who=names.get(s, "?"), what=summary.asked(game, s))
                         for s in waited)  # fmt: skip
        token = await ctx.storage.games.page(row.id, fresh_token())
        assert token is not None
        running.append(Listed(row.id, token, [s.name for s in seats], turn))
    finished: list[Listed] = []

    async def listed(g: Finished) -> bool:
        return public(g.channel)

    for g in await finished_where(ctx, guild, listed, LISTED):
        places = sorted(g.places, key=lambda p: (p.rank, p.seat))
        winners = ", ".join(shown(p.name, p.player) for p in places if p.rank == 1)
        scores = [f"{shown(p.name, p.player)} {p.score}" for p in places]
        token = await ctx.storage.games.page(g.game, fresh_token())
        if token is not None:
            finished.append(Listed(g.game, token, scores, _("Winner: {name}", name=winners)))
    standings = await ctx.storage.history.leaderboard(guild)
    board = [ranked(k, s, shown(s.name, s.player)) for k, s in enumerate(standings[:TOP], 1)]
    season = await ctx.storage.seasons.running(guild)
    season_board: list[Ranked] = []
    if season is not None:
        rated = seasons.board(await ctx.storage.seasons.results(guild, season.starts, season.ends))
        season_board = [ranked(k, s, seasons.shown(s)) for k, s in enumerate(rated[:TOP], 1)]
    return ServerView(
        running, finished, board, season.number if season else None, season.ends if season else None,
        season_board,
    )  # fmt: skip


def ranked(place: int, s: Standing, name: str) -> Ranked:
    return Ranked(place, name, number(s.rating.shown), s.games)
