"""The pictures of a turn post, each readable on a phone: an overview of the whole board (no
small text), one or two close-ups (the last move's area, the acting player's cities: hex
labels, city badges, building names) and the table. Each comes with its alt text.

Every text of these pictures is drawn at least 1/36 of the picture's width (each picture is
drawn inside `fonts.picture`), which is 10 dp on a phone that shows the picture 360 dp wide.
Every word on them and in their alt texts is in the language asked for (the game's).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.views import View
from i18n import speaking

from . import alt, encode
from .closeup import closeup_parts, closeup_regions
from .overview import draw_overview
from .png_palette import palette_image
from .sheet import sheet_png

WIDTH = 1080
"""Every posted picture's width: a phone's screen at 3 px a dp, 360 dp wide."""
PictureData = tuple[str, bytes, str]


def _png(*parts: Image.Image) -> bytes:
    """The picture made of ``parts`` (one below the other) as a PNG."""
    return encode.stacked_png(parts, palette_image())


def render_post(
    view: View,
    *,
    highlight: Sequence[str] = (),
    last_move: str = "",
    focus: int | None = None,
    lang: str = "en",
) -> list[PictureData]:
    """The post's pictures as (file name, PNG, alt text), in the order a phone shows them.

    ``highlight``: the last move's hexes (ringed; the first close-up frames them); ``last_move``:
    the move in words, for the alt text (already in ``lang``); ``focus``: the seat that acts
    next (a close-up of its cities); ``lang``: the language of every word drawn and written (a
    code: the renderer may run in another process, so the caller's language is not assumed)."""
    lit = [h.strip().upper() for h in highlight]
    with speaking(lang):
        drawn = [("board.png", [draw_overview(view, lit, WIDTH)], alt.alt_overview(view, last_move))]
        for k, region in enumerate(closeup_regions(view, lit, focus)):
            parts = list(closeup_parts(view, region, lit, WIDTH))
            drawn.append((f"closeup-{k + 1}.png", parts, alt.alt_closeup(view, region.title, region.hexes)))
        pictures = [(name, _png(*parts), text) for name, parts, text in drawn]
        pictures.append(("table.png", sheet_png(view, WIDTH), alt.alt_sheet(view)))
    return pictures
