"""The table under the board: the state of the game and of every player, and what the table says
that the phone sheet (`render.sheet`) says too. Its lines are laid out with `render.lines`."""

from __future__ import annotations

from dataclasses import replace

from PIL import Image, ImageDraw

from engine.views import PlayerView, View
from i18n import _, listing

from . import fonts, sprites
from .geometry import Geometry
from .lines import Line, Piece, chip, draw_lines, flow, word, words
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
    RGB,
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
        return _("Game over - final scores")
    if view.phase == "setup":
        return _(PHASES[view.phase])
    if view.phase == "politics":
        return _("Year {year} of 6  -  Political round {round} of 5", year=view.year, round=view.round)
    return _("Year {year} of 6  -  {phase}", year=view.year, phase=_(PHASES[view.phase]))


def draw_status(img: Image.Image, g: Geometry, view: View, tags: list[str], top: int) -> None:
    """The status bar: year, phase, start player, and who the game waits for (on one line)."""
    d = ImageDraw.Draw(img)
    px = g.px
    d.rectangle((0, top, g.width, top + px(STATUS_H)), fill=(38, 42, 46))
    head = title(view)
    fonts.text(d, (px(24), top + px(28)), head, px(38), (255, 255, 255), anchor="lm", bold=True)
    if view.phase != "setup":
        room = g.width - px(72) - fonts.width(head, px(38), bold=True)
        s = fonts.shorten(start_text(view), px(28), room)
        fonts.text(d, (g.width - px(24), top + px(28)), s, px(28), (220, 220, 220), anchor="rm")
    viewer = fonts.shorten(viewer_text(view), px(24), px(300))
    fonts.text(d, (g.width - px(24), top + px(72)), viewer, px(24), (170, 170, 170), anchor="rm")
    y = top + px(72)
    room = g.width - px(72) - fonts.width(viewer, px(24))
    if view.phase == "over":
        s = fonts.shorten(result_text(view), px(34), room)
        fonts.text(d, (px(24), y), s, px(34), GOLD, anchor="lm", bold=True)
        return
    draw_lines(img, _waiting_line(view, g, room)[:1], px(24), y - px(22))


def _waiting_line(view: View, g: Geometry, room: float) -> list[Line]:
    """The waiting line of the poster: as many decisions as fit on one line, smaller if need be."""
    px = g.px
    n = len(decision_text(view))
    for k in range(n, 0, -1):
        for size in (px(30), px(26), px(22)):
            lines = flow(waiting_pieces(view, size, (220, 220, 220), k, room=room), room)
            if len(lines) == 1:
                return lines
    # One decision too long for the line even small: the words that fit, and an ellipsis.
    lines = flow(waiting_pieces(view, px(22), (220, 220, 220), 1, room=room), room)
    first = lines[0]
    if len(lines) > 1:
        at, _last = first[-1]
        first = [*first[:-1], (at, word("...", px(22), (255, 255, 255)))]
    return [first]


def draw_players(img: Image.Image, g: Geometry, view: View, tags: list[str], top: int) -> None:
    """One row per player: gold, food against citizens, cards, notables, castles, hunger."""
    d = ImageDraw.Draw(img)
    px = g.px
    heads = [
        (COL_GOLD, _("Gold")),
        (COL_FOOD, _("Food / citizens")),
        (COL_ACTIONS, _("Action cards")),
        (COL_NOTABLES, _("Notables")),
        (COL_CASTLES, _("Castles")),
    ]
    if view.scores is not None:
        heads.append((COL_LAST, _("Score")))
    fonts.text(d, (px(24), top + px(HEAD_H) / 2), _("Players"), px(26), INK_SOFT, anchor="lm", bold=True)
    ends = [x for x, _s in heads[1:]] + [COL_LAST + 110]
    for (x, s), end in zip(heads, ends, strict=True):
        # A heading longer than its column (in a long language) is drawn smaller, never over the next.
        size = fonts.fit(s, px(22), px(end - x - 12), smallest=px(16))
        fonts.text(
            d,
            (px(x), top + px(HEAD_H) / 2),
            fonts.shorten(s, size, px(end - x - 12)),
            size,
            INK_SOFT,
            anchor="lm",
        )
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
    cities = poster_cities(p, g)
    # Two lines of cities (four long names) lift the name a little.
    name_y = mid - px(12) if len(cities) == 1 else mid - px(19)
    chips = player_chips(view, p)
    room = px(COL_GOLD - 120) - sum(fonts.width(s, px(18), bold=True) + px(22) for s, _, _ in chips)
    nm = fonts.shorten(name(p), px(30), min(px(280), room))
    fonts.text(d, (px(100), name_y), nm, px(30), INK, anchor="lm", bold=True)
    cx = px(100) + fonts.width(nm, px(30), bold=True) + px(12)
    for s, fill, ink in chips:
        w = fonts.width(s, px(18), bold=True) + px(14)
        sprites.rounded(img, (cx, name_y - px(13), cx + w, name_y + px(13)), radius=px(6), fill=fill)
        fonts.text(d, (cx + w / 2, name_y), s, px(18), ink, anchor="mm", bold=True)
        cx += w + px(8)
    size = px(20) if len(cities) == 1 else px(19)
    for k, line in enumerate(cities):
        cy = mid + px(18) if len(cities) == 1 else mid + px(5 + 19 * k)
        fonts.text(d, (px(100), cy), line, size, INK_SOFT, anchor="lm")
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
        room = px(COL_ACTIONS - 8) - sx
        said = _("short")
        size = fonts.fit(said, px(22), room, bold=True, smallest=px(15))
        fonts.text(
            d, (sx, mid + px(11)), fonts.shorten(said, size, room), size, WARNING, anchor="lm", bold=True
        )
    draw_action_cards(img, p, px(COL_ACTIONS), mid, px(30), px(44), px(40))
    draw_notables(img, p, px(COL_NOTABLES), mid, px(40), px(36))
    fonts.text(d, (px(COL_CASTLES), mid), _("{count} left", count=p.castles_left), px(28), INK, anchor="lm")
    last = px(COL_LAST)
    hunger = hunger_label(p)
    if view.scores is not None:
        fonts.text(d, (last, mid), str(view.scores[p.seat]), px(40), INK, anchor="lm", bold=True)
    elif hunger:
        w = fonts.width(hunger, px(20), bold=True) + px(14)
        sprites.rounded(img, (last, mid - px(16), last + w, mid + px(16)), radius=px(6), fill=WARNING)
        fonts.text(d, (last + w / 2, mid), hunger, px(20), (255, 255, 255), anchor="mm", bold=True)


