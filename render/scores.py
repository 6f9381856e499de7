"""The final-score panel (shown once the game is over) and the legend strip."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from engine.views import View
from i18n import _

from . import fonts, sprites
from .geometry import Geometry
from .naming import name, term
from .palette import (
    GOLD_DARK,
    HIGHLIGHT,
    INK,
    INK_SOFT,
    MUTED,
    PANEL_LINE,
    PAPER,
    SERVICE,
    SERVICE_EDGE,
    WARNING,
    player,
)

TITLE_H = 60
LINE_H = 58
LEGEND_H = 86


def score_rows(view: View) -> list[tuple[int, int, int, int, int, int]]:
    """(seat, citizens, complete-city bonus, hunger loss, total, gold), best first."""
    scores = view.scores or []
    rows = []
    for p in view.players:
        rows.append((p.seat, p.citizens, p.city_bonus, p.hunger_vp, scores[p.seat], p.gold))
    # Rules §9: highest total, then most gold; seat order keeps the image deterministic.
    return sorted(rows, key=lambda t: (-t[4], -t[5], t[0]))


def panel_height(g: Geometry, view: View) -> int:
    return g.px(TITLE_H + LINE_H * (len(view.players) + 1) + 24)


def draw_final(img: Image.Image, g: Geometry, view: View, tags: list[str], top: int) -> None:
    """Ranking with the score broken down: citizens, +3 per complete city, hunger, gold."""
    d = ImageDraw.Draw(img)
    px = g.px
    sprites.rounded(img, (px(10), top + px(6), g.width - px(10), top + panel_height(g, view) - px(6)),
                        radius=px(14), fill=PAPER, outline=GOLD_DARK, width=px(4))  # fmt: skip
    fonts.text(d, (px(30), top + px(38)), _("Final scores"), px(36), INK, anchor="lm", bold=True)
    cols = [
        (560, _("Citizens")),
        (720, _("Complete cities")),
        (930, _("Hunger")),
        (1080, _("Gold")),
        (1220, _("Total")),
    ]
    y = top + px(TITLE_H + LINE_H / 2)
    ends = [x for x, _s in cols[1:]] + [1380]
    for (x, s), end in zip(cols, ends, strict=True):
        # A heading longer than its column (in a long language) is drawn smaller, never over the next.
        size = fonts.fit(s, px(22), px(end - x - 12), smallest=px(16))
        fonts.text(d, (px(x), y), fonts.shorten(s, size, px(end - x - 12)), size, INK_SOFT, anchor="lm")
    winners = set(view.winners or [])
    for rank, (seat, cit, bonus, hunger, total, gold) in enumerate(score_rows(view), start=1):
        y += px(LINE_H)
        win = seat in winners
        if win:
            sprites.rounded(
                img, (px(20), y - px(26), g.width - px(20), y + px(26)), radius=px(10), fill=(252, 236, 170)
            )
        fonts.text(d, (px(40), y), f"{rank}.", px(32), INK, anchor="lm", bold=True)
        sprites.paste(img, sprites.castle_tile(seat, tags[seat], px(26)), (px(110), y))
        label = name(view.players[seat]) + ("  - " + _("winner") if win else "")
        fonts.text(
            d, (px(150), y), fonts.shorten(label, px(32), px(400)), px(32), INK, anchor="lm", bold=True
        )
        fonts.text(d, (px(560), y), str(cit), px(32), INK, anchor="lm")
        fonts.text(d, (px(720), y), f"+{bonus}", px(32), INK, anchor="lm")
        fonts.text(
            d, (px(930), y), f"-{hunger}" if hunger else "0", px(32), WARNING if hunger else INK, anchor="lm"
        )
        fonts.text(d, (px(1080), y), str(gold), px(32), INK, anchor="lm")
        fonts.text(d, (px(1220), y), str(total), px(40), INK, anchor="lm", bold=True)


def legend_height(g: Geometry) -> int:
    return g.px(LEGEND_H)


def draw_legend(img: Image.Image, g: Geometry, view: View, top: int) -> None:
    """Arch colours, markers and rings: what the symbols on the board mean."""
    d = ImageDraw.Draw(img)
    px = g.px
    d.line((px(16), top + px(4), g.width - px(16), top + px(4)), fill=PANEL_LINE, width=px(2))
    x = float(px(24))
    y = top + px(28)
    arches = _("Arches:")
    fonts.text(d, (x, y), arches, px(24), INK_SOFT, anchor="lm", bold=True)
    x += max(px(100), fonts.width(arches, px(24), True) + px(14))
    for s in ("culture", "education", "health"):
        sprites.rounded(
            img,
            (x, y - px(14), x + px(28), y + px(14)),
            radius=px(5),
            fill=SERVICE[s],
            outline=SERVICE_EDGE[s] if s != "education" else INK,
            width=px(2),
        )
        word = term(s)
        fonts.text(d, (x + px(36), y), word, px(24), INK, anchor="lm")
        x += px(44) + fonts.width(word, px(24)) + px(26)
    sprites.paste(img, sprites.disc(SERVICE["culture"], INK, px(26)), (x + px(13), y))
    sprites.paste(img, sprites.disc((150, 150, 150), INK, px(15)), (x + px(13), y))
    s = _("notable on an arch")
    fonts.text(d, (x + px(34), y), s, px(24), INK, anchor="lm")
    x += px(34) + fonts.width(s, px(24)) + px(26)
    sprites.paste(img, sprites.star(px(30)), (x + px(15), y))
    s = _("Rich Harvest (x2 food)")
    fonts.text(d, (x + px(36), y), fonts.shorten(s, px(24), g.width - x - px(52)), px(24), INK, anchor="lm")
    y += px(38)
    x = float(px(24))
    d.polygon(_hex_pts(x + px(16), y, px(16)), outline=HIGHLIGHT, width=px(5))
    s = _("last move")
    fonts.text(d, (x + px(40), y), s, px(24), INK, anchor="lm")
    x += px(40) + fonts.width(s, px(24)) + px(28)
    d.polygon(_hex_pts(x + px(16), y, px(16)), fill=MUTED)
    s = _("not in play")
    fonts.text(d, (x + px(40), y), s, px(24), INK, anchor="lm")
    x += px(40) + fonts.width(s, px(24)) + px(28)
    build = _("you can build") if view.viewer is not None else ""
    room = g.width - x - px(24) - (px(68) + fonts.width(build, px(24)) if build else 0)
    s = _("city badge: citizens / limit, culture, education, health")
    size = fonts.fit(s, px(24), room, smallest=px(18))
    s = fonts.shorten(s, size, room)
    fonts.text(d, (x, y), s, size, INK, anchor="lm")
    x += fonts.width(s, size) + px(28)
    if build:
        d.polygon(_hex_pts(x + px(16), y, px(16)), outline=player(view.viewer or 0), width=px(4))
        fonts.text(d, (x + px(40), y), build, px(24), INK, anchor="lm")


def _hex_pts(x: float, y: float, r: float) -> list[tuple[float, float]]:
    return [
        (x + r * math.cos(math.radians(60 * k - 30)), y + r * math.sin(math.radians(60 * k - 30)))
        for k in range(6)
    ]
