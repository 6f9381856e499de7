"""PNG output: a fixed 256-colour palette per board, so that images stay small and fast.

Converting to a palette picked once per terrain layout (from the landscape, every sprite and
the panel colours) is much faster than choosing a palette per image, and keeps the output
a pure function of the view.
"""

from __future__ import annotations

import struct
import zlib
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

from PIL import Image

from . import palette as pal
from . import sprites
from .geometry import geometry
from .icons import ABBREV
from .landscape import Layout, landscape

PNG_LEVEL = 3
"""zlib level for the palette image: the size/speed balance measured by the benchmark."""
SWATCH = 48


def _key_colours() -> list[pal.RGB]:
    """Colours that must come out exact: the named ones and the shades of the seats."""
    named = [
        v
        for v in vars(pal).values()
        if isinstance(v, tuple) and len(v) == 3 and all(isinstance(c, int) for c in v)
    ]
    named += [c for t in pal.TERRAIN.values() for c in t]
    named += list(pal.SERVICE.values())
    for c in pal.PLAYER:
        named += [c, pal.shade(c, 0.55), pal.shade(c, 0.62), pal.shade(c, 0.34), pal.shade(c, 1.75)]
    return list(dict.fromkeys(named))


@lru_cache(maxsize=16)
def board_palette(layout: Layout, max_zone: int, width: int) -> Image.Image:
    """A palette image made from the landscape, all piece sprites and the key colours."""
    g = geometry(width)
    land = landscape(layout, max_zone, width)
    tiles = [sprites.castle_tile(s, "A", g.radius) for s in range(len(pal.PLAYER))]
    tiles += [
        sprites.building(k, s, g.radius) for k in ABBREV if k != "castle" for s in range(len(pal.PLAYER))
    ]
    keys = _key_colours()
    tw = tiles[0].width
    cols = max(1, width // tw)
    rows = -(-len(tiles) // cols)
    sheet_h = rows * tiles[0].height
    key_rows = -(-len(keys) * SWATCH // width) * SWATCH
    ref = Image.new("RGB", (width, land.height + sheet_h + key_rows), pal.PANEL)
    ref.paste(land, (0, 0))
    for k, t in enumerate(tiles):
        ref.paste(t, ((k % cols) * tw, land.height + (k // cols) * t.height), t)
    per_row = width // SWATCH
    for k, c in enumerate(keys):
        x, y = (k % per_row) * SWATCH, land.height + sheet_h + (k // per_row) * SWATCH
        ref.paste(c, (x, y, x + SWATCH, y + SWATCH))
    return ref.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def png(img: Image.Image, palette_img: Image.Image) -> bytes:
    """``img`` as a 256-colour PNG in the colours of ``palette_img``.

    The top and bottom halves are converted and deflated on two threads (Pillow and zlib
    release the GIL); the second half's deflate stream continues the first one's (it is
    primed with its last 32 KB, as pigz does), so the result is one ordinary PNG.
    """
    w, h = img.size
    cut = h // 2
    halves = [img.crop((0, 0, w, cut)), img.crop((0, cut, w, h))]
    first, second = _pool().map(lambda part: _scanlines(part, palette_img), halves)
    window = first[-32768:]
    z_first = _pool().submit(_deflate, first, None, False)
    z_second = _deflate(second, window, True)
    adler = zlib.adler32(second, zlib.adler32(first))
    stream = b"\x78\x5e" + z_first.result() + z_second + struct.pack(">I", adler)
    pal = bytes((palette_img.getpalette() or [])[:768]).ljust(768, b"\0")
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", pal),
            _chunk(b"IDAT", stream),
            _chunk(b"IEND", b""),
        )
    )


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@lru_cache(maxsize=1)
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="render-png")


def _scanlines(part: Image.Image, palette_img: Image.Image) -> bytes:
    """The palette indices of ``part``, each row prefixed with PNG filter type 0 (none)."""
    raw = part.quantize(palette=palette_img, dither=Image.Dither.NONE).tobytes()
    w = part.width
    return b"\0" + b"\0".join([raw[i : i + w] for i in range(0, len(raw), w)])


def _deflate(data: bytes, window: bytes | None, last: bool) -> bytes:
    """Raw deflate of ``data``; ``window`` is the data just before it in the stream."""
    z = (
        zlib.compressobj(PNG_LEVEL, zlib.DEFLATED, -15, zdict=window)
        if window
        else zlib.compressobj(PNG_LEVEL, zlib.DEFLATED, -15)
    )
    return z.compress(data) + z.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))
