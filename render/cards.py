"""The cards on the table: the 7 face-up politics cards, the voice of the people, the supply."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine.components import POLITICS_TITLES
from engine.views import View
from i18n import N_, _, _n, current

from . import fonts, sprites
from .geometry import Geometry, geometry
from .icons import ICONS, Pen
from .lines import wrap
from .naming import term
from .palette import (
    GOLD,
    GOLD_DARK,
    INK,
    INK_SOFT,
    PANEL_LINE,
    PAPER,
    RGB,
    SERVICE,
    SERVICE_EDGE,
    SERVICE_TEXT,
    shade,
)

CARDS_H = 170
VOICE_H = 170
CARD_W, CARD_H = 176, 112

COSTS: dict[str, int | str] = {
    "palace": 1,
    "hospital": 1,
    "bath": 1,
    "cathedral": 3,
    "university": 3,
    "master": "1 / 2 / 4",
    "golden": "0 / 2 / 5",
    "bread": "0 / 2 / 5",
    "harvest": N_("free"),
    "poll": N_("0 or 2"),
}
"""What each politics card costs (rules §6): gold, or a text (translate with `cost`)."""
CARD_TITLES = (N_("Palace"), N_("Hospital"), N_("Public Bath"), N_("Cathedral"), N_("University"))
"""The building cards' titles (`engine.components.POLITICS_TITLES`; the other cards' titles are
game terms, `engine.words.TERMS`), so that every catalog has them."""


def cost(card: str) -> str:
    """What ``card`` costs, in words: ``1 gold``, ``1 / 2 / 4``, ``free``."""
    price = COSTS.get(card, "")
    if isinstance(price, int):
        return _n("{count} gold", "{count} gold", price)
    return _(price) if any(ch.isalpha() for ch in price) else price  # "1 / 2 / 4" is no word


def card_title(card: str) -> str:
    """The card's title as the rulebook of the language spoken has it (``Master Builder``)."""
    return _(POLITICS_TITLES.get(card, card))


BAND: dict[str, RGB] = {
    "master": (120, 96, 70),
    "golden": (200, 150, 30),
    "bread": (170, 60, 60),
    "harvest": (110, 150, 50),
    "poll": (110, 80, 150),
}
"""Header colour of the non-building cards (building cards share one)."""
BUILDING_BAND: RGB = (80, 110, 140)
VOICE_BACK: RGB = (120, 40, 50)


def cards_height(g: Geometry) -> int:
    return g.px(CARDS_H)


def voice_height(g: Geometry) -> int:
    return g.px(VOICE_H)


def draw_politics(img: Image.Image, g: Geometry, view: View, top: int) -> None:
    """The politics row (title, cost, picture) with the draw pile and discard counts."""
    d = ImageDraw.Draw(img)
    px = g.px
    head = _("Politics cards")
    fonts.text(d, (px(24), top + px(24)), head, px(28), INK, anchor="lm", bold=True)
    s = piles(view)
    fonts.text(
        d,
        (px(24) + fonts.width(head, px(28), True) + px(24), top + px(24)),
        s,
        px(24),
        INK_SOFT,
        anchor="lm",
    )
    x = float(px(24))
    gap = (g.width - px(48) - 7 * px(CARD_W)) / 6
    for card in view.politics_row:
        sprite = card_sprite(card, g.width)
        sprites.blit(img, sprite, (round(x), top + px(46)))
        x += px(CARD_W) + gap


def piles(view: View) -> str:
    """``draw pile 12, discard 3``."""
    return _("draw pile {pile}, discard {discard}", pile=view.politics_pile, discard=view.politics_discard)


def card_sprite(card: str, width: int) -> Image.Image:
    """One face-up politics card: title band, picture and cost, in the language spoken."""
    return _card_sprite(card, width, current().code)


@lru_cache(maxsize=32)
def _card_sprite(card: str, width: int, lang: str) -> Image.Image:
    """`card_sprite` (cached per card, width and language)."""
    g = geometry(width)
    px = g.px
    w, h = px(CARD_W), px(CARD_H)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    band = BAND.get(card, BUILDING_BAND)
    sprites.rounded(img, (0, 0, w, h), radius=px(12), fill=PAPER, outline=band, width=px(4))
    sprites.rounded(img, (0, 0, w, px(38)), radius=px(12), fill=band)
    d.rectangle((0, px(24), w, px(38)), fill=band)
    t = card_title(card)
    room = w - px(14)
    size = fonts.fit(t, px(24), room, bold=True)
    lines = [t]
    if size < px(16) and " " in t:
        # A long title (in a long language) on two lines rather than in tiny letters.
        lines = halves(t, px(17))
        size = min(fonts.fit(line, px(17), room, bold=True) for line in lines)
    for k, line in enumerate(lines):
        y = px(20) + (k - (len(lines) - 1) / 2) * size
        shown = fonts.shorten(line, size, room + px(4))
        fonts.text(img, (w / 2, y), shown, size, (255, 255, 255), anchor="mm", bold=True)
    draw_picture(img, card, (px(44), px(76)), px(28))
    price = cost(card)
    sprites.paste(img, sprites.disc(GOLD, GOLD_DARK, px(22)), (px(94), px(76)))
    size = fonts.fit(price, px(23), w - px(112), bold=True)
    fonts.text(img, (px(110), px(76)), price, size, INK, anchor="lm", bold=True)
    return img


