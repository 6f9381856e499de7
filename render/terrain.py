"""The terrain areas: each area's surface and pictures, drawn once per area and terrain.

An area's tile depends only on the area, its terrain and wheat and the image width, not on
the rest of the layout, so the tiles are cached and a new layout (every experienced game has
its own) is only pasted together (`landscape`). There are few such tiles (`KINDS`): each
of the 22 tile slots can hold one of five tiles, and the 12 edge areas never change.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from engine.board import BOARD, EDGE_TERRAIN, TILE_SLOTS
from engine.setup import TILES

from .geometry import Point, area_corners, axial_to_unit, geometry
from .palette import SNOW, TERRAIN, WHEAT, WHEAT_DARK, shade
from .stash import stashed
from .supersample import SS, Tile, canvas, cut, reduce, shift

Area = tuple[str, str, int]
"""(area id, terrain, wheat): one area of a layout, the cache key of its tile."""
Layout = tuple[Area, ...]
"""Every area of a board, in the views' order (the order they are drawn in)."""

TILE_KINDS: tuple[tuple[str, int], ...] = tuple(sorted(set(TILES)))
"""The tiles a slot can hold: (terrain, wheat)."""
EDGES: Layout = tuple((a, t, w) for a, (t, w) in EDGE_TERRAIN.items())
KINDS: tuple[Area, ...] = (*((slot, t, w) for slot in TILE_SLOTS for t, w in TILE_KINDS), *EDGES)
"""Every area as the engine can deal it: any tile in any slot, and the fixed edge areas."""
TILE_CACHE = 2 * len(KINDS) + len(BOARD.area_ids)
"""Whole-board tiles kept (about 40 MB): every kind at the poster's and the overview's usual
widths, and one more board's at another width, which then pushes out those used longest ago."""
VARIANTS = {"farmland": 3, "mountain": 2, "wasteland": 2, "lake": 1}
"""Textures of each terrain a close-up's tiles come in (farmland: the three stripe angles)."""
ZOOM_KINDS: tuple[tuple[str, str, int, int], ...] = tuple(
    (side, terrain, wheat, v)
    for side in "UD"
    for terrain, wheat in sorted({*TILE_KINDS, *((t, w) for _, t, w in EDGES)})
    for v in range(VARIANTS[terrain])
)
"""Every tile a close-up can need (per zoom): a triangle pointing up or down, a terrain, its
wheat and its texture variant; 28 of them, about 0.9 MB each at the usual zoom."""
ZOOM_CACHE = len(ZOOM_KINDS) + 8
"""Close-up tiles kept: every kind at the usual zoom, and a few at another."""

SEED: dict[str, int] = {a: n for n, a in enumerate(BOARD.area_ids)}
"""The texture seed of each area: its place on the board (as in the views' area order)."""


def sample_layouts() -> list[Layout]:
    """Layouts that between them put every tile in every slot (each slot's tile turns)."""
    n = len(TILE_KINDS)
    return [
        (*((slot, *TILE_KINDS[(k + turn) % n]) for k, slot in enumerate(TILE_SLOTS)), *EDGES)
        for turn in range(n)
    ]


def cells(area: str) -> list[Point]:
    """The unit centres of the three small hexes inside a terrain area (where art goes)."""
    (q0, r0), (q1, r1), (q2, r2) = area_corners(area)
    cq, cr = (q0 + q1 + q2) / 3, (r0 + r1 + r2) / 3
    out = []
    for q, r in ((q0, r0), (q1, r1), (q2, r2)):
        # The cell next to each corner lies 1/4 of the way from the centroid towards it.
        out.append(axial_to_unit(cq + (q - cq) / 4, cr + (r - cr) / 4))
    return out


@stashed(maxsize=TILE_CACHE)
def area_tile(area: str, terrain: str, wheat: int, width: int) -> Tile:
    """One area (its ground, outline and pictures) on a tile of its own, for a board ``width``
    px wide."""
    return draw_area(area, terrain, wheat, width)


