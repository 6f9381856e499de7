"""The static board layer: the terrain areas, the path hexes and their labels.

It depends only on the terrain layout, the playable zones and the width, and is pasted
together from cached tiles (each area's in `terrain`, each path hex's here), so a layout
not seen before costs no more than any other. A close-up (`draw_window`) pastes the tiles
of the part it shows at its zoom, one sprite for every path hex, and draws their labels.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.board import BOARD
from engine.views import View

from . import fonts, sprites
from .geometry import SQRT3, Box, Geometry, Point, geometry, hex_corners
from .palette import BACKGROUND, MUTED, MUTED_EDGE, PATH, PATH_EDGE, premultiplied
from .palette import LABEL as LABEL_INK
from .stash import stashed
from .supersample import SS, Tile, canvas, cut, paste, reduce, shift
from .terrain import Layout, area_tile, zoomed_tile

TILE = 0.95
"""Drawn size of a path hex, as a fraction of the hex radius (the landscape shows between)."""
LABEL = 0.5
"""Size of a hex's label, as a fraction of the hex radius."""
HEX_CACHE = 3 * 2 * len(BOARD.labels)
"""Path hexes kept: each hex in play and out of it, labelled at the poster's usual width,
unlabelled at the overview's, and at one other width."""


def layout_key(view: View) -> Layout:
    """The terrain layout of a view: every area, with its terrain and wheat."""
    return tuple((a.id, a.terrain, a.wheat) for a in view.areas)


def draw_landscape(img: Image.Image, layout: Layout, max_zone: int, width: int, labels: bool = True) -> None:
    """Draw the board without pieces at the top of ``img``: terrain, paths (muted outside
    the zones) and, with ``labels``, the hexes' labels."""
    sizes = tuple(
        _label_px(label, BOARD.zone_idx[i] <= max_zone, width, labels) for i, label in enumerate(BOARD.labels)
    )
    img.paste(_landscape(layout, max_zone, width, sizes), (0, 0))


LANDSCAPES = 2
"""Whole landscapes kept (4 MB each at a phone's width, 7 at the poster's): the one of every
game of a setup and player count, pasted in a few hundred microseconds where drawing it takes
a few milliseconds. Two keep the renderer's peak memory under its 200 MiB budget with a
hundred different layouts drawn in turn (`scripts/bench_render.py`)."""


@lru_cache(maxsize=LANDSCAPES)
def _landscape(layout: Layout, max_zone: int, width: int, sizes: tuple[int, ...]) -> Image.Image:
    """The landscape of `draw_landscape`, its hexes' labels ``sizes`` px (0: none)."""
    g = geometry(width)
    img = Image.new("RGB", (g.width, g.board_height), BACKGROUND)
    for area, terrain, wheat in layout:
        paste(img, area_tile(area, terrain, wheat, width))
    for i, label in enumerate(BOARD.labels):
        paste(img, path_hex(label, BOARD.zone_idx[i] <= max_zone, width, sizes[i]))
    return img


def _label_px(label: str, playable: bool, width: int, labelled: bool) -> int:
    """The size of a path hex's label in the picture being drawn (0: none drawn)."""
    return sprites.text_size(label_size(geometry(width).radius), label) if playable and labelled else 0


def path_tile(label: str, playable: bool, width: int, labelled: bool = True) -> Tile:
    """A path hex on a tile of its own: light (with its label if ``labelled``) where play is
    possible, else a dark veil over the landscape."""
    return path_hex(label, playable, width, _label_px(label, playable, width, labelled))


