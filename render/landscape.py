"""The static board layer: the terrain areas, the path hexes and their labels.

It depends only on the terrain layout, the playable zones and the width, and is pasted
together from cached tiles (each area's in `terrain`, each path hex's here), so a layout
not seen before costs no more than any other. A close-up (`draw_window`) pastes the tiles
of the part it shows at its zoom, one sprite for every path hex, and draws their labels.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.board import BOARD
from engine.views import View

from . import fonts, sprites
from .geometry import SQRT3, Geometry, geometry, hex_corners
from .palette import BACKGROUND, MUTED, MUTED_EDGE, PATH, PATH_EDGE, premultiplied
from .palette import LABEL as LABEL_INK
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
    g = geometry(width)
    img.paste(BACKGROUND, (0, 0, g.width, g.board_height))
    for area, terrain, wheat in layout:
        paste(img, area_tile(area, terrain, wheat, width))
    for i, label in enumerate(BOARD.labels):
        paste(img, path_tile(label, BOARD.zone_idx[i] <= max_zone, width, labels))


def path_tile(label: str, playable: bool, width: int, labelled: bool = True) -> Tile:
    """A path hex on a tile of its own: light (with its label if ``labelled``) where play is
    possible, else a dark veil over the landscape."""
    size = sprites.text_size(label_size(geometry(width).radius), label) if playable and labelled else 0
    return path_hex(label, playable, width, size)


@lru_cache(maxsize=HEX_CACHE)
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
    """Draw the part of the board a close-up ``g`` shows, without pieces, at the top of
    ``img``: terrain, paths (muted outside the zones) and the labels of the hexes in play."""
    img.paste(BACKGROUND, (0, 0, g.width, g.board_height))
    whole = geometry(g.full)
    ox, oy = g.offset
    for area, terrain, wheat in layout:
        pts = whole.area_points(area)
        box = (min(x for x, _ in pts), min(y for _, y in pts), max(x for x, _ in pts), max(y for _, y in pts))
        if g.shows((box[0] - ox, box[1] - oy, box[2] - ox, box[3] - oy), g.radius):
            tile, (dx, dy) = zoomed_tile(area, terrain, wheat, g.full)
            paste(img, tile, (dx - ox, dy - oy))
    r = g.radius
    shown = [(i, lab) for i, lab in enumerate(BOARD.labels) if g.shows(g.hex_box(lab))]
    for i, label in shown:
        sprites.paste(img, hex_sprite(BOARD.zone_idx[i] <= max_zone, r), g.center(label))
    size = label_size(r)
    for i, label in shown:
        if BOARD.zone_idx[i] <= max_zone:
            fonts.text(img, g.center(label), label, size, LABEL_INK, anchor="mm", bold=True)


@lru_cache(maxsize=4)
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