def zoomed_tile(area: str, terrain: str, wheat: int, width: int) -> tuple[Tile, tuple[int, int]]:
    """An area for a close-up, a part of a board ``width`` px wide: a tile, and how far to
    move it (a whole number of pixels) to put it in its place.

    A close-up is drawn at a large zoom, where one tile per area and terrain would cost too
    much to draw ahead and keep, so areas share tiles: one per shape, terrain, wheat and
    texture variant (`ZOOM_KINDS`), drawn for the centre area of that shape and moved into
    place (the half pixel this may be off is hidden under the paths)."""
    side = area.rsplit(",", 1)[1]
    home = f"0,0,{side}"
    variant = SEED[area] % VARIANTS[terrain]
    g = geometry(width)
    (x0, y0), (x1, y1) = g.area_points(area)[0], g.area_points(home)[0]
    return zoom_tile(side, terrain, wheat, variant, width), (round(x0 - x1), round(y0 - y1))


@stashed(maxsize=ZOOM_CACHE)
def zoom_tile(side: str, terrain: str, wheat: int, variant: int, width: int) -> Tile:
    """The close-up tile of one of `ZOOM_KINDS`, for a board ``width`` px wide."""
    return draw_area(f"0,0,{side}", terrain, wheat, width, variant)


def draw_area(area: str, terrain: str, wheat: int, width: int, seed: int | None = None) -> Tile:
    """One area (its ground, outline and pictures) drawn on a tile of its own; its texture
    varies with ``seed`` (by default the area's place on the board)."""
    g = geometry(width)
    r = g.radius * SS
    edge = max(1, round(r * 0.03))
    pts = g.area_points(area, SS)
    img, corner = canvas(pts, edge + 2)
    local = shift(pts, corner)
    _surface(img, local, terrain, r, SEED[area] if seed is None else seed)
    d = ImageDraw.Draw(img)
    d.line([*local, local[0]], fill=shade(TERRAIN[terrain][1], 0.9), width=edge)
    _pictures(d, shift([g.to_px(c, SS) for c in cells(area)], corner), terrain, wheat, r)
    return cut(reduce(img, corner), (g.width, g.board_height), bands=4)


def _surface(img: Image.Image, pts: list[Point], terrain: str, r: float, seed: int) -> None:
    """The area's ground: its colour and texture, inside the triangle ``pts``."""
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    box = (math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs)), math.ceil(max(ys)))
    size = (box[2] - box[0] + 1, box[3] - box[1] + 1)
    local = [(x - box[0], y - box[1]) for x, y in pts]
    tile = Image.new("RGBa", size, (*TERRAIN[terrain][0], 255))
    _texture(ImageDraw.Draw(tile), terrain, local, r, seed)
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).polygon(local, fill=255)
    img.paste(tile, box[:2], mask)


def _pictures(d: ImageDraw.ImageDraw, centres: list[Point], terrain: str, wheat: int, r: float) -> None:
    """The pictures on the area: wheat sheaves, peaks, waves or stones."""
    if terrain == "farmland":
        mid = (sum(p[0] for p in centres) / 3, sum(p[1] for p in centres) / 3)
        spots = [mid] if wheat == 1 else centres[:2] if wheat == 2 else centres
        if wheat == 2:
            spots = [((a + mid[0]) / 2, (b + mid[1]) / 2) for a, b in centres[:2]]
        for p in spots[:wheat]:
            _sheaf(d, p, r * 0.95)
    elif terrain == "mountain":
        for p in centres:
            _peak(d, p, r * 0.85)
    elif terrain == "lake":
        for p in centres:
            _waves(d, p, r)
    else:
        _stones(d, centres[0], r)
        _stones(d, centres[2], r * 0.8)


