"""`render.stash`: a worker's warm-up kept on disk as JSON and raw pixels, in a private folder,
read back exactly, and ignored (then written anew) when it is not whole, not this renderer's, or
not private."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import PIL
import pytest
from isal import isal_zlib
from lru import lru
from PIL import Image

from render import stash, stash_file, warmup
from render.png_palette import palette_image
from render.stash import stashed

ROOT = Path(__file__).resolve().parent.parent
drawn: list[int] = []


@stashed(maxsize=8)
def square(
    side: int, colour: tuple[int, int, int] = (10, 20, 30)
) -> tuple[tuple[Image.Image, tuple[int, int]], ...]:
    """A tile of one piece, as the board's tiles are (`render.supersample.Tile`)."""
    drawn.append(side)
    img = Image.new("RGBa", (side, side), (*colour, 200))
    img.putpixel((0, 0), (side % 256, 1, 2, 3))
    return ((img, (side, -side)),)


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    lru(square).cache_clear()
    drawn.clear()
    stash.forget()
    yield
    lru(square).cache_clear()
    stash.forget()


def keep(folder: Path, *sides: int) -> Path:
    """``folder`` with a file keeping ``square`` of each of ``sides``."""
    stash.record()
    for side in sides:
        square(side)
    square(7, (1, 2, 3))
    path = stash.save(folder)
    assert path is not None
    lru(square).cache_clear()
    drawn.clear()
    return path


def test_what_is_kept_is_read_back_pixel_for_pixel_instead_of_drawn(tmp_path: Path) -> None:
    expected = [square(5), square(300), square(7, (1, 2, 3))]
    lru(square).cache_clear()
    keep(tmp_path, 5, 300)
    assert stash.load(tmp_path)
    read = [square(5), square(300), square(7, (1, 2, 3))]
    assert drawn == []
    for (want, want_at), (got, got_at) in ((w[0], r[0]) for w, r in zip(expected, read, strict=True)):
        assert (got.mode, got.size, got.tobytes(), got_at) == (want.mode, want.size, want.tobytes(), want_at)
    square(6)
    assert drawn == [6], "a call the file does not hold is drawn"


def test_the_file_holds_plain_json_and_pixels_in_a_private_folder(tmp_path: Path) -> None:
    folder = tmp_path / "deep" / "cache"
    path = keep(folder, 5)
    assert (folder.stat().st_mode & 0o777, path.stat().st_mode & 0o777) == (0o700, 0o600)
    data = path.read_bytes()
    assert data.startswith(stash_file.MAGIC)
    size = int.from_bytes(data[len(stash_file.MAGIC) : len(stash_file.MAGIC) + 8], "big")
    index = json.loads(data[len(stash_file.MAGIC) + 8 : len(stash_file.MAGIC) + 8 + size])
    assert index["key"] == stash.key() and len(index["entries"]) == 2
    assert b"pickle" not in data and b"\x80\x04" not in data[: len(stash_file.MAGIC) + 8 + size]


def corrupt_truncated(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-1])


def corrupt_grown(path: Path) -> None:
    path.write_bytes(path.read_bytes() + b"\0")


