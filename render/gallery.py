"""Write the sample pictures: ``python -m render.gallery OUT_DIR [--poster] [--lang de]``.

For every sample position: the pictures of its turn post (overview, close-ups, table) as
posted, each also scaled to 360 and 700 px wide (what a phone and a small tablet show), and
their alt texts in ``SAMPLE.txt``; with ``--poster``, the full poster too; all in the language
``--lang`` (default English).
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from PIL import Image

from i18n import LANGUAGES, PSEUDO

from . import render_board, render_post
from .samples import gallery

PHONE_WIDTHS = (360, 700)


def _scaled(png: bytes, width: int) -> Image.Image:
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return img.resize((width, round(img.height * width / img.width)), Image.Resampling.LANCZOS)


def write_gallery(out: Path, poster: bool = False, lang: str = "en") -> list[Path]:
    """Render every gallery sample into ``out`` in language ``lang``; the paths of the pictures
    as posted."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for sample in gallery():
        focus = sample.view.pending[0] if sample.view.pending else None
        pictures = render_post(
            sample.view, highlight=sample.highlight, last_move="(sample)", focus=focus, lang=lang
        )
        alts = []
        for name, png, alt in pictures:
            stem = f"{sample.name}-{name.removesuffix('.png')}"
            path = out / f"{stem}.png"
            path.write_bytes(png)
            paths.append(path)
            for width in PHONE_WIDTHS:
                _scaled(png, width).save(out / f"{stem}-{width}.png")
            alts.append(f"{name}: {alt}")
        (out / f"{sample.name}.txt").write_text("\n\n".join(alts) + "\n")
        if poster:
            path = out / f"{sample.name}-poster.png"
            path.write_bytes(render_board(sample.view, highlight=sample.highlight, lang=lang))
            paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path, help="directory for the PNG files")
    parser.add_argument("--poster", action="store_true", help="also the full poster (for large screens)")
    parser.add_argument(
        "--lang", default="en", choices=[*LANGUAGES, PSEUDO], help="the language (default: en)"
    )
    args = parser.parse_args()
    for path in write_gallery(args.out, args.poster, args.lang):
        print(f"{path}  {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
