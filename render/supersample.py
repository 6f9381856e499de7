"""Parts of the board drawn supersampled, each on its own small tile that pastes into place.

A tile is drawn at `SS` times the size on a canvas aligned to the board's supersampled
pixel grid and then reduced, so that pasting the tiles gives the picture that drawing the
whole board at once and reducing it would. Tiles are "RGBa" (colours premultiplied by
alpha): reducing averages colours by their coverage, and pasting a tile with itself as the
mask blends its edges exactly.
"""

from __future__ import annotations

import math

from PIL import Image

from .geometry import Point

SS = 2
"""Supersampling factor of the board's tiles."""

Piece = tuple[Image.Image, tuple[int, int]]
"""An image and where its top left corner goes on the board."""
Tile = tuple[Piece, ...]
"""A reduced tile, in pieces: horizontal bands, each cut to what it covers."""


def canvas(points: list[Point], pad: float) -> tuple[Image.Image, tuple[int, int]]:
    """A transparent supersampled canvas around ``points`` (supersampled board coordinates)
    and ``pad`` more on every side, and its top left corner in those coordinates."""
    left = SS * math.floor((min(x for x, _ in points) - pad) / SS)
    top = SS * math.floor((min(y for _, y in points) - pad) / SS)
    right = SS * math.ceil((max(x for x, _ in points) + pad) / SS)
    bottom = SS * math.ceil((max(y for _, y in points) + pad) / SS)
    return Image.new("RGBa", (right - left, bottom - top), (0, 0, 0, 0)), (left, top)


def shift(points: list[Point], corner: tuple[int, int]) -> list[Point]:
    """``points`` relative to a canvas whose top left corner is ``corner``."""
    return [(x - corner[0], y - corner[1]) for x, y in points]


def reduce(img: Image.Image, corner: tuple[int, int]) -> Piece:
    """The canvas ``img`` at board size, and where it goes on the board."""
    return img.reduce(SS), (corner[0] // SS, corner[1] // SS)


def cut(piece: Piece, board: tuple[int, int], bands: int = 1) -> Tile:
    """``piece`` cut to the ``board`` (its width and height) as a tile of ``bands`` bands:
    a triangle in 4 bands holds (and costs to paste) about a third fewer pixels than its
    bounding box."""
    img, (x, y) = piece
    left, top = max(0, -x), max(0, -y)
    img = img.crop((left, top, min(img.width, board[0] - x), min(img.height, board[1] - y)))
    x, y = x + left, y + top
    step = max(1, -(-img.height // bands))
    out = []
    for row in range(0, img.height, step):
        band = img.crop((0, row, img.width, min(img.height, row + step)))
        box = band.getbbox()
        if box is not None:
            out.append((band.crop(box), (x + box[0], y + row + box[1])))
    return tuple(out)


def paste(base: Image.Image, tile: Tile, by: tuple[int, int] = (0, 0)) -> None:
    """Paste ``tile`` in its place on ``base``, moved ``by`` pixels (a close-up's offset)."""
    if by == (0, 0):
        for img, corner in tile:
            base.paste(img, corner, img)
        return
    for img, (x, y) in tile:
        x, y = x + by[0], y + by[1]
        if x < base.width and y < base.height and x + img.width > 0 and y + img.height > 0:
            base.paste(img, (x, y), img)
