"""The table as a phone picture: status, players, then the cards or the final scores.

`draw_sheet(view)` draws what the poster shows under the board, stacked for a picture shown
about 360 dp wide: every text at least 1/36 of the picture's width (`fonts.picture`), every
line wrapped rather than cut, and the height following the content. Sizes are given at the
reference width `WIDTH` and scale with the picture.
"""

from __future__ import annotations

from functools import lru_cache, partial

from PIL import Image, ImageDraw

from engine.views import PlayerView, View
from i18n import _, _n

from . import bands, fonts, sprites
from .lines import Line, Piece, chip, draw_lines, flow, lines_height, word, words
from .naming import name
from .naming import tags as player_tags
from .palette import (
    GOLD,
    GOLD_DARK,
    HIGHLIGHT,
    INK,
    INK_SOFT,
    PANEL,
    PANEL_LINE,
    PAPER,
    RGB,
    WARNING,
    player,
    shade,
)
from .scores import score_rows
from .sheet_cards import politics_block, supply_block, voice_block
from .sheet_layout import WIDTH, Block, Scale, count, group, heading, icon, new_line
from .table import (
    city_labels,
    draw_action_cards,
    draw_notables,
    hunger_label,
    player_chips,
    result_text,
    start_text,
    title,
    viewer_text,
    waiting_pieces,
)

HEADER: RGB = (38, 42, 46)
"""The status header's background."""


def draw_sheet(view: View, width: int = WIDTH) -> Image.Image:
    """The table of ``view`` as an RGB picture ``width`` px wide, as tall as its content."""
    with fonts.picture(width):
        blocks = sheet_blocks(view, Scale(width))
        img = Image.new("RGB", (width, sum(b.height for b in blocks)), PANEL)
        y = 0
        for b in blocks:
            img.paste(draw_block(b, width), (0, y))
            y += b.height
    return img


def draw_block(block: Block, width: int) -> Image.Image:
    """One band on its own picture (drawn from the top: a band drawn lower could round a
    half pixel the other way, and `sheet_png` must give the same pixels)."""
    img = Image.new("RGB", (width, block.height), PANEL)
    block.draw(img)
    return img


def sheet_png(view: View, width: int = WIDTH) -> bytes:
    """`draw_sheet`'s picture as a PNG, its bands written before taken as they were
    (`render.bands`): the same pixels, each band drawn only when its key is new."""
    with fonts.picture(width):
        blocks = sheet_blocks(view, Scale(width))
        return bands.png(width, [(b.key, partial(draw_block, b, width)) for b in blocks])


def sheet_blocks(view: View, s: Scale) -> list[Block]:
    """The table's bands, top to bottom (inside `fonts.picture`)."""
    tags = player_tags(view.players)
    blocks = [header(view, s)]
    if view.scores is not None:
        blocks.append(final_block(view, tags, s))
    blocks += [player_block(view, p, tags[p.seat], s) for p in view.players]
    if view.scores is None:
        blocks += [politics_block(view, s), voice_block(view, s), supply_block(view, s)]
    blocks.append(Block(s.px(16), _nothing, key="margin"))
    return blocks


def _nothing(img: Image.Image) -> None:
    """The bottom margin: the background only."""


def header_lines(view: View, s: Scale) -> list[Line]:
    """The status header as wrapped lines: title, start player and viewer, who must act on what."""
    light = (220, 220, 220)
    big = s.font(48)
    pieces = words(title(view), big, (255, 255, 255), bold=True)
    small = s.font(32)
    sub = []
    if view.phase != "setup":
        sub += words(start_text(view), small, light, room=s.room)
    sub += words(viewer_text(view), small, (190, 190, 190), space=small * 1.2, room=s.room)
    pieces += [new_line(sub[0]), *sub[1:]]
    body = s.font(34)
    if view.phase == "over":
        won = words(result_text(view), s.font(40), GOLD, bold=True, room=s.room)
    else:
        won = waiting_pieces(view, body, light, each_line=True, room=s.room)
    pieces += [new_line(won[0]), *won[1:]]
    return flow(pieces, s.room)


