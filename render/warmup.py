"""Everything a board needs that no game decides, drawn ahead: `warm()` at start-up makes
even the first board after a restart quick."""

from __future__ import annotations

from engine.board import BOARD
from engine.components import POLITICS_TITLES

from . import sprites
from .cards import card_sprite
from .compose import render_board
from .geometry import REF_WIDTH, geometry
from .icons import ICONS
from .landscape import path_hex
from .palette import PLAYER
from .png_palette import palette_image
from .samples import new_game
from .terrain import KINDS, area_tile


def warm(width: int = REF_WIDTH) -> None:
    """Draw and cache what does not depend on a particular game, for boards ``width`` wide.

    That is every terrain tile the engine can deal, every path hex in play and out of it,
    the palette, the pieces of every seat, the politics cards, and (by drawing a sample
    board) the fonts and the panel's parts. It takes about a second; call it once at
    start-up, in a worker thread if need be: calling it again costs little, and the boards
    drawn are the same whether it ran or not.
    """
    g = geometry(width)
    for area, terrain, wheat in KINDS:
        area_tile(area, terrain, wheat, width)
    for label in BOARD.labels:
        path_hex(label, True, width)
        path_hex(label, False, width)
    palette_image()
    for seat in range(len(PLAYER)):
        for kind in ICONS:
            sprites.building(kind, seat, g.radius)
        sprites.site(seat, g.radius)
    sprites.ring(g.radius)
    for card in POLITICS_TITLES:
        card_sprite(card, width)
    game = new_game(len(PLAYER), seed=0)
    render_board(game.view(None), width=width)
    render_board(game.view(game.pending_seats()[0]), width=width)
