"""A worker process's start-up (`bot.service.workers.ProcessWorkers` runs `warm_worker` in each new
worker before its first job): it dies with the bot, yields the CPU, and warms the renderer."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import threading
import time

WORKER_NICENESS = 5
PR_SET_PDEATHSIG = 1


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


def warm_worker(parent: int, niceness: int = WORKER_NICENESS) -> None:
    """Worker start-up: die with the bot, yield the CPU to the event loop's process when both
    want it (and an `aside` worker to every other), import the engine and the renderer, and build
    what every board needs."""
    _die_with_parent(parent)
    os.nice(niceness)
    import engine.ai  # noqa: F401
    import render

    render.warm()