def corrupt_pixels(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF
    path.write_bytes(bytes(data))


def corrupt_header(path: Path) -> None:
    path.write_bytes(b"\x80\x04garbage" + path.read_bytes()[10:])


def corrupt_index(path: Path) -> None:
    path.write_bytes(path.read_bytes().replace(b'"entries"', b'"entrieZ"', 1))


@pytest.mark.parametrize("damage", [corrupt_truncated, corrupt_grown, corrupt_header, corrupt_index])
def test_a_damaged_file_is_not_read_and_the_pictures_drawn(tmp_path: Path, damage, caplog) -> None:  # type: ignore[no-untyped-def]
    path = keep(tmp_path, 5, 40)
    damage(path)
    with caplog.at_level(logging.WARNING):
        assert not stash.load(tmp_path)
    assert "drawing it anew" in caplog.text
    square(5), square(40), square(7, (1, 2, 3))
    assert drawn == [5, 40, 7]


def test_a_damaged_picture_is_drawn_when_asked_for_and_the_file_removed_for_the_next_worker_to_write(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = keep(tmp_path, 5, 40)
    corrupt_pixels(path)  # the last picture kept: square(7, (1, 2, 3)); the index is whole
    assert stash.load(tmp_path), "the index is read; each picture when asked for"
    square(5)
    assert drawn == [] and path.exists()
    with caplog.at_level(logging.WARNING):
        square(7, (1, 2, 3))
    assert drawn == [7] and "damaged" in caplog.text and "drawing it anew" in caplog.text
    assert not path.exists()
    square(40)
    assert drawn == [7, 40], "nothing more is read from a damaged file"


def test_only_the_index_is_read_at_start_and_each_picture_when_first_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    keep(tmp_path, 5, 40)
    read: list[int] = []
    image = stash_file.Reader.image

    def counted(self: stash_file.Reader, n: int) -> Image.Image:
        read.append(n)
        return image(self, n)

    monkeypatch.setattr(stash_file.Reader, "image", counted)
    assert stash.load(tmp_path)
    assert read == []
    square(40), square(40), square(5)
    assert read == [1, 0] and drawn == [], "each read once, then kept by the cache"


def test_a_file_written_for_another_renderer_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = keep(tmp_path, 5)
    monkeypatch.setattr(stash, "key", lambda: "0" * 24)
    assert not stash.load(tmp_path), "none under this version's name"
    path.rename(stash_file.path_of(tmp_path, stash.key()))
    assert not stash.load(tmp_path), "another version's file under this name"
    square(5)
    assert drawn == [5]


def test_a_file_that_is_not_read_is_written_anew_by_the_warm_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = keep(tmp_path, 5)
    corrupt_header(path)
    monkeypatch.setattr(warmup, "warm_phone", lambda width: square(9))
    lru(palette_image).cache_clear()
    try:
        assert not warmup.warm_start(tmp_path), "drawn, not read"
        stash.forget()
        lru(square).cache_clear()
        lru(palette_image).cache_clear()
        drawn.clear()
        assert warmup.warm_start(tmp_path), "the file written anew is read"
        palette_image()
        square(9)
        assert drawn == []
    finally:
        lru(palette_image).cache_clear()


def test_older_versions_files_and_dead_writers_temporary_files_are_removed(tmp_path: Path) -> None:
    old = tmp_path / "render-0123456789abcdef01234567.stash"
    old.write_bytes(b"old")
    dead = tmp_path / ".render-dead.tmp"
    dead.write_bytes(b"half")
    os.utime(dead, (0, 0))
    writing = tmp_path / ".render-now.tmp"  # another worker writing at this moment
    writing.write_bytes(b"half")
    mine = tmp_path / "notes.txt"
    mine.write_text("not ours")
    path = keep(tmp_path, 5)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([path.name, writing.name, mine.name])


def test_the_file_stays_within_its_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one = len(isal_zlib.compress(square(300)[0][0].tobytes(), stash_file.LEVEL))
    lru(square).cache_clear()
    monkeypatch.setattr(stash_file, "MAX_BYTES", one + one // 2)
    keep(tmp_path, 300, 301)
    assert stash.load(tmp_path)
    square(300), square(301)
    assert drawn == [301], "what did not fit was left out and is drawn"
    monkeypatch.setattr(stash_file, "MAX_BYTES", one - 1)
    stash.forget()
    assert not stash.load(tmp_path), "a file longer than the bound is not read"


def test_a_folder_others_may_write_is_neither_read_nor_written(tmp_path: Path, caplog) -> None:  # type: ignore[no-untyped-def]
    keep(tmp_path, 5)
    tmp_path.chmod(0o777)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with caplog.at_level(logging.WARNING):
        assert not stash.load(tmp_path)
        stash.record()
        square(6)
        assert stash.save(tmp_path) is None
    assert "may be written by others" in caplog.text and "CITTA_RENDER_CACHE" in caplog.text
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_file_others_may_write_or_a_link_is_not_read(tmp_path: Path) -> None:
    path = keep(tmp_path, 5)
    path.chmod(0o666)
    assert not stash.load(tmp_path)
    path.chmod(0o600)
    elsewhere = tmp_path.parent / f"{tmp_path.name}-elsewhere"
    elsewhere.mkdir()
    path.rename(elsewhere / path.name)
    path.symlink_to(elsewhere / path.name)
    assert not stash.load(tmp_path)
    (tmp_path / "link").symlink_to(elsewhere)
    assert not stash.load(tmp_path / "link"), "a folder that is a link"
    square(5)
    assert drawn == [5]


def test_a_folder_or_file_of_another_user_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    keep(tmp_path, 5)
    me = os.geteuid()
    monkeypatch.setattr(os, "geteuid", lambda: me + 1)  # as if the bot ran as another user
    assert not stash.load(tmp_path)
    assert stash_file.private_folder(tmp_path) is None


def test_the_key_changes_with_the_renderers_sources_its_typeface_and_pillow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for package in stash.SOURCES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(stash, "ROOT", tmp_path)
    hashed = stash.key.__wrapped__
    keys = [hashed()]
    face = tmp_path / "render" / "typeface" / "Aileron-Regular.ttf"
    face.write_bytes(face.read_bytes() + b"\0")
    keys.append(hashed())
    source = tmp_path / "render" / "terrain.py"
    source.write_text(source.read_text() + "\n# a change\n")
    keys.append(hashed())
    monkeypatch.setattr(PIL, "__version__", "0.0")  # (the PIL that `stash` names)
    keys.append(hashed())
    assert len(set(keys)) == 4


POSTS = textwrap.dedent(
    """
    import hashlib, random, sys
    from pathlib import Path
    import render
    from render.samples import at, new_game, play
    read = render.warm_start(Path(sys.argv[1]) if sys.argv[1] != "-" else None)
    digest = hashlib.sha256()
    for seed in (3, 4):
        game = new_game(5, seed=seed, setup="experienced" if seed % 2 else "beginner")
        events = play(game, random.Random(seed), at(2, 2))
        for name, png, alt in render.render_post(game.view(None), focus=game.pending_seats()[0]):
            digest.update(name.encode() + png)
    print(read, digest.hexdigest())
    """
)


def posts_in_a_fresh_process(folder: Path | None) -> tuple[str, str]:
    """(whether the warm-up was read, a hash of two posts' pictures) in a new process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", POSTS, str(folder) if folder else "-"],
        capture_output=True, text=True, check=True, env=env, cwd=ROOT,
    ).stdout.split()  # fmt: skip
    return out[0], out[1]


def test_a_worker_that_reads_the_kept_warm_up_draws_the_same_posts_as_one_that_drew_it(
    tmp_path: Path,
) -> None:
    without = posts_in_a_fresh_process(None)
    first = posts_in_a_fresh_process(tmp_path)
    again = posts_in_a_fresh_process(tmp_path)
    assert (without[0], first[0], again[0]) == ("False", "False", "True")
    assert without[1] == first[1] == again[1]
    assert hashlib.sha256(b"").hexdigest() not in (without[1],)
    (path,) = tmp_path.iterdir()
    assert path.stat().st_size < 8 * 2**20, "a few MB, well under the bound"


SAMPLE_AGAIN = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    import render
    from render import stash, warmup
    assert render.warm_start(Path(sys.argv[1]))
    stash.record()  # from now on, every value computed rather than read is noted
    warmup.sample_posts()
    print(sorted({call.split('"')[1] for call in stash._recorded}))
    """
)


def test_a_worker_that_reads_the_kept_warm_up_computes_no_text_corner_or_castle_of_a_sample_post(
    tmp_path: Path,
) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    posts_in_a_fresh_process(tmp_path)  # draws the warm-up and keeps it
    computed = subprocess.run(
        [sys.executable, "-c", SAMPLE_AGAIN, str(tmp_path)],
        capture_output=True, text=True, check=True, env=env, cwd=ROOT,
    ).stdout.strip()  # fmt: skip
    assert computed == "[]", "the sample posts, in every language, find everything they keep in the file"
