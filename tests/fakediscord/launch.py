"""Run the real bot (``bot.__main__.main``) against a fake Discord, in a process of its own.

    FAKE_DISCORD_URL=http://127.0.0.1:PORT DISCORD_TOKEN=fake-bot-token CITTA_DB=/tmp/x.db \\
        CITTA_DEV_GUILD=<guild id> python tests/fakediscord/launch.py

points discord.py's REST base, gateway URL and CDN base at the fake (`point_discord_at`, which
`fixtures.serve` uses in the test process too) and runs the bot's entry point, which reads
DISCORD_TOKEN, CITTA_DB and CITTA_DEV_GUILD. It imports discord.py where the bot does, no sooner
(`_BeforeStartup`): the bot starts its worker processes first, as under ``python -m bot``.
(discord.py's ``Client`` connects to the patched gateway URL without asking ``GET /gateway/bot``; an
``AutoShardedClient`` asks, and the fake answers its own websocket URL there.) Optional settings:

- ``FAKE_CRASH_AT=<module.function or module.Class.method>:<before|after>[:<n>]``: the process kills
  itself with SIGKILL right before the n-th call (default 1) of that function starts, or right after it
  ends (returned or raised). Sync and async functions, static and class methods work; a module function
  is also replaced where other modules imported it by name. A line ``FAKE_CRASH_AT: …`` goes to stderr
  just before. (Installed with the other patches, when the bot imports `STARTUP`: what it calls before
  that, reading its settings, is no target.)
- ``FAKE_SLEEP_SCALE=<factor>``: multiply discord.py's REST retry and rate-limit sleeps by it.
- ``FAKE_GUILD_READY_TIMEOUT=<seconds>`` (default 0.05): how long discord.py waits for more guilds before
  ``on_ready`` (its default: 2 s), as `driver.running` sets it.
- ``FAKE_TICK_SECONDS=<seconds>``: how often the bot's clock ticks (deadlines, reminders; its default: every
  minute), so that a test sees a reminder it made due without waiting a minute.

On stdout it prints ``fakediscord-launch: ready`` (or ``resumed``) whenever discord.py dispatches that
event; `process.BotProcess.ready` waits for it. This module imports nothing from the fakediscord
package: it runs in the bot's process, as a script.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import importlib.abc
import inspect
import os
import signal
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import discord
    import discord.state

ROOT = Path(__file__).resolve().parents[2]  # the project: bot/ is there
READY_MARK = "fakediscord-launch: "


def point_discord_at(http_url: str) -> Callable[[], None]:
    """Send discord.py's REST, gateway and CDN traffic to the fake at ``http_url``; return the undo."""
    import discord.asset
    import discord.gateway
    import discord.http
    import yarl

    url = yarl.URL(http_url)
    if url.host not in ("127.0.0.1", "localhost", "::1"):
        raise ValueError(f"the fake Discord must be on loopback, not {http_url}")
    saved = (
        discord.http.Route.BASE,
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
        discord.asset.Asset.BASE,
    )
    discord.http.Route.BASE = str(url / "api" / "v10")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = url.with_scheme("ws").with_path("/")
    discord.asset.Asset.BASE = str(url / "cdn")  # avatars etc. must not leave loopback either

    def restore() -> None:
        (
            discord.http.Route.BASE,
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
            discord.asset.Asset.BASE,
        ) = saved

    return restore


class _ScaledAsyncio(types.ModuleType):
    """``asyncio`` with ``sleep`` scaled, for discord.py's modules that retry."""

    def __init__(self, factor: float) -> None:
        super().__init__("asyncio")
        self.factor = factor

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float, result: Any = None) -> Any:
        return await asyncio.sleep(delay * self.factor, result)


def scale_discord_sleeps(factor: float) -> Callable[[], None]:
    """Multiply the sleeps of discord.py's REST client and webhook adapter (5xx retries: 1+3+5+7+9 s,
    429 ``retry_after``, rate-limit buckets) by ``factor``; return the undo."""
    import discord.http
    import discord.webhook.async_

    modules = (discord.http, discord.webhook.async_)
    saved = [m.asyncio for m in modules]
    for m in modules:
        m.asyncio = _ScaledAsyncio(factor)  # type: ignore[attr-defined]

    def restore() -> None:
        for m, original in zip(modules, saved, strict=True):
            m.asyncio = original  # type: ignore[attr-defined]

    return restore


def _resolve(target: str) -> tuple[Any, str]:
    """``module.function`` or ``module.Class.method`` → (its module or class, its name)."""
    parts = target.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        name = ".".join(parts[:cut])
        try:
            owner: Any = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name is not None and (name == e.name or name.startswith(e.name + ".")):
                continue  # not a module (a class, a function) or no such module: try a shorter prefix
            raise  # a module of the target lacks one of its own imports
        for attr in parts[cut:-1]:
            owner = getattr(owner, attr)
        getattr(owner, parts[-1])  # AttributeError now, not at the crash
        return owner, parts[-1]
    raise ValueError(f"FAKE_CRASH_AT: cannot import any module of {target!r}")


