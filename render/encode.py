"""PNG output: 256-colour images in the one palette of `png_palette`, deflated by ISA-L.

A turn post's pictures are about 4.5 million pixels; writing them was half of the CPU time a
move cost. ISA-L's deflate (python-isal, the library xopen and cutadapt use) at its level 1
writes a palette picture about seven times faster than zlib at level 3, for 2 % more bytes
(`scripts/bench_render.py` prints both). The output is an ordinary PNG: zlib stream, filter
type 0 on every row.

The rows are taken as Pillow writes them: its raw encoder, given a stride one byte longer
than a row, writes each row followed by a zero, and that zero is the next row's filter type
(the first row's goes before, the last zero is left out). Pasting the picture into one a pixel
wider first cost a copy more (measured: writing a post's PNGs 4–5 % faster without it).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence

from isal import isal_zlib
from PIL import Image

PNG_LEVEL = 1
"""ISA-L's level for the picture data (0–3; 1: its fast level that still finds long matches)."""


def png(img: Image.Image, palette_img: Image.Image) -> bytes:
    """``img`` as a 256-colour PNG in the colours of ``palette_img`` (each pixel the nearest
    colour, no dithering)."""
    return stacked_png([img], palette_img)


def stacked_png(parts: Sequence[Image.Image], palette_img: Image.Image) -> bytes:
    """``parts`` (of one width), one below the other, as one PNG like `png`'s: the same bytes
    as `png` of the picture they make, without making that picture."""
    w, h = parts[0].width, sum(p.height for p in parts)
    assert all(p.width == w for p in parts), "the parts of a picture are as wide as it"
    pal = bytes((palette_img.getpalette() or [])[:768]).ljust(768, b"\0")
    data = b"".join(rows for p in parts for rows in _rows(p, palette_img))
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", pal),
            _chunk(b"IDAT", isal_zlib.compress(data, PNG_LEVEL)),
            _chunk(b"IEND", b""),
        )
    )


def _rows(img: Image.Image, palette_img: Image.Image) -> tuple[bytes, memoryview]:
    """``img``'s rows as a PNG's picture data, in two pieces: each row its filter type (0) and
    its palette indices."""
    indices = img.quantize(palette=palette_img, dither=Image.Dither.NONE)
    # Rows one byte apart end in a zero each: the filter type of the row after.
    padded = indices.tobytes("raw", "P", img.width + 1)
    return FILTER_NONE, memoryview(padded)[:-1]


FILTER_NONE = b"\0"


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))
