"""The 256 colours every board is written in, picked once for all games.

Converting to a fixed palette is much faster than choosing one per image and keeps the
output a pure function of the view. The palette is picked from a reference picture that
holds what the boards are made of: sample landscapes (every tile, on paths clear and under
the veil of each playable zone), every piece sprite and politics card, and the named
colours. It does not depend on the layout, so a new game costs nothing here.
"""

from __future__ import annotations

from PIL import Image

from engine.board import PLAYABLE_ZONES
from engine.components import POLITICS_TITLES
from i18n import speaking

from . import palette as pal
from . import sprites
from .cards import card_sprite
from .geometry import REF_WIDTH, geometry
from .icons import ICONS
from .landscape import draw_landscape
from .stash import stashed
from .terrain import sample_layouts

SWATCH = 48
"""Side of the square each named colour gets in the reference (its weight)."""
STRIDE = 3
"""The palette is picked from every third pixel of the reference, each way: the same colours
in the same proportions for a ninth of the memory and time (and on sample boards, measured
as the mean error of the converted picture, a palette as close as from every pixel)."""


def key_colours() -> list[pal.RGB]:
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


@stashed(maxsize=1)
def palette_image() -> Image.Image:
    """A 1-pixel image holding the palette of every board (for `Image.quantize`).

    The colours are the same at every width, so the reference is drawn at one."""
    width = REF_WIDTH
    g = geometry(width)
    zones = sorted(set(PLAYABLE_ZONES.values()))
    samples = list(zip(sample_layouts(), zones, strict=False))
    pieces = [sprites.castle_tile(s, "A", g.radius) for s in range(len(pal.PLAYER))]
    pieces += [sprites.building(k, s, g.radius) for k in ICONS for s in range(len(pal.PLAYER))]
    pieces += [sprites.ring(g.radius)]
    with speaking("en"):  # the same palette whichever language draws first
        pieces += [card_sprite(card, width) for card in POLITICS_TITLES]
    below = [sheet(pieces, width), swatches(key_colours(), width)]
    y = len(samples) * g.board_height
    ref = Image.new("RGB", (width, y + sum(part.height for part in below)), pal.PANEL)
    board = Image.new("RGB", (width, g.board_height))
    for k, (layout, zone) in enumerate(samples):
        draw_landscape(board, layout, zone, width)
        ref.paste(board, (0, k * g.board_height))
    for part in below:
        ref.paste(part, (0, y))
        y += part.height
    sampled = ref.resize((ref.width // STRIDE, ref.height // STRIDE), Image.Resampling.NEAREST)
    quantized = sampled.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return quantized.crop((0, 0, 1, 1))


def sheet(images: list[Image.Image], width: int) -> Image.Image:
    """``images`` (with alpha) side by side on the panel colour, in rows ``width`` px wide."""
    rows: list[list[Image.Image]] = [[]]
    used = 0
    for img in images:
        if rows[-1] and used + img.width > width:
            rows.append([])
            used = 0
        rows[-1].append(img)
        used += img.width
    heights = [max(img.height for img in row) for row in rows]
    out = Image.new("RGB", (width, sum(heights)), pal.PANEL)
    y = 0
    for row, h in zip(rows, heights, strict=True):
        x = 0
        for img in row:
            out.paste(img, (x, y), img)
            x += img.width
        y += h
    return out


def swatches(colours: list[pal.RGB], width: int) -> Image.Image:
    """A square of each colour, in rows ``width`` px wide."""
    per_row = width // SWATCH
    out = Image.new("RGB", (width, -(-len(colours) // per_row) * SWATCH), pal.PANEL)
    for k, c in enumerate(colours):
        x, y = (k % per_row) * SWATCH, (k // per_row) * SWATCH
        out.paste(c, (x, y, x + SWATCH, y + SWATCH))
    return out
