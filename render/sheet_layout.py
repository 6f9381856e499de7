"""The units the table's phone picture (`render.sheet`) is laid out in: its scale (`Scale`: sizes given
at the reference width `WIDTH`), its bands (`Block`), a band's heading, and the pieces a line is made
of that stay together (`group`, `icon`, `count`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace

from PIL import Image

from . import fonts
from .lines import Line, Piece, flow, word, words
from .palette import INK, INK_SOFT, RGB

WIDTH = 1080
"""The reference width: the sizes below are in pixels at this width."""


@dataclass(frozen=True)
class Scale:
    """Lengths and text sizes for one picture width (text never below the phone rule)."""

    width: int

    def px(self, n: float) -> int:
        return max(1, round(n * self.width / WIDTH))

    def font(self, n: float) -> int:
        """A text size given at the reference width, at least the picture's smallest."""
        return max(fonts.smallest(), self.px(n))

    @property
    def margin(self) -> int:
        return self.px(24)

    @property
    def room(self) -> int:
        """The width inside the margins."""
        return self.width - 2 * self.margin


@dataclass(frozen=True)
class Block:
    """A band of the picture: its height, and how to draw it on a picture of its own, as wide
    as the table and as tall as the band (on `PANEL`).

    ``key``: everything the band shows, when its builder can name it (None: drawn every time).
    With the language and the width, equal keys draw equal pixels: `render.bands` keeps the
    bands it wrote under their keys, and a later table takes them instead of drawing them
    again. So a key holds every value its builder reads from the view."""

    height: int
    draw: Callable[[Image.Image], None]
    key: Hashable = None


def new_line(p: Piece) -> Piece:
    """``p`` starting a line of its own."""
    return replace(p, space=0.0, new_line=True)


def icon(
    text: str, w: float, h: float, draw: Callable[[Image.Image, float, float], None], space: float = 0.0
) -> Piece:
    """A drawn piece (coin, cards, pawns); ``text`` says what it shows."""
    return Piece(text, w, h, draw, space)


def group(pieces: list[Piece], space: float) -> Piece:
    """Pieces that stay together on one line, drawn side by side."""
    placed: list[tuple[float, Piece]] = []
    x = 0.0
    for k, p in enumerate(pieces):
        x += p.space if k else 0.0
        placed.append((x, p))
        x += p.width

    def draw(img: Image.Image, left: float, mid: float) -> None:
        for at, p in placed:
            p.draw(img, left + at, mid)

    text = " ".join(p.text for p in pieces if p.text)
    return Piece(text, x, max(p.height for p in pieces), draw, space)


def count(n: int, said: str, size: int, ink: RGB, space: float = 0.0) -> list[Piece]:
    """A number and what it counts, ``said`` (``3 gold``), its number in bold."""
    out = [word(w, size, ink, bold=w == str(n)) for w in said.split()]
    return [replace(out[0], space=space), *out[1:]] if out else out


def heading(text: str, s: Scale, note: str = "") -> list[Line]:
    pieces = words(text, s.font(38), INK, bold=True)
    if note:
        pieces += words(note, s.font(30), INK_SOFT, space=s.px(24))
    return flow(pieces, s.room)
