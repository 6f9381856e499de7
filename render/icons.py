"""Pictograms of the buildings, drawn with Pillow primitives in a unit box.

Each building shows its arches as doorways in the service colours (culture white,
education black, health blue), as on the printed tiles, so the services can be read off
the picture itself.
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import ImageDraw

from i18n import _

from .palette import BUILDING, CITIZEN, INK, RGB, ROOF, SERVICE, SERVICE_EDGE, TERRAIN, shade

Pt = tuple[float, float]


class Pen:
    """Draws in a unit box: ``(-1, -1)`` top left to ``(1, 1)`` bottom right around a centre."""

    def __init__(self, draw: ImageDraw.ImageDraw, centre: Pt, half: float) -> None:
        self.d = draw
        self.cx, self.cy = centre
        self.h = half
        self.w = max(1, round(half * 0.07))
        """Outline width."""

    def p(self, x: float, y: float) -> Pt:
        return (self.cx + x * self.h, self.cy + y * self.h)

    def poly(self, pts: list[Pt], fill: RGB, outline: RGB = INK) -> None:
        self.d.polygon([self.p(x, y) for x, y in pts], fill=fill, outline=outline, width=self.w)

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: RGB, outline: RGB = INK) -> None:
        self.d.rectangle((*self.p(x0, y0), *self.p(x1, y1)), fill=fill, outline=outline, width=self.w)

    def ellipse(self, x0: float, y0: float, x1: float, y1: float, fill: RGB, outline: RGB = INK) -> None:
        self.d.ellipse((*self.p(x0, y0), *self.p(x1, y1)), fill=fill, outline=outline, width=self.w)

    def line(self, pts: list[Pt], fill: RGB = INK, scale: float = 1.0) -> None:
        self.d.line([self.p(x, y) for x, y in pts], fill=fill, width=max(1, round(self.w * scale)))

    def arch(self, x: float, y_bottom: float, w: float, h: float, service: str) -> None:
        """A doorway (an arch) in the colour of ``service``, ``w`` wide and ``h`` tall."""
        fill, edge = SERVICE[service], SERVICE_EDGE[service]
        x0, x1 = x - w / 2, x + w / 2
        top = y_bottom - h
        self.d.pieslice((*self.p(x0, top), *self.p(x1, top + w)), 180, 360, fill=fill)
        self.d.rectangle((*self.p(x0, top + w / 2), *self.p(x1, y_bottom)), fill=fill)
        ow = max(1, round(self.w * 0.8))
        self.d.arc((*self.p(x0, top), *self.p(x1, top + w)), 180, 360, fill=edge, width=ow)
        self.d.line([self.p(x0, top + w / 2), self.p(x0, y_bottom)], fill=edge, width=ow)
        self.d.line([self.p(x1, top + w / 2), self.p(x1, y_bottom)], fill=edge, width=ow)


def _row(pen: Pen, services: list[str], y: float, w: float, h: float, gap: float) -> None:
    n = len(services)
    x = -(n - 1) * (w + gap) / 2
    for s in services:
        pen.arch(x, y, w, h, s)
        x += w + gap


def castle(pen: Pen, colour: RGB) -> None:
    """A tower with battlements in the owner's colour."""
    pen.rect(-0.72, -0.35, 0.72, 0.95, colour)
    for x in (-0.72, -0.16, 0.4):
        pen.rect(x, -0.75, x + 0.32, -0.35, colour)


def farm(pen: Pen) -> None:
    """A barn with a red roof and a field."""
    pen.rect(-0.95, 0.62, 0.95, 0.95, TERRAIN["farmland"][0])
    pen.rect(-0.62, -0.15, 0.62, 0.62, BUILDING)
    pen.poly([(-0.85, -0.1), (0, -0.8), (0.85, -0.1)], ROOF)
    pen.rect(-0.22, 0.15, 0.22, 0.62, shade(ROOF, 0.8))
    pen.line([(-0.22, 0.15), (0.22, 0.62)])
    pen.line([(0.22, 0.15), (-0.22, 0.62)])


