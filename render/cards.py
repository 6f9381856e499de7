"""The cards on the table: the 7 face-up politics cards, the voice of the people, the supply."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine.components import POLITICS_TITLES
from engine.views import View

from . import fonts, sprites
from .geometry import Geometry, geometry
from .icons import ICONS, Pen
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

COSTS: dict[str, str] = {
    "palace": "1 gold",
    "hospital": "1 gold",
    "bath": "1 gold",
    "cathedral": "3 gold",
    "university": "3 gold",
    "master": "1 / 2 / 4",
    "golden": "0 / 2 / 5",
    "bread": "0 / 2 / 5",
    "harvest": "free",
    "poll": "0 or 2",
}
"""What each politics card costs (rules §6)."""
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
    fonts.text(d, (px(24), top + px(24)), "Politics cards", px(28), INK, anchor="lm", bold=True)
    s = f"draw pile {view.politics_pile}   discard {view.politics_discard}"
    fonts.text(
        d,
        (px(24) + fonts.width("Politics cards", px(28), True) + px(24), top + px(24)),
        s,
        px(24),
        INK_SOFT,
        anchor="lm",
    )
    x = float(px(24))
    gap = (g.width - px(48) - 7 * px(CARD_W)) / 6
    for card in view.politics_row:
        sprite = card_sprite(card, g.width)
        img.paste(sprite, (round(x), top + px(46)), sprite)
        x += px(CARD_W) + gap


@lru_cache(maxsize=32)
def card_sprite(card: str, width: int) -> Image.Image:
    """One face-up politics card: title band, picture and cost (cached per card and width)."""
    g = geometry(width)
    px = g.px
    w, h = px(CARD_W), px(CARD_H)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    band = BAND.get(card, BUILDING_BAND)
    sprites.rounded(img, (0, 0, w, h), radius=px(12), fill=PAPER, outline=band, width=px(4))
    sprites.rounded(img, (0, 0, w, px(38)), radius=px(12), fill=band)
    d.rectangle((0, px(24), w, px(38)), fill=band)
    t = POLITICS_TITLES.get(card, card)
    size = fonts.fit(t, px(24), w - px(14), bold=True)
    fonts.text(img, (w / 2, px(20)), t, size, (255, 255, 255), anchor="mm", bold=True)
    pic = (px(44), px(76))
    if card in ICONS:
        ICONS[card](Pen(d, pic, px(28)))
    elif card == "master":
        pen = Pen(d, pic, px(28))
        pen.line([(-0.7, 0.9), (0.5, -0.3)], fill=(120, 80, 40), scale=2.2)
        pen.rect(0.1, -0.9, 0.95, -0.3, (150, 150, 160))
    elif card == "golden":
        for k, dx in enumerate((-18, 0, 18)):
            sprites.paste(img, sprites.pawn((150, 150, 150), px(34 - 2 * k)), (pic[0] + px(dx), pic[1]))
    elif card == "bread":
        for dx in (-16, 0, 16):
            sprites.paste(
                img,
                sprites.disc(SERVICE["culture"], INK, px(24)),
                (pic[0] + px(dx), pic[1] - px(6) + abs(dx) // 2),
            )
    elif card == "harvest":
        sprites.paste(img, sprites.star(px(54)), pic)
    elif card == "poll":
        for dx in (-14, 0, 14):
            r = (pic[0] + px(dx) - px(12), pic[1] - px(22), pic[0] + px(dx) + px(12), pic[1] + px(22))
            sprites.rounded(img, r, radius=px(4), fill=VOICE_BACK, outline=PAPER, width=px(2))
    cost = COSTS.get(card, "")
    sprites.paste(img, sprites.disc(GOLD, GOLD_DARK, px(22)), (px(94), px(76)))
    size = fonts.fit(cost, px(23), w - px(112), bold=True)
    fonts.text(img, (px(110), px(76)), cost, size, INK, anchor="lm", bold=True)
    return img


def draw_voice(img: Image.Image, g: Geometry, view: View, top: int) -> None:
    """The voice of the people (backs for hidden cards) and the tally, then the supply."""
    d = ImageDraw.Draw(img)
    px = g.px
    fonts.text(d, (px(24), top + px(24)), "Voice of the people", px(28), INK, anchor="lm", bold=True)
    x = float(px(24))
    y = top + px(46)
    cw, ch = px(84), px(112)
    if view.phase == "setup":
        # No voice yet: the four cards are drawn when year 1 begins.
        for _ in range(4):
            sprites.rounded(img, (x, y, x + cw, y + ch), px(10), None, PANEL_LINE, px(3))
            x += cw + px(10)
        fonts.text(d, (x + px(8), y + ch / 2), "drawn in year 1", px(22), INK_SOFT, anchor="lm")
    else:
        for k, s in enumerate(view.voice):
            seen = view.peek[k] if k < len(view.peek) else None
            _voice_card(img, g, x, y, cw, ch, s, seen)
            x += cw + px(10)
    if view.voice_result:
        tx = px(24) + 4 * (cw + px(10)) + px(8)
        fonts.text(d, (tx, y + px(12)), "The voice is", px(24), INK_SOFT, anchor="lm")
        for k, v in enumerate(view.voice_result):
            cy = y + px(46 + 40 * k)
            sprites.rounded(img, (tx, cy - px(18), tx + px(170), cy + px(18)), px(8), SERVICE[v], INK, px(2))
            fonts.text(d, (tx + px(85), cy + 1), v.upper(), px(24), SERVICE_TEXT[v], anchor="mm", bold=True)
    _supply(d, g, view, px(660), top)


def _voice_card(
    img: Image.Image, g: Geometry, x: float, y: float, w: int, h: int, s: str | None, seen: str | None
) -> None:
    px = g.px
    d = ImageDraw.Draw(img)
    box = (x, y, x + w, y + h)
    if s is None:
        sprites.rounded(img, box, radius=px(10), fill=VOICE_BACK, outline=INK, width=px(3))
        sprites.rounded(
            img,
            (x + px(8), y + px(8), x + w - px(8), y + h - px(8)),
            radius=px(6),
            outline=shade(VOICE_BACK, 1.4),
            width=px(2),
        )
        fonts.text(d, (x + w / 2, y + h / 2), "?", px(44), shade(VOICE_BACK, 1.5), anchor="mm", bold=True)
        if seen is not None:
            # The viewer polled this card: only their own view has it.
            sprites.rounded(
                img,
                (x + px(10), y + h - px(36), x + w - px(10), y + h - px(8)),
                radius=px(6),
                fill=SERVICE[seen],
                outline=SERVICE_EDGE[seen],
                width=px(2),
            )
            fonts.text(
                d,
                (x + w / 2, y + h - px(22)),
                seen[:4].upper(),
                px(18),
                SERVICE_TEXT[seen],
                anchor="mm",
                bold=True,
            )
        return
    sprites.rounded(img, box, radius=px(10), fill=SERVICE[s], outline=INK, width=px(3))
    Pen(d, (x + w / 2, y + px(44)), px(24)).arch(0, 1.0, 1.0, 1.6, s)
    size = fonts.fit(s.upper(), px(19), w - px(8), True)
    fonts.text(d, (x + w / 2, y + h - px(18)), s.upper(), size, SERVICE_TEXT[s], anchor="mm", bold=True)


def _supply(d: ImageDraw.ImageDraw, g: Geometry, view: View, x0: int, top: int) -> None:
    px = g.px
    fonts.text(d, (x0, top + px(24)), "Supply", px(28), INK, anchor="lm", bold=True)
    items = [("citizens", view.supply.citizens), *view.supply.tokens.items()]
    col_w = (g.width - x0 - px(20)) / 2
    for k, (label, n) in enumerate(items):
        cx = x0 + (k % 2) * col_w
        cy = top + px(60) + (k // 2) * px(32)
        low = n <= 3
        fonts.text(d, (cx, cy), label.replace("/", " / "), px(22), INK_SOFT, anchor="lm")
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
