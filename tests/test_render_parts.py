"""The renderer's small parts: player tags, text the font can show, colours, the PNG writer."""

from __future__ import annotations

import io

from PIL import Image

from engine import Game
from render import encode, palette
from render.fonts import clean
from render.naming import decision_text, tags


def test_player_tags_are_initials_made_longer_only_to_break_ties() -> None:
    assert tags(Game.new(["Ann", "Bob", "Cid"], seed=1).view(None).players) == ["A", "B", "C"]
    assert tags(Game.new(["Ann", "Amy", "Bob"], seed=1).view(None).players) == ["An", "Am", "Bo"]
    assert tags(Game.new(["Al", "Al", "Bo"], seed=1).view(None).players) == ["1", "2", "3"]


def test_text_is_reduced_to_what_the_builtin_font_can_draw() -> None:
    assert clean("Città") == "Citta"
    assert clean("Zoë 🙂") == "Zoe ?"


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
