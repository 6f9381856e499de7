"""Running the bot: log in, retrying while Discord cannot be reached, and stop on SIGTERM or SIGINT.

A network that is down at start is retried with a growing delay (`retry_delays`), one log
line per try; a token Discord refuses is fatal (`fatal_reason` says what to fix). SIGTERM
(``docker stop``) and SIGINT (Ctrl-C) close the bot as discord.py's own ``Client.run`` does:
the running task is cancelled and ``async with`` closes the client, its loops and database.

>>> list(itertools.islice(retry_delays(), 8))
[2, 4, 8, 16, 32, 60, 60, 60]
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import signal
from collections.abc import Callable, Iterator

import aiohttp
import discord

from bot.client.bot import CittaBot
from bot.config import Settings
from bot.service.workers import Workers, bot_workers
from bot.web.server import WebServer

log = logging.getLogger("bot")
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def retry_delays(first: int = 2, cap: int = 60) -> Iterator[int]:
    """Seconds to wait before each new try: doubling from ``first``, never more than ``cap``."""
    delay = first
    while True:
        yield min(delay, cap)
        delay = min(delay * 2, cap)


def is_network_error(error: BaseException) -> bool:
    """Whether ``error`` means Discord could not be reached (worth another try), not a refusal."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500
    return isinstance(error, OSError | aiohttp.ClientError)  # OSError covers TimeoutError


def describe(error: BaseException) -> str:
    """``error`` in a few words, for a one-line log message."""
    if isinstance(error, discord.HTTPException):
        return f"Discord answered {error.status} {error.response.reason or ''}".rstrip()
    if isinstance(error, TimeoutError):
        return "no answer in time"
    return str(error) or type(error).__name__


def fatal_reason(error: BaseException) -> str | None:
    """One line saying what to fix when ``error`` is a setting Discord refused, else None."""
    if isinstance(error, discord.LoginFailure):
        return "Discord refused the token: check DISCORD_TOKEN (Developer Portal → Bot → Reset Token)."
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return (
            "Discord refused the bot's gateway intents: turn them on under Developer Portal → Bot → "
            "Privileged Gateway Intents."
        )
    return None


async def serve(settings: Settings, web: WebServer | None = None, workers: Workers | None = None) -> None:
    """Log in and run until the bot is closed; a fresh client for each try while Discord is unreachable
    (each attached to the web server ``web``, when there is one). The first try's client takes
    ``workers`` when given (started early: `bot.__main__`); each client closes its own."""
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False  # no voice, so no warning about it
    delays = retry_delays()
    for attempt in itertools.count(1):
        first, workers = workers, None
        async with CittaBot(
            db_path=settings.db_path, dev_guild=settings.dev_guild, shard_count=settings.shard_count,
            shard_ids=settings.shard_ids, workers=first or bot_workers(settings),
            lobbies_per_member=settings.lobbies_per_member, lobby_days=settings.lobby_days, web=web,
        ) as bot:  # fmt: skip
            try:
                await bot.start(settings.token)
                return
            except Exception as e:
                if not is_network_error(e):
                    raise
                reason = describe(e)
        delay = next(delays)
        log.warning("Cannot reach Discord (try %d: %s); next try in %d s.", attempt, reason, delay)
        await asyncio.sleep(delay)


def _on_signals(loop: asyncio.AbstractEventLoop, callback: Callable[[signal.Signals], None]) -> list[int]:
    """Call ``callback`` on SIGINT and SIGTERM; the signals handled (none where the loop cannot)."""
    handled: list[int] = []
    for sig in STOP_SIGNALS:
        try:
            loop.add_signal_handler(sig, callback, sig)
        except (NotImplementedError, RuntimeError):  # Windows: Ctrl-C still raises KeyboardInterrupt
            continue
        handled.append(sig)
    return handled


async def run(settings: Settings, workers: Workers | None = None) -> None:
    """Run the bot until it closes or a stop signal comes; raises what ended it otherwise. The web
    server (``CITTA_WEB_PORT``) is started first and stopped last: ``/healthz`` answers while the
    bot waits for Discord, and ``/readyz`` says what it waits for. ``workers``: already started
    (`bot.__main__`); closed here if the bot never took them."""
    web = WebServer(settings.web) if settings.web is not None else None
    try:
        if web is not None:
            await web.start()
        try:
            await _run(settings, web, workers)
        finally:
            if web is not None:
                await web.stop()
    finally:
        if workers is not None:
            workers.close()  # (closed already by a bot that took them: closing again does nothing)


async def _run(settings: Settings, web: WebServer | None, workers: Workers | None) -> None:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()

    def on_signal(sig: signal.Signals) -> None:
        if not stop.is_set():
            log.info("Stopping (%s)…", sig.name)
            stop.set()

    handled = _on_signals(loop, on_signal)
    bot_task = asyncio.create_task(serve(settings, web, workers))
    stop_task = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait({bot_task, stop_task}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop_task.cancel()
        if not bot_task.done():
            bot_task.cancel()  # CittaBot.__aexit__ closes the client, its loops and the database
            with contextlib.suppress(asyncio.CancelledError):
                await bot_task
        for sig in handled:
            loop.remove_signal_handler(sig)
    if not bot_task.cancelled():
        bot_task.result()