def halves(text: str, size: int) -> list[str]:
    """``text`` on two lines broken at the space that makes the longer line shortest."""
    cuts = [k for k, ch in enumerate(text) if ch == " "]
    k = min(
        cuts, key=lambda k: max(fonts.width(text[:k], size, True), fonts.width(text[k + 1 :], size, True))
    )
    return [text[:k], text[k + 1 :]]


def draw_picture(img: Image.Image, card: str, pic: tuple[float, float], half: int) -> None:
    """The picture of a politics card centred on ``pic``, ``half`` px from centre to edge."""
    d = ImageDraw.Draw(img)
    u = half / 28
    if card in ICONS:
        ICONS[card](Pen(d, pic, half))
    elif card == "master":
        pen = Pen(d, pic, half)
        pen.line([(-0.7, 0.9), (0.5, -0.3)], fill=(120, 80, 40), scale=2.2)
        pen.rect(0.1, -0.9, 0.95, -0.3, (150, 150, 160))
    elif card == "golden":
        for k, dx in enumerate((-18, 0, 18)):
            sprites.paste(
                img, sprites.pawn((150, 150, 150), round((34 - 2 * k) * u)), (pic[0] + dx * u, pic[1])
            )
    elif card == "bread":
        for dx in (-16, 0, 16):
            centre = (pic[0] + dx * u, pic[1] + (abs(dx) / 2 - 6) * u)
            sprites.paste(img, sprites.disc(SERVICE["culture"], INK, round(24 * u)), centre)
    elif card == "harvest":
        sprites.paste(img, sprites.star(round(54 * u)), pic)
    elif card == "poll":
        for dx in (-14, 0, 14):
            x = pic[0] + dx * u
            r = (x - 12 * u, pic[1] - 22 * u, x + 12 * u, pic[1] + 22 * u)
            sprites.rounded(img, r, radius=4 * u, fill=VOICE_BACK, outline=PAPER, width=max(1, round(2 * u)))


def title_lines(card: str, size: int, room: float) -> list[str]:
    """The card's title wrapped to ``room`` px (``Polling the`` / ``People``)."""
    return wrap(card_title(card), size, room, bold=True)


def card_tile(card: str, w: int, h: int, size: int, room: float) -> Image.Image:
    """A politics card as a wide tile for a narrow picture: picture left, title and cost right,
    in the language spoken. ``size`` is the text size; the title wraps in ``room`` px."""
    return _card_tile(card, w, h, size, room, current().code)


@lru_cache(maxsize=32)
def _card_tile(card: str, w: int, h: int, size: int, room: float, lang: str) -> Image.Image:
    """`card_tile` (cached per card, size and language)."""
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    band = BAND.get(card, BUILDING_BAND)
    edge = max(2, round(size * 0.12))
    sprites.rounded(img, (0, 0, w, h), radius=size * 0.4, fill=PAPER, outline=band, width=edge)
    strip = round(w - room - size * 0.6)
    sprites.rounded(img, (0, 0, strip, h), radius=size * 0.4, fill=shade(band, 1.7))
    ImageDraw.Draw(img).rectangle((strip - edge, 0, strip, h), fill=band)
    draw_picture(img, card, (strip / 2, h / 2), round(strip * 0.36))
    lines = title_lines(card, size, room)
    x = strip + size * 0.35
    y = h / 2 - (len(lines) + 1) * size * 1.2 / 2 + size * 0.6
    for line in lines:
        fonts.text(img, (x, y), line, size, INK, anchor="lm", bold=True)
        y += size * 1.2
    coin = round(size * 0.8)
    sprites.paste(img, sprites.disc(GOLD, GOLD_DARK, coin), (x + coin / 2, y))
    fonts.text(img, (x + coin * 1.35, y), cost(card), size, INK_SOFT, anchor="lm")
    return img


def draw_voice(img: Image.Image, g: Geometry, view: View, top: int) -> None:
    """The voice of the people (backs for hidden cards) and the tally, then the supply."""
    d = ImageDraw.Draw(img)
    px = g.px
    fonts.text(d, (px(24), top + px(24)), _("Voice of the people"), px(28), INK, anchor="lm", bold=True)
    x = float(px(24))
    y = top + px(46)
    cw, ch = px(84), px(112)
    if view.phase == "setup":
        # No voice yet: the four cards are drawn when year 1 begins.
        for _k in range(4):
            sprites.rounded(img, (x, y, x + cw, y + ch), px(10), None, PANEL_LINE, px(3))
            x += cw + px(10)
        fonts.text(d, (x + px(8), y + ch / 2), _("drawn in year 1"), px(22), INK_SOFT, anchor="lm")
    else:
        for k, s in enumerate(view.voice):
            seen = view.peek[k] if k < len(view.peek) else None
            voice_card(img, (x, y, x + cw, y + ch), s, seen, g.unit, px(19))
            x += cw + px(10)
    if view.voice_result:
        tx = px(24) + 4 * (cw + px(10)) + px(8)
        fonts.text(d, (tx, y + px(12)), _("The voice is"), px(24), INK_SOFT, anchor="lm")
        for k, v in enumerate(view.voice_result):
            cy = y + px(46 + 40 * k)
            sprites.rounded(img, (tx, cy - px(18), tx + px(170), cy + px(18)), px(8), SERVICE[v], INK, px(2))
            label = term(v).upper()
            size = fonts.fit(label, px(24), px(160), bold=True)
            fonts.text(d, (tx + px(85), cy + 1), label, size, SERVICE_TEXT[v], anchor="mm", bold=True)
    _supply(d, g, view, px(660), top)


