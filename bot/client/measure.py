"""Where the Discord side counts and times (`bot.metrics`): every HTTP answer Discord gives the bot
(`http_trace`: errors and 429s, from discord.py's own HTTP session, so its retries of a 429 are
counted too), and how long each interaction takes to handle (`timed`: commands and autocompletes
in `bot.client.commands.CittaTree`, components at the door)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord

from bot.metrics import Metrics


def http_trace(metrics: Metrics) -> aiohttp.TraceConfig:
    """An aiohttp trace for the bot's HTTP session (``Client(http_trace=…)``) that counts Discord's
    error answers and the requests it did not answer (`Metrics.discord_answer`)."""
    trace = aiohttp.TraceConfig()

    async def answered(session: aiohttp.ClientSession, context: SimpleNamespace,
                       params: aiohttp.TraceRequestEndParams) -> None:  # fmt: skip
        metrics.discord_answer(params.response.status)

    async def unanswered(session: aiohttp.ClientSession, context: SimpleNamespace,
                         params: aiohttp.TraceRequestExceptionParams) -> None:  # fmt: skip
        metrics.discord_answer(None)

    trace.on_request_end.append(answered)
    trace.on_request_exception.append(unanswered)
    return trace


@contextlib.contextmanager
def timed(interaction: discord.Interaction[Any], kind: str) -> Iterator[None]:
    """Time what the block does with ``interaction`` as one of ``kind`` (`bot.metrics.INTERACTIONS`),
    on the metrics of the bot it came to."""
    metrics = getattr(interaction.client, "metrics", None)
    started = time.perf_counter()
    try:
        yield
    finally:
        if isinstance(metrics, Metrics):
            metrics.interactions.labels(kind=kind).observe(time.perf_counter() - started)
