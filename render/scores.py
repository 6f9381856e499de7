"""The final-score panel (shown once the game is over) and the legend strip."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from engine.views import View

from . import fonts, sprites
from .geometry import Geometry
from .naming import name
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
    fonts.text(d, (px(30), top + px(38)), "Final scores", px(36), INK, anchor="lm", bold=True)
    cols = [(560, "Citizens"), (720, "Complete cities"), (930, "Hunger"), (1080, "Gold"), (1220, "Total")]
    y = top + px(TITLE_H + LINE_H / 2)
    for x, s in cols:
        fonts.text(d, (px(x), y), s, px(22), INK_SOFT, anchor="lm")
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
        label = name(view.players[seat]) + ("  - winner" if win else "")
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
    fonts.text(d, (x, y), "Arches:", px(24), INK_SOFT, anchor="lm", bold=True)
    x += px(100)
    for s in ("culture", "education", "health"):
        sprites.rounded(
            img,
            (x, y - px(14), x + px(28), y + px(14)),
            radius=px(5),
            fill=SERVICE[s],
            outline=SERVICE_EDGE[s] if s != "education" else INK,
            width=px(2),
        )
        fonts.text(d, (x + px(36), y), s, px(24), INK, anchor="lm")
        x += px(44) + fonts.width(s, px(24)) + px(26)
    sprites.paste(img, sprites.disc(SERVICE["culture"], INK, px(26)), (x + px(13), y))
    sprites.paste(img, sprites.disc((150, 150, 150), INK, px(15)), (x + px(13), y))
    fonts.text(d, (x + px(34), y), "notable on an arch", px(24), INK, anchor="lm")
    x += px(34) + fonts.width("notable on an arch", px(24)) + px(26)
    sprites.paste(img, sprites.star(px(30)), (x + px(15), y))
    fonts.text(d, (x + px(36), y), "Rich Harvest (x2 food)", px(24), INK, anchor="lm")
    y += px(38)
    x = float(px(24))
    d.polygon(_hex_pts(x + px(16), y, px(16)), outline=HIGHLIGHT, width=px(5))
    fonts.text(d, (x + px(40), y), "last move", px(24), INK, anchor="lm")
    x += px(40) + fonts.width("last move", px(24)) + px(28)
    d.polygon(_hex_pts(x + px(16), y, px(16)), fill=MUTED)
    fonts.text(d, (x + px(40), y), "not in play", px(24), INK, anchor="lm")
    x += px(40) + fonts.width("not in play", px(24)) + px(28)
    s = "city badge: citizens / limit, culture, education, health"
    fonts.text(d, (x, y), s, px(24), INK, anchor="lm")
    x += fonts.width(s, px(24)) + px(28)
    if view.viewer is not None:
        d.polygon(_hex_pts(x + px(16), y, px(16)), outline=player(view.viewer), width=px(4))
        fonts.text(d, (x + px(40), y), "you can build", px(24), INK, anchor="lm")


def _hex_pts(x: float, y: float, r: float) -> list[tuple[float, float]]:
    return [
        (x + r * math.cos(math.radians(60 * k - 30)), y + r * math.sin(math.radians(60 * k - 30)))
        for k in range(6)
    ]
