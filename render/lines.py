"""The small line layout the table's pictures share (the poster's table, `render.table`, and the phone
sheet, `render.sheet`): `Piece` (a word, a name chip, an icon) and `flow`, which wraps pieces onto
lines so that no text runs off a picture."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from PIL import Image

from . import fonts, sprites
from .palette import INK, RGB


@dataclass(frozen=True)
class Piece:
    """An unbreakable piece of a line: a word, a name on a chip, an icon with its number.

    ``draw(img, x, mid)`` draws it with its left edge at ``x`` and centred on ``mid``;
    ``space`` is the gap before it when it does not start a line; ``text`` is what it says."""

    text: str
    width: float
    height: float
    draw: Callable[[Image.Image, float, float], None]
    space: float = 0.0
    new_line: bool = False
    """Start a line with this piece, whatever room is left."""
    glue: bool = False
    """Stay on the line of the piece before (both move to the next line if need be)."""


Placed = tuple[float, Piece]
Line = list[Placed]


def word(text: str, size: int, fill: RGB, bold: bool = False, space: float | None = None) -> Piece:
    """A text piece (one word, or a phrase that must not be broken)."""

    def draw(img: Image.Image, x: float, mid: float) -> None:
        fonts.text(img, (x, mid), text, size, fill, anchor="lm", bold=bold)

    gap = size * 0.3 if space is None else space
    return Piece(text, fonts.width(text, size, bold), size * 1.3, draw, gap)


def words(
    text: str, size: int, fill: RGB, bold: bool = False, space: float | None = None, room: float | None = None
) -> list[Piece]:
    """``text`` as one piece per word (each cut to ``room`` px if given); the first is ``space``
    away from what comes before. Words are split at spaces only: a no-break space (U+00A0, as
    French puts before ``:`` and ``;``, or between a number and its unit) keeps its words on
    one line."""
    cut = (lambda w: fonts.shorten(w, size, room - 2)) if room is not None else (lambda w: w)
    out = [word(cut(w), size, fill, bold) for w in text.split(" ") if w]
    if out and space is not None:
        out[0] = replace(out[0], space=space)
    return out


def chip(text: str, size: int, fill: RGB, ink: RGB, space: float | None = None) -> Piece:
    """A bold label on a rounded coloured box (a player's name, START, TO ACT)."""
    pad = size * 0.35
    w = fonts.width(text, size, bold=True) + 2 * pad
    h = size * 1.3

    def draw(img: Image.Image, x: float, mid: float) -> None:
        sprites.rounded(img, (x, mid - h / 2, x + w, mid + h / 2), radius=size * 0.3, fill=fill)
        fonts.text(img, (x + w / 2, mid + 1), text, size, ink, anchor="mm", bold=True)

    return Piece(text, w, h * 1.1, draw, size * 0.4 if space is None else space)


def flow(pieces: Sequence[Piece], room: float, indent: float = 0.0) -> list[Line]:
    """``pieces`` laid out left to right in lines at most ``room`` wide (the first ``indent``ed).

    A piece wider than a whole line gets a line of its own (make such pieces short)."""
    lines: list[Line] = [[]]
    x = indent
    for p in pieces:
        line = lines[-1]
        at = x + p.space if line else x
        if line and (p.new_line or at + p.width > room):
            carried = [line.pop()[1]] if p.glue and not p.new_line and len(line) > 1 else []
            lines.append([])
            line, at = lines[-1], 0.0
            for q in carried:
                line.append((at, q))
                at += q.width + p.space
        line.append((at, p))
        x = at + p.width
    return [line for line in lines if line]


def line_height(line: Line, least: float = 0.0) -> float:
    """The height of a laid-out line: its tallest piece."""
    return max([least, *(p.height for _, p in line)])


def lines_height(lines: Sequence[Line], least: float = 0.0) -> float:
    return sum(line_height(line, least) for line in lines)


def draw_lines(img: Image.Image, lines: Sequence[Line], x: float, top: float, least: float = 0.0) -> float:
    """Draw laid-out ``lines`` from ``(x, top)``; the y under the last line."""
    y = top
    for line in lines:
        h = line_height(line, least)
        for at, p in line:
            p.draw(img, x + at, y + h / 2)
        y += h
    return y


def wrap(text: str, size: int, room: float, bold: bool = False) -> list[str]:
    """``text`` broken into lines at most ``room`` px wide (at spaces)."""
    lines = flow(words(text, size, INK, bold), room)
    return [" ".join(p.text for _, p in line) for line in lines]
