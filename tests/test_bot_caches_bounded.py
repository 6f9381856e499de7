"""What a long-running bot and its workers keep beside the renderer (whose caches
`tests/test_render_caches.py` checks): every function cache of the engine, the translations and
the bot has a bound, so nothing they keep grows with the games, languages or layouts seen."""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import Any

import pytest

import bot
import engine
import i18n


def modules(package: ModuleType) -> list[ModuleType]:
    names = [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
    return [package, *(importlib.import_module(n) for n in names if not n.endswith("__main__"))]


def caches(package: ModuleType) -> dict[str, Any]:
    return {
        f"{m.__name__}.{name}": obj
        for m in modules(package)
        for name, obj in vars(m).items()
        if hasattr(obj, "cache_info") and getattr(obj, "__module__", None) == m.__name__
    }


@pytest.mark.parametrize("package", [engine, i18n, bot], ids=lambda p: p.__name__)
def test_every_function_cache_has_a_bound(package: ModuleType) -> None:
    found = caches(package)
    unbounded = sorted(name for name, cache in found.items() if cache.cache_info().maxsize is None)
    assert unbounded == [], f"caches without a bound: {unbounded}"


def test_the_caches_checked_include_those_of_the_engine_and_the_translations() -> None:
    assert {"engine.words.is_term_key", "engine.ai.knowledge._odds"} <= caches(engine).keys()
    assert "i18n.lang" in caches(i18n)
