"""Write the sample images: ``python -m render.gallery OUT_DIR [--half]``."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from PIL import Image

from . import render_board
from .samples import gallery


def write_gallery(out: Path, half: bool = False) -> list[Path]:
    """Render every gallery sample into ``out`` (and a half-size copy with ``half``)."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for sample in gallery():
        png = render_board(sample.view, highlight=sample.highlight)
        path = out / f"{sample.name}.png"
        path.write_bytes(png)
        paths.append(path)
        if half:
            img = Image.open(io.BytesIO(png)).convert("RGB")
            img.resize((img.width // 2, img.height // 2), Image.Resampling.LANCZOS).save(
                out / f"{sample.name}-50.png"
            )
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path, help="directory for the PNG files")
    parser.add_argument("--half", action="store_true", help="also write half-size copies (phone check)")
    args = parser.parse_args()
    for path in write_gallery(args.out, args.half):
        print(f"{path}  {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
