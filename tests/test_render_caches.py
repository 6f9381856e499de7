"""The renderer's caches: every one is bounded, none grows with the games drawn, and a
layout not seen before (every experienced game has its own) is drawn from parts already made."""

from __future__ import annotations

import importlib
import pkgutil
import struct
from types import ModuleType
from typing import Any

import pytest
from lru import lru

import render
from engine import Game
from engine.views import View
from render import render_board, warm
from render.compose import compose
from render.geometry import geometry
from render.landscape import layout_key, path_hex
from render.png_palette import palette_image
from render.samples import NAMES, new_game
from render.terrain import Layout, area_tile, sample_layouts


def modules() -> list[ModuleType]:
    return [importlib.import_module(f"render.{m.name}") for m in pkgutil.iter_modules(render.__path__)]


def caches() -> dict[str, Any]:
    """Every function cache defined in the renderer, by qualified name."""
    return {
        f"{m.__name__}.{name}": obj
        for m in modules()
        for name, obj in vars(m).items()
        if hasattr(obj, "cache_info") and getattr(obj, "__module__", None) == m.__name__
    }


def containers() -> dict[str, int]:
    """The size of every dict, list and set held by a renderer module."""
    return {
        f"{m.__name__}.{name}": len(obj)
        for m in modules()
        for name, obj in vars(m).items()
        if not name.startswith("__") and isinstance(obj, dict | list | set)
    }


def experienced(seed: int, players: int = 4) -> Game:
    return Game.new(NAMES[:players], seed=seed, setup="experienced")


def palette_chunk(png: bytes) -> bytes:
    """The PLTE chunk's data of a PNG."""
    pos = 8
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        if png[pos + 4 : pos + 8] == b"PLTE":
            return png[pos + 8 : pos + 8 + length]
        pos += 12 + length
    raise AssertionError("no PLTE chunk")


def test_the_renderer_has_its_caches_and_each_has_a_bound() -> None:
    found = caches()
    for name in ("render.terrain.area_tile", "render.landscape.path_hex", "render.fonts._mask"):
        assert name in found
    unbounded = [name for name, c in found.items() if c.cache_info().maxsize is None]
    assert unbounded == []


def with_layout(view: View, layout: Layout) -> View:
    """``view`` with the terrain of ``layout``."""
    areas = [
        a.model_copy(update={"terrain": t, "wheat": w})
        for a, (_, t, w) in zip(view.areas, layout, strict=True)
    ]
    return view.model_copy(update={"areas": areas})


def test_drawing_more_than_the_caches_hold_keeps_every_cache_within_its_bound() -> None:
    before = containers()
    tiles = lru(area_tile).cache_info()
    assert tiles.maxsize is not None
    view = experienced(1).view(None)
    for width in (600, 700, 800):  # every tile in every slot at three widths: more than is kept
        for layout in sample_layouts():
            compose(with_layout(view, layout), width=width)
    assert lru(area_tile).cache_info().misses - tiles.misses > tiles.maxsize
    for name, c in caches().items():
        info = c.cache_info()
        assert info.currsize <= info.maxsize, name
    assert lru(area_tile).cache_info().currsize == lru(area_tile).cache_info().maxsize
    assert containers() == before


def test_a_layout_not_seen_before_is_drawn_from_parts_already_made() -> None:
    warm()
    made = {"tiles": lru(area_tile), "hexes": lru(path_hex), "palette": lru(palette_image)}
    before = {k: c.cache_info().misses for k, c in made.items()}
    layouts = set()
    for seed in range(500, 508):
        view = experienced(seed, players=2 + seed % 4).view(None)
        layouts.add(layout_key(view))
        render_board(view)
    assert len(layouts) == 8
    assert {k: c.cache_info().misses for k, c in made.items()} == before


def test_two_different_layouts_give_different_boards() -> None:
    a, b = experienced(31).view(None), experienced(32).view(None)
    assert layout_key(a) != layout_key(b)
    ia, ib = compose(a), compose(b)
    board = (0, 0, ia.width, geometry(ia.width).board_height)
    assert ia.crop(board).tobytes() != ib.crop(board).tobytes()
    assert render_board(a) != render_board(b)


@pytest.mark.parametrize("width", [1400, 900])
def test_every_board_is_written_in_the_same_palette(width: int) -> None:
    views = [experienced(41).view(None), experienced(42, players=2).view(0), new_game(5, 3).view(None)]
    chunks = {palette_chunk(render_board(v, width=width)) for v in views}
    assert len(chunks) == 1
    assert len(chunks.pop()) == 768
