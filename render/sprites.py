"""Supersampled, cached sprites: building tiles, castles, rings and pawns (captions: `render.captions`).

Every sprite is drawn at `SS` times its size and downscaled once, then pasted (with its
alpha) as often as needed, so that per-render drawing stays cheap and edges stay smooth.
Texts are drawn after the downscale, at the size they show at, and that size is part of
the sprite's cache key (`text_size`), so that the phone rule of `fonts` sees every text.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from . import fonts
from .geometry import nearest
from .icons import ICONS, Pen, castle, citizen
from .palette import (
    GOLD,
    GOLD_DARK,
    HIGHLIGHT,
    INK,
    PATTERN,
    PLAYER,
    RGB,
    player,
    shade,
    text_on,
)
from .stash import stashed

SS = 4
TILE = 0.95
PIECES = 4 * len(ICONS) * len(PLAYER)
"""Building tiles kept: every kind for every seat at the poster's, the overview's and the
close-up's usual sizes, and at one other."""


def _hex(c: tuple[float, float], size: float) -> list[tuple[float, float]]:
    return [
        (c[0] + size * math.cos(math.radians(60 * k - 30)), c[1] + size * math.sin(math.radians(60 * k - 30)))
        for k in range(6)
    ]


def _canvas(radius: float, grow: float = 1.0) -> tuple[Image.Image, tuple[float, float], float]:
    """A transparent supersampled canvas for a hex of ``radius`` px; its centre and scale."""
    r = radius * SS * grow
    w, h = math.ceil(math.sqrt(3) * r) + 4 * SS, math.ceil(2 * r) + 4 * SS
    return Image.new("RGBA", (w, h), (0, 0, 0, 0)), (w / 2, h / 2), radius * SS


def _finish(img: Image.Image) -> Image.Image:
    return img.resize((img.width // SS, img.height // SS), Image.Resampling.BOX)


def pattern(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], seat: int, colour: RGB, step: float
) -> None:
    """The seat's pattern (the second cue besides colour) over ``box``."""
    kind = PATTERN[seat % len(PATTERN)]
    x0, y0, x1, y1 = box
    ink = shade(colour, 0.62)
    w = max(1, round(step * 0.28))
    if kind == "stripes":
        k = x0 - (y1 - y0)
        while k < x1:
            draw.line([(k, y1), (k + (y1 - y0), y0)], fill=ink, width=w)
            k += step
    elif kind == "dots":
        rad = step * 0.22
        for j, y in enumerate(_steps(y0, y1, step)):
            for x in _steps(x0 + (step / 2 if j % 2 else 0), x1, step):
                draw.ellipse((x - rad, y - rad, x + rad, y + rad), fill=ink)
    elif kind == "checks":
        cell = step / 2
        for j, y in enumerate(_steps(y0, y1, cell)):
            for i, x in enumerate(_steps(x0, x1, cell)):
                if (i + j) % 2 == 0:
                    draw.rectangle((x, y, x + cell, y + cell), fill=ink)
    elif kind == "rings":
        rad = step * 0.3
        for j, y in enumerate(_steps(y0, y1, step)):
            for x in _steps(x0 + (step / 2 if j % 2 else 0), x1, step):
                draw.ellipse((x - rad, y - rad, x + rad, y + rad), outline=ink, width=w)


def _steps(a: float, b: float, step: float) -> list[float]:
    out = []
    while a < b + step:
        out.append(a)
        a += step
    return out


def _tile(img: Image.Image, c: tuple[float, float], r: float, seat: int, colour: RGB) -> None:
    """A hex in the owner's colour and pattern, outlined dark."""
    pts = _hex(c, r * TILE)
    layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    d.polygon(pts, fill=colour)
    pattern(d, (0, 0, img.width, img.height), seat, colour, r * 0.36)
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).polygon(pts, fill=255)
    img.paste(layer, (0, 0), mask)
    ImageDraw.Draw(img).polygon(pts, outline=INK, width=max(2, round(r * 0.07)))


def text_size(size: int, s: str) -> int:
    """The size `fonts.text` draws ``s`` at when asked for ``size`` in the picture being drawn.

    Sprites with text take this size as an argument, so that it is part of their cache key:
    a sprite made for one picture is never reused where its text would be too small, and a
    size below the rule is recorded in `fonts.too_small` at every use, cached or not."""
    least = fonts.smallest()
    if size < least:
        fonts.too_small.append(fonts.TooSmall(s, size, least))
    return max(size, least)