def quarry(pen: Pen) -> None:
    """Cut stone blocks and a pick."""
    stone, dark = (196, 188, 176), (150, 140, 128)
    pen.line([(-0.2, -0.85), (0.55, 0.05)], fill=(120, 80, 40), scale=1.8)
    pen.poly([(-0.55, -0.75), (-0.2, -0.85), (0.15, -0.7), (-0.2, -0.78)], (120, 120, 130))
    pen.rect(-0.9, 0.35, -0.05, 0.9, stone)
    pen.rect(-0.05, 0.35, 0.8, 0.9, dark)
    pen.rect(-0.5, -0.2, 0.35, 0.35, stone)


def school(pen: Pen) -> None:
    """A small schoolhouse with a bell and an education arch."""
    pen.rect(-0.65, -0.15, 0.65, 0.9, BUILDING)
    pen.poly([(-0.82, -0.1), (0, -0.62), (0.82, -0.1)], ROOF)
    pen.rect(-0.14, -0.9, 0.14, -0.55, BUILDING)
    pen.ellipse(-0.08, -0.82, 0.08, -0.66, (220, 180, 40))
    pen.arch(0, 0.9, 0.5, 0.8, "education")


def statue(pen: Pen) -> None:
    """A figure on a plinth with a culture arch."""
    figure = (170, 176, 172)
    pen.ellipse(-0.16, -0.95, 0.16, -0.63, figure)
    pen.poly([(-0.3, -0.6), (0.3, -0.6), (0.22, 0.0), (-0.22, 0.0)], figure)
    pen.line([(0.28, -0.55), (0.55, -0.85)], fill=INK, scale=1.6)
    pen.rect(-0.62, 0.0, 0.62, 0.92, BUILDING)
    pen.arch(0, 0.92, 0.48, 0.72, "culture")


def market(pen: Pen) -> None:
    """A stall with a striped awning."""
    pen.rect(-0.75, -0.1, 0.75, 0.9, BUILDING)
    stripes = 5
    w = 1.8 / stripes
    for k in range(stripes):
        x = -0.9 + k * w
        colour = (200, 50, 50) if k % 2 == 0 else (255, 255, 255)
        pen.poly([(x, -0.75), (x + w, -0.75), (x + w, -0.15), (x, -0.15)], colour)
    for k in range(stripes):
        x = -0.9 + k * w
        pen.d.pieslice(
            (*pen.p(x, -0.3), *pen.p(x + w, 0.0)), 0, 180, fill=(200, 50, 50), outline=INK, width=pen.w
        )
    pen.rect(-0.55, 0.35, 0.55, 0.55, (230, 160, 60))
    for x in (-0.35, 0.0, 0.35):
        pen.ellipse(x - 0.12, 0.12, x + 0.12, 0.36, (120, 180, 60))


def fountain(pen: Pen) -> None:
    """A basin with a jet of water and a health arch."""
    water = TERRAIN["lake"][0]
    pen.line([(0, -0.05), (0, -0.75)], fill=water, scale=2.2)
    pen.d.arc((*pen.p(-0.7, -0.85), *pen.p(0.0, 0.1)), 200, 330, fill=water, width=pen.w * 2)
    pen.d.arc((*pen.p(0.0, -0.85), *pen.p(0.7, 0.1)), 210, 340, fill=water, width=pen.w * 2)
    pen.ellipse(-0.9, -0.05, 0.9, 0.35, water)
    pen.rect(-0.8, 0.15, 0.8, 0.92, BUILDING)
    pen.arch(0, 0.92, 0.46, 0.6, "health")