def _suicide(spec: str) -> None:
    sys.stdout.flush()
    sys.stderr.write(f"FAKE_CRASH_AT: SIGKILL at {spec}\n")
    sys.stderr.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def crash_at(spec: str) -> None:
    """Install ``FAKE_CRASH_AT``: ``<dotted.path>:<before|after>[:<n>]`` (see the module docstring)."""
    target, when, *rest = spec.split(":")
    nth = int(rest[0]) if rest else 1
    if when not in ("before", "after") or nth < 1 or len(rest) > 1:
        raise ValueError(f"FAKE_CRASH_AT must be <dotted.path>:<before|after>[:<n>], not {spec!r}")
    owner, name = _resolve(target)
    raw = inspect.getattr_static(owner, name)
    wrap = type(raw) if isinstance(raw, staticmethod | classmethod) else None
    func = raw.__func__ if wrap is not None else raw
    calls = 0

    def enter() -> bool:
        nonlocal calls
        calls += 1
        if calls == nth and when == "before":
            _suicide(spec)
        return calls == nth and when == "after"

    if inspect.iscoroutinefunction(func):

        @functools.wraps(func)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            hit = enter()
            try:
                return await func(*args, **kwargs)
            finally:
                if hit:
                    _suicide(spec)

    else:

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            hit = enter()
            try:
                return func(*args, **kwargs)
            finally:
                if hit:
                    _suicide(spec)

    setattr(owner, name, wrapper if wrap is None else wrap(wrapper))
    if isinstance(owner, types.ModuleType):  # also where it was imported by name
        for module in list(sys.modules.values()):
            for attr, value in list(vars(module).items()):
                if value is func:
                    setattr(module, attr, wrapper)


def _announce_events(guild_ready_timeout: float) -> None:
    """Print the ready/resumed marks; shorten discord.py's wait for more guilds."""
    import discord
    import discord.state

    dispatch = discord.Client.dispatch

    def announcing(self: discord.Client, event: str, /, *args: Any, **kwargs: Any) -> None:
        if event in ("ready", "resumed"):
            print(READY_MARK + event, flush=True)
        dispatch(self, event, *args, **kwargs)

    discord.Client.dispatch = announcing  # type: ignore[method-assign]
    init = discord.state.ConnectionState.__init__

    def shorter(self: discord.state.ConnectionState, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self.guild_ready_timeout = guild_ready_timeout

    discord.state.ConnectionState.__init__ = shorter  # type: ignore[method-assign]


def tick_every(seconds: float) -> None:
    """Make the bot's clock tick every ``seconds`` (``FAKE_TICK_SECONDS``)."""
    from bot.client.bot import CittaBot

    init = CittaBot.__init__

    def faster(self: CittaBot, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("tick_seconds", seconds)
        init(self, *args, **kwargs)

    CittaBot.__init__ = faster  # type: ignore[method-assign]


class _BeforeStartup(importlib.abc.MetaPathFinder):
    """Runs ``setup`` (the patches, which import discord.py) when the bot first imports
    `STARTUP`, where ``python -m bot`` imports discord.py: the launched bot starts in the same order
    as the real one (its worker processes are started before that import, and warm meanwhile)."""

    def __init__(self, setup: Callable[[], None]) -> None:
        self.setup: Callable[[], None] | None = setup

    def find_spec(self, name: str, path: Any, target: Any = None) -> None:
        if name == STARTUP and self.setup is not None:
            setup, self.setup = self.setup, None
            sys.meta_path.remove(self)
            setup()
        return None  # the module itself is found as usual


STARTUP = "bot.client.startup"
"""The module whose import in ``bot.__main__.main`` first brings discord.py in."""


def _patch(url: str) -> None:
    """Everything the environment asks of the launched bot (see the module docstring)."""
    point_discord_at(url)
    if os.environ.get("FAKE_SLEEP_SCALE"):
        scale_discord_sleeps(float(os.environ["FAKE_SLEEP_SCALE"]))
    _announce_events(float(os.environ.get("FAKE_GUILD_READY_TIMEOUT", "0.05")))
    if os.environ.get("FAKE_TICK_SECONDS"):
        tick_every(float(os.environ["FAKE_TICK_SECONDS"]))
    if os.environ.get("FAKE_CRASH_AT"):
        crash_at(os.environ["FAKE_CRASH_AT"])


def main() -> None:
    url = os.environ.get("FAKE_DISCORD_URL", "")
    if not url:
        sys.exit("launch.py: set FAKE_DISCORD_URL=http://127.0.0.1:PORT (the fake Discord)")
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    sys.meta_path.insert(0, _BeforeStartup(functools.partial(_patch, url)))
    from bot.__main__ import main as bot_main

    bot_main()


if __name__ == "__main__":
    if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
        sys.path.pop(0)  # as a script: this package's files must not shadow top-level modules
    main()
