"""Bands of pictures kept, written, between pictures: a turn post's table repeats most of the
last one (the players who did not move, the politics cards, the voice of the people), so a
band drawn and written once is taken again, not drawn again, while the same key comes back.

Each worker process keeps its own, up to `KEPT_BYTES` of deflated rows (the least recently
used go first): about 20 000 bands, the tables of a few hundred games. A band's key is what
it shows (`render.sheet.Block.key`) with the language and the width it was drawn in, and the
PNG is the same picture whether a band was kept or drawn (`tests/test_render_bands.py` draws
many games both ways), so what is kept changes the time a picture takes, never the picture.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence

from PIL import Image

from i18n import current

from . import encode
from .png_palette import palette_image

KEPT_BYTES = 32 * 1024 * 1024
"""Deflated rows kept per process."""

Band = tuple[Hashable, Callable[[], Image.Image]]
"""A band of a picture: its key (None: never kept) and how to draw it (as wide as the picture)."""

_kept: OrderedDict[Hashable, encode.Segment] = OrderedDict()
_kept_bytes = 0


def png(width: int, bands: Sequence[Band]) -> bytes:
    """The picture ``width`` px wide made of ``bands``, one below the other, as a PNG
    (`encode`'s palette): each band taken from those kept when its key was written before (in
    this language, at this width), else drawn, written and kept."""
    palette, lang = palette_image(), current().code
    segments = []
    for key, draw in bands:
        full = None if key is None else (lang, width, key)
        found = None if full is None else _kept.get(full)
        if found is None:
            found = encode.segment(draw(), palette)
            if full is not None:
                _keep(full, found)
        else:
            _kept.move_to_end(full)
        segments.append(found)
    return encode.segments_png(width, segments, palette)


def _keep(key: Hashable, segment: encode.Segment) -> None:
    global _kept_bytes
    _kept[key] = segment
    _kept_bytes += len(segment.data)
    while _kept_bytes > KEPT_BYTES:
        _, old = _kept.popitem(last=False)
        _kept_bytes -= len(old.data)


def forget() -> None:
    """Forget every kept band (tests, and `bench_render` measuring a cold start)."""
    global _kept_bytes
    _kept.clear()
    _kept_bytes = 0
