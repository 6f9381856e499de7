"""Bands kept between pictures (`render.bands`): a table whose bands were written before is
the same picture as one drawn whole, whatever was kept; what is kept stays within its bound."""

from __future__ import annotations

import io
import os
import random
import zlib
from collections.abc import Iterator

import pytest
from PIL import Image

from i18n import speaking
from render import bands, encode
from render.png_palette import palette_image
from render.samples import choose, new_game
from render.sheet import draw_sheet, sheet_png


def pixels(png: bytes) -> tuple[tuple[int, int], bytes]:
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return img.size, img.tobytes()


@pytest.fixture(autouse=True)
def nothing_kept() -> Iterator[None]:
    bands.forget()
    yield
    bands.forget()


def test_checksums_of_two_parts_combine_as_zlib_computes_the_whole() -> None:
    rng = random.Random(3)
    for first, second in [(b"", b""), (b"a", b""), (b"", b"z"), (b"\xff" * 70_000, b"\xff" * 90_000)]:
        assert encode.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second)) == zlib.adler32(
            first + second
        )
    for _ in range(20):
        first, second = rng.randbytes(rng.randrange(200_000)), rng.randbytes(rng.randrange(200_000))
        assert encode.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second)) == zlib.adler32(
            first + second
        )


def test_segments_written_apart_make_the_png_of_the_whole_picture() -> None:
    palette = palette_image()
    parts = [Image.frombytes("RGB", (300, h), os.urandom(300 * h * 3)) for h in (1, 7, 40)]
    whole = Image.new("RGB", (300, 48))
    for part, y in zip(parts, (0, 1, 8), strict=True):
        whole.paste(part, (0, y))
    png = encode.segments_png(300, [encode.segment(p, palette) for p in parts], palette)
    assert pixels(png) == pixels(encode.png(whole, palette))
    zlib.decompress(png[png.index(b"IDAT") + 4 : png.rindex(b"IEND") - 8])  # checksum included


def test_a_table_from_kept_bands_is_the_table_drawn_whole_in_every_phase_view_and_language() -> None:
    checked, taken = 0, 0
    for seed in range(4):
        game, rng = new_game(3 + seed % 3, 700 + seed), random.Random(seed)
        lang = ("en", "de", "fr", "nl")[seed]
        k = 0
        while not game.is_over:
            seat = game.pending_seats()[0]
            game.play(seat, choose(game, seat, rng))
            k += 1
            if k % 9 and not game.is_over:
                continue
            for viewer in (None, *range(len(game.state.players))):  # peeks differ by viewer
                view = game.view(viewer)
                with speaking(lang):
                    before = len(bands._kept)
                    kept = sheet_png(view)
                    taken += len(bands._kept) == before
                    drawn = encode.png(draw_sheet(view), palette_image())
                assert pixels(kept) == pixels(drawn), (seed, k, viewer, game.state.phase)
                checked += 1
    assert checked > 60 and taken > 20, (checked, taken)


def test_a_band_written_before_is_taken_not_drawn_again() -> None:
    drawn: list[str] = []

    def band(name: str, colour: tuple[int, int, int]) -> bands.Band:
        def draw() -> Image.Image:
            drawn.append(name)
            return Image.new("RGB", (20, 5), colour)

        return (name if name != "header" else None, draw)

    first = bands.png(20, [band("header", (0, 0, 0)), band("player", (9, 9, 9))])
    again = bands.png(20, [band("header", (0, 0, 0)), band("player", (9, 9, 9))])
    assert drawn == ["header", "player", "header"], "a band without a key is drawn every time"
    assert first == again
    with speaking("de"):
        bands.png(20, [band("player", (9, 9, 9))])
    assert drawn[-1] == "player", "kept per language"


def test_the_kept_bands_stay_within_their_bound_the_oldest_going_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bands, "KEPT_BYTES", 3000)
    rng = random.Random(5)
    for k in range(40):
        noise = Image.frombytes("RGB", (40, 10), rng.randbytes(1200))

        def draw(img: Image.Image = noise) -> Image.Image:
            return img

        bands.png(40, [(k, draw)])
        assert bands._kept_bytes == sum(len(s.data) for s in bands._kept.values()) <= 3000
    assert 0 < len(bands._kept) < 40 and list(bands._kept)[-1] == ("en", 40, 39)
