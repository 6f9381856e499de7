"""Bands of pictures kept, written, between pictures: a turn post's table repeats most of the
last one (the players who did not move, the politics cards, the voice of the people), so a
band drawn and written once is taken again, not drawn again, while the same key comes back.

Each worker process keeps its own, up to `KEPT_BYTES` of deflated rows (the least recently
used go first): about 2,000 bands, the tables of some 400 games of three players; the bot
sends a game's posts to the same worker when it is free (`ProcessWorkers.call_near`). A band's
key is what it shows (`render.sheet_layout.Block.key`) with the language and the width it was drawn
in, and the PNG is the same picture whether a band was kept or drawn
(`tests/test_render_bands.py` draws many games both ways): what is kept changes the time a
picture takes, never the picture.
"""

from __future__ import annotations

import threading
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
_lock = threading.Lock()
"""Pictures may be drawn in several threads of one process (`ThreadWorkers`: tests, tools)."""


def png(width: int, bands: Sequence[Band]) -> bytes:
    """The picture ``width`` px wide made of ``bands``, one below the other, as a PNG
    (`encode`'s palette): each band taken from those kept when its key was written before (in
    this language, at this width), else drawn, written and kept."""
    palette, lang = palette_image(), current().code
    segments = []
    for key, draw in bands:
        full = None if key is None else (lang, width, key)
        found = None if full is None else _take(full)
        if found is None:
            found = encode.segment(draw(), palette)
            if full is not None:
                _keep(full, found)
        segments.append(found)
    return encode.segments_png(width, segments, palette)


def _take(key: Hashable) -> encode.Segment | None:
    with _lock:
        found = _kept.get(key)
        if found is not None:
            _kept.move_to_end(key)
        return found


def _keep(key: Hashable, segment: encode.Segment) -> None:
    global _kept_bytes
    with _lock:
        old = _kept.pop(key, None)  # another thread wrote it meanwhile
        _kept_bytes -= 0 if old is None else len(old.data)
        _kept[key] = segment
        _kept_bytes += len(segment.data)
        while _kept_bytes > KEPT_BYTES:
            _, gone = _kept.popitem(last=False)
            _kept_bytes -= len(gone.data)


def forget() -> None:
    """Forget every kept band (tests, and the benchmarks measuring the machine's speed)."""
    global _kept_bytes
    with _lock:
        _kept.clear()
        _kept_bytes = 0
