"""PNG output: 256-colour images in the one palette of `png_palette`, written on two threads."""

from __future__ import annotations

import struct
import zlib
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

from PIL import Image

PNG_LEVEL = 3
"""zlib level for the palette image: the size/speed balance measured by the benchmark."""


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
