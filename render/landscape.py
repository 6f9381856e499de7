"""The static board layer: the terrain areas, the path hexes and their labels.

It depends only on the terrain layout, the playable zones and the width, and is pasted
together from cached tiles (each area's in `terrain`, each path hex's here), so a layout
not seen before costs no more than any other.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine.board import BOARD

from . import fonts
from .geometry import geometry
from .palette import BACKGROUND, LABEL, MUTED, MUTED_EDGE, PATH, PATH_EDGE, premultiplied
from .supersample import SS, Tile, canvas, cut, paste, reduce, shift
from .terrain import Layout, area_tile

TILE = 0.95
"""Drawn size of a path hex, as a fraction of the hex radius (the landscape shows between)."""
HEX_CACHE = 2 * 2 * len(BOARD.labels)
"""Path hexes kept: each hex in play and out of it, at the usual width and one other."""


def draw_landscape(img: Image.Image, layout: Layout, max_zone: int, width: int) -> None:
    """Draw the board without pieces at the top of ``img``: terrain, paths (muted outside
    the zones) and labels."""
    g = geometry(width)
    img.paste(BACKGROUND, (0, 0, g.width, g.board_height))
    for area, terrain, wheat in layout:
        paste(img, area_tile(area, terrain, wheat, width))
    for i, label in enumerate(BOARD.labels):
        paste(img, path_hex(label, BOARD.zone_idx[i] <= max_zone, width))


@lru_cache(maxsize=HEX_CACHE)
def path_hex(label: str, playable: bool, width: int) -> Tile:
    """A path hex on a tile of its own: light with its label where play is possible, else
    a dark veil over the landscape."""
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
    if playable:
        x, y = g.center(label)
        fonts.text(tile, (x - left, y - top), label, round(g.radius * 0.5), LABEL, anchor="mm", bold=True)
    return cut((tile, (left, top)), (g.width, g.board_height))
