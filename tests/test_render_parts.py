"""The renderer's small parts: player tags, text the font can show, colours, the PNG writer,
the board's tiles."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageDraw

from engine import Game
from engine.board import BOARD
from engine.state import SetupKind
from render import draw_ahead, encode, fonts, palette, render_post, sprites, supersample
from render.closeup import window_of
from render.fonts import clean, has
from render.geometry import geometry
from render.landscape import _block, draw_landscape, draw_part, draw_window, layout_key
from render.naming import decision_text, tags


def test_player_tags_are_initials_made_longer_only_to_break_ties() -> None:
    assert tags(Game.new(["Ann", "Bob", "Cid"], seed=1).view(None).players) == ["A", "B", "C"]
    assert tags(Game.new(["Ann", "Amy", "Bob"], seed=1).view(None).players) == ["An", "Am", "Bo"]
    assert tags(Game.new(["Al", "Al", "Bo"], seed=1).view(None).players) == ["1", "2", "3"]


def test_text_is_reduced_to_what_the_font_can_draw() -> None:
    assert clean("Città") == "Città"
    assert clean("Zoë 🙂") == "Zoë ?"
    assert clean("Łódź Ő") == "?ódz O"  # a letter without its accent, else "?"
    assert clean("e\u0301") == "é"  # composed first


def test_the_font_has_every_letter_of_german_french_and_dutch() -> None:
    letters = "äöüÄÖÜßéèêëàâçïîôûùÿœæÉÈÊÀÇÎÔŒ„“”«»‹›–—…’"
    assert [ch for ch in letters if not has(ch)] == []
    assert clean(letters) == letters


def test_each_seat_has_its_own_colour_and_pattern() -> None:
    assert len(set(palette.PLAYER)) == len(palette.PLAYER) == 5
    assert len(set(palette.PATTERN)) == len(palette.PATTERN) == 5
    assert palette.HIGHLIGHT not in palette.PLAYER


def test_waiting_line_names_the_seat_and_the_decision() -> None:
    game = Game.new(["Ann", "Bob"], seed=7)
    seat = game.pending_seats()[0]
    assert decision_text(game.view(None)) == [(seat, "to play")]


def test_png_writer_output_decodes_to_the_palette_image() -> None:
    img = Image.new("RGB", (301, 157), (10, 200, 30))
    for x in range(0, 301, 7):
        img.paste((x % 256, 40, 255 - x % 256), (x, 0, x + 3, 157))
    pal = img.quantize(64)
    png = encode.png(img, pal)
    back = Image.open(io.BytesIO(png))
    back.load()
    assert back.mode == "P" and back.size == (301, 157)
    assert back.tobytes() == img.quantize(palette=pal, dither=Image.Dither.NONE).tobytes()


def test_a_tile_cut_in_bands_pastes_as_the_whole_piece_cut_to_the_board() -> None:
    piece = Image.new("RGBa", (60, 50), (0, 0, 0, 0))
    ImageDraw.Draw(piece).polygon([(30, 0), (59, 49), (0, 49)], fill=(200, 100, 50))
    whole, banded = (Image.new("RGB", (100, 40), (10, 20, 30)) for _ in range(2))
    whole.paste(piece, (-5, 10), piece)  # pasting clips to the image: what `cut` keeps
    supersample.paste(banded, supersample.cut((piece, (-5, 10)), (100, 40), bands=4))
    assert banded.tobytes() == whole.tobytes()
    tile = supersample.cut((piece, (-5, 10)), (100, 40), bands=4)
    assert len(tile) == 4
    assert all(x >= 0 and y >= 10 and y + img.height <= 40 for img, (x, y) in tile)


def test_the_landscape_is_drawn_on_the_board_only() -> None:
    view = Game.new(["Ann", "Bob"], seed=3, setup="experienced").view(None)
    g = geometry(900)
    img = Image.new("RGB", (900, g.board_height + 200), (1, 2, 3))
    draw_landscape(img, layout_key(view), view.max_zone, 900)
    below = img.crop((0, g.board_height, 900, img.height))
    assert below.getcolors() == [(900 * 200, (1, 2, 3))]
    assert len(img.crop((0, 0, 900, g.board_height)).getcolors(1 << 16) or []) > 100


def test_a_close_up_pasted_from_landscape_blocks_is_the_one_drawn_at_once() -> None:
    """`draw_window` pastes cached blocks; each pixel is the one `draw_part` draws for the whole
    window (both setups, windows anywhere on the board, the board's edges included)."""
    setups: tuple[tuple[int, SetupKind], ...] = ((3, "beginner"), (4, "experienced"))
    for seed, setup in setups:
        view = Game.new(["Ann", "Bob", "Cid"], seed=seed, setup=setup).view(None)
        playable = {i: zone <= view.max_zone for i, zone in enumerate(BOARD.zone_idx)}
        for centre in ((0.0, 0.0), (-13.5, 11.0), (9.25, -4.5), (14.0, 12.0)):
            g = window_of(1080, centre)
            with fonts.picture(1080):
                blocks, whole = (Image.new("RGB", (g.width, g.board_height)) for _ in range(2))
                draw_window(blocks, layout_key(view), view.max_zone, g)
                draw_part(whole, layout_key(view), playable, g)
            assert blocks.tobytes() == whole.tobytes(), (setup, centre)


def test_the_closeups_drawn_ahead_for_a_seat_find_their_landscape_kept_and_look_the_same() -> None:
    """`draw_ahead` keeps the landscape blocks of the close-ups of a seat's cities (and around
    them): the post after that seat's move draws none of them again, and is the same picture."""
    game = Game.new(["Ann", "Bob", "Cid", "Dan"], seed=12, setup="experienced")
    rng = random.Random(5)
    for _ in range(60):
        seat = game.pending_seats()[0]
        game.play(seat, rng.choice(game.legal_moves(seat)))
    view = game.view(None)
    seat = game.pending_seats()[0]
    assert view.players[seat].cities
    drawn_cold = render_post(view, highlight=[], last_move="", focus=seat)
    _block.cache_clear()
    draw_ahead(view, [seat])
    kept = _block.cache_info()
    assert kept.currsize > 0
    assert render_post(view, highlight=[], last_move="", focus=seat) == drawn_cold
    assert _block.cache_info().misses == kept.misses, "every block of the close-up was drawn ahead"
    draw_ahead(view, [9, -1])  # no such seat: nothing to draw
    assert _block.cache_info().misses == kept.misses


def test_a_sprite_blitted_in_bands_is_the_sprite_pasted_with_its_alpha() -> None:
    card = Image.new("RGBA", (120, 90), (0, 0, 0, 0))
    sprites.rounded(card, (0, 0, 120, 90), 14, (250, 240, 220), (40, 40, 40), 3)
    ImageDraw.Draw(card).ellipse((30, 20, 60, 50), fill=(200, 30, 30))
    holed = card.copy()
    holed.putpixel((60, 45), (0, 0, 0, 0))  # a middle row that is not opaque: pasted whole
    for sprite in (card, holed):
        for mode in ("RGB", "RGBA"):
            base = Image.new(mode, (200, 150), (10, 120, 200))
            ImageDraw.Draw(base).line((0, 0, 200, 150), fill=(255, 255, 0), width=9)
            pasted, blitted = base.copy(), base.copy()
            pasted.paste(sprite, (-7, 70), sprite)
            sprites.blit(blitted, sprite, (-7, 70))
            assert blitted.tobytes() == pasted.tobytes(), mode
    assert [blend for _, _, blend in sprites._parts(card)] == [True, False, True]
    assert len(sprites._parts(holed)) == 1


def test_a_sprite_is_cut_where_its_rows_stop_being_wholly_opaque() -> None:
    sprite = Image.new("RGBA", (80, 70), (90, 90, 90, 255))
    for y in range(10):  # rows 0-9 not wholly opaque: one pixel short of it is enough
        sprite.putpixel((40, y), (1, 2, 3, 254))
    for y in range(60, 70):  # nor rows 60-69
        sprite.putpixel((3, y), (1, 2, 3, 0 if y % 2 else 200))
    parts = sprites._cut(sprite)
    assert [(offset, part.size, blend) for part, offset, blend in parts] == [
        ((0, 0), (80, 10), True), ((0, 10), (80, 50), False), ((0, 60), (80, 10), True)
    ]  # fmt: skip
    assert [part.tobytes() for part, _, _ in parts] == [
        sprite.crop((0, a, 80, b)).tobytes() for a, b in ((0, 10), (10, 60), (60, 70))
    ]


def test_a_sprite_blitted_over_a_plain_colour_is_the_sprite_blended_there() -> None:
    tile = Image.new("RGBA", (120, 90), (0, 0, 0, 0))
    sprites.rounded(tile, (0, 0, 120, 90), 14, (250, 240, 220), (40, 40, 40), 3)
    for under in ((242, 236, 224), (10, 120, 200)):
        for _ in range(2):  # the second time from the sprite's flattened copy
            base = Image.new("RGB", (200, 150), under)
            ImageDraw.Draw(base).line((150, 0, 200, 20), fill=(255, 255, 0), width=9)  # not under it
            pasted, blitted = base.copy(), base.copy()
            pasted.paste(tile, (33, 41), tile)
            sprites.blit_over(blitted, tile, (33, 41), under)
            assert blitted.tobytes() == pasted.tobytes(), under
    assert set(tile.info["citta_flat"]) == {(242, 236, 224), (10, 120, 200)}


def test_a_rounded_rectangle_drawn_from_its_corners_is_the_one_drawn_whole() -> None:
    rng = random.Random(5)
    colours = [None, (250, 240, 220), (40, 40, 40), (200, 30, 30)]
    from_corners = 0
    for _ in range(300):
        radius = rng.uniform(0.5, 40)
        x0, y0 = rng.uniform(-20, 150), rng.uniform(-20, 100)
        box = (x0, y0, x0 + rng.uniform(2, 260), y0 + rng.uniform(2, 160))
        fill, outline, width = rng.choice(colours), rng.choice(colours), rng.randint(1, 9)
        for mode in ("RGB", "RGBA"):
            base = Image.new(mode, (320, 220), (10, 120, 200, 160))
            ImageDraw.Draw(base).line((0, 0, 320, 220), fill=(255, 255, 0, 90), width=13)
            drawn, whole = base.copy(), base.copy()
            sprites.rounded(drawn, box, radius, fill, outline, width)
            x, y = round(box[0]), round(box[1])
            w, h = round(box[2]) - x, round(box[3]) - y
            r = max(1, min(round(radius), w // 2, h // 2))
            shape = sprites._rounded(w, h, r, fill, outline, width if outline else 0)
            sprites.blit(whole, shape, (x, y))
            assert drawn.tobytes() == whole.tobytes(), (mode, box, radius, fill, outline, width)
        from_corners += min(w, h) > 2 * sprites.corner_size(r, width if outline else 0)
    assert from_corners > 150  # most were drawn from their corners
