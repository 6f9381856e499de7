"""A worker process's start-up (`bot.service.workers.ProcessWorkers` runs `warm_worker` in each new
worker before its first job): it dies with the bot, yields the CPU, and warms the renderer.

The warm-up is what a worker costs before it can take a job (measured with `scripts/bench_bot.py`,
figures in docs/deploy.md): the imports (about a quarter of a second of CPU) and what a turn post
needs first, the palette and the phone's tiles and sprites: about a second and a half to draw, a
hundredth to open the file the first worker kept of them (`render.stash`, in `cache_folder` unless
set: each value is read when a post first needs it). Nothing is warmed at the full width: posters
and replays go to the `aside` lane, whose worker starts as this and draws what its job needs
(warming the full width ahead, `render.warm`, would cost 0.7 s of CPU to spare a poster 0.25 s: a
worker started for one request pays less without it)."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
WORKER_NICENESS = 5
PR_SET_PDEATHSIG = 1
CACHE_NAME = "citta-render-cache"
"""The name of the default folder of the workers' kept warm-up (`cache_folder`)."""


def cache_folder(database: Path | str | None) -> Path:
    """Where the workers keep their warm-up by default: beside an SQLite ``database`` (a `Path`:
    the bot may write there, and it outlives a reboot); with PostgreSQL (a URL) or none, in the
    user's cache folder (``$XDG_CACHE_HOME``, else ``~/.cache``), never in a folder all users
    share. Either is made private (``0700``) by `render.stash_file`, which also refuses one that
    is not."""
    if isinstance(database, Path):
        return database.resolve().parent / CACHE_NAME
    home = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(home) if home else Path.home() / ".cache") / CACHE_NAME


def _die_with_parent(parent: int) -> None:
    """End this worker when the bot's process (``parent``) ends, even by SIGKILL (a pool's
    workers would otherwise live on, each holding the renderer's memory): Linux's parent-death
    signal, and elsewhere a thread that watches for the parent to go. A parent that died while
    this worker was starting ends it at once."""
    if os.getppid() != parent:
        os._exit(1)
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL) == 0 and os.getppid() == parent:
            return
    except (OSError, AttributeError):
        pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def warm_worker(
    parent: int, niceness: int = WORKER_NICENESS, cache: Path | None = None, warm_first: bool = False
) -> None:
    """Worker start-up: die with the bot, import the engine and the renderer, build what a turn
    post needs (read from ``cache``, or drawn and kept there for the next worker; None: drawn), and
    lower its priority by ``niceness`` (a game's worker yields the CPU to the event loop's process
    when both want it, an `aside` worker to every other).

    ``warm_first``: the priority is lowered only once warm, as a game's worker is what the first
    board after a restart waits for (the bot itself then mostly waits for Discord); on a host busy
    with other work, a worker warming at the lower priority was ready 0.6–0.8 s after start
    instead of 0.4 s. An `aside` worker warms at its low priority: a replay must not slow a turn."""
    _die_with_parent(parent)
    if not warm_first:
        os.nice(niceness)
    import engine.ai  # noqa: F401
    import render

    render.warm_start(cache)
    if warm_first:
        os.nice(niceness)


TRIM_EVERY = 16
"""Jobs between two trims of a worker's heap (`run_job`)."""
_jobs = 0


def run_job(call: Callable[[], T]) -> T:
    """A job in a worker (or a thread of the bot's process when it has none): ``call()``, and
    after every `TRIM_EVERY`-th the heap's free memory given back to the system (`trim_heap`)."""
    global _jobs
    try:
        return call()
    finally:
        _jobs += 1
        if _jobs % TRIM_EVERY == 0:
            trim_heap()


def trim_heap() -> None:
    """Give the free memory of the process's heap back to the system (glibc's ``malloc_trim``; does
    nothing where there is none).

    **Decision** (issue 31): drawing a post allocates and frees many large pictures; glibc keeps what
    is freed in the heap, in pieces between blocks still used, so a worker's resident memory crept up
    by thousands of posts (a worker's life drawn in one process, 500 games, 4,200 posts: 290 → 348 MB
    with the renderer's caches already full, 214 → 252 MB trimmed every 20 posts, for 0.6 % more
    CPU; `scripts/bench_footprint.py` gives the whole bot's figures). Freed blocks mapped on their
    own instead (``M_MMAP_THRESHOLD`` at 128 KiB–4 MiB) cost 20–65 % more CPU per post."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.lru_cache(maxsize=1)
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    return trim
