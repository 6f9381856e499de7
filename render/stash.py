"""A worker's warm-up kept on disk: what every game worker draws the same way at start-up (the
palette, the phone's tiles and sprites: about a second and a half of CPU) is written once, and a
worker started later — after a restart, or in place of one over its memory budget — reads what
it needs of it instead of drawing it (`render.warmup.warm_start`).

The functions whose results may be kept are cached with `stashed` (an ``lru_cache`` that, on a
miss, first takes the value kept in the file `load` opened, if there is one). At start-up only
the file's index is read; each value is read when first asked for (about 0.06 ms of CPU each,
most of it inflating its pixels), so a worker reads only what its posts draw: reading the whole
file (some 57 MB of pixels from under 3 MB) took a tenth of a second of CPU before a worker could
take a job, which a restart's first boards waited for, and a first post reads under a third of
its values. A damaged value is known when it is read: it is drawn instead, and the file removed for the
next worker to write whole.
`record` notes every value they compute; `save` writes those (`render.stash_file`: JSON and raw
pixels, never code, in a private folder).

The file's name holds a key (`key`): a hash of everything that decides the pixels — the
renderer's sources and typeface, the engine's and the words' modules, Pillow's and FreeType's
versions, Python's — so a renderer that draws differently never reads another one's file (a new
one is written beside it, and the old one removed). What is read equals what would be drawn:
images are kept as their exact pixels (tests/test_render_stash.py compares whole posts).
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import logging
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import PIL
from PIL import Image, features

from . import stash_file
from .stash_file import Damaged, Reader

log = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Any])
ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("render", "engine", "i18n")
"""The packages whose files are hashed into `key` (``.py`` files, and every file of the renderer's
folders: its typeface)."""
_kept: dict[str, dict[str, Any]] = {}
"""The entries of the file opened (`load`) not yet taken by their function's cache, by call."""
_reader: Reader | None = None
"""The file opened (`load`), its values read when first asked for (`_take`)."""
_recorded: dict[str, Any] | None = None
"""Values computed while recording, by call (None: not recording)."""
_MISSING = object()
_local = threading.local()
"""``depth``: `stashed` functions being computed now in this thread. Only the outermost one's
value is noted: a worker that reads it will not compute the inner ones (the palette is picked from
full-width tiles and sprites, which a turn post never needs)."""


def stashed(maxsize: int | None) -> Callable[[F], F]:
    """``functools.lru_cache(maxsize)`` for a function whose results may be kept on disk: on a
    miss the value kept in the file read (`load`) is taken if there is one, else it is computed,
    and noted while `record`-ing unless another such function asked for it. Its arguments are
    keyed by name, defaults filled."""

    def wrap(fn: F) -> F:
        name = f"{fn.__module__}.{fn.__qualname__}"
        signature = inspect.signature(fn)

        @functools.lru_cache(maxsize=maxsize)
        @functools.wraps(fn)
        def cached(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            call = _call_key(name, tuple(bound.arguments.values()))
            value = _take(call) if call is not None else _MISSING
            if value is not _MISSING:
                return value
            _local.depth = getattr(_local, "depth", 0) + 1
            try:
                value = fn(*args, **kwargs)
            finally:
                _local.depth -= 1
            if _recorded is not None and _local.depth == 0 and call is not None:
                _recorded[call] = value
            return value

        return cached  # type: ignore[return-value]

    return wrap


@functools.lru_cache(maxsize=1)
def key() -> str:
    """The hash naming a kept file: of everything that decides what the kept values are."""
    digest = hashlib.sha256(stash_file.MAGIC)
    versions = (PIL.__version__, features.version("freetype2"), sys.version_info[:2])
    digest.update(repr(versions).encode())
    for package in SOURCES:
        folder = ROOT / package
        files = folder.rglob("*") if package == "render" else folder.glob("*.py")
        for path in sorted(p for p in files if p.is_file() and "__pycache__" not in p.parts):
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:24]


def record() -> None:
    """From now on, note every value a `stashed` function computes (for `save`)."""
    global _recorded
    _recorded = {}


def load(folder: Path) -> bool:
    """Open this renderer's file in ``folder`` and read its index: each value is read when its
    function first asks for it (`_take`); whether it holds any. Missing, unsafe, truncated or
    another version's: False (logged, but for a missing one)."""
    global _reader
    reader = Reader.open(folder, key())
    if reader is None:
        return False
    _close()
    _reader = reader
    _kept.update((e["key"], e) for e in reader.entries)
    return bool(reader.entries)


def _take(call: str) -> Any:
    """The value kept for ``call`` in the file opened, read now (once: its function's cache keeps
    it); `_MISSING` if there is none. A damaged one is drawn anew, and the file is removed for the
    next worker to write whole (logged)."""
    reader, entry = _reader, _kept.pop(call, None)
    if reader is None or entry is None:
        return _MISSING
    try:
        return _decode(entry["value"], reader.read(entry["images"]))
    except Damaged as error:
        log.warning("The renderer's warm-up kept in %s is damaged (%s); drawing it anew", reader.path, error)
        _close(discard=True)
        return _MISSING


def _close(*, discard: bool = False) -> None:
    """Stop reading the file opened (``discard``: and remove it) and drop what was not taken."""
    global _reader
    reader, _reader = _reader, None
    _kept.clear()
    if reader is not None and discard:
        reader.discard()
    elif reader is not None:
        reader.close()


def save(folder: Path) -> Path | None:
    """Write the values noted since `record` to ``folder`` and stop recording: the file, or None
    if it could not be written (logged: a worker draws as well without it)."""
    global _recorded
    values, _recorded = _recorded or {}, None
    images: list[Image.Image] = []
    entries = []
    for call, value in values.items():
        first = len(images)
        try:
            encoded = _encode(value, images)
        except TypeError:  # a value of a kind not kept: drawn by every worker
            del images[first:]
            continue
        entries.append({"key": call, "value": encoded, "images": list(range(first, len(images)))})
    return stash_file.write(folder, key(), entries, images)


def forget() -> None:
    """Close the file opened, drop what was not taken, and stop recording (tests)."""
    global _recorded
    _close()
    _recorded = None


def _call_key(name: str, args: tuple[Any, ...]) -> str | None:
    """A call's key in the file: its function and arguments in JSON (None: arguments JSON cannot hold)."""
    try:
        return json.dumps([name, _encode(args, [])], separators=(",", ":"))
    except TypeError:
        return None


def _encode(value: Any, images: list[Image.Image]) -> Any:
    """``value`` as JSON can hold it: a tuple as ``{"tuple": [...]}``, an image as ``{"image": n}``
    (its number in ``images``, where it is appended); TypeError for anything else."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, tuple):
        return {"tuple": [_encode(v, images) for v in value]}
    if isinstance(value, Image.Image):
        images.append(value)
        return {"image": len(images) - 1}
    raise TypeError(f"{type(value).__name__} is not kept")


def _decode(value: Any, images: dict[int, Image.Image]) -> Any:
    """The value `_encode` wrote (its images already read); `Damaged` if it is not one."""
    if isinstance(value, dict):
        if isinstance(value.get("tuple"), list):
            return tuple(_decode(v, images) for v in value["tuple"])
        if value.get("image") in images:
            return images[value["image"]]
        raise Damaged(f"a kept value is not one the renderer writes: {str(value)[:80]}")
    if isinstance(value, list):
        raise Damaged("a kept value is not one the renderer writes: a list")
    return value
