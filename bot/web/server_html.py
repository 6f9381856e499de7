"""A server's web page's HTML (`bot.web.server_page`), written on the server: no script at all, its
style the game page's own file (``../static/page.css``), every name and word escaped.

Every address in it is relative to the page's own (``/s/<token>``), so it works under whatever path
the reverse proxy gives the bot: ``../g/<token>`` is a listed game's page, in the language this one
is read in. The page carries what it lists as data for tests: ``data-game`` on each game.
"""

from __future__ import annotations

import datetime
from html import escape
from urllib.parse import urlencode

from bot.service.server_page import Listed, Ranked, ServerView
from bot.web.html import language_links
from i18n import _


def page(shown: ServerView, lang: str) -> str:
    """The whole page (``lang``: the language it is written in, the current one)."""
    title = _("This server's games")
    parts = [
        f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)} · La Città</title>",
        '<link rel="stylesheet" href="../static/page.css">',
        f'</head><body><main id="server" class="server" data-lang="{lang}">',
        f"<header><h1>{escape(title)}</h1>{language_links(in_language, lang)}</header>",
        games("running", _("Running games"), shown.running, _("No game is running."), lang),
        games("finished", _("Finished games"), shown.finished, _("No game has finished yet."), lang),
        board(
            "leaderboard",
            _("Leaderboard (rating: OpenSkill μ − 3σ)"),
            shown.leaderboard,
            _("No game has finished yet: there is no leaderboard."),
        ),
        season(shown),
        "</main></body></html>\n",
    ]
    return "".join(parts)


def in_language(code: str) -> str:
    """This page's address in language ``code``."""
    return "?" + urlencode({"lang": code})


def games(kind: str, heading: str, listed: list[Listed], none: str, lang: str) -> str:
    """A list of games, each linking its page."""
    if not listed:
        return f'<section class="games" id="{kind}"><h2>{escape(heading)}</h2><p>{escape(none)}</p></section>'
    items = []
    for g in listed:
        link = f"../g/{escape(g.page)}?{urlencode({'lang': lang})}"
        name = escape(_("Game {game}", game=g.game))
        items.append(
            f'<li data-game="{g.game}"><a href="{link}">{name}</a> — {escape(", ".join(g.players))}'
            f'<br><span class="state">{escape(g.state)}</span></li>'
        )
    return f'<section class="games" id="{kind}"><h2>{escape(heading)}</h2><ul>{"".join(items)}</ul></section>'


def board(kind: str, heading: str, ranked: list[Ranked], none: str) -> str:
    """A leaderboard as a table: place, name, rating, games."""
    if not ranked:
        return f'<section class="ranks" id="{kind}"><h2>{escape(heading)}</h2><p>{escape(none)}</p></section>'
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in ("#", _("Player"), _("Rating"), _("Games")))
    rows = "".join(
        f'<tr><td>{r.place}</td><th scope="row">{escape(r.name)}</th><td>{escape(r.rating)}</td>'
        f"<td>{r.games}</td></tr>"
        for r in ranked
    )
    return (
        f'<section class="ranks" id="{kind}"><h2>{escape(heading)}</h2>'
        f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></section>"
    )


def season(shown: ServerView) -> str:
    """The running season's leaderboard (nothing when the server runs no season)."""
    if shown.season is None or shown.season_ends is None:
        return ""
    ends = datetime.datetime.fromtimestamp(shown.season_ends, datetime.UTC).strftime("%Y-%m-%d")
    heading = _("Season {season} (until {ends})", season=shown.season, ends=ends)
    return board("season", heading, shown.season_board, _("No game has finished in this season yet."))