@stashed(maxsize=PIECES)
def building(kind: str, seat: int, radius: float) -> Image.Image:
    """The tile of a building: the owner's colour and pattern, and the pictogram (its
    caption is a sprite of its own, pasted over the rings of the last move)."""
    img, c, r = _canvas(radius)
    colour = player(seat)
    _tile(img, c, r, seat, colour)
    d = ImageDraw.Draw(img)
    half = {"palace": 0.54, "hospital": 0.54, "bath": 0.54, "cathedral": 0.58, "university": 0.58}.get(
        kind, 0.5
    )
    ICONS[kind](Pen(d, (c[0], c[1] - r * 0.22), r * half))
    return _finish(img)


def tag_size(tag: str, radius: float) -> int:
    """The size of the owner's tag on a castle: never below the picture's smallest (a hex
    leaves room for a tag of two letters at the smallest size of a picture of the board)."""
    return max(fonts.smallest(), round(radius * (0.62 if len(tag) == 1 else 0.46)))


def castle_tile(seat: int, tag: str, radius: float, size: int = 0) -> Image.Image:
    """A castle: a tower in the owner's colour on a dark hex, with the owner's tag (``size``
    px; 0: `tag_size`) on it."""
    return _castle_tile(seat, tag, radius, text_size(size or tag_size(tag, radius), tag))


@lru_cache(maxsize=128)
def _castle_tile(seat: int, tag: str, radius: float, size: int) -> Image.Image:
    out = castle_base(seat, radius).copy()
    out.info = {}  # (the bands `blit` cut are the tile's own)
    centre = (out.width / 2, out.height / 2 + radius * 0.12)
    fonts.text(out, centre, tag, size, text_on(player(seat)), anchor="mm", bold=True)
    return out


@stashed(maxsize=8 * len(PLAYER))
def castle_base(seat: int, radius: float) -> Image.Image:
    """A castle without its owner's tag (the players' initials differ from game to game), kept at
    the sizes of every picture: the board's, the overview's, the close-ups', the table's."""
    img, c, r = _canvas(radius)
    colour = player(seat)
    _tile(img, c, r, seat, shade(colour, 0.55))
    d = ImageDraw.Draw(img)
    castle(Pen(d, (c[0], c[1] - r * 0.12), r * 0.6), colour)
    return _finish(img)


@stashed(maxsize=8)
def ring(radius: float, colour: RGB = HIGHLIGHT) -> Image.Image:
    """A thick ring on the edge of a hex (the last move): it reaches no further than the gap
    to the next hex, so it hides none of that hex's label."""
    img, c, r = _canvas(radius, 1.2)
    d = ImageDraw.Draw(img)
    d.polygon(_hex(c, r * 1.06), outline=(255, 255, 255), width=round(r * 0.24))
    d.polygon(_hex(c, r * 1.03), outline=colour, width=round(r * 0.17))
    return _finish(img)


@stashed(maxsize=4 * len(PLAYER))
def site(seat: int, radius: float) -> Image.Image:
    """A dashed ring in the viewer's colour: a hex where the viewer could build."""
    img, c, r = _canvas(radius)
    d = ImageDraw.Draw(img)
    pts = _hex(c, r * 0.86)
    colour = player(seat)
    for k in range(6):
        a, b = pts[k], pts[(k + 1) % 6]
        for t0, t1 in ((0.08, 0.38), (0.62, 0.92)):
            p0 = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
            p1 = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
            d.line([p0, p1], fill=INK, width=round(r * 0.16))
            d.line([p0, p1], fill=colour, width=round(r * 0.1))
    return _finish(img)


@lru_cache(maxsize=128)
def pawn(colour: RGB, size: float, edge: RGB = INK) -> Image.Image:
    """A pawn ``size`` px tall (citizen or notable)."""
    s = size * SS
    img = Image.new("RGBA", (math.ceil(s) + 2 * SS, math.ceil(s) + 2 * SS), (0, 0, 0, 0))
    pen = Pen(ImageDraw.Draw(img), (img.width / 2, img.height / 2), s / 2)
    pen.w = max(1, round(s * 0.08))
    citizen(pen, colour)
    del edge
    return _finish(img)