@stashed(maxsize=HEX_CACHE)
def path_hex(label: str, playable: bool, width: int, size: int) -> Tile:
    """`path_tile`, its label ``size`` px (0: none)."""
    g = geometry(width)
    edge = max(1, round(g.radius * SS * 0.05))
    pts = g.hex_points(g.center(label), g.radius * TILE, SS)
    img, corner = canvas(pts, edge)
    d = ImageDraw.Draw(img)
    if playable:
        d.polygon(shift(pts, corner), fill=PATH, outline=PATH_EDGE, width=edge)
    else:
        veil, veil_edge = premultiplied(MUTED, 150), premultiplied(MUTED_EDGE, 200)
        d.polygon(shift(pts, corner), fill=veil, outline=veil_edge, width=edge)
    tile, (left, top) = reduce(img, corner)
    if size:
        x, y = g.center(label)
        fonts.text(tile, (x - left, y - top), label, size, LABEL_INK, anchor="mm", bold=True)
    return cut((tile, (left, top)), (g.width, g.board_height))


def label_size(radius: float) -> int:
    """The text size of the hexes' labels on a board of hex ``radius`` px."""
    return round(radius * LABEL)


def draw_window(img: Image.Image, layout: Layout, max_zone: int, g: Geometry) -> None:
    """Draw the part of the board a close-up ``g`` shows, without pieces, on ``img`` (the
    close-up's board part, ``g.width`` × ``g.board_height``): terrain, paths (muted outside
    the zones) and the labels of the hexes in play.

    It is pasted together from blocks of the whole board at the close-up's zoom, each drawn
    once (`_block`): a block depends only on the areas and path hexes that reach into it, so
    every game of one setup shares most of them, and the picture is the one drawing the
    window at once gives (`draw_part`)."""
    ox, oy = g.offset
    box = (ox, oy, ox + g.width - 1, oy + g.board_height - 1)
    for bx, by, block in _blocks(layout, max_zone, g.full, box):
        img.paste(block, (bx * BLOCK - ox, by * BLOCK - oy))


def keep_window(layout: Layout, max_zone: int, g: Geometry, margin: int) -> None:
    """Draw ahead the blocks of the close-up ``g`` and of ``margin`` px around it (within the
    board), each kept as `draw_window` keeps it, so that a close-up of that part drawn later finds
    them (`render.closeup.draw_ahead`). Draws no picture: what is kept changes the time a
    close-up takes, never the close-up."""
    ox, oy = g.offset
    right, bottom = g.full - 1, geometry(g.full).board_height - 1
    box = (
        max(0, ox - margin), max(0, oy - margin),
        min(right, ox + g.width - 1 + margin), min(bottom, oy + g.board_height - 1 + margin),
    )  # fmt: skip
    for _drawn in _blocks(layout, max_zone, g.full, box):
        pass


