"""Close-ups: part of the board, zoomed so that every text on it reads on a phone.

A close-up frames a `Region` (hexes and a title): the last move, the cities of the player
who acts next, or both when they fit in one. It shows `SPAN` hex radii across, whatever its
width: the zoom at which a hex's label, a building's whole name and a city's badge are all
drawn at least at the picture's smallest text size (`fonts.smallest`, 1/36 of the width).
`closeup_regions` chooses what to frame, `draw_closeup` draws one (`closeup_parts`: as its
title strip and its board).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PIL import Image

from engine.board import BOARD
from engine.views import CityView, PlayerView, View
from i18n import _

from . import fonts
from .geometry import PHONE_WIDTH, SQRT3, Geometry, Point, axial_to_unit, window
from .landscape import draw_window, keep_window, layout_key
from .naming import name as player_name
from .naming import tags as player_tags
from .palette import BACKGROUND, PAPER
from .pieces import draw_pieces

SPAN = (11.2, 10.0)
"""What a close-up shows, in hex radii: across (the zoom) and down (the shape)."""
MARGIN = 0.35
"""Room kept around the framed hexes, in hex radii."""
TITLE = 1.9
"""The height of the title strip, in the picture's smallest text sizes."""
_PATHS = [axial_to_unit(q, r) for q, r in BOARD.coords]


@dataclass(frozen=True)
class Region:
    """What a close-up frames: a title ("Last move: D13–E12", "Ann's cities") and hexes."""

    title: str
    hexes: tuple[str, ...]


def radius(width: int) -> float:
    """The hex radius of a close-up ``width`` px wide."""
    return width / SPAN[0]


def board_height(width: int) -> int:
    """The height of a close-up's board part (below the title strip)."""
    return round(width * SPAN[1] / SPAN[0])


def window_of(width: int, centre: Point = (0.0, 0.0)) -> Geometry:
    """The geometry of a close-up ``width`` px wide centred on ``centre`` (in hex radii)."""
    return window(width, board_height(width), radius(width), centre)


def frame(region: Region, width: int = PHONE_WIDTH) -> Geometry:
    """The geometry of the close-up of ``region`` ``width`` px wide (its board part)."""
    return window_of(width, _centre(region.hexes))


def fits(hexes: Iterable[str]) -> bool:
    """Whether one close-up frames all ``hexes`` (and a margin around each)."""
    pts = [_unit(h) for h in hexes]
    if not pts:
        return True
    w = max(x for x, _ in pts) - min(x for x, _ in pts) + SQRT3 + 2 * MARGIN
    h = max(y for _, y in pts) - min(y for _, y in pts) + 2 + 2 * MARGIN
    return w <= SPAN[0] and h <= SPAN[1]


def _unit(label: str) -> Point:
    return axial_to_unit(*BOARD.coord(label))


def _labels(hexes: Iterable[str]) -> list[str]:
    """``hexes`` as board labels, in order, once each, without any that is not a hex."""
    out = (h.strip().upper() for h in hexes)
    return list(dict.fromkeys(h for h in out if h in BOARD.index))


def _cluster(hexes: Sequence[str]) -> list[str]:
    """The hexes, from the first on, nearest first, that one close-up frames with it."""
    if not hexes:
        return []
    x0, y0 = _unit(hexes[0])
    out = [hexes[0]]
    for h in sorted(hexes[1:], key=lambda h: (_dist2(_unit(h), (x0, y0)), BOARD.index[h])):
        if fits([*out, h]):
            out.append(h)
    return out


def _dist2(a: Point, b: Point) -> float:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def _framed(cities: Sequence[CityView]) -> list[str]:
    """The hexes of the most pieces one close-up frames, whole cities at a time: started from
    each city in turn, the nearest others that fit with it (the first wins ties). A city too
    big for a close-up gives its castle and the buildings nearest to it."""
    best: list[str] = []
    for seed in cities:
        group = _cluster(_city_hexes([seed]))
        if len(group) == 1 + len(seed.buildings):
            x0, y0 = _unit(seed.castle)
            for c in sorted(cities, key=lambda c: _dist2(_unit(c.castle), (x0, y0))):
                if c is not seed and fits([*group, *_city_hexes([c])]):
                    group += _city_hexes([c])
        if len(group) > len(best):
            best = group
    return best


def _move_title(hexes: Sequence[str]) -> str:
    if len(hexes) == 2:
        return _("Last move: {hexes}", hexes=f"{hexes[0]}–{hexes[1]}")
    shown = ", ".join(hexes[:4]) + (f" +{len(hexes) - 4}" if len(hexes) > 4 else "")
    return _("Last move: {hexes}", hexes=shown)


def _city_hexes(cities: Iterable[CityView]) -> list[str]:
    return [h for c in cities for h in (c.castle, *(b.hex for b in c.buildings))]


def _cities_region(p: PlayerView) -> Region:
    """The most of the player's cities one close-up frames, titled with the player's name."""
    group = _framed(p.cities)
    framed = [c for c in p.cities if c.castle in group]
    who = player_name(p)
    if len(framed) == 1:
        title = _("{name}'s city {city}", name=who, city=fonts.clean(framed[0].name))
    else:
        title = _("{name}'s cities", name=who)
    return Region(title, tuple(group))


