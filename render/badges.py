"""City badges (population and services, next to each castle) and the castle's citizen tag."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.board import BOARD
from engine.views import CityView, View

from . import fonts, sprites
from .geometry import SQRT3, Box, Geometry, axial_to_unit, overlap
from .palette import CITIZEN, INK, PAPER, RGB, SERVICE, SERVICE_EDGE, SERVICE_TEXT, player, shade

SERVICES = ("culture", "education", "health")
NO_LIMIT = "∞"
"""The end of a population token of a city without a limit (drawn as a shape: the font has
no such glyph)."""
Token = tuple[str, RGB, RGB, RGB]

NEIGHBOURS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (1, -1), (0, -1), (0, 1), (-1, 1))
"""The castle's neighbours a badge may cover, in order of preference (beside, above, below)."""
WEIGHTS = {
    "castle": 60.0,
    "building": 14.0,
    "ring": 30.0,
    "site": 6.0,
    "hex": 3.0,
    "muted": 0.6,
    "terrain": 0.4,
}
"""What covering a whole hex of each kind costs a badge (a piece most, the landscape least)."""


@lru_cache(maxsize=64)
def _citizens_tag(n: int, r: float, size: int) -> Image.Image:
    s = str(n)
    w = round(fonts.width(s, size, bold=True) + r * 0.62)
    h = max(round(r * 0.5), round(size * 1.2))
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    sprites.rounded(img, (0, 0, w, h), r * 0.12, PAPER, INK, max(1, round(r * 0.04)))
    sprites.paste(img, sprites.pawn(CITIZEN, r * 0.36), (r * 0.22, h / 2))
    fonts.text(img, (w - r * 0.1, h / 2 + 1), s, size, INK, anchor="rm", bold=True)
    return img


def citizens_tag(n: int, r: float) -> Image.Image:
    """The citizens standing on a castle: a gray pawn and their number, on a small plate."""
    return _citizens_tag(n, r, sprites.text_size(max(fonts.smallest(), round(r * 0.42)), str(n)))


def tokens(c: CityView) -> tuple[Token, ...]:
    """The badge's tokens: (text, fill, text colour, edge) for population then services.

    The population reads "citizens/limit"; a city without a limit ends in `NO_LIMIT`."""
    limit = NO_LIMIT if c.limit is None else str(c.limit)
    out = [(f"{c.population}/{limit}", PAPER, INK, INK)]
    for s in SERVICES:
        out.append(
            (str(getattr(c, s)), SERVICE[s], SERVICE_TEXT[s], SERVICE_EDGE[s] if s != "education" else INK)
        )
    return tuple(out)


def badge_size(r: float) -> int:
    """The text size of the badges on a board of hex radius ``r`` (never below the smallest)."""
    return max(fonts.smallest(), round(r * 0.38))


def badge(toks: tuple[Token, ...], owner: int, r: float) -> Image.Image:
    """A city badge: population (of the limit) above, culture, education, health below."""
    return _badge(toks, owner, r, sprites.text_size(badge_size(r), toks[0][0]))


def _infinity_width(size: int) -> float:
    return size * 0.95


