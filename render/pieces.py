"""Everything on the board that changes: castles, buildings, notables, city badges, rings."""

from __future__ import annotations

from PIL import Image

from engine.board import BOARD
from engine.views import CityView, View

from . import captions, fonts, sprites
from .badges import citizens_tag, place_badges
from .geometry import Geometry
from .icons import caption
from .palette import INK, SERVICE, SERVICE_EDGE, player

SERVICES = ("culture", "education", "health")


def shows_sites(view: View) -> bool:
    """Whether the board shows where the viewer could build: only on the viewer's own turn
    of a political round (building is a political move), never in setup, feeding,
    demolition, relocation or once the game is over."""
    return view.viewer is not None and view.phase == "politics" and view.turn == view.viewer


def draw_pieces(
    img: Image.Image, g: Geometry, view: View, tags: list[str], highlight: list[str], detail: bool = True
) -> None:
    """Draw every piece of ``view`` on the board image, with rings around ``highlight``.

    With ``detail`` the buildings' names, the citizens on the castles and the cities' badges
    are drawn too; without it (the overview) the only text is the owners' tags on the castles.
    Names are drawn over the rings, so that a ring never hides one."""
    r = g.radius
    sites = view.sites if shows_sites(view) else []
    for label in sites:
        if g.shows(g.hex_box(label)):
            sprites.paste(img, sprites.site(player_seat(view), r), g.center(label))
    cities = [c for p in view.players for c in p.cities]
    for c in cities:
        if g.shows(g.hex_box(c.castle)):
            sprites.paste(img, sprites.castle_tile(c.owner, tags[c.owner], r), g.center(c.castle))
        for b in c.buildings:
            if g.shows(g.hex_box(b.hex)):
                sprites.paste(img, sprites.building(b.kind, c.owner, r), g.center(b.hex))
    for label in highlight:
        if label in BOARD.index and g.shows(g.hex_box(label, 1.2)):
            sprites.paste(img, sprites.ring(r), g.center(label))
    for c in cities:
        _markers(img, g, c, detail)
    if detail:
        place_badges(img, g, view, highlight, sites)


def player_seat(view: View) -> int:
    """The viewer's seat (0 for a spectator, who is never shown sites)."""
    return view.viewer or 0


def _markers(img: Image.Image, g: Geometry, c: CityView, detail: bool) -> None:
    """The buildings' names, the citizens on the castle, the notables on the arches, the
    Rich Harvest stars."""
    r = g.radius
    x, y = g.center(c.castle)
    if detail and g.shows(g.hex_box(c.castle)):
        sprites.paste(img, citizens_tag(c.castle_citizens, r), (x, y + r * 0.6))
    for b in c.buildings:
        if not g.shows(g.hex_box(b.hex)):
            continue
        x, y = g.center(b.hex)
        if detail:
            word = caption(b.kind)
            label = captions.caption(word, r, captions.caption_size(word, r))
            sprites.paste(img, label, (x, y + r * captions.CAPTION_Y))
        if b.harvest:
            # Rich Harvest: a notable on the farm doubles its food this year.
            sprites.paste(img, sprites.star(r * 1.0), (x - r * 0.5, y - r * 0.6))
            if detail:
                size = max(fonts.smallest(), round(r * 0.3))
                fonts.text(img, (x - r * 0.5, y - r * 0.56), "x2", size, INK, anchor="mm", bold=True)
        dots = [s for s in SERVICES for _ in range(b.notables.get(s, 0))]  # type: ignore[call-overload]
        for k, s in enumerate(dots[:6]):
            # Notables: pawns in the owner's colour on a disc in the colour of their arch.
            pos = (x + r * 0.62, y - r * (0.62 - 0.42 * k))
            sprites.paste(
                img,
                sprites.disc(SERVICE[s], SERVICE_EDGE[s] if s != "education" else (255, 255, 255), r * 0.5),
                pos,
            )
            sprites.paste(img, sprites.pawn(player(c.owner), r * 0.36), pos)
