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

A picture may also be written in bands, each deflated on its own and ended by a sync flush
(`segment`), and put together later (`segments_png`: the bands' data one after the other, an
empty final block, the checksum combined): the table keeps the bands that did not change
since the last post (`render.bands`) and writes only the others.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

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
    data = b"".join(rows for p in parts for rows in _rows(p, palette_img))
    return _png_file(w, h, palette_img, isal_zlib.compress(data, PNG_LEVEL))


def _png_file(width: int, height: int, palette_img: Image.Image, stream: bytes) -> bytes:
    """A 256-colour PNG of ``width`` × ``height`` in ``palette_img``'s colours, its picture data
    the zlib ``stream``."""
    pal = bytes((palette_img.getpalette() or [])[:768]).ljust(768, b"\0")
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", pal),
            _chunk(b"IDAT", stream),
            _chunk(b"IEND", b""),
        )
    )


@dataclass(frozen=True)
class Segment:
    """A band of a picture's rows, deflated on its own (`segment`): bands written once can be
    put together into the PNG of any picture they are part of (`segments_png`)."""

    data: bytes
    """Raw deflate data, ended by a sync flush (byte-aligned, no final block): another
    segment may follow it in one stream."""
    adler: int
    """The Adler-32 checksum of the rows' bytes."""
    size: int
    """The rows' bytes (each row its filter type and palette indices)."""
    height: int


def segment(img: Image.Image, palette_img: Image.Image) -> Segment:
    """``img``'s rows in the colours of ``palette_img`` (as `png` maps them), as a `Segment`."""
    head, rows = _rows(img, palette_img)
    deflate = isal_zlib.compressobj(PNG_LEVEL, isal_zlib.DEFLATED, -15)
    data = deflate.compress(head) + deflate.compress(rows) + deflate.flush(isal_zlib.Z_SYNC_FLUSH)
    return Segment(data, zlib.adler32(rows, zlib.adler32(head)), len(head) + len(rows), img.height)


def segments_png(width: int, segments: Sequence[Segment], palette_img: Image.Image) -> bytes:
    """The PNG of the picture ``width`` px wide made of ``segments``, one below the other: the
    same pixels as `png` of that picture (the bytes differ: each band is deflated apart)."""
    adler = 1  # the checksum of no bytes
    for s in segments:
        adler = adler32_combine(adler, s.adler, s.size)
    # A zlib stream (header: deflate, 32 KiB window, fastest), the bands' deflate data, an
    # empty final block (fixed Huffman codes: just the end-of-block code) and the checksum.
    stream = b"".join((ZLIB_HEADER, *(s.data for s in segments), FINAL_EMPTY_BLOCK, struct.pack(">I", adler)))
    return _png_file(width, sum(s.height for s in segments), palette_img, stream)


ZLIB_HEADER = b"\x78\x01"
FINAL_EMPTY_BLOCK = b"\x03\x00"
ADLER_BASE = 65521


def adler32_combine(adler1: int, adler2: int, size2: int) -> int:
    """The Adler-32 of two byte strings one after the other, from their checksums and the
    second one's length (zlib's ``adler32_combine``, which Python's zlib does not offer)."""
    rem = size2 % ADLER_BASE
    sum1 = adler1 & 0xFFFF
    sum2 = (rem * sum1) % ADLER_BASE
    sum1 = (sum1 + (adler2 & 0xFFFF) + ADLER_BASE - 1) % ADLER_BASE
    sum2 = (sum2 + (adler1 >> 16) + (adler2 >> 16) + ADLER_BASE - rem) % ADLER_BASE
    return sum1 | (sum2 << 16)


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
