"""The file a worker's warm-up is kept in (`render.stash`): plain JSON and raw pixels, in a
private folder, written whole or not at all.

Nothing in it is ever run: the file is an index in JSON (numbers, strings, lists) followed by the
images' pixels, each as ``Image.tobytes()`` compressed in zlib's format (by ISA-L, as the posts'
PNGs are: `render.encode`); an image is made again with
``Image.frombytes`` from the mode and size the index gives. So a file someone else wrote could at
worst show wrong pictures, and the folder is private besides: created ``0700``, its files ``0600``
(`tempfile.mkstemp`), and a folder or file owned by another user, writable by its group or by
others, a symbolic link or not a regular file is not read nor written (a warning in the log
says what to change: the workers draw as well without it).

Layout: `MAGIC`, the index's length (8 bytes, big-endian), the index (UTF-8 JSON), the images'
compressed bytes one after the other. The index holds the key it was written for, each image's
offset, length, CRC-32 of its pixels, mode, size and palette, and the length of them all: a
file of another length (truncated, or grown) is refused at once, and an image whose pixels do
not match their CRC-32 when it is read is refused then (`Damaged`); its caller draws it anew.

Written as a temporary file in the same folder renamed over the old one (`os.replace`), so a
reader sees one whole file or the other; the other files of the folder named like ours (an older
version's) and temporary files left by a writer that died are removed then.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import stat
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, cast

from isal import isal_zlib
from PIL import Image

log = logging.getLogger(__name__)
MAGIC = b"CITTA-RENDER-STASH 1\n"
PREFIX = "render-"
SUFFIX = ".stash"
MAX_BYTES = 24 * 2**20
"""The most pixels a file may hold (24 MiB compressed): `write` leaves out the images past it, a
reader refuses a file that holds more. A game worker's warm-up takes under 3 MiB (57 MB raw)."""
MAX_INDEX = 2**20
"""The most its index may take (1 MiB; a game worker's warm-up takes some 100 kB)."""
LEVEL = 1
"""ISA-L's level (0–3): 1, as the pixels are read while a worker draws (the tiles are mostly
transparent or flat: the 57 MB of a game worker's warm-up take under 3 MB)."""
INFLATE_ERROR = cast("type[Exception]", isal_zlib.error)
"""What ISA-L raises for a stream that is not whole (its stubs do not say it is an exception)."""
STALE_TEMP = 3600.0
"""Seconds after which a temporary file of the folder is taken for a dead writer's and removed."""


class Damaged(Exception):
    """A kept image could not be read whole: its caller draws it anew."""


def _private(st: os.stat_result, regular: bool) -> str | None:
    """What makes ``st`` (a folder, or a ``regular`` file) unsafe to read or write, or None."""
    if regular and not stat.S_ISREG(st.st_mode):
        return "is not a regular file"
    if not regular and not stat.S_ISDIR(st.st_mode):
        return "is not a folder"
    if st.st_uid != os.geteuid():
        return f"belongs to another user (uid {st.st_uid}, the bot runs as {os.geteuid()})"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"may be written by others (mode {stat.S_IMODE(st.st_mode):o}; chmod go-w it)"
    return None