@lru_cache(maxsize=32)
def disc(fill: RGB, edge: RGB, size: float) -> Image.Image:
    """A smooth filled circle ``size`` px across."""
    s = size * SS
    img = Image.new("RGBA", (math.ceil(s) + 2 * SS, math.ceil(s) + 2 * SS), (0, 0, 0, 0))
    m = SS
    ImageDraw.Draw(img).ellipse((m, m, m + s, m + s), fill=fill, outline=edge, width=max(1, round(s * 0.1)))
    return _finish(img)


@lru_cache(maxsize=8)
def star(size: float) -> Image.Image:
    """A gold star (the Rich Harvest marker)."""
    s = size * SS
    img = Image.new("RGBA", (math.ceil(s) + 2 * SS, math.ceil(s) + 2 * SS), (0, 0, 0, 0))
    c = img.width / 2
    pts = []
    for k in range(10):
        rad = s / 2 if k % 2 == 0 else s / 4.6
        a = math.radians(-90 + 36 * k)
        pts.append((c + rad * math.cos(a), c + rad * math.sin(a)))
    ImageDraw.Draw(img).polygon(pts, fill=GOLD, outline=GOLD_DARK, width=max(1, round(s * 0.06)))
    return _finish(img)


def paste(base: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    """Paste ``sprite`` centred on ``centre``."""
    x = nearest(centre[0] - sprite.width / 2)
    y = nearest(centre[1] - sprite.height / 2)
    blit(base, sprite, (x, y))


def blit(base: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """Paste the RGBA ``sprite`` with its top left corner at ``xy``, blended by its alpha.

    The same as ``base.paste(sprite, xy, sprite)``, quicker for a sprite whose middle rows are
    opaque (a panel, a card, a badge): those are copied, only the rows above and below blended."""
    for part, (dx, dy), blend in _parts(sprite):
        base.paste(part, (xy[0] + dx, xy[1] + dy), part if blend else None)


def blit_over(base: Image.Image, sprite: Image.Image, xy: tuple[int, int], under: RGB) -> None:
    """`blit` where ``base`` is still plain ``under`` (nothing drawn there yet): the sprite is
    blended on that colour once (kept with the sprite) and then only copied. The same pixels:
    blending works pixel by pixel, on the same colours."""
    flat: dict[RGB, Image.Image] = sprite.info.setdefault("citta_flat", {})
    if under not in flat:
        img = Image.new("RGB", sprite.size, under)
        blit(img, sprite, (0, 0))
        flat[under] = img
    base.paste(flat[under], xy)


Part = tuple[Image.Image, tuple[int, int], bool]


def _parts(sprite: Image.Image) -> tuple[Part, ...]:
    """``sprite`` cut into bands: (image, offset, blended) each; kept with the sprite (in its
    ``info``: a cached sprite is cut once)."""
    parts: tuple[Part, ...] | None = sprite.info.get("citta_parts")
    if parts is None:
        parts = sprite.info["citta_parts"] = _cut(sprite)
    return parts


CLEAR = [255] * 255 + [0]
"""A lookup table for `Image.point`: 255 for an alpha below 255 (not wholly opaque), 0 for 255."""


def _cut(sprite: Image.Image) -> tuple[Part, ...]:
    w, h = sprite.size
    if sprite.mode != "RGBA" or w * h < 4096:
        return ((sprite, (0, 0), True),)
    alpha = sprite.getchannel("A")
    # The rows with a pixel not wholly opaque: those of the alpha mapped to 255 where below 255, else 0,
    # projected on the y axis (in C: a crop per row cost a first post tens of milliseconds).
    opaque = [not any_clear for any_clear in alpha.point(CLEAR).getprojection()[1]]
    if True not in opaque:
        return ((sprite, (0, 0), True),)
    top, bottom = opaque.index(True), h - opaque[::-1].index(True)
    if alpha.crop((0, top, w, bottom)).getextrema()[0] != 255:
        return ((sprite, (0, 0), True),)
    bands = [((0, top), True), ((top, bottom), False), ((bottom, h), True)]
    return tuple((sprite.crop((0, a, w, b)), (0, a), blend) for (a, b), blend in bands if b > a)


ROUNDED = 32
"""Rounded rectangles kept whole: only those too small to be drawn from their corners (`_corners`),
which are small (a badge, a chip); a player's panel is drawn from its corners."""
CORNERS = 64
"""Rounded rectangles' corners kept (`_corners`): one per radius, outline and colours, a few kB each."""


def _whole(w: int, h: int, radius: int, fill: RGB | None, outline: RGB | None, width: int) -> Image.Image:
    """A rounded rectangle drawn whole: supersampled 2×, then averaged."""
    s = 2
    img = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle(
        (0, 0, w * s - 1, h * s - 1), radius=radius * s, fill=fill, outline=outline, width=width * s
    )
    return img.resize((w, h), Image.Resampling.BOX)


_rounded = lru_cache(maxsize=ROUNDED)(_whole)


Corners = tuple[tuple[Image.Image, ...], tuple[Image.Image, ...], tuple[int, ...]]
"""`_corners`' answer: the four corners, `corner_size` square (top left, top right, bottom left,
bottom right); the straight edges' cross-sections (top and bottom: a column as high; left and
right: a row as wide); the middle's colour (RGBA)."""


def corner_size(radius: int, width: int) -> int:
    """The size of a rounded rectangle's corners drawn apart (`_corners`): past the arc and the
    outline, everything is straight."""
    return max(radius, width) + 2


@stashed(maxsize=CORNERS)
def _corners(radius: int, fill: RGB | None, outline: RGB | None, width: int) -> Corners:
    """The parts of any rounded rectangle of these corners, cut from the smallest one drawn whole
    (``2k + 1`` px square: its corners, then one straight column and row between them).

    A rounded rectangle drawn whole (`_whole`) is the same
    pixels: its corners are drawn from its own corner, its outline is whole pixels wide, so its
    straight edges are the same cross-section from end to end and its middle one colour
    (tests/test_render_parts.py compares them)."""
    k = corner_size(radius, width)
    n = 2 * k + 1
    sheet = _whole(n, n, radius, fill, outline, width)
    corners = tuple(sheet.crop((x, y, x + k, y + k)) for y in (0, k + 1) for x in (0, k + 1))
    edges = (
        sheet.crop((k, 0, k + 1, k)),
        sheet.crop((k, k + 1, k + 1, n)),
        sheet.crop((0, k, k, k + 1)),
        sheet.crop((k + 1, k, n, k + 1)),
    )
    middle = sheet.getpixel((k, k))
    assert isinstance(middle, tuple)
    return corners, edges, middle


def rounded(
    base: Image.Image,
    box: tuple[float, float, float, float],
    radius: float,
    fill: RGB | None = None,
    outline: RGB | None = None,
    width: int = 1,
) -> None:
    """A smooth rounded rectangle on ``base``: the same pixels as one drawn whole (`_rounded`)
    and blended by its alpha, drawn from its corners (`_corners`) when it is large enough (a
    player's panel drawn whole took a few milliseconds and 1 MB of cache at a phone's width)."""
    x0, y0 = round(box[0]), round(box[1])
    w, h = round(box[2]) - x0, round(box[3]) - y0
    if w < 2 or h < 2:
        return
    r = max(1, min(round(radius), w // 2, h // 2))
    width = width if outline else 0
    k = corner_size(r, width)
    if w <= 2 * k or h <= 2 * k:
        blit(base, _rounded(w, h, r, fill, outline, width), (x0, y0))
        return
    corners, edges, middle = _corners(r, fill, outline, width)
    x1, y1 = x0 + w - k, y0 + h - k
    for part, xy in zip(corners, ((x0, y0), (x1, y0), (x0, y1), (x1, y1)), strict=True):
        base.paste(part, xy, part)
    across, down = w - 2 * k, h - 2 * k
    top, bottom, left, right = edges
    for part, size, xy in (
        (top, (across, k), (x0 + k, y0)),
        (bottom, (across, k), (x0 + k, y1)),
        (left, (k, down), (x0, y0 + k)),
        (right, (k, down), (x1, y0 + k)),
    ):
        strip = part.resize(size, Image.Resampling.NEAREST)
        base.paste(strip, xy, strip)
    if middle[3] == 255:
        base.paste(middle if base.mode == "RGBA" else middle[:3], (x0 + k, y0 + k, x1, y1))
    elif middle[3]:
        patch = Image.new("RGBA", (across, down), middle)
        base.paste(patch, (x0 + k, y0 + k), patch)