def closeup_regions(view: View, highlight: Sequence[str], focus: int | None) -> list[Region]:
    """What to show in close-ups, most important first: the last move (``highlight``) and the
    cities of seat ``focus`` (who acts next), in one close-up if they fit, else in two.

    Without a last move and a focus, the acting player's cities; failing those, the area with
    the most pieces; on an empty board, its centre."""
    move = _cluster(_labels(highlight))
    if focus is None and not move and view.turn is not None:
        focus = view.turn
    owner = view.players[focus] if focus is not None and 0 <= focus < len(view.players) else None
    cities = _cities_region(owner) if owner is not None and owner.cities else None
    if move and cities is not None:
        both = [*move, *(h for h in cities.hexes if h not in move)]
        if fits(both):
            return [Region(f"{_move_title(move)} / {cities.title}", tuple(both))]
        return [Region(_move_title(move), tuple(move)), cities]
    if move:
        return [Region(_move_title(move), tuple(move))]
    if cities is not None:
        return [cities]
    busiest = _framed([c for p in view.players for c in p.cities])
    if busiest:
        return [Region(_("The busiest part of the board"), tuple(busiest))]
    return [Region(_("The centre of the board"), ("I9",))]


def _centre(hexes: Sequence[str]) -> Point:
    """Where a close-up of ``hexes`` is centred: on them, moved towards the board's middle
    as far as they stay framed, so that it shows as little beyond the paths as it can."""
    pts = [_unit(h) for h in hexes] or [(0.0, 0.0)]
    y = _place([p[1] for p in pts], [p[1] for p in _PATHS], SPAN[1], 1.0)
    near = [p[0] for p in _PATHS if abs(p[1] - y) <= SPAN[1] / 2]
    x = _place([p[0] for p in pts], near, SPAN[0], SQRT3 / 2)
    return x, y


def _place(framed: list[float], paths: list[float], span: float, half: float) -> float:
    """The centre, along one axis, of a close-up ``span`` long that frames hexes at ``framed``
    and keeps as much as it can within the path hexes at ``paths`` (each ``half`` wide)."""
    lo, hi = min(framed), max(framed)
    room = span / 2 - half - MARGIN
    first, last = min(paths) - half - MARGIN, max(paths) + half + MARGIN
    inside = (lo + hi) / 2
    if last - first >= span:
        inside = min(max(inside, first + span / 2), last - span / 2)
    if hi - lo > 2 * room:
        return (lo + hi) / 2
    return min(max(inside, hi - room), lo + room)


def draw_closeup(
    view: View, region: Region, highlight: Sequence[str] = (), width: int = PHONE_WIDTH
) -> Image.Image:
    """A close-up of ``region`` ``width`` px wide: its title on a strip, then the board around
    its hexes with hex labels, buildings' names and cities' badges, the last move ringed."""
    strip, board = closeup_parts(view, region, highlight, width)
    img = Image.new("RGB", (strip.width, strip.height + board.height))
    img.paste(strip, (0, 0))
    img.paste(board, (0, strip.height))
    return img


def closeup_parts(
    view: View, region: Region, highlight: Sequence[str] = (), width: int = PHONE_WIDTH
) -> tuple[Image.Image, Image.Image]:
    """The close-up of `draw_closeup` as its two parts, the title strip and the board below it
    (`render_post` writes them into one PNG without pasting them together first)."""
    width = int(width)
    with fonts.picture(width) as least:
        g = frame(region, width)
        board = Image.new("RGB", (width, g.board_height), BACKGROUND)
        draw_window(board, layout_key(view), view.max_zone, g)
        draw_pieces(board, g, view, player_tags(view.players), _labels(highlight))
        strip = Image.new("RGB", (width, round(least * TITLE)), BACKGROUND)
        # The title's names were cleaned for the font where it was made (`_cities_region`).
        title, room = region.title, width - 1.6 * least
        size = fonts.fit(title, round(least * 1.15), room, True, least)
        at = (least * 0.8, strip.height / 2)
        fonts.text(strip, at, fonts.shorten(title, size, room), size, PAPER, "lm", True)
    return strip, board


AHEAD_MARGIN = 2.0
"""How far around a city's close-up `draw_ahead` draws, in hex radii: a move's close-up frames the
move and the next player's cities together when they fit, so it is centred a little off theirs."""


def draw_ahead(view: View, seats: Iterable[int], width: int = PHONE_WIDTH) -> None:
    """Draw ahead the landscape of the close-ups of ``seats``' cities, and a margin around each
    (`keep_window`): what the post after the next move shows besides its pieces. After a restart a
    game's first post would otherwise draw its close-up's landscape cold (`bot.service.predraw`
    calls this for the seats who act next). Draws no picture; the pictures are the same."""
    layout, r = layout_key(view), radius(width)
    for seat in seats:
        player = view.players[seat] if 0 <= seat < len(view.players) else None
        for city in player.cities if player is not None else []:
            g = frame(Region("", tuple(_city_hexes([city]))), width)
            keep_window(layout, view.max_zone, g, round(AHEAD_MARGIN * r))
