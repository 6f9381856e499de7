"""The whole picture: the board on top, the table below, encoded as PNG."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.views import View
from i18n import speaking

from . import cards, encode, scores, table
from .geometry import geometry
from .landscape import draw_landscape, layout_key
from .naming import tags as player_tags
from .palette import PANEL
from .pieces import draw_pieces
from .png_palette import palette_image

MIN_WIDTH = 600


def _heights(view: View, width: int) -> list[int]:
    """The heights of the table's parts under the board: status, players, cards (or the final
    scores), the voice of the people (none at the end), the legend."""
    g = geometry(width)
    over = view.scores is not None
    return [
        table.status_height(g),
        table.players_height(g, view),
        scores.panel_height(g, view) if over else cards.cards_height(g),
        0 if over else cards.voice_height(g),
        scores.legend_height(g),
    ]


def height(view: View, width: int = 1400) -> int:
    """The height of `compose`'s picture of ``view``, known without drawing it."""
    width = max(MIN_WIDTH, int(width))
    return geometry(width).board_height + sum(_heights(view, width))


def compose(view: View, highlight: Sequence[str] | None = None, width: int = 1400) -> Image.Image:
    """The board and table of ``view`` as one RGB image ``width`` px wide."""
    width = max(MIN_WIDTH, int(width))
    g = geometry(width)
    over = view.scores is not None
    heights = _heights(view, width)
    img = Image.new("RGB", (width, g.board_height + sum(heights)), PANEL)
    draw_landscape(img, layout_key(view), view.max_zone, width)
    tags = player_tags(view.players)
    draw_pieces(img, g, view, tags, [h.strip().upper() for h in highlight or []])
    y = g.board_height
    table.draw_status(img, g, view, tags, y)
    y += heights[0]
    table.draw_players(img, g, view, tags, y)
    y += heights[1]
    if over:
        scores.draw_final(img, g, view, tags, y)
    else:
        cards.draw_politics(img, g, view, y)
        cards.draw_voice(img, g, view, y + heights[2])
    y += heights[2] + heights[3]
    scores.draw_legend(img, g, view, y)
    return img


def render_board(
    view: View, *, highlight: Sequence[str] | None = None, width: int = 1400, lang: str = "en"
) -> bytes:
    """The PNG picture of ``view``; ``highlight`` rings the hexes of the last move; every word on
    it is in language ``lang`` (a code: the renderer may run in another process)."""
    with speaking(lang):
        img = compose(view, highlight, width)
    return encode.png(img, palette_image())