def _blocks(
    layout: Layout, max_zone: int, full: int, box: tuple[int, int, int, int]
) -> Iterator[tuple[int, int, Image.Image]]:
    """The blocks (column, row, block) of the board ``full`` px wide that cover the pixels
    ``box`` (left, top, right, bottom, inclusive), each drawn once (`_block`)."""
    left, top, right, bottom = box
    for by in range(top // BLOCK, bottom // BLOCK + 1):
        for bx in range(left // BLOCK, right // BLOCK + 1):
            areas, hexes = _block_parts(full, bx, by)
            terrain = tuple(a for a in layout if a[0] in areas)
            playable = tuple(BOARD.zone_idx[i] <= max_zone for i in hexes)
            yield bx, by, _block(full, bx, by, terrain, playable)


BLOCK = 160
"""The side of a close-up's landscape block, in pixels."""
BLOCKS = 360
"""Blocks kept (75 KB each at most, 27 MB in all): every block of one setup's close-ups at
two or three stages of the game."""


def _block_geometry(full: int, bx: int, by: int) -> Geometry:
    return Geometry(BLOCK, full, (bx * BLOCK, by * BLOCK), BLOCK)


@lru_cache(maxsize=1024)
def _block_parts(full: int, bx: int, by: int) -> tuple[frozenset[str], tuple[int, ...]]:
    """The areas (ids) and the path hexes (indices) that reach into block ``(bx, by)`` of the
    board ``full`` px wide: what `draw_part` would draw there."""
    g = _block_geometry(full, bx, by)
    return frozenset(a for a in BOARD.area_ids if _shows_area(g, a)), tuple(i for i, _ in _shown_hexes(g))


@lru_cache(maxsize=BLOCKS)
def _block(full: int, bx: int, by: int, layout: Layout, playable: tuple[bool, ...]) -> Image.Image:
    """Block ``(bx, by)`` of the landscape at the zoom of a board ``full`` px wide, with the
    areas of ``layout`` that reach into it and its path hexes (in play or not: ``playable``)."""
    img = Image.new("RGB", (BLOCK, BLOCK), BACKGROUND)
    g = _block_geometry(full, bx, by)
    draw_part(img, layout, dict(zip(_block_parts(full, bx, by)[1], playable, strict=True)), g)
    return img


def draw_part(img: Image.Image, layout: Layout, playable: dict[int, bool], g: Geometry) -> None:
    """Draw the part of the board ``g`` shows on ``img``: the areas of ``layout``, the path
    hexes (each in play or not, by index: ``playable``; every hex shown must be there) and the
    labels of those in play."""
    img.paste(BACKGROUND, (0, 0, g.width, g.board_height))
    ox, oy = g.offset
    for area, terrain, wheat in layout:
        if _shows_area(g, area):
            tile, (dx, dy) = zoomed_tile(area, terrain, wheat, g.full)
            paste(img, tile, (dx - ox, dy - oy))
    r = g.radius
    shown = _shown_hexes(g)
    for i, label in shown:
        sprites.paste(img, hex_sprite(playable[i], r), g.center(label))
    size = label_size(r)
    for i, label in shown:
        if playable[i]:
            fonts.text(img, g.center(label), label, size, LABEL_INK, anchor="mm", bold=True)


@lru_cache(maxsize=8)
def _spots(full: int) -> tuple[tuple[Point, ...], dict[str, Box]]:
    """On the whole board ``full`` px wide: each hex's centre (in `BOARD.labels`' order) and each
    area's bounding box. A part's (a close-up's, a block's) are these less its offset, to the bit
    (`Geometry.to_px` subtracts the offset last), so a block need not work them out again."""
    g = geometry(full)
    boxes: dict[str, Box] = {}
    for area in BOARD.area_ids:
        pts = g.area_points(area)
        xs, ys = [x for x, _ in pts], [y for _, y in pts]
        boxes[area] = (min(xs), min(ys), max(xs), max(ys))
    return tuple(g.center(label) for label in BOARD.labels), boxes


def _shows_area(g: Geometry, area: str) -> bool:
    box = _spots(g.full)[1][area]
    ox, oy = g.offset
    return g.shows((box[0] - ox, box[1] - oy, box[2] - ox, box[3] - oy), g.radius)


def _shown_hexes(g: Geometry) -> list[tuple[int, str]]:
    """The hexes (index, label) whose box (`Geometry.hex_box`) reaches into ``g``'s picture."""
    ox, oy = g.offset
    r = g.radius
    half = r * SQRT3 / 2
    shown = []
    for i, (label, (cx, cy)) in enumerate(zip(BOARD.labels, _spots(g.full)[0], strict=True)):
        x, y = cx - ox, cy - oy
        if g.shows((x - half, y - r, x + half, y + r)):
            shown.append((i, label))
    return shown


@stashed(maxsize=4)
def hex_sprite(playable: bool, radius: float) -> Image.Image:
    """A path hex of ``radius`` px on its own (a close-up pastes it at every hex it shows)."""
    edge = max(1, round(radius * SS * 0.05))
    c = (radius * SQRT3 / 2 + 2, radius + 2)
    pts = hex_corners(c, radius * TILE, SS)
    size = (math.ceil(2 * c[0]) * SS, math.ceil(2 * c[1]) * SS)
    img = Image.new("RGBa", size, (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if playable:
        d.polygon(pts, fill=PATH, outline=PATH_EDGE, width=edge)
    else:
        d.polygon(pts, fill=premultiplied(MUTED, 150), outline=premultiplied(MUTED_EDGE, 200), width=edge)
    return img.reduce(SS).convert("RGBA")
