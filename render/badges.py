"""City badges (population and services, next to each castle) and the castle's citizen tag."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from engine.board import BOARD
from engine.views import CityView, View

from . import fonts, sprites
from .geometry import Box, Geometry, overlap
from .palette import CITIZEN, INK, PAPER, RGB, SERVICE, SERVICE_EDGE, SERVICE_TEXT, player, shade
from .terrain import cells

SERVICES = ("culture", "education", "health")
Token = tuple[str, RGB, RGB, RGB]

OFFSETS: tuple[tuple[float, float], ...] = (
    (0.0, -1.42), (0.0, 1.42), (-2.2, -0.75), (2.2, -0.75), (-2.2, 0.75), (2.2, 0.75),
    (-1.6, -1.42), (1.6, -1.42), (-1.6, 1.42), (1.6, 1.42), (-2.75, 0.0), (2.75, 0.0),
    (0.0, -2.2), (0.0, 2.2),
)  # fmt: skip
"""Badge centres tried around a castle, in hex radii, in order of preference."""


@lru_cache(maxsize=64)
def citizens_tag(n: int, r: float) -> Image.Image:
    """The citizens standing on a castle: a gray pawn and their number, on a small plate."""
    size = round(r * 0.42)
    s = str(n)
    w = round(fonts.width(s, size, bold=True) + r * 0.62)
    h = round(r * 0.5)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    sprites.rounded(img, (0, 0, w, h), r * 0.12, PAPER, INK, max(1, round(r * 0.04)))
    sprites.paste(img, sprites.pawn(CITIZEN, r * 0.36), (r * 0.22, h / 2))
    fonts.text(img, (w - r * 0.1, h / 2 + 1), s, size, INK, anchor="rm", bold=True)
    return img


def tokens(c: CityView) -> tuple[Token, ...]:
    """The badge's tokens: (text, fill, text colour, edge) for population then services."""
    pop = f"{c.population}/{c.limit}" if c.limit is not None else f"{c.population}"
    out = [(pop, PAPER, INK, INK)]
    for s in SERVICES:
        out.append(
            (str(getattr(c, s)), SERVICE[s], SERVICE_TEXT[s], SERVICE_EDGE[s] if s != "education" else INK)
        )
    return tuple(out)


@lru_cache(maxsize=256)
def badge(toks: tuple[Token, ...], owner: int, r: float) -> Image.Image:
    """A city badge: population (of the limit) and culture, education, health totals."""
    size = round(r * 0.46)
    pad = r * 0.1
    widths = [
        max(r * 0.56, fonts.width(s, size, bold=True) + r * 0.24 + (r * 0.42 if k == 0 else 0))
        for k, (s, *_rest) in enumerate(toks)
    ]
    w, h = round(sum(widths) + pad * (len(widths) + 1)), round(r * 0.72)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    sprites.rounded(img, (0, 0, w, h), r * 0.16, shade(player(owner), 0.55), INK, max(1, round(r * 0.05)))
    x = pad
    y0, y1 = pad * 0.9, h - pad * 0.9
    mid = (y0 + y1) / 2
    for k, ((s, fill, ink, edge), tw) in enumerate(zip(toks, widths, strict=True)):
        sprites.rounded(img, (x, y0, x + tw, y1), r * 0.1, fill, edge, max(1, round(r * 0.04)))
        if k == 0:
            sprites.paste(img, sprites.pawn(CITIZEN, r * 0.4), (x + r * 0.26, mid))
            fonts.text(img, (x + tw - r * 0.1, mid + 1), s, size, ink, anchor="rm", bold=True)
        else:
            fonts.text(img, (x + tw / 2, mid + 1), s, size, ink, anchor="mm", bold=True)
        x += tw + pad
    return img


def place_badges(img: Image.Image, g: Geometry, view: View, highlight: list[str]) -> None:
    """Draw each city's badge at the spot around its castle that hides the least.

    The spots are tried in a fixed order; covering pieces, rings and other badges costs
    most, then hex labels, then the pictures of the landscape.
    """
    r = g.radius
    occupied = {c.castle for p in view.players for c in p.cities}
    occupied |= {b.hex for p in view.players for c in p.cities for b in c.buildings}
    hard = [g.hex_box(h, 0.9) for h in sorted(occupied | (set(highlight) & set(BOARD.index)))]
    free = [
        g.center(lab)
        for i, lab in enumerate(BOARD.labels)
        if BOARD.zone_idx[i] <= view.max_zone and lab not in occupied
    ]
    art = [g.to_px(p) for a in view.areas for p in cells(a.id)]
    placed: list[Box] = []
    bounds = (0.0, 0.0, float(g.width), float(g.board_height))
    area = r * r
    m = r * 0.3
    reach = 4.5 * r
    cities = sorted((c for p in view.players for c in p.cities), key=lambda c: BOARD.index[c.castle])
    for c in cities:
        sprite = badge(tokens(c), c.owner, r)
        w, h = sprite.size
        cx, cy = g.center(c.castle)
        near = [
            o
            for o in hard + placed
            if abs(o[0] + o[2] - 2 * cx) < 2 * reach and abs(o[1] + o[3] - 2 * cy) < 2 * reach
        ]
        pts = [(p, 3.0) for p in free if abs(p[0] - cx) < reach and abs(p[1] - cy) < reach]
        pts += [(p, 2.0) for p in art if abs(p[0] - cx) < reach and abs(p[1] - cy) < reach]
        best: tuple[float, Box] | None = None
        for k, (dx, dy) in enumerate(OFFSETS):
            x, y = cx + dx * r, cy + dy * r
            x0, y0, x1, y1 = box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
            covered = w * h - overlap(box, bounds)
            for o in near:
                ow, oh = min(x1, o[2]) - max(x0, o[0]), min(y1, o[3]) - max(y0, o[1])
                if ow > 0 and oh > 0:
                    covered += ow * oh
            cost = 0.01 * k + 20 * covered / area
            if best is not None and cost >= best[0]:
                continue
            for (px, py), weight in pts:
                if x0 - m < px < x1 + m and y0 - m < py < y1 + m:
                    cost += weight
            if best is None or cost < best[0]:
                best = (cost, box)
        assert best is not None
        placed.append(best[1])
        img.paste(sprite, (round(best[1][0]), round(best[1][1])), sprite)
