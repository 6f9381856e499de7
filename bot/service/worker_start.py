"""A worker process's start-up (`bot.service.workers.ProcessWorkers` runs `warm_worker` in each new
worker before its first job): it dies with the bot, yields the CPU, and warms the renderer.

The warm-up is what a worker costs before it can take a job (measured with
`scripts/bench_bot.py`, figures in docs/deploy.md): the imports (about a quarter of a second of
CPU) and what a turn post needs first, the palette and the phone's tiles and sprites: about a
second and a half to draw, under a tenth to read from the file the first worker kept of them
(`render.stash`, in `cache_folder` unless set). A game's worker draws nothing at the full width:
posters and replays go to the `aside` lane, whose worker warms that too."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import threading
import time
from pathlib import Path

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
    parent: int, niceness: int = WORKER_NICENESS, cache: Path | None = None, full: bool = False
) -> None:
    """Worker start-up: die with the bot, yield the CPU to the event loop's process when both
    want it (and an `aside` worker to every other), import the engine and the renderer, and build
    what a turn post needs (read from ``cache``, or drawn and kept there for the next worker;
    None: drawn); with ``full`` (the `aside` lane's worker) also what a full-width board needs."""
    _die_with_parent(parent)
    os.nice(niceness)
    import engine.ai  # noqa: F401
    import render

    render.warm_start(cache)
    if full:
        render.warm()