def _texture(d: ImageDraw.ImageDraw, terrain: str, pts: list[Point], r: float, seed: int) -> None:
    """Surface texture inside one area triangle (clipped by the caller's mask)."""
    base, dark = TERRAIN[terrain]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    w = max(1, round(r * 0.05))
    if terrain == "farmland":
        step = r * 0.42
        angle = (seed % 3) * 60 + 30
        dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        span = (x1 - x0) + (y1 - y0)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        k = -span
        while k < span:
            ox, oy = cx - dy * k, cy + dx * k
            d.line(
                [(ox - dx * span, oy - dy * span), (ox + dx * span, oy + dy * span)],
                fill=shade(base, 0.9),
                width=w,
            )
            k += step
    elif terrain == "lake":
        d.polygon(pts, fill=base)
    elif terrain == "wasteland":
        for k in range(14):
            fx = ((seed * 37 + k * 71) % 100) / 100
            fy = ((seed * 53 + k * 29) % 100) / 100
            x, y = x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)
            s = r * (0.05 + 0.04 * (k % 3))
            d.ellipse((x - s, y - s * 0.7, x + s, y + s * 0.7), fill=dark)
    elif terrain == "mountain":
        for k in range(10):
            fx = ((seed * 41 + k * 67) % 100) / 100
            fy = ((seed * 13 + k * 31) % 100) / 100
            x, y = x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)
            d.line([(x - r * 0.15, y), (x, y - r * 0.1), (x + r * 0.15, y)], fill=shade(base, 0.85), width=w)


def _sheaf(d: ImageDraw.ImageDraw, c: Point, r: float) -> None:
    """A wheat sheaf (one wheat symbol) centred on ``c``, about ``r`` tall."""
    x, y = c
    w = max(2, round(r * 0.06))
    for k in (-2, -1, 0, 1, 2):
        top = (x + k * r * 0.16, y - r * 0.42 + abs(k) * r * 0.05)
        d.line([(x, y + r * 0.45), top], fill=WHEAT_DARK, width=w)
        e = r * 0.1
        d.ellipse(
            (top[0] - e * 0.7, top[1] - e * 1.6, top[0] + e * 0.7, top[1] + e * 0.6),
            fill=WHEAT,
            outline=WHEAT_DARK,
            width=w,
        )
    d.rectangle((x - r * 0.2, y + r * 0.05, x + r * 0.2, y + r * 0.14), fill=WHEAT_DARK)


def _peak(d: ImageDraw.ImageDraw, c: Point, r: float) -> None:
    """A mountain peak with a snow cap."""
    _, dark = TERRAIN["mountain"]
    x, y = c
    h = r * 0.75
    base = [(x - r * 0.62, y + h * 0.45), (x, y - h * 0.55), (x + r * 0.62, y + h * 0.45)]
    d.polygon(base, fill=shade(dark, 1.1), outline=shade(dark, 0.7))
    d.polygon([(x, y - h * 0.55), (x + r * 0.62, y + h * 0.45), (x + r * 0.1, y + h * 0.45)], fill=dark)
    cap = [
        (x - r * 0.22, y - h * 0.2),
        (x, y - h * 0.55),
        (x + r * 0.22, y - h * 0.2),
        (x + r * 0.07, y - h * 0.12),
        (x - r * 0.05, y - h * 0.22),
    ]
    d.polygon(cap, fill=SNOW)


def _waves(d: ImageDraw.ImageDraw, c: Point, r: float) -> None:
    """Three wave strokes on a lake."""
    x, y = c
    w = max(2, round(r * 0.07))
    for k in (-1, 0, 1):
        yy = y + k * r * 0.28
        xx = x + (k % 2) * r * 0.12
        box = (xx - r * 0.36, yy - r * 0.12, xx, yy + r * 0.12)
        d.arc(box, 200, 340, fill=(226, 240, 250), width=w)
        d.arc((box[0] + r * 0.36, box[1], box[2] + r * 0.36, box[3]), 200, 340, fill=(226, 240, 250), width=w)


def _stones(d: ImageDraw.ImageDraw, c: Point, r: float) -> None:
    """A dry scrub with stones (wasteland: no resources)."""
    _, dark = TERRAIN["wasteland"]
    x, y = c
    d.ellipse((x - r * 0.3, y, x + r * 0.05, y + r * 0.22), fill=shade(dark, 0.85))
    d.ellipse((x, y + r * 0.04, x + r * 0.32, y + r * 0.26), fill=shade(dark, 0.75))
    w = max(2, round(r * 0.05))
    for a in (-50, -90, -130):
        t = math.radians(a)
        d.line(
            [(x - r * 0.05, y), (x - r * 0.05 + math.cos(t) * r * 0.35, y + math.sin(t) * r * 0.35)],
            fill=shade(dark, 0.6),
            width=w,
        )