def palace(pen: Pen) -> None:
    """A wide palace with a dome and two culture arches."""
    pen.ellipse(-0.3, -0.8, 0.3, -0.25, (200, 170, 90))
    pen.rect(-0.95, -0.4, 0.95, 0.92, BUILDING)
    pen.rect(-1.0, -0.5, 1.0, -0.32, (200, 170, 90))
    for x in (-0.75, 0.75):
        pen.rect(x - 0.09, -0.2, x + 0.09, 0.1, (140, 180, 220))
    _row(pen, ["culture", "culture"], 0.92, 0.46, 0.85, 0.22)


def hospital(pen: Pen) -> None:
    """A hospital with a red cross, an education and a health arch."""
    pen.rect(-0.9, -0.45, 0.9, 0.92, BUILDING)
    pen.poly([(-1.0, -0.4), (0, -0.92), (1.0, -0.4)], ROOF)
    red = (210, 40, 40)
    pen.rect(-0.09, -0.38, 0.09, 0.02, red, outline=red)
    pen.rect(-0.26, -0.27, 0.26, -0.09, red, outline=red)
    _row(pen, ["education", "health"], 0.92, 0.46, 0.75, 0.3)


def bath(pen: Pen) -> None:
    """A domed bath house with two health arches."""
    water = TERRAIN["lake"][0]
    pen.ellipse(-0.7, -0.85, 0.7, 0.0, (170, 200, 220))
    pen.rect(-0.95, -0.4, 0.95, 0.92, BUILDING)
    pen.d.arc((*pen.p(-0.6, -0.32), *pen.p(0.0, -0.08)), 200, 340, fill=water, width=pen.w * 2)
    pen.d.arc((*pen.p(0.0, -0.32), *pen.p(0.6, -0.08)), 200, 340, fill=water, width=pen.w * 2)
    _row(pen, ["health", "health"], 0.92, 0.46, 0.8, 0.3)


def cathedral(pen: Pen) -> None:
    """A cathedral with a spire and three culture arches."""
    pen.rect(-0.98, -0.2, 0.98, 0.92, BUILDING)
    pen.poly([(-1.05, -0.15), (0, -0.62), (1.05, -0.15)], ROOF)
    pen.rect(-0.2, -0.75, 0.2, -0.2, BUILDING)
    pen.poly([(-0.26, -0.72), (0, -1.0), (0.26, -0.72)], ROOF)
    _row(pen, ["culture", "culture", "culture"], 0.92, 0.42, 0.8, 0.16)


def university(pen: Pen) -> None:
    """A university with a tower and three education arches."""
    pen.rect(-0.98, -0.28, 0.98, 0.92, BUILDING)
    pen.rect(-1.02, -0.4, 1.02, -0.24, (120, 110, 150))
    pen.rect(-0.24, -0.9, 0.24, -0.4, BUILDING)
    pen.poly([(-0.32, -0.88), (0, -1.02), (0.32, -0.88)], (60, 60, 80))
    pen.ellipse(-0.1, -0.78, 0.1, -0.58, BUILDING)
    _row(pen, ["education", "education", "education"], 0.92, 0.42, 0.8, 0.16)


def citizen(pen: Pen, colour: RGB = CITIZEN) -> None:
    """A pawn: a citizen (gray) or a notable (the owner's colour)."""
    pen.ellipse(-0.34, -0.95, 0.34, -0.3, colour)
    pen.poly([(-0.2, -0.35), (0.2, -0.35), (0.7, 0.95), (-0.7, 0.95)], colour)


ICONS: dict[str, Callable[[Pen], None]] = {
    "farm": farm,
    "quarry": quarry,
    "school": school,
    "statue": statue,
    "market": market,
    "fountain": fountain,
    "palace": palace,
    "hospital": hospital,
    "bath": bath,
    "cathedral": cathedral,
    "university": university,
}


def caption(kind: str) -> str:
    """The name printed under a building's pictogram, in the language spoken (``Farm``, ``Bauernhof``):
    a whole word, never cut (the zoom makes room)."""
    word = _(kind)
    return word[:1].upper() + word[1:]
