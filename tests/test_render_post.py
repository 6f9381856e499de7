"""The pictures a move posts: readable on a phone (every text at least 1/36 of the picture's
width) in every language, each with alt text, and only what the spectator may see."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from i18n import LANGUAGES
from render import encode, fonts, render_post
from render.closeup import closeup_parts, closeup_regions, draw_closeup
from render.palette import BACKGROUND, PAPER
from render.png_palette import palette_image
from render.post import WIDTH
from render.samples import Sample, gallery

SAMPLES = gallery()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("sample", SAMPLES, ids=[s.name for s in SAMPLES])
def test_every_text_of_every_posted_picture_is_at_least_a_36th_of_its_width(
    sample: Sample, lang: str
) -> None:
    fonts.too_small.clear()
    focus = sample.view.pending[0] if sample.view.pending else None
    pictures = render_post(
        sample.view, highlight=sample.highlight, last_move="build farm D13", focus=focus, lang=lang
    )
    assert fonts.too_small == [], fonts.too_small[:5]
    names = [name for name, _, _ in pictures]
    assert names[0] == "board.png" and names[-1] == "table.png" and 3 <= len(names) <= 4, names
    for name, png, alt in pictures:
        img = Image.open(io.BytesIO(png))
        assert img.format == "PNG" and img.width == WIDTH, (name, img.size)
        assert 0 < len(alt) <= 1024, (name, len(alt))


def test_the_first_close_up_frames_the_last_move() -> None:
    sample = next(s for s in SAMPLES if s.highlight)
    pictures = render_post(sample.view, highlight=sample.highlight, last_move="", focus=None)
    assert pictures[1][0] == "closeup-1.png" and "Last move" in pictures[1][2], pictures[1][2]


def test_the_rule_is_kept_when_a_layout_asks_for_less() -> None:
    fonts.too_small.clear()
    img = Image.new("RGB", (720, 100))
    with fonts.picture(720) as least:
        fonts.text(img, (0, 0), "tiny", 8, (255, 255, 255))
    assert least == 20 and [(t.text, t.size, t.smallest) for t in fonts.too_small] == [("tiny", 8, 20)]
    fonts.too_small.clear()


@pytest.mark.parametrize("sample", SAMPLES[:4], ids=[s.name for s in SAMPLES[:4]])
def test_a_close_up_written_from_its_parts_is_the_close_up(sample: Sample) -> None:
    """`render_post` writes a close-up's title strip and board into one PNG without pasting
    them together: the same PNG as the pasted picture's, and the title stays on its strip."""
    focus = sample.view.pending[0] if sample.view.pending else None
    for region in closeup_regions(sample.view, sample.highlight, focus):
        strip, board = closeup_parts(sample.view, region, sample.highlight, WIDTH)
        whole = draw_closeup(sample.view, region, sample.highlight, WIDTH)
        assert encode.stacked_png([strip, board], palette_image()) == encode.png(whole, palette_image())
        assert Image.open(io.BytesIO(encode.png(whole, palette_image()))).convert("RGB").tobytes() == (
            whole.quantize(palette=palette_image(), dither=Image.Dither.NONE).convert("RGB").tobytes()
        )
        with fonts.picture(WIDTH) as least:  # the title fits its strip: nothing of it is cut off
            title = Image.new("RGB", (WIDTH, strip.height * 3), BACKGROUND)
            size = fonts.fit(region.title, round(least * 1.15), WIDTH - 1.6 * least, True, least)
            fonts.text(title, (least * 0.8, strip.height * 1.5), region.title, size, PAPER, "lm", True)
        ink = ImageChops.difference(title, Image.new("RGB", title.size, BACKGROUND)).getbbox()
        assert ink is not None and strip.height <= ink[1] and ink[3] <= 2 * strip.height, (ink, strip.height)
