"""A cached function of the renderer seen as the `functools.lru_cache` wrapper it is, with its
``cache_info`` and ``cache_clear``: `render.stash.stashed` annotates what it makes as the function
it wraps, which keeps the calls typed but not the cache's own methods."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def lru(fn: Callable[..., T]) -> functools._lru_cache_wrapper[T]:
    """``fn`` itself, checked to be an ``lru_cache`` wrapper."""
    assert isinstance(fn, functools._lru_cache_wrapper), fn
    return fn
