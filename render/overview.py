"""The overview: the whole board in one picture that needs no small text.

At a phone's width the whole board leaves a hex too small for its label, so the overview
draws none: no hex labels, buildings' names or badges (the close-ups have those), only the
terrain, the pieces in their owners' colours and patterns with the owners' tags on the
castles (at the picture's smallest text size or larger), the notables, and the last move
ringed.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.views import View

from . import fonts
from .geometry import PHONE_WIDTH, geometry
from .landscape import draw_landscape, layout_key
from .naming import tags as player_tags
from .palette import BACKGROUND
from .pieces import draw_pieces


def draw_overview(view: View, highlight: Sequence[str] = (), width: int = PHONE_WIDTH) -> Image.Image:
    """The whole board of ``view``, ``width`` px wide, with rings around ``highlight``."""
    width = int(width)
    with fonts.picture(width):
        g = geometry(width)
        img = Image.new("RGB", (width, g.board_height), BACKGROUND)
        draw_landscape(img, layout_key(view), view.max_zone, width, labels=False)
        rings = [h.strip().upper() for h in highlight]
        draw_pieces(img, g, view, player_tags(view.players), rings, detail=False)
    return img