def _infinity(img: Image.Image, x: float, y: float, size: int, ink: RGB) -> None:
    """The sign ∞ ``size`` px tall-text wide, its left end at ``x``, centred on ``y``."""
    w = _infinity_width(size)
    s = 4
    layer = Image.new("L", (math.ceil(w * s) + 2 * s, math.ceil(size * 0.6 * s) + 2 * s), 0)
    d = ImageDraw.Draw(layer)
    lw = max(1, round(size * 0.12 * s))
    half = w * s / 2
    h = size * 0.5 * s
    for x0 in (s, s + half - lw / 2):
        d.ellipse((x0, s, x0 + half + lw / 2, s + h), outline=255, width=lw)
    mask = layer.resize((layer.width // s, layer.height // s), Image.Resampling.BOX)
    img.paste(ink, (round(x), round(y - mask.height / 2)), mask)


def _pop_width(text: str, size: int) -> float:
    if text.endswith(NO_LIMIT):
        return fonts.width(text[: -len(NO_LIMIT)], size, bold=True) + _infinity_width(size) + size * 0.08
    return fonts.width(text, size, bold=True)


BADGES = 64
"""City badges kept (up to 80 KB each, 5 MB in all): the cities of a dozen games' last posts. A
game's next post draws again the badges whose counts changed; more kept only filled a long-running
worker slowly (256 took 20 MB, reached after 5,000 posts of 500 games) for few hits."""


@lru_cache(maxsize=BADGES)
def _badge(toks: tuple[Token, ...], owner: int, r: float, size: int) -> Image.Image:
    pad = max(2, round(size * 0.2))
    th = round(size * 1.3)
    pop, *services = toks
    pawn = size * 1.05
    tws = [max(th * 1.05, fonts.width(s, size, bold=True) + size * 0.5) for s, *_rest in services]
    row = max(sum(tws) + pad * (len(tws) - 1), pawn + _pop_width(pop[0], size) + size * 0.6)
    tws = [t + (row - sum(tws) - pad * (len(tws) - 1)) / len(tws) for t in tws]
    w, h = round(row + 2 * pad), round(2 * th + 3 * pad)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    edge = max(1, round(size * 0.1))
    sprites.rounded(img, (0, 0, w, h), pad * 1.6, player(owner), shade(player(owner), 0.4), edge)
    # The population: a gray pawn and citizens/limit, on paper.
    text, fill, ink, line = pop
    y0 = pad
    sprites.rounded(img, (pad, y0, w - pad, y0 + th), pad, fill, line, max(1, round(size * 0.06)))
    sprites.paste(img, sprites.pawn(CITIZEN, size * 0.95), (pad + pawn * 0.55, y0 + th / 2))
    right = w - pad - size * 0.3
    if text.endswith(NO_LIMIT):
        x = right - _infinity_width(size)
        _infinity(img, x, y0 + th / 2, size, ink)
        fonts.text(img, (x - size * 0.08, y0 + th / 2 + 1), text[: -len(NO_LIMIT)], size, ink, "rm", True)
    else:
        fonts.text(img, (right, y0 + th / 2 + 1), text, size, ink, anchor="rm", bold=True)
    # The services: one token each, in the colour of its arches.
    x, y0 = float(pad), 2 * pad + th
    for (s, fill, ink, line), tw in zip(services, tws, strict=True):
        sprites.rounded(img, (x, y0, x + tw, y0 + th), pad, fill, line, max(1, round(size * 0.06)))
        fonts.text(img, (x + tw / 2, y0 + th / 2 + 1), s, size, ink, anchor="mm", bold=True)
        x += tw + pad
    return img


def place_badges(
    img: Image.Image, g: Geometry, view: View, highlight: list[str], sites: list[str]
) -> dict[str, Box]:
    """Draw each city's badge beside its castle, on the neighbour where it hides the least;
    where each went, by castle.

    A badge covers part of the hexes around its castle: covering a castle or another badge
    costs most, then buildings and the rings of the last move, then the hexes where the
    viewer could build, then hex labels, then the landscape. Cities are placed in board order.
    """
    r = g.radius
    kinds = _hex_kinds(view, highlight, sites)
    placed: list[Box] = []
    where: dict[str, Box] = {}
    cities = sorted((c for p in view.players for c in p.cities), key=lambda c: BOARD.index[c.castle])
    for c in cities:
        if not g.shows(g.hex_box(c.castle, 0.2), -g.radius * 0.2):
            continue  # its castle is (almost) out of the close-up
        sprite = badge(tokens(c), c.owner, r)
        w, h = sprite.size
        q0, r0 = BOARD.coord(c.castle)
        cx, cy = g.center(c.castle)
        best: tuple[float, Box] | None = None
        around = _around(g, kinds, (q0, r0))
        for k, (dq, dr) in enumerate(NEIGHBOURS):
            ux, uy = axial_to_unit(dq, dr)
            x, y = cx + ux * r * 1.02, cy + uy * r * 1.02
            box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
            cost = 0.05 * k + _cost(box, g, around, placed)
            if best is None or cost < best[0]:
                best = (cost, box)
        assert best is not None
        placed.append(best[1])
        where[c.castle] = best[1]
        sprites.blit(img, sprite, (round(best[1][0]), round(best[1][1])))
    return where


def _hex_kinds(view: View, highlight: list[str], sites: list[str]) -> dict[tuple[int, int], str]:
    """What each hex of the board holds, as far as a badge covering it is concerned."""
    kinds: dict[tuple[int, int], str] = {}
    for a in view.areas:
        for q, r in _cells(a.id):
            kinds[(q, r)] = "terrain"
    for i, coord in enumerate(BOARD.coords):
        kinds[coord] = "hex" if BOARD.zone_idx[i] <= view.max_zone else "muted"
    for label in sites:
        kinds[BOARD.coord(label)] = "site"
    for p in view.players:
        for c in p.cities:
            for b in c.buildings:
                kinds[BOARD.coord(b.hex)] = "building"
    for label in highlight:
        if label in BOARD.index:
            kinds[BOARD.coord(label)] = "ring"
    for p in view.players:
        for c in p.cities:
            kinds[BOARD.coord(c.castle)] = "castle"
    return kinds


@lru_cache(maxsize=64)
def _cells(area: str) -> tuple[tuple[int, int], ...]:
    """The axial coordinates of the three hexes inside a terrain area (not on its paths)."""
    i, j, side = area.split(",")
    out = []
    for a in range(1, 4):
        for b in range(1, 4):
            if (a + b < 4) == (side == "U") and a + b != 4:
                out.append((4 * int(i) + a, 4 * int(j) + b))
    return tuple(out)


def _around(g: Geometry, kinds: dict[tuple[int, int], str], home: tuple[int, int]) -> list[tuple[float, Box]]:
    """The hexes within 3 steps of ``home`` that a badge beside it may cover: each one's
    weight (by what it holds) and its box."""
    r = g.radius
    hx, hy = r * SQRT3 / 2 * 0.9, r * 0.9
    q0, r0 = home
    out = []
    for dq in range(-3, 4):
        for dr in range(-3, 4):
            if max(abs(dq), abs(dr), abs(dq + dr)) > 3:
                continue
            kind = kinds.get((q0 + dq, r0 + dr))
            if kind is None:
                continue
            x, y = g.to_px(axial_to_unit(q0 + dq, r0 + dr))
            out.append((WEIGHTS[kind], (x - hx, y - hy, x + hx, y + hy)))
    return out


def _cost(box: Box, g: Geometry, around: list[tuple[float, Box]], placed: list[Box]) -> float:
    """What a badge at ``box`` hides: the hexes it covers (``around``: weight and box), weighed
    by what they hold, and any part of it off the picture or over another badge."""
    r = g.radius
    hex_area = SQRT3 * r * r * 1.8
    w, h = box[2] - box[0], box[3] - box[1]
    bounds = (0.0, 0.0, float(g.width), float(g.board_height))
    cost = 100.0 * (w * h - overlap(box, bounds)) / hex_area
    cost += sum(200.0 * overlap(box, o) / hex_area for o in placed)
    for weight, hex_box in around:
        covered = overlap(box, hex_box)
        if covered:
            cost += weight * covered / hex_area
    return cost