def voice_card(
    img: Image.Image,
    box: tuple[float, float, float, float],
    s: str | None,
    seen: str | None,
    unit: float,
    label: int,
    upper: bool = True,
) -> None:
    """One voice card in ``box``: its service face up, or its back with ``?`` (and, in the
    viewer's own view only, the service they polled); ``unit`` scales the strokes, ``label`` is
    the size of the service's name (written shorter rather than smaller than the picture allows),
    in upper case as on the poster if ``upper``."""
    x, y, x1, y1 = box
    w, h = x1 - x, y1 - y
    d = ImageDraw.Draw(img)

    def n(v: float) -> int:
        return max(1, round(v * unit))

    if s is None:
        sprites.rounded(img, box, radius=n(10), fill=VOICE_BACK, outline=INK, width=n(3))
        sprites.rounded(img, (x + n(8), y + n(8), x1 - n(8), y1 - n(8)), radius=n(6),
                        outline=shade(VOICE_BACK, 1.4), width=n(2))  # fmt: skip
        fonts.text(d, (x + w / 2, y + h / 2), "?", n(44), shade(VOICE_BACK, 1.5), anchor="mm", bold=True)
        if seen is not None:
            # The viewer polled this card: only their own view has it.
            text, size = _service_label(seen, label, w - n(14), upper, peek=True)
            sprites.rounded(img, (x + n(6), y1 - n(8) - size * 1.5, x1 - n(6), y1 - n(8)), radius=n(6),
                            fill=SERVICE[seen], outline=SERVICE_EDGE[seen], width=n(2))  # fmt: skip
            mid = y1 - n(8) - size * 0.75
            fonts.text(d, (x + w / 2, mid), text, size, SERVICE_TEXT[seen], anchor="mm", bold=True)
        return
    sprites.rounded(img, box, radius=n(10), fill=SERVICE[s], outline=INK, width=n(3))
    Pen(d, (x + w / 2, y + h * 0.4), n(24)).arch(0, 1.0, 1.0, 1.6, s)
    text, size = _service_label(s, label, w - n(8), upper)
    fonts.text(d, (x + w / 2, y1 - size * 0.95), text, size, SERVICE_TEXT[s], anchor="mm", bold=True)


def _service_label(s: str, size: int, room: float, upper: bool, peek: bool = False) -> tuple[str, int]:
    """The service's name and size to fit ``room``: the poster's (``upper``) in upper case, a
    polled card's in four letters; else in lower case, in four letters only if need be."""
    floor = max(8, fonts.smallest())
    word = term(s)
    names = ([word[:4].upper()] if peek else [word.upper()]) if upper else [word, word[:4].upper()]
    for text in names:
        fitted = fonts.fit(text, size, room, bold=True, smallest=floor)
        if fonts.width(text, fitted, bold=True) <= room:
            return text, fitted
    return word[:4].upper(), floor


def _supply(d: ImageDraw.ImageDraw, g: Geometry, view: View, x0: int, top: int) -> None:
    px = g.px
    fonts.text(d, (x0, top + px(24)), _("Supply"), px(28), INK, anchor="lm", bold=True)
    col_w = (g.width - x0 - px(20)) / 2
    for k, (label, n) in enumerate(supply_items(view)):
        cx = x0 + (k % 2) * col_w
        cy = top + px(60) + (k // 2) * px(32)
        low = n <= 3
        room = col_w - px(20) - fonts.width(str(n), px(26), True) - px(8)
        size = fonts.fit(label.replace("/", " / "), px(22), room, smallest=px(17))
        shown = fonts.shorten(label.replace("/", " / "), size, room)
        fonts.text(d, (cx, cy), shown, size, INK_SOFT, anchor="lm")
        fonts.text(
            d,
            (cx + col_w - px(20), cy),
            str(n),
            px(26),
            (200, 30, 30) if low else INK,
            anchor="rm",
            bold=True,
        )
        d.line((cx, cy + px(16), cx + col_w - px(20), cy + px(16)), fill=PANEL_LINE, width=1)


def supply_items(view: View) -> list[tuple[str, int]]:
    """What is left in the supply, in words: (``citizens``, 80), (``farm/quarry``, 30) …"""
    stacks = [("/".join(term(k) for k in stack.split("/")), n) for stack, n in view.supply.tokens.items()]
    return [(_("citizens"), view.supply.citizens), *stacks]