def header(view: View, s: Scale) -> Block:
    lines = header_lines(view, s)
    pad = s.px(20)
    h = round(lines_height(lines) + 2 * pad)

    def draw(img: Image.Image) -> None:
        ImageDraw.Draw(img).rectangle((0, 0, s.width, h), fill=HEADER)
        draw_lines(img, lines, s.margin, pad)

    return Block(h + s.px(12), draw)


@lru_cache(maxsize=32)
def token(seat: int, tag: str, size: int, text: int) -> Image.Image:
    """The player's token: their colour and pattern (as on their pieces) with their tag."""
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    colour = player(seat)
    layer = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    d.rectangle((0, 0, size, size), fill=colour)
    sprites.pattern(d, (0, 0, size, size), seat, colour, size * 0.22)
    mask = Image.new("L", (size, size), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 5, fill=255)
    img.paste(layer, (0, 0), mask)
    ImageDraw.Draw(img).rounded_rectangle(
        (0, 0, size - 1, size - 1), radius=size // 5, outline=INK, width=max(2, size // 28)
    )
    w = fonts.width(tag, text, bold=True) + text * 0.5
    h = text * 1.25
    box = ((size - w) / 2, (size - h) / 2, (size + w) / 2, (size + h) / 2)
    sprites.rounded(img, box, radius=text * 0.3, fill=PAPER, outline=INK, width=max(1, size // 40))
    fonts.text(img, (size / 2, size / 2 + 1), tag, text, INK, anchor="mm", bold=True)
    return img


def player_lines(view: View, p: PlayerView, s: Scale, room: float) -> list[Line]:
    """A player's lines: name and labels; gold and food; cards, notables, castles; cities."""
    nm_size, size, small = s.font(42), s.font(34), s.font(32)
    first = [word(fonts.shorten(name(p), nm_size, room), nm_size, INK, bold=True)]
    first += [chip(t, small, fill, ink) for t, fill, ink in player_chips(view, p)]
    hunger = hunger_label(p)
    if hunger:
        first.append(chip(hunger, small, WARNING, (255, 255, 255)))
    gap = s.px(40)
    coin = s.px(34)

    def gold_disc(img: Image.Image, x: float, mid: float) -> None:
        sprites.paste(img, sprites.disc(GOLD, GOLD_DARK, coin), (x + coin / 2, mid))

    gold_said = _n("{count} gold", "{count} gold", p.gold)
    gold = group([icon("", coin, coin, gold_disc), *count(p.gold, gold_said, size, INK, s.px(8))], 0)
    short = p.citizens - p.food
    food_ink = WARNING if short > 0 else INK
    food_said = _n("{count} food", "{count} food", p.food)
    citizens_said = _n("{count} citizen", "{count} citizens", p.citizens)
    second: list[Piece] = [
        new_line(gold),
        group(count(p.food, food_said, size, food_ink), gap),
        group(count(p.citizens, citizens_said, size, food_ink), gap),
    ]
    if short > 0:
        second.append(word(_("({count} short)", count=short), size, WARNING, bold=True))
    cw, ch, step = s.px(26), s.px(36), s.px(34)

    def action(img: Image.Image, x: float, mid: float) -> None:
        draw_action_cards(img, p, x, mid, cw, ch, step)

    pawn, pstep = s.px(38), s.px(34)

    def notables(img: Image.Image, x: float, mid: float) -> None:
        draw_notables(img, p, x - s.px(2), mid, pawn, pstep)

    tight = s.px(10)
    cards_left = icon(f"{p.action_cards} of 3", 2 * step + cw, ch, action, tight)
    notables_left = icon(f"{p.notables} of 4", 3 * pstep + pawn, pawn, notables, tight)
    castles = [*words(_("castles left"), small, INK_SOFT), word(str(p.castles_left), small, INK, bold=True)]
    third = [
        new_line(group([word(_("cards"), small, INK_SOFT), cards_left], 0)),
        group([word(_("notables"), small, INK_SOFT), notables_left], gap),
        group(castles, gap),
    ]
    cities = [word(c, small, INK, space=s.px(30)) for c in city_labels(p)] or [
        word(_("no city"), small, INK_SOFT)
    ]
    cities[0] = new_line(cities[0])
    return flow([*first, *second, *third, *cities], room)


def player_block(view: View, p: PlayerView, tag: str, s: Scale) -> Block:
    """One player's card: token, name, numbers, cities; ringed when they must act."""
    side = s.px(92)
    left = s.margin + s.px(14)
    x0 = left + side + s.px(20)
    lines = player_lines(view, p, s, s.width - x0 - s.margin - s.px(12))
    pad = s.px(12)
    h = round(max(side + 2 * pad, lines_height(lines, s.px(46)) + 2 * pad))
    on = p.seat in view.pending
    colour = player(p.seat)
    key = ("player", p.model_dump_json(), tag, on, tuple(player_chips(view, p)))

    def draw(img: Image.Image) -> None:
        box = (s.margin - s.px(8), 0, s.width - s.margin + s.px(8), h)
        fill, edge = (shade(colour, 1.75), HIGHLIGHT) if on else (PAPER, PANEL_LINE)
        sprites.rounded(img, box, radius=s.px(14), fill=fill, outline=edge, width=s.px(6 if on else 2))
        tok = token(p.seat, tag, side, s.font(36 if len(tag) == 1 else 30))
        img.paste(tok, (left, pad), tok)
        draw_lines(img, lines, x0, pad, s.px(46))

    return Block(h + s.px(12), draw, key)


def final_lines(view: View, s: Scale, room: float) -> list[list[Line]]:
    """Per place, best first: rank, name and total; then the score's breakdown."""
    out = []
    winners = set(view.winners or [])
    big, small = s.font(40), s.font(30)
    for rank, (seat, cit, bonus, hunger, total, gold) in enumerate(score_rows(view), start=1):
        nm = fonts.shorten(name(view.players[seat]), big, room * 0.6)
        head = [word(f"{rank}.", big, INK, bold=True), word(nm, big, INK, bold=True)]
        head.append(word(_("{count} VP", count=total), big, INK, bold=True, space=s.px(30)))
        if seat in winners:
            head.append(chip(_("WINNER"), small, GOLD_DARK, (255, 255, 255)))
        parts = words(breakdown(cit, bonus, hunger, gold), small, INK_SOFT)
        out.append(flow([*head, new_line(parts[0]), *parts[1:]], room))
    return out


def breakdown(citizens: int, bonus: int, hunger: int, gold: int) -> str:
    """A final score's breakdown: ``12 citizens + 3 for complete cities - 0 for hunger; 9 gold``."""
    return _n(
        "{count} citizen + {bonus} for complete cities - {hunger} for hunger; {gold} gold",
        "{count} citizens + {bonus} for complete cities - {hunger} for hunger; {gold} gold",
        citizens,
        bonus=bonus,
        hunger=hunger,
        gold=gold,
    )


def final_block(view: View, tags: list[str], s: Scale) -> Block:
    """The final scores, best first, each with its breakdown."""
    head = heading(_("Final scores"), s)
    head_h = round(lines_height(head)) + s.px(8)
    side = s.px(64)
    x0 = s.margin + side + s.px(16)
    places = final_lines(view, s, s.width - x0 - s.margin)
    gap = s.px(12)
    heights = [round(lines_height(p)) + gap for p in places]
    seats = [r[0] for r in score_rows(view)]
    winners = set(view.winners or [])

    def draw(img: Image.Image) -> None:
        draw_lines(img, head, s.margin, 0)
        y = head_h
        for seat, lines, h in zip(seats, places, heights, strict=True):
            if seat in winners:
                box = (s.margin - s.px(8), y - gap / 2, s.width - s.margin + s.px(8), y + h - gap / 2)
                sprites.rounded(img, box, s.px(12), (252, 236, 170))
            tok = token(seat, tags[seat], side, s.font(30))
            img.paste(tok, (s.margin, round(y)), tok)
            draw_lines(img, lines, x0, y)
            y += h

    return Block(head_h + sum(heights) + s.px(16), draw)