def private_folder(folder: Path) -> Path | None:
    """``folder``, created ``0700`` if missing (and its parents), if it is safe to keep the
    warm-up in (see the module docstring); else None, with a warning saying why."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.lstat(folder)
    except OSError as error:
        log.warning("The renderer's warm-up cannot be kept in %s (%s); workers draw it", folder, error)
        return None
    problem = "is a symbolic link" if stat.S_ISLNK(st.st_mode) else _private(st, regular=False)
    if problem is not None:
        log.warning(
            "The renderer's warm-up is not kept in %s: the folder %s. Use a folder of the bot's own user "
            "that no one else may write (CITTA_RENDER_CACHE); workers draw it at start-up meanwhile",
            folder, problem,
        )  # fmt: skip
        return None
    return folder


def path_of(folder: Path, key: str) -> Path:
    """The file of the renderer whose sources hash to ``key`` in ``folder``."""
    return folder / f"{PREFIX}{key}{SUFFIX}"


def write(
    folder: Path, key: str, entries: list[dict[str, Any]], images: Iterable[Image.Image]
) -> Path | None:
    """Keep ``entries`` (JSON-ready; their images numbered in the order of ``images``) in the
    private ``folder`` for ``key``, replacing the file there, and remove older versions' files:
    the file, or None if it could not be written (logged). Images past `MAX_BYTES` are left out,
    and the entries that use them."""
    if private_folder(folder) is None:
        return None
    blobs: list[bytes] = []
    shapes: list[dict[str, Any]] = []
    offset = 0
    for img in images:
        pixels = img.tobytes()
        blob = isal_zlib.compress(pixels, LEVEL)
        if offset + len(blob) > MAX_BYTES:
            break
        palette = img.getpalette() if img.mode == "P" else None
        shapes.append({"mode": img.mode, "size": list(img.size), "palette": palette,
                       "offset": offset, "length": len(blob), "crc": isal_zlib.crc32(pixels)})  # fmt: skip
        blobs.append(blob)
        offset += len(blob)
    kept = [e for e in entries if max(e["images"], default=-1) < len(shapes)]
    index = {"key": key, "entries": kept, "images": shapes, "pixels": offset}
    head = json.dumps(index, separators=(",", ":")).encode()
    if len(head) > MAX_INDEX:
        log.warning(
            "The renderer's warm-up is not kept: its index takes %d bytes, more than %d", len(head), MAX_INDEX
        )
        return None
    path = path_of(folder, key)
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{PREFIX}", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(MAGIC + len(head).to_bytes(8, "big") + head)
                for blob in blobs:
                    out.write(blob)
            os.replace(temp, path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
        _clean(folder, path)
    except OSError as error:
        log.warning("The renderer's warm-up could not be kept in %s (%s)", folder, error)
        return None
    return path


def _clean(folder: Path, kept: Path) -> None:
    """Remove ``folder``'s other files named like ours (other versions') and stale temporary ones."""
    for other in folder.glob(f"{PREFIX}*{SUFFIX}"):
        if other != kept:
            other.unlink(missing_ok=True)
    for temp in folder.glob(f".{PREFIX}*.tmp"):
        with contextlib.suppress(OSError):
            if time.time() - temp.stat().st_mtime > STALE_TEMP:
                temp.unlink(missing_ok=True)


class Reader:
    """An open kept file: its index read and checked, each image read when asked for (`image`)."""

    def __init__(self, fd: int, index: dict[str, Any], start: int, path: Path) -> None:
        self.fd = fd
        self.entries: list[dict[str, Any]] = index["entries"]
        self.images: list[dict[str, Any]] = index["images"]
        self.start = start
        self.path = path
        self.ino = os.fstat(fd).st_ino

    @classmethod
    def open(cls, folder: Path, key: str) -> Reader | None:
        """The file kept for ``key`` in ``folder``, or None: none there, or unsafe, truncated,
        damaged or another renderer's (logged: the caller draws everything and writes it anew)."""
        if private_folder(folder) is None:
            return None
        path = path_of(folder, key)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
        except FileNotFoundError:
            return None
        except OSError as error:
            log.warning("The renderer's warm-up in %s is not read (%s); drawing it anew", path, error)
            return None
        try:
            st = os.fstat(fd)
            problem = _private(st, regular=True)
            if problem is not None:
                raise ValueError(f"the file {problem}")
            head = os.pread(fd, len(MAGIC) + 8, 0)
            if head[: len(MAGIC)] != MAGIC:
                raise ValueError("it does not start as a kept warm-up does")
            size = int.from_bytes(head[len(MAGIC) :], "big")
            if size > MAX_INDEX or st.st_size - len(MAGIC) - 8 - size > MAX_BYTES:
                raise ValueError(f"it is longer than a kept warm-up may be ({st.st_size} bytes)")
            text = os.pread(fd, size, len(MAGIC) + 8)
            index = json.loads(text)
            _check(index, key, st.st_size - len(MAGIC) - 8 - size)
            return cls(fd, index, len(MAGIC) + 8 + size, path)
        except (OSError, ValueError, KeyError, TypeError) as error:  # json's errors are ValueErrors
            os.close(fd)
            log.warning("The renderer's warm-up in %s is not read (%s); drawing it anew", path, error)
            return None

    def image(self, n: int) -> Image.Image:
        """The ``n``-th image, read now; `Damaged` if its bytes are not those written."""
        shape = self.images[n]
        try:
            blob = os.pread(self.fd, shape["length"], self.start + shape["offset"])
            pixels = isal_zlib.decompress(blob)
            if isal_zlib.crc32(pixels) != shape["crc"]:
                raise ValueError("its pixels do not match their checksum")
            img = Image.frombytes(shape["mode"], tuple(shape["size"]), pixels)
            if shape["palette"] is not None:
                img.putpalette(shape["palette"])
        except (OSError, ValueError, INFLATE_ERROR) as error:
            raise Damaged(f"image {n} of {self.path}: {error}") from error
        return img

    def read(self, numbers: list[int]) -> dict[int, Image.Image]:
        """The images of these ``numbers``, by number (`image`)."""
        return {n: self.image(n) for n in numbers}

    def discard(self) -> None:
        """Stop reading, and remove the file if it is still the one read (it is damaged: the next
        worker that starts writes a whole one)."""
        with contextlib.suppress(OSError):
            if os.stat(self.path).st_ino == self.ino:
                self.path.unlink()
        self.close()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)


def _check(index: Any, key: str, pixels: int) -> None:
    """ValueError unless ``index`` is a well-formed index for ``key`` followed by ``pixels`` bytes."""
    if not isinstance(index, dict) or index.get("key") != key:
        raise ValueError("it was written for another version of the renderer")
    if index.get("pixels") != pixels:
        raise ValueError(f"it holds {pixels} bytes of pixels where {index.get('pixels')} were written")
    images, entries = index["images"], index["entries"]
    if not isinstance(images, list) or not isinstance(entries, list):
        raise ValueError("its index is not a kept warm-up's")
    for shape in images:
        w, h = shape["size"]
        if shape["offset"] < 0 or shape["length"] < 0 or shape["offset"] + shape["length"] > pixels:
            raise ValueError("an image lies outside the file")
        if not (isinstance(w, int) and isinstance(h, int) and 0 < w <= 8192 and 0 < h <= 8192):
            raise ValueError("an image's size is not one the renderer draws")
        if shape["mode"] not in ("RGBa", "RGBA", "RGB", "L", "LA", "P"):
            raise ValueError("an image's mode is not one the renderer draws")
    for entry in entries:
        if not isinstance(entry.get("key"), str) or not all(0 <= i < len(images) for i in entry["images"]):
            raise ValueError("an entry names an image the file does not hold")
