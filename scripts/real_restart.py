"""The real bot restarted, for `scripts/bench_bot.py` (its last figures).

``python -m bot`` (through the tests' launcher, ``tests/fakediscord/launch.py``, which starts it in
the same order) with two worker processes, against the fake Discord of the tests on loopback, on an
SQLite file seeded with two running games of two players. The bot is started, a few moves are
played (its workers keep their warm-up beside the database, as in production), and it is stopped
as a deploy stops it (SIGTERM). Then it is started again, `RESTARTS` times, and each time the first
move is made as soon as the restarted bot is ready (its gateway session connected and discord.py's
``ready`` dispatched: the soonest a player can act; the bot connects once it has drawn its running
games ahead, `bot.service.predraw`).

A move is timed from ``/citta play`` to its post, with its pictures, in the channel; the first
move's time is set beside the median of the next `WARM_MOVES`. Discord itself is further away
than loopback (TLS, the gateway's round trips): there a bot is ready later, so on loopback the
time from the start to its being ready is the least a restart takes.
"""

from __future__ import annotations

import asyncio
import random
import signal
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bench_abuse import move_post, started, timed, to_move, user_of  # noqa: E402
from fakediscord import FakeChannel, FakeDiscord  # noqa: E402
from fakediscord.fixtures import serve  # noqa: E402
from fakediscord.process import BotProcess  # noqa: E402

from bot.service.context import Context  # noqa: E402

WARM_MOVES = 5
RESTARTS = 3
PLAYERS = ("alice", "bob")
"""The players of the timed game (in the fake's text channel); carol and dave play the other one."""
DRAWN_AHEAD = "Drew ahead the posts of"
POLL = 0.005
"""Seconds between two looks at whether the restarted bot is ready."""


@dataclass
class RealRestart:
    ready_at: float
    """Seconds from the restarted bot's start to its being ready."""
    moved_at: float
    """Seconds from its start to the first move."""
    first: float
    warm: list[float]

    def line(self) -> str:
        typical = statistics.median(self.warm)
        return (
            f"the real bot restarted, first move as soon as it is ready (ready at {self.ready_at:.2f} s, "
            f"the move at {self.moved_at:.2f} s after start): the first board {self.first * 1000:.0f} ms, "
            f"a warm one {typical * 1000:.0f} ms (median of {len(self.warm)}): "
            f"{self.first / typical:.1f}x (target ≤ 2x)"
        )


async def real_restarts(folder: Path) -> list[RealRestart]:
    """The restarts of the module docstring, the bot's database and warm-up in ``folder``."""
    random.seed(4)
    db = folder / "restart.db"
    async with serve(members=(*PLAYERS, "carol", "dave")) as fake:
        other = await fake.add_text_channel("second-game")
        await _seed(db, fake, fake.channel, other)
        env = {"CITTA_DB": str(db), "CITTA_WORKERS": "2"}
        bot = await fake.spawn_bot(env)
        await bot.ready(60)
        await fake.wait_for(lambda: DRAWN_AHEAD in bot.output(), 60)
        for _ in range(3):
            await move_post(fake, *await to_move(fake, [fake.user(p) for p in PLAYERS]))
        results = []
        for _ in range(RESTARTS):
            await _stop(bot)
            bot, restart = await _restart(fake, env)
            results.append(restart)
        await _stop(bot)
    return results


async def _seed(db: Path, fake: FakeDiscord, *channels: FakeChannel) -> None:
    """A started game of two players in each channel (alice and bob, then carol and dave)."""
    ctx = await Context.open(db, renderer=None)
    try:
        names = iter((*PLAYERS, "carol", "dave"))
        for channel in channels:
            host, other = (user_of(fake, n) for n in (next(names), next(names)))
            await started(ctx, fake, channel, host, other)
    finally:
        await ctx.close()


async def _stop(bot: BotProcess) -> None:
    """Stop the bot as a deploy does (SIGTERM), its posts out first."""
    await asyncio.sleep(2.0)
    bot.proc.send_signal(signal.SIGTERM)
    await bot.wait(30)
    await bot.close()


async def _restart(fake: FakeDiscord, env: dict[str, str]) -> tuple[BotProcess, RealRestart]:
    began = time.perf_counter()
    bot = await fake.spawn_bot(env)
    await bot.ready(60, every=POLL)
    ready_at = time.perf_counter() - began
    players = [fake.user(p) for p in PLAYERS]
    user, move = await to_move(fake, players)  # (as a player's client, which completes the move as typed)
    moved_at = time.perf_counter() - began
    first = await timed(move_post(fake, user, move))
    warm = [await timed(move_post(fake, *await to_move(fake, players))) for _ in range(WARM_MOVES)]
    return bot, RealRestart(ready_at, moved_at, first, warm)
