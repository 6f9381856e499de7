"""A game page's HTML (`bot.web.page`), written on the server: no framework, no inline script or
style (the page's policy forbids them: `bot.web.guard.PAGE_CSP`), every name and word escaped.

Every address in it is relative to the page's own (``/g/<token>``), so it works under whatever
path the reverse proxy gives the bot (``CITTA_WEB_URL``): ``<token>/board.png`` is the board,
``<token>/events`` the live updates, ``../static/`` the script and style.

The page carries what it shows as data for its script and for tests: ``data-move`` (the moves
shown), ``data-count`` (the moves in all), ``data-events``.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from html import escape
from urllib.parse import urlencode

import i18n
from bot.service.webpage import WIDTHS, Spot
from i18n import _


def href(move: int | None, lang: str) -> str:
    """A link to this page at ``move`` (None: the latest position, which follows the game)."""
    query = {"move": move} if move is not None else {}
    return "?" + urlencode({**query, "lang": lang})


def page(spot: Spot, token: str, lang: str) -> str:
    """The whole page (``lang``: the language it is written in, the current one)."""
    k, n = spot.moved, spot.count
    board = f"{escape(token)}/board.png?move={k}&amp;lang={lang}"
    srcset = ", ".join(f"{board}&amp;w={w} {w}w" for w in WIDTHS)
    title = _("Game {game}", game=spot.game)
    parts = [
        f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)} · La Città</title>",
        '<link rel="stylesheet" href="../static/page.css"><script src="../static/page.js" defer></script>',
        f'</head><body><main id="page" data-move="{k}" data-count="{n}" data-lang="{lang}" '
        f'data-events="{escape(token)}/events">',
        f'<header><h1 id="head">{escape(spot.head)}</h1>{languages(k, lang)}</header>',
        f'<p id="said">{escape(spot.said)}</p>' if spot.said else "",
        scrubber(k, n, lang),
        '<section class="board" aria-label="{}">'.format(escape(_("The board"))),
        '<div class="zoom" hidden>',
        f'<button type="button" data-zoom="out">{escape(_("Zoom out"))}</button>',
        f'<button type="button" data-zoom="fit">{escape(_("Fit"))}</button>',
        f'<button type="button" data-zoom="in">{escape(_("Zoom in"))}</button></div>',
        f'<div class="viewport" id="viewport"><img id="board" class="fit" src="{board}&amp;w={WIDTHS[1]}" ',
        f'srcset="{srcset}" sizes="(min-width: 1100px) 66vw, 100vw" alt="{escape(spot.head)}" ',
        'aria-describedby="words"></div></section>',
        turn(spot),
        f'<section class="words"><h2>{escape(_("The position in words"))}</h2><ul id="words">',
        *(f"<li>{escape(w)}</li>" for w in spot.words),
        "</ul></section>",
        f'<section class="log"><h2>{escape(_("The log"))}</h2><ol id="log">',
        *(f"<li>{escape(line)}</li>" for line in spot.log),
        "</ol></section></main></body></html>\n",
    ]
    return "".join(parts)


def scrubber(k: int, n: int, lang: str) -> str:
    """⇤ ◀ a slider over every move ▶ ⇥, each a link (the slider goes there with the page's script,
    or its button without). The first and last are arrows every common font has (⏮ and ⏭ are drawn
    from an emoji font only, a blank box without one: seen on the screenshots of a Linux browser)."""

    def link(label: str, target: int | None, name: str, off: bool) -> str:
        if off:
            return f'<span class="off" aria-hidden="true">{label}</span>'
        return (
            f'<a href="{escape(href(target, lang))}" aria-label="{escape(name)}" rel="nofollow">{label}</a>'
        )

    return "".join(
        (
            '<nav class="scrub"><form method="get" action="">',
            link("⇤", 0, _("Before the first move"), k == 0),
            link("◀", k - 1, _("Previous move"), k == 0),
            f'<input type="range" id="move" name="move" min="0" max="{n}" value="{k}" '
            f'aria-label="{escape(_("Move"))}">',
            f'<input type="hidden" name="lang" value="{lang}">',
            f'<output for="move" id="shown">{k}/{n}</output>',
            f'<button type="submit" class="go">{escape(_("Show"))}</button>',
            link("▶", k + 1, _("Next move"), k >= n),
            link("⇥", None, _("The latest move"), k >= n),
            "</form></nav>",
        )
    )


def languages(k: int, lang: str) -> str:
    """Links to the page at move ``k`` in each language."""
    return language_links(lambda code: href(k, code), lang)


def language_links(address: Callable[[str], str], lang: str) -> str:
    """Links to a page in each language (``address``: the page's in a language; ``lang``: the one read
    now, marked current): the game page's and the server page's."""
    links = (
        f'<a href="{escape(address(code))}" hreflang="{code}" lang="{code}"'
        + (' aria-current="true"' if code == lang else "")
        + f">{escape(i18n.NAMES[code])}</a>"
        for code in i18n.LANGUAGES
    )
    return f'<nav class="langs">{" ".join(links)}</nav>'


def turn(spot: Spot) -> str:
    """Whom the game waits for and until when (UTC; the page's script shows the viewer's time)."""
    if not spot.turn:
        return ""
    items = [f"<li>{escape(t)}</li>" for t in spot.turn]
    for name, end in spot.deadlines:
        at = datetime.datetime.fromtimestamp(end, datetime.UTC)
        when = f'<time datetime="{at.isoformat()}">{at.strftime("%Y-%m-%d %H:%M")} UTC</time>'
        items.append(f"<li>{escape(_('Time is up for {player}:', player=name))} {when}</li>")
    return f'<section class="turn"><h2>{escape(_("Next"))}</h2><ul id="turn">{"".join(items)}</ul></section>'
