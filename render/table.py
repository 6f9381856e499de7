"""The table under the board: the state of the game and of every player."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.views import PlayerView, View

from . import fonts, sprites
from .geometry import Geometry
from .naming import PHASES, decision_text, name
from .palette import (
    GOLD,
    GOLD_DARK,
    HIGHLIGHT,
    INK,
    INK_SOFT,
    PANEL,
    PANEL_LINE,
    PAPER,
    WARNING,
    player,
    shade,
    text_on,
)

STATUS_H = 100
HEAD_H = 34
ROW_H = 74
# Column left edges (at the reference width).
COL_GOLD, COL_FOOD, COL_ACTIONS, COL_NOTABLES, COL_CASTLES, COL_LAST = 520, 650, 850, 1010, 1170, 1280


def status_height(g: Geometry) -> int:
    return g.px(STATUS_H)


def players_height(g: Geometry, view: View) -> int:
    return g.px(HEAD_H + ROW_H * len(view.players) + 12)


def title(view: View) -> str:
    """Year and phase, e.g. ``Year 3 of 6 - Political round 2 of 5``."""
    if view.phase == "over":
        return "Game over - final scores"
    if view.phase == "setup":
        return PHASES["setup"]
    phase = PHASES[view.phase]
    if view.phase == "politics":
        phase += f" {view.round} of 5"
    return f"Year {view.year} of 6  -  {phase}"


def draw_status(img: Image.Image, g: Geometry, view: View, tags: list[str], top: int) -> None:
    """The status bar: year, phase, start player, and who the game waits for."""
    d = ImageDraw.Draw(img)
    px = g.px
    d.rectangle((0, top, g.width, top + px(STATUS_H)), fill=(38, 42, 46))
    fonts.text(d, (px(24), top + px(28)), title(view), px(38), (255, 255, 255), anchor="lm", bold=True)
    start = view.players[view.start_player]
    if view.phase != "setup":
        s = f"Start player: {name(start)}"
        fonts.text(d, (g.width - px(24), top + px(28)), s, px(28), (220, 220, 220), anchor="rm")
    viewer = "Spectator view" if view.viewer is None else f"{name(view.players[view.viewer])}'s view"
    fonts.text(d, (g.width - px(24), top + px(72)), viewer, px(24), (170, 170, 170), anchor="rm")
    y = top + px(72)
    x = float(px(24))
    waits = decision_text(view)
    if view.phase == "over":
        win = view.winners or []
        who = " and ".join(name(view.players[s]) for s in win)
        fonts.text(
            d,
            (x, y),
            f"{'Winner' if len(win) == 1 else 'Shared win'}: {who}",
            px(34),
            GOLD,
            anchor="lm",
            bold=True,
        )
        return
    fonts.text(d, (x, y), "Waiting for", px(30), (220, 220, 220), anchor="lm")
    x += fonts.width("Waiting for", px(30)) + px(14)
    for k, (seat, what) in enumerate(waits):
        if k >= 3:
            fonts.text(d, (x, y), f"+{len(waits) - k} more", px(28), (220, 220, 220), anchor="lm")
            break
        chip = name(view.players[seat])
        cw = fonts.width(chip, px(30), bold=True) + px(20)
        colour = player(seat)
        sprites.rounded(img, (x, y - px(19), x + cw, y + px(19)), radius=px(10), fill=colour)
        fonts.text(d, (x + cw / 2, y + 1), chip, px(30), text_on(colour), anchor="mm", bold=True)
        x += cw + px(10)
        fonts.text(d, (x, y), what, px(30), (255, 255, 255), anchor="lm")
        x += fonts.width(what, px(30)) + px(26)


def draw_players(img: Image.Image, g: Geometry, view: View, tags: list[str], top: int) -> None:
    """One row per player: gold, food against citizens, cards, notables, castles, hunger."""
    d = ImageDraw.Draw(img)
    px = g.px
    heads = [
        (COL_GOLD, "Gold"),
        (COL_FOOD, "Food / citizens"),
        (COL_ACTIONS, "Action cards"),
        (COL_NOTABLES, "Notables"),
        (COL_CASTLES, "Castles"),
    ]
    if view.scores is not None:
        heads.append((COL_LAST, "Score"))
    fonts.text(d, (px(24), top + px(HEAD_H) / 2), "Players", px(26), INK_SOFT, anchor="lm", bold=True)
    for x, s in heads:
        fonts.text(d, (px(x), top + px(HEAD_H) / 2), s, px(22), INK_SOFT, anchor="lm")
    y = top + px(HEAD_H)
    pending = set(view.pending)
    for p in view.players:
        _player_row(img, d, g, view, p, tags[p.seat], y, p.seat in pending)
        y += px(ROW_H)


def _player_row(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    g: Geometry,
    view: View,
    p: PlayerView,
    tag: str,
    y: float,
    on: bool,
) -> None:
    px = g.px
    h = px(ROW_H)
    colour = player(p.seat)
    bg = shade(colour, 1.75) if on else PAPER
    sprites.rounded(img, (px(10), y + px(4), g.width - px(10), y + h - px(4)), radius=px(12), fill=bg,
                        outline=HIGHLIGHT if on else PANEL_LINE, width=px(5) if on else px(2))  # fmt: skip
    mid = y + h / 2
    sprites.paste(img, sprites.castle_tile(p.seat, tag, px(31)), (px(56), mid))
    nm = fonts.shorten(name(p), px(30), px(280))
    fonts.text(d, (px(100), mid - px(12)), nm, px(30), INK, anchor="lm", bold=True)
    chips = []
    if p.seat == view.start_player and view.phase != "setup":
        chips.append(("START", INK, (255, 255, 255)))
    if on:
        chips.append(("TO ACT", HIGHLIGHT, (255, 255, 255)))
    cx = px(100) + fonts.width(nm, px(30), bold=True) + px(12)
    for s, fill, ink in chips:
        w = fonts.width(s, px(18), bold=True) + px(14)
        sprites.rounded(img, (cx, mid - px(25), cx + w, mid + px(1)), radius=px(6), fill=fill)
        fonts.text(d, (cx + w / 2, mid - px(12)), s, px(18), ink, anchor="mm", bold=True)
        cx += w + px(8)
    cities = "  ".join(f"{fonts.clean(c.name)} {c.castle}" for c in p.cities) or "no city"
    fonts.text(
        d,
        (px(100), mid + px(18)),
        fonts.shorten(cities, px(20), px(COL_GOLD - 110)),
        px(20),
        INK_SOFT,
        anchor="lm",
    )
    # Gold.
    sprites.paste(img, sprites.disc(GOLD, GOLD_DARK, px(32)), (px(COL_GOLD + 16), mid))
    fonts.text(d, (px(COL_GOLD + 40), mid), str(p.gold), px(34), INK, anchor="lm", bold=True)
    # Food against citizens: red when the citizens outnumber the food.
    short = p.citizens > p.food
    food = f"{p.food} / {p.citizens}"
    fonts.text(d, (px(COL_FOOD), mid), food, px(34), WARNING if short else INK, anchor="lm", bold=True)
    if short:
        sx = px(COL_FOOD) + fonts.width(food, px(34), True) + px(8)
        fonts.text(d, (sx, mid - px(10)), f"{p.citizens - p.food}", px(22), WARNING, anchor="lm", bold=True)
        fonts.text(d, (sx, mid + px(11)), "short", px(22), WARNING, anchor="lm", bold=True)
    # Action cards left: filled cards, used ones as outlines.
    for k in range(3):
        x0 = px(COL_ACTIONS + k * 40)
        box = (x0, mid - px(22), x0 + px(30), mid + px(22))
        if k < p.action_cards:
            sprites.rounded(img, box, radius=px(5), fill=colour, outline=INK, width=px(3))
        else:
            sprites.rounded(img, box, radius=px(5), outline=PANEL_LINE, width=px(3))
    # Notables left: pawns in the player's colour.
    for k in range(4):
        c = (px(COL_NOTABLES + 18 + k * 36), mid)
        if k < p.notables:
            sprites.paste(img, sprites.pawn(colour, px(40)), c)
        else:
            sprites.paste(img, sprites.pawn(PANEL, px(40)), c)
    fonts.text(d, (px(COL_CASTLES), mid), f"{p.castles_left} left", px(28), INK, anchor="lm")
    last = px(COL_LAST)
    if view.scores is not None:
        fonts.text(d, (last, mid), str(view.scores[p.seat]), px(40), INK, anchor="lm", bold=True)
    elif p.hunger or p.hunger_vp:
        s = f"-{p.hunger_vp} VP" if p.hunger_vp else "HUNGER"
        w = fonts.width(s, px(20), bold=True) + px(14)
        sprites.rounded(img, (last, mid - px(16), last + w, mid + px(16)), radius=px(6), fill=WARNING)
        fonts.text(d, (last + w / 2, mid), s, px(20), (255, 255, 255), anchor="mm", bold=True)