def poster_cities(p: PlayerView, g: Geometry) -> list[str]:
    """The player's cities for the poster's row: one line, or two when they do not fit in one."""
    room = g.px(COL_GOLD - 110)
    labels = city_labels(p) or [_("no city")]
    for size, lines in ((g.px(20), 1), (g.px(19), 2)):
        laid = flow([word(c, size, INK, space=size * 0.8) for c in labels], room)
        if len(laid) <= lines:
            return ["  ".join(q.text for _, q in line) for line in laid]
    return ["  ".join(labels[:2]), "  ".join(labels[2:])]


# --- What the table says, shared by the poster and the phone sheet ---------------------------


def waiting_pieces(
    view: View,
    size: int,
    ink: RGB,
    decisions: int | None = None,
    each_line: bool = False,
    room: float = 1e9,
) -> list[Piece]:
    """The words "Waiting for", then each pending decision as a name chip and words (the first
    ``decisions``; with ``each_line``, several decisions one a line); names cut to half ``room``."""
    waits = decision_text(view)
    shown = waits if decisions is None else waits[:decisions]
    apart = each_line and len(shown) > 1
    out = words(_("Waiting for:") if apart else _("Waiting for"), size, ink)
    for k, (seat, what) in enumerate(shown):
        colour = player(seat)
        who = fonts.shorten(name(view.players[seat]), size, room / 2)
        nm = chip(who, size, colour, text_on(colour), size * (0.5 if k == 0 else 1.0))
        out.append(replace(nm, space=0.0, new_line=True) if apart else nm)
        after = words(what, size, (255, 255, 255), space=size * 0.35, room=room)
        out += [replace(after[0], glue=True), *after[1:]]
    if len(shown) < len(waits):
        out += words(_("+{count} more", count=len(waits) - len(shown)), size, ink, space=size * 0.8)
    return out


def result_text(view: View) -> str:
    """Who won, e.g. ``Winner: Ann`` or ``Shared win: Ann and Bob``."""
    win = view.winners or []
    who = listing([name(view.players[s]) for s in win])
    return _("Winner: {name}", name=who) if len(win) == 1 else _("Shared win: {names}", names=who)


def start_text(view: View) -> str:
    """``Start player: Ann``."""
    return _("Start player: {name}", name=name(view.players[view.start_player]))


def viewer_text(view: View) -> str:
    """Whose view the picture shows: ``Ann's view`` or ``Spectator view``."""
    if view.viewer is None:
        return _("Spectator view")
    return _("{name}'s view", name=name(view.players[view.viewer]))


def player_chips(view: View, p: PlayerView) -> list[tuple[str, RGB, RGB]]:
    """The labels by a player's name: START, TO ACT (text, fill, ink)."""
    out: list[tuple[str, RGB, RGB]] = []
    if p.seat == view.start_player and view.phase != "setup":
        out.append((_("START"), INK, (255, 255, 255)))
    if p.seat in view.pending:
        out.append((_("TO ACT"), HIGHLIGHT, (255, 255, 255)))
    return out


def hunger_label(p: PlayerView) -> str | None:
    """``-2 VP`` for points lost to hunger, ``HUNGER`` for a hungry player, else None."""
    if p.hunger_vp:
        return _("-{count} VP", count=p.hunger_vp)
    return _("HUNGER") if p.hunger else None


def city_labels(p: PlayerView) -> list[str]:
    """Each city of the player with its castle hex, e.g. ``Firenze J3``."""
    return [f"{fonts.clean(c.name)} {c.castle}" for c in p.cities]


def draw_action_cards(
    img: Image.Image, p: PlayerView, x: float, mid: float, w: int, h: int, step: int
) -> None:
    """The player's action cards: filled when left, outlined when used this year."""
    colour = player(p.seat)
    for k in range(3):
        box = (x + k * step, mid - h / 2, x + k * step + w, mid + h / 2)
        if k < p.action_cards:
            sprites.rounded(img, box, radius=w / 6, fill=colour, outline=INK, width=max(1, w // 10))
        else:
            sprites.rounded(img, box, radius=w / 6, outline=PANEL_LINE, width=max(1, w // 10))


def draw_notables(img: Image.Image, p: PlayerView, x: float, mid: float, size: int, step: int) -> None:
    """The player's notables: pawns in their colour when left, pale when placed."""
    for k in range(4):
        colour = player(p.seat) if k < p.notables else PANEL
        sprites.paste(img, sprites.pawn(colour, size), (x + size / 2 + k * step, mid))
