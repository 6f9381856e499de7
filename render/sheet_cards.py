"""The table's bands of what all players share (`render.sheet`): the politics cards on offer, the
voice of the people, and what is left in the supply."""

from __future__ import annotations

from PIL import Image

from engine.views import View
from i18n import _

from . import cards, fonts, sprites
from .lines import Piece, draw_lines, flow, lines_height, word, words
from .naming import term
from .palette import INK, INK_SOFT, PANEL, SERVICE, SERVICE_TEXT, WARNING
from .sheet_layout import WIDTH, Block, Scale, group, heading, new_line


def politics_block(view: View, s: Scale) -> Block:
    """The face-up politics cards, three to a row, with the draw pile and discard counts."""
    head = heading(_("Politics cards"), s, cards.piles(view))
    head_h = round(lines_height(head)) + s.px(8)
    gap = s.px(14)
    per_row = 3
    w = (s.room - gap * (per_row - 1)) // per_row
    size = s.font(32)
    room = w - s.px(96) - size * 0.6
    most = max([1, *(len(cards.title_lines(c, size, room)) for c in view.politics_row)])
    h = round((most + 1) * size * 1.2 + s.px(24))
    rows = (len(view.politics_row) + per_row - 1) // per_row

    def draw(img: Image.Image) -> None:
        draw_lines(img, head, s.margin, 0)
        for k, card in enumerate(view.politics_row):
            tile = cards.card_tile(card, w, h, size, room)
            x = s.margin + (k % per_row) * (w + gap)
            y = head_h + (k // per_row) * (h + gap)
            sprites.blit_over(img, tile, (x, y), PANEL)

    key = ("politics", view.politics_pile, view.politics_discard, tuple(view.politics_row))
    return Block(head_h + rows * (h + gap) + s.px(14), draw, key)


def voice_block(view: View, s: Scale) -> Block:
    """The four voice cards (backs for the hidden ones, the viewer's own peeks) and the tally."""
    if view.phase == "setup":
        # No voice yet: the four cards are drawn when year 1 begins.
        note = heading(_("Voice of the people"), s, _("drawn when year 1 begins"))

        def draw_note(img: Image.Image) -> None:
            draw_lines(img, note, s.margin, 0)

        return Block(round(lines_height(note)) + s.px(16), draw_note, "voice")
    head = heading(_("Voice of the people"), s)
    head_h = round(lines_height(head)) + s.px(8)
    cw, ch, gap = s.px(176), s.px(196), s.px(14)
    size = s.font(30)
    unit = s.width / WIDTH * 1.3
    side_x = s.margin + 4 * (cw + gap) + s.px(8)
    tally_h = round(size * 1.4 * (len(view.voice_result) + 1)) if view.voice_result else 0
    h = max(ch, tally_h)

    def draw(img: Image.Image) -> None:
        draw_lines(img, head, s.margin, 0)
        y = head_h
        for k in range(4):
            x = s.margin + k * (cw + gap)
            box = (x, y, x + cw, y + ch)
            seen = view.peek[k] if k < len(view.peek) else None
            cards.voice_card(img, box, view.voice[k], seen, unit, size, upper=False)
        if view.voice_result:
            room = s.width - s.margin - side_x
            said = _("The voice is")
            fonts.text(
                img, (side_x, y + size * 0.7), fonts.shorten(said, size, room), size, INK_SOFT, anchor="lm"
            )
            for k, v in enumerate(view.voice_result):
                cy = y + size * (2.1 + 1.4 * k)
                tally = (side_x, cy - size * 0.6, s.width - s.margin, cy + size * 0.6)
                sprites.rounded(img, tally, s.px(8), SERVICE[v], INK, s.px(2))
                mid = ((tally[0] + tally[2]) / 2, cy + 1)
                label = fonts.shorten(term(v), size, room - s.px(8))
                fonts.text(img, mid, label, size, SERVICE_TEXT[v], anchor="mm", bold=True)

    key = ("voice", tuple(view.voice), tuple(view.peek), tuple(view.voice_result))
    return Block(head_h + h + s.px(24), draw, key)


def supply_block(view: View, s: Scale) -> Block:
    """What is left in the supply: citizens and each token stack (red when 3 or fewer)."""
    size = s.font(30)
    items = cards.supply_items(view)
    pieces = words(_("Supply"), s.font(38), INK, bold=True)
    for k, (label, n) in enumerate(items):
        low = n <= 3
        kept = group([word(label, size, INK_SOFT), word(str(n), size, WARNING if low else INK, bold=True)], 0)
        pieces.append(
            new_line(kept) if k == 0 else Piece(kept.text, kept.width, kept.height, kept.draw, s.px(34))
        )
    lines = flow(pieces, s.room)

    def draw(img: Image.Image) -> None:
        draw_lines(img, lines, s.margin, 0)

    return Block(round(lines_height(lines)) + s.px(8), draw, ("supply", tuple(items)))
