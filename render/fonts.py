"""Text: one typeface (Aileron, the face of Pillow's built-in font, with every letter of the
languages the bot speaks), a fake bold, and text the font can show."""

from __future__ import annotations

import contextlib
import math
import unicodedata
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .geometry import nearest
from .palette import RGB
from .stash import stashed

Font = ImageFont.FreeTypeFont
FACE = Path(__file__).with_name("typeface") / "Aileron-Regular.ttf"
"""Aileron Regular in its Latin subset (CC0; `typeface/README.md`): ASCII, the accented letters
of German, French and Dutch, ß, and their quotation marks (`„“ « »`). Pillow's own copy of the
face (``ImageFont.load_default``) has ASCII only."""

MIN_TEXT_FRACTION = 36
"""The phone rule: in a picture posted after a move or in a panel, every text is drawn at a size
of at least 1/36 of the picture's width (10 dp on a phone that shows the picture 360 dp wide)."""


@dataclass
class TooSmall:
    """A text that was asked for below the picture's smallest size (and drawn at that size)."""

    text: str
    size: int
    smallest: int


_picture_width: ContextVar[int | None] = ContextVar("picture_width", default=None)
too_small: list[TooSmall] = []
"""Every text asked for below the phone rule since start (tests assert it stays empty)."""


@contextlib.contextmanager
def picture(width: int) -> Iterator[int]:
    """Draw texts for a picture ``width`` px wide: `text` draws none smaller than `smallest`."""
    token = _picture_width.set(width)
    try:
        yield smallest()
    finally:
        _picture_width.reset(token)


def smallest() -> int:
    """The smallest text size allowed in the picture being drawn (6 outside `picture`)."""
    width = _picture_width.get()
    return 6 if width is None else math.ceil(width / MIN_TEXT_FRACTION)


@lru_cache(maxsize=64)
def font(size: int) -> Font:
    """The typeface at ``size`` pixels (cached); Pillow's basic layout, as its built-in font."""
    return ImageFont.truetype(str(FACE), max(6, size), layout_engine=ImageFont.Layout.BASIC)


def _glyph(ch: str) -> tuple[tuple[int, int], bytes]:
    mask = font(24).getmask(ch)
    return mask.size, bytes(mask)


@lru_cache(maxsize=1024)
def has(ch: str) -> bool:
    """Whether the font draws the character ``ch`` (rather than its box for a missing one)."""
    if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me"):
        return False
    return _glyph(ch) != _glyph("\uffff")


def clean(text: str) -> str:
    """``text`` reduced to the characters the font has: a letter it lacks loses its accents
    (``ő`` is written ``o``), anything else it lacks becomes ``?``."""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        if has(ch):
            out.append(ch)
            continue
        plain = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        out.append(plain if plain and all(has(c) for c in plain) else "?")
    return "".join(out)


@lru_cache(maxsize=4096)
def width(text: str, size: int, bold: bool = False) -> float:
    """The drawn width of ``text`` at ``size``."""
    return font(size).getlength(text) + (2 if bold else 0)


def fit(text: str, size: int, room: float, bold: bool = False, smallest: int = 8) -> int:
    """The largest size up to ``size`` at which ``text`` fits in ``room`` pixels."""
    while size > smallest and width(text, size, bold) > room:
        size -= 1
    return size


def shorten(text: str, size: int, room: float) -> str:
    """``text`` cut with a trailing dot until it fits in ``room`` pixels."""
    if width(text, size) <= room:
        return text
    while len(text) > 1 and width(text + ".", size) > room:
        text = text[:-1]
    return text + "."


@stashed(maxsize=1024)
def _mask(s: str, size: int, anchor: str, stroke: int) -> tuple[Image.Image, int, int]:
    """The coverage mask of ``s`` and its offset from the anchor point (cached; kept in the warm-up
    file: a first post draws a hundred texts)."""
    f = font(size)
    left, top, right, bottom = (int(v) for v in f.getbbox(s, anchor=anchor, stroke_width=stroke))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text(
        (-left, -top), s, font=f, fill=255, anchor=anchor, stroke_width=stroke, stroke_fill=255
    )
    return mask, left, top


def text(
    target: Image.Image | ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int,
    fill: RGB,
    anchor: str = "la",
    bold: bool = False,
    outline: RGB | None = None,
) -> None:
    """Draw ``s``; ``bold`` thickens it with a stroke, ``outline`` halos it for contrast.

    Inside `picture`, a size below the picture's `smallest` is drawn at that smallest size and
    recorded in `too_small`: the phone rule is kept even by a layout that forgot it."""
    least = smallest()
    if size < least:
        too_small.append(TooSmall(s, size, least))
        size = least
    img = target if isinstance(target, Image.Image) else target._image
    x, y = nearest(xy[0]), nearest(xy[1])
    img.load()  # and a picture drawn here is never read-only
    if outline is not None:
        mask, dx, dy = _mask(s, size, anchor, max(2, size // 9))
        _ink(img, outline, (x + dx, y + dy), mask)
    mask, dx, dy = _mask(s, size, anchor, 1 if bold else 0)
    _ink(img, fill, (x + dx, y + dy), mask)


def _ink(img: Image.Image, colour: RGB, xy: tuple[int, int], mask: Image.Image) -> None:
    """``img.paste(colour, xy, mask)``, without its checks (a hundred texts a picture): the
    picture is loaded and writable, the colour a tuple, the mask an "L" image of its own."""
    img.im.paste(colour, (xy[0], xy[1], xy[0] + mask.width, xy[1] + mask.height), mask.im)
