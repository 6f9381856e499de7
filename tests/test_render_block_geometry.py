"""A close-up's blocks find the hexes and areas they show from the whole board's positions less
their offset (`render.landscape._spots`): the very same as working each one out in the block's
own geometry, for every block of every zoom a post uses (so the pictures cannot change)."""

from __future__ import annotations

from engine.board import BOARD
from render import closeup
from render.geometry import Geometry, geometry
from render.landscape import BLOCK, _block_geometry, _shown_hexes, _shows_area
from render.post import WIDTH


def hexes_worked_out(g: Geometry) -> list[tuple[int, str]]:
    return [(i, label) for i, label in enumerate(BOARD.labels) if g.shows(g.hex_box(label))]


def area_worked_out(g: Geometry, area: str) -> bool:
    pts = geometry(g.full).area_points(area)
    ox, oy = g.offset
    box = (min(x for x, _ in pts), min(y for _, y in pts), max(x for x, _ in pts), max(y for _, y in pts))
    return g.shows((box[0] - ox, box[1] - oy, box[2] - ox, box[3] - oy), g.radius)


def test_every_block_shows_the_hexes_and_areas_its_own_geometry_gives() -> None:
    fulls = {closeup.window_of(WIDTH).full, closeup.window_of(720).full, 1400}
    checked = 0
    for full in sorted(fulls):
        height = geometry(full).full_height
        for by in range(-1, height // BLOCK + 2):
            for bx in range(-1, full // BLOCK + 2):
                g = _block_geometry(full, bx, by)
                assert _shown_hexes(g) == hexes_worked_out(g), (full, bx, by)
                assert [a for a in BOARD.area_ids if _shows_area(g, a)] == [
                    a for a in BOARD.area_ids if area_worked_out(g, a)
                ], (full, bx, by)
                checked += bool(_shown_hexes(g))
    assert checked > 100
