"""Everything a board needs that no game decides, drawn ahead: `warm()` at start-up makes
even the first board after a restart quick."""

from __future__ import annotations

import random
from pathlib import Path

from PIL import Image

from engine.board import BOARD
from engine.components import POLITICS_TITLES
from i18n import LANGUAGES

from . import captions, closeup, fonts, sprites, stash
from .cards import card_sprite
from .closeup import closeup_regions, draw_closeup
from .compose import render_board
from .geometry import PHONE_WIDTH, REF_WIDTH, geometry
from .icons import ICONS, caption
from .landscape import hex_sprite, label_size, path_tile
from .overview import draw_overview
from .palette import INK, PLAYER
from .png_palette import palette_image
from .post import render_post
from .samples import at, new_game, play
from .terrain import KINDS, ZOOM_KINDS, area_tile, zoom_tile


def warm(width: int = REF_WIDTH, phone: int = PHONE_WIDTH) -> None:
    """Draw and cache what does not depend on a particular game, for boards ``width`` wide
    and for overviews and close-ups ``phone`` wide.

    That is every terrain tile the engine can deal, every path hex in play and out of it,
    the palette, the pieces of every seat, the politics cards, and (by drawing a sample
    board, overview and close-up) the fonts and the panel's parts. It takes about a second
    and a half; call it once at start-up, in a worker thread if need be: calling it again
    costs little, and the pictures drawn are the same whether it ran or not.
    """
    g = geometry(width)
    for area, terrain, wheat in KINDS:
        area_tile(area, terrain, wheat, width)
    for label in BOARD.labels:
        path_tile(label, True, width)
        path_tile(label, False, width)
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
    warm_phone(phone)


def warm_start(folder: Path | None, phone: int = PHONE_WIDTH) -> bool:
    """A game worker's warm-up: what a turn post ``phone`` px wide needs first — the palette, the
    overview's and close-ups' tiles and sprites (`warm_phone`) — read from the file kept in
    ``folder`` (`stash`) when there is one for this renderer, else drawn and kept there for the
    next worker; whether it was read. None: no file.

    Opening the file takes about a hundredth of a second of CPU (each value is read when first
    asked for), against two seconds to draw it all. While it is drawn, sample posts of a game in
    every language (`sample_posts`) are drawn too, so that the file also keeps what any game's
    first post would draw again: its texts, its panels' corners, castles without their tags (a
    restarted worker's first post: about 150 ms of CPU without them, 115 with them, when the whole
    file was read at start-up); what is left to the first job is the game's own (after a restart,
    `bot.service.predraw`'s, which nobody waits for). Nothing is drawn at the full width
    (`REF_WIDTH`): posters and replays go to the workers' `aside` lane, whose worker also runs
    `warm`. The pictures drawn are the same whether the file was there or not."""
    if folder is not None and stash.load(folder):
        palette_image()
        return True
    if folder is not None:
        stash.record()
    palette_image()
    warm_phone(phone)
    if folder is not None:
        sample_posts()
        stash.save(folder)
    return False


def sample_posts() -> None:
    """Turn posts of a sample game in its second year, in every language: drawn while the
    warm-up is recorded, so that the file keeps what any game's posts draw too — the texts of the
    table's headings, numbers and words, its panels' corners, castles without their tags."""
    game = new_game(len(PLAYER), seed=0, setup="experienced")
    play(game, random.Random(0), at(2, 1))
    seat = game.pending_seats()[0]
    for lang in LANGUAGES:
        render_post(game.view(None), focus=seat, lang=lang)


def warm_phone(width: int = PHONE_WIDTH) -> None:
    """What the overview and the close-ups ``width`` px wide need, drawn ahead."""
    for area, terrain, wheat in KINDS:
        area_tile(area, terrain, wheat, width)
    for label in BOARD.labels:
        path_tile(label, True, width, False)
        path_tile(label, False, width, False)
    near = closeup.window_of(width)
    zoom = geometry(width).radius, near.radius
    board = near.full
    for side, terrain, wheat, variant in ZOOM_KINDS:
        zoom_tile(side, terrain, wheat, variant, board)
    with fonts.picture(width):
        for r in zoom:
            for seat in range(len(PLAYER)):
                for kind in ICONS:
                    sprites.building(kind, seat, r)
                sprites.site(seat, r)
                sprites.castle_base(seat, r)
            sprites.ring(r)
            hex_sprite(True, r)
            hex_sprite(False, r)
        r = near.radius
        for kind in ICONS:
            word = caption(kind)
            captions.caption(word, r, captions.caption_size(word, r))
        scratch = Image.new("RGB", (4 * round(r), 2 * round(r)))
        for label in BOARD.labels:
            fonts.text(scratch, (0, 0), label, label_size(r), INK)
        game = new_game(len(PLAYER), seed=0)
        seat = game.pending_seats()[0]
        draw_overview(game.view(None), width=width)
        for region in closeup_regions(game.view(seat), [], seat):
            draw_closeup(game.view(seat), region, width=width)
