"""Where things are: the one owner of hex → pixel and of the image layout.

Hex centres follow board.md (pointy-top, in hex radii): ``x = √3·(q + r/2)``, ``y = 1.5·r``.
The board is drawn at the top of the image, full width; the table panel sits below it, so
that a phone showing the image at the width of its screen shows the board as large as it can.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from engine.board import BOARD

Point = tuple[float, float]
Box = tuple[float, float, float, float]

SQRT3 = math.sqrt(3)
HALF_W = 15.6
"""Half the board's width in hex radii: the outermost hexes and a band of landscape."""
HALF_H = 13.35
REF_WIDTH = 1400
"""The width at which the panel's sizes are given; they scale with the image width."""
PHONE_WIDTH = 1080
"""The usual width of the pictures posted after a move (the overview and the close-ups)."""


def area_corners(area: str) -> list[tuple[int, int]]:
    """The axial corners (junctions) of terrain area ``"i,j,U|D"`` (board.md)."""
    i, j, side = area.split(",")
    x, y = 4 * int(i), 4 * int(j)
    if side == "U":
        return [(x, y), (x + 4, y), (x, y + 4)]
    return [(x + 4, y), (x, y + 4), (x + 4, y + 4)]


def hex_corners(c: Point, size: float, scale: float = 1.0) -> list[Point]:
    """The six corners of a pointy-top hex of radius ``size`` around ``c`` (times ``scale``)."""
    return [
        (
            (c[0] + size * math.cos(math.radians(60 * k - 30))) * scale,
            (c[1] + size * math.sin(math.radians(60 * k - 30))) * scale,
        )
        for k in range(6)
    ]


def nearest(v: float) -> int:
    """The whole pixel nearest ``v``, halves rounded up: moving a picture by whole pixels moves
    what is drawn by as many (`round` takes halves to the even number, which would not)."""
    return math.floor(v + 0.5)


def axial_to_unit(q: float, r: float) -> Point:
    """The centre of axial ``(q, r)`` in hex radii from the board centre."""
    return (SQRT3 * (q + r / 2), 1.5 * r)


@dataclass(frozen=True)
class Geometry:
    """Pixel positions for one image width (cheap to build; cached by `geometry`).

    By default the picture shows the whole board, ``width`` px wide. A close-up (`window`)
    shows part of a larger board, ``board`` px wide, whose pixel ``offset`` is the picture's
    top left corner and of which ``height`` px show."""

    width: int
    board: int = 0
    """The width of the whole board at this scale (0: the picture's ``width``)."""
    offset: tuple[int, int] = (0, 0)
    height: int = 0
    """The height of the board part of the picture (0: the whole board's)."""

    @property
    def full(self) -> int:
        """The width of the whole board at this scale, in pixels."""
        return self.board or self.width

    @property
    def radius(self) -> float:
        """The hex radius (centre to corner) in pixels."""
        return self.full / (2 * HALF_W)

    @property
    def full_height(self) -> int:
        """The height of the whole board at this scale, in pixels."""
        return round(2 * HALF_H * self.radius)

    @property
    def board_height(self) -> int:
        """The height of the board in the picture (the table panel starts below it)."""
        return self.height or self.full_height

    @property
    def unit(self) -> float:
        """The panel's scale: 1.0 at the reference width."""
        return self.width / REF_WIDTH

    def px(self, n: float) -> int:
        """A panel length given at the reference width, at this width."""
        return max(1, round(n * self.unit))

    def to_px(self, p: Point, scale: float = 1.0) -> Point:
        """A point in hex radii to pixels (times ``scale``, for supersampled layers)."""
        r = self.radius
        ox, oy = self.offset
        return ((self.full / 2 + p[0] * r - ox) * scale, (self.full_height / 2 + p[1] * r - oy) * scale)

    def center(self, label: str) -> Point:
        """The pixel centre of the hex ``label``."""
        return _centres(self)[BOARD.index[label]]

    def shows(self, box: Box, margin: float = 0.0) -> bool:
        """Whether ``box`` (pixels) reaches into the picture's board part (grown by ``margin``)."""
        return (
            box[2] > -margin
            and box[0] < self.width + margin
            and box[3] > -margin
            and box[1] < self.board_height + margin
        )

    def hex_points(self, c: Point, size: float, scale: float = 1.0) -> list[Point]:
        """The six corners of a pointy-top hex of radius ``size`` px around pixel ``c``."""
        return hex_corners(c, size, scale)

    def area_points(self, area: str, scale: float = 1.0) -> list[Point]:
        """The three corners (junction centres) of a terrain area, in pixels."""
        return [self.to_px(axial_to_unit(q, r), scale) for q, r in area_corners(area)]

    def area_centre(self, area: str) -> Point:
        pts = self.area_points(area)
        return (sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3)

    def hex_box(self, label: str, grow: float = 1.0) -> Box:
        """The bounding box of a hex (``grow`` scales it about the centre)."""
        x, y = self.center(label)
        r = self.radius * grow
        return (x - r * SQRT3 / 2, y - r, x + r * SQRT3 / 2, y + r)


@lru_cache(maxsize=64)
def _centres(g: Geometry) -> tuple[Point, ...]:
    """Every hex's pixel centre in ``g`` (about 10 KB each): as many kept as `render.warm` and a
    game's boards, overviews and close-ups use, so that a second `warm` computes none again."""
    return tuple(g.to_px(axial_to_unit(q, r)) for q, r in BOARD.coords)


@lru_cache(maxsize=8)
def geometry(width: int) -> Geometry:
    """The geometry for an image ``width`` px wide."""
    return Geometry(width)


def window(width: int, height: int, radius: float, centre: Point) -> Geometry:
    """A close-up ``width`` × ``height`` px of the board at hex ``radius`` px (about), centred
    on ``centre`` (in hex radii from the board centre).

    The whole board at this scale is a whole number of pixels wide and the picture's corner
    a whole pixel of it, so that tiles drawn for the whole board paste into place."""
    board = round(2 * HALF_W * radius)
    g = Geometry(width, board, (0, 0), height)
    x, y = g.to_px(centre)
    return Geometry(width, board, (round(x - width / 2), round(y - height / 2)), height)


def overlap(a: Box, b: Box) -> float:
    """The area two boxes share."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0
