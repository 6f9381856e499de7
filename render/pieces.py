"""Everything on the board that changes: castles, buildings, notables, city badges, rings."""

from __future__ import annotations

from PIL import Image

from engine.board import BOARD
from engine.views import CityView, View

from . import fonts, sprites
from .badges import citizens_tag, place_badges
from .geometry import Geometry
from .palette import INK, SERVICE, SERVICE_EDGE, player

SERVICES = ("culture", "education", "health")


def draw_pieces(img: Image.Image, g: Geometry, view: View, tags: list[str], highlight: list[str]) -> None:
    """Draw every piece of ``view`` on the board image, with rings around ``highlight``."""
    r = g.radius
    if view.viewer is not None:
        for label in view.sites:
            sprites.paste(img, sprites.site(view.viewer, r), g.center(label))
    cities = [c for p in view.players for c in p.cities]
    for c in cities:
        sprites.paste(img, sprites.castle_tile(c.owner, tags[c.owner], r), g.center(c.castle))
        for b in c.buildings:
            sprites.paste(img, sprites.building(b.kind, c.owner, r), g.center(b.hex))
    for label in highlight:
        if label in BOARD.index:
            sprites.paste(img, sprites.ring(r), g.center(label))
    for c in cities:
        _markers(img, g, c)
    place_badges(img, g, view, highlight)


def _markers(img: Image.Image, g: Geometry, c: CityView) -> None:
    """The citizens on the castle, the notables on the arches, the Rich Harvest stars."""
    r = g.radius
    x, y = g.center(c.castle)
    sprites.paste(img, citizens_tag(c.castle_citizens, r), (x, y + r * 0.6))
    for b in c.buildings:
        x, y = g.center(b.hex)
        if b.harvest:
            # Rich Harvest: a notable on the farm doubles its food this year.
            sprites.paste(img, sprites.star(r * 1.0), (x - r * 0.5, y - r * 0.6))
            fonts.text(img, (x - r * 0.5, y - r * 0.56), "x2", round(r * 0.3), INK, anchor="mm", bold=True)
        dots = [s for s in SERVICES for _ in range(b.notables.get(s, 0))]  # type: ignore[call-overload]
        for k, s in enumerate(dots[:6]):
            # Notables: pawns in the owner's colour on a disc in the colour of their arch.
            pos = (x + r * (0.62 - 0.0 * k), y - r * (0.62 - 0.42 * k))
            sprites.paste(
                img,
                sprites.disc(SERVICE[s], SERVICE_EDGE[s] if s != "education" else (255, 255, 255), r * 0.5),
                pos,
            )
            sprites.paste(img, sprites.pawn(player(c.owner), r * 0.36), pos)
