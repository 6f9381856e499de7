"""One process's share of the load benchmark (`bench_load.py` starts one or two of these).

It opens the service layer on the shared database as the bot does (`Context` with the
worker-process pool, `ProcessWorkers`, drawing every turn post's pictures with the real
renderer) and the bot's delivery task (`Deliverer`) with a stand-in for Discord that accepts
every post at once. It sets up its games, then runs the phases the coordinator asks for on
stdin, one line each:

- ``saturate MOVES``: every game makes MOVES moves, each as soon as the previous one is posted;
- ``paced RATE SECONDS``: moves arrive at random at about RATE per second over this process's
  games (each game waits an exponential time after its last post), for SECONDS;
- ``quit``.

A move is what a player does in Discord: autocomplete (`Context.choices`), ``/citta play``
(`Context.play`: checked by the engine, the pictures drawn in a worker, stored with its
post in one transaction), then the announcement handed to the delivery task and waited for, as
`CittaBot.announce` does. Its latency runs from ``play`` to the post marked sent. After each
phase one JSON line reports the latencies and the CPU time by where it was spent.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import functools
import inspect
import itertools
import json
import os
import random
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.client.sender import DiscordSender
from bot.ids import parse_custom_id
from bot.results import Outcome, User
from bot.service import advance as svc_advance
from bot.service import choices as svc_choices
from bot.service import lobby as svc_lobby
from bot.service import moves as svc_moves
from bot.service.context import Context
from bot.service.delivery import Deliverer
from bot.service.workers import ProcessWorkers
from bot.storage.protocol import PARTS
from bot.storage.shards import Shards
from engine import Game

ENGINE = ("new", "replay", "restore", "snapshot", "record", "pending_seats", "pending_decisions",
          "legal_moves", "view", "waiting_for", "check", "play", "default_move")  # fmt: skip
"""The methods of `engine.Game` whose time counts as the engine's."""
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Waits:
    """What one move waited for (wall seconds)."""

    storage: float = 0.0
    workers: float = 0.0


@dataclass
class Meter:
    """Where this process spends its time: the engine's CPU on the event loop's thread, and the
    wall time moves spend awaiting the storage and the worker pool."""

    engine: float = 0.0
    delivery_storage: float = 0.0
    move: contextvars.ContextVar[Waits | None] = field(
        default_factory=lambda: contextvars.ContextVar("move", default=None)
    )

    def time_engine(self) -> None:
        """Count the CPU time of `ENGINE`'s methods when the event loop's thread calls them."""
        main, depth = threading.get_ident(), 0

        def timed(fn: Callable[..., Any]) -> Callable[..., Any]:
            @functools.wraps(fn)
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                nonlocal depth
                if depth or threading.get_ident() != main:
                    return fn(*args, **kwargs)
                depth, start = 1, time.thread_time()
                try:
                    return fn(*args, **kwargs)
                finally:
                    depth = 0
                    self.engine += time.thread_time() - start

            return wrapper

        for name in ENGINE:
            raw = inspect.getattr_static(Game, name)
            if isinstance(raw, classmethod):
                setattr(Game, name, classmethod(timed(raw.__func__)))
            elif inspect.isfunction(raw):
                setattr(Game, name, timed(raw))

    def time_awaits(self, obj: Any, kind: str) -> None:
        """Count the wall time of ``obj``'s public coroutine methods in the current move (the
        delivery task's storage calls in `delivery_storage`)."""
        for name in dir(obj):
            method = getattr(obj, name)
            if name.startswith("_") or not inspect.iscoroutinefunction(method):
                continue

            async def wrapper(*args: Any, _method: Any = method, **kwargs: Any) -> Any:
                start = time.perf_counter()
                try:
                    return await _method(*args, **kwargs)
                finally:
                    spent = time.perf_counter() - start
                    waits = self.move.get()
                    if waits is not None:
                        setattr(waits, kind, getattr(waits, kind) + spent)
                    elif kind == "storage":
                        self.delivery_storage += spent

            setattr(obj, name, wrapper)


class _Posted:
    def __init__(self, message_id: int) -> None:
        self.id = message_id


class _Channel:
    """A channel or a user that accepts every message at once (the post was prepared as for
    Discord: its files and components built)."""

    def __init__(self, ids: itertools.count[int]) -> None:
        self.ids = ids

    async def send(self, *args: Any, **kwargs: Any) -> _Posted:
        return _Posted(next(self.ids))


class StandInDiscord:
    """What `Deliverer` asks of the client, answered at once."""

    user = None

    def __init__(self) -> None:
        self.channel = _Channel(itertools.count(1))

    def get_partial_messageable(self, channel_id: int) -> _Channel:
        return self.channel

    def get_user(self, user_id: int) -> _Channel:
        return self.channel

    def get_channel(self, channel_id: int) -> None:
        return None


@dataclass
class Table:
    """One game and whom its last post asked to move."""

    game_id: int
    channel: int
    users: list[User]
    pending: tuple[int, ...] = ()


@dataclass
class Driver:
    """Plays this process's games through the service layer and measures each move."""

    svc: Context
    deliverer: Deliverer
    meter: Meter
    workers: ProcessWorkers
    rnd: random.Random
    tables: list[Table] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    waits: list[Waits] = field(default_factory=list)
    failures: int = 0

    async def announce(self, outcome: Outcome) -> None:
        """As `CittaBot.announce`: let the bot's seats answer (here: none; a settled game has
        nothing to answer) while the delivery task is woken and the post waited for until it is
        sent."""
        self.deliverer.wake()
        answer = asyncio.sleep(0) if outcome.settled else svc_advance.advance(self.svc, outcome.game)
        _, done = await asyncio.gather(answer, self.deliverer.wait(outcome.outbox, 60.0))
        if any(d.state != "sent" for d in done.values()):
            self.failures += 1

    async def open_table(self, players: int, channel: int) -> None:
        """A game in ``channel`` of a server of its own: opened, joined and started (its start
        post sent), as players do."""
        users = [User(channel * 10 + k, f"P{k}") for k in range(1, players + 1)]
        guild = channel << 22  # a server id on shard ``channel % shard count``
        await svc_lobby.new_game(self.svc, users[0], channel=channel, guild=guild, players=players)
        row = await self.svc.storage.games.open_game(channel)
        assert row is not None
        for user in users[1:-1]:
            await svc_lobby.join(self.svc, row.id, user)
        started = await svc_lobby.join(self.svc, row.id, users[-1])  # the lobby is full: the game starts
        table = Table(row.id, channel, users)
        self.note(table, started)
        await self.announce(started)
        self.tables.append(table)

    def note(self, table: Table, outcome: Outcome) -> None:
        if outcome.announcement is not None:
            table.pending = outcome.announcement.mentions

    async def move(self, table: Table) -> None:
        """One move of a player the last post pinged: autocomplete, play, announce."""
        by_id = {u.id: u for u in table.users}
        pinged = [by_id[u] for u in table.pending if u in by_id]
        self.rnd.shuffle(pinged)
        for user in pinged:  # the start post pings everyone: the first with a move to make
            if offered := await svc_choices.choices(self.svc, table.channel, user.id, ""):
                break
        else:
            raise AssertionError(f"game {table.game_id}: nobody pinged has a move to make")
        waits = Waits()
        token = self.meter.move.set(waits)
        start = time.perf_counter()
        try:
            outcome = await svc_moves.play(
                self.svc, user.id, self.rnd.choice(offered).value, channel=table.channel
            )
            if outcome.announcement is None and outcome.reply.buttons:  # a warning: play it anyway
                ref = parse_custom_id(outcome.reply.buttons[0].custom_id)
                assert ref is not None and ref.move is not None
                outcome = await svc_moves.play_pressed(self.svc, user.id, ref)
            await self.announce(outcome)
        finally:
            self.meter.move.reset(token)
        self.latencies.append(time.perf_counter() - start)
        self.waits.append(waits)
        self.note(table, outcome)

    async def saturate(self, moves: int) -> None:
        async def play_on(table: Table) -> None:
            for _ in range(moves):
                await self.move(table)

        await asyncio.gather(*(play_on(t) for t in self.tables))

    async def paced(self, rate: float, seconds: float) -> None:
        """Moves arriving at ``rate`` per second in all, each game waiting a random time
        (exponential) after its last post was sent."""
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        per_game = rate / len(self.tables)

        async def play_on(table: Table) -> None:
            while (at := loop.time() + self.rnd.expovariate(per_game)) < end:
                await asyncio.sleep(at - loop.time())
                await self.move(table)

        await asyncio.gather(*(play_on(t) for t in self.tables))


def _worker_cpu(workers: ProcessWorkers) -> float:
    """CPU seconds used so far by the worker processes of the pool."""
    total = 0
    for pid in workers.pids():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / TICKS


def _sample(driver: Driver) -> dict[str, float]:
    return {
        "wall": time.perf_counter(),
        "loop": time.thread_time(),
        "process": time.process_time(),
        "workers": _worker_cpu(driver.workers),
        "near": driver.workers.near,
        "keyed": driver.workers.keyed,
        "engine": driver.meter.engine,
        "delivery_storage": driver.meter.delivery_storage,
    }


async def run_phase(driver: Driver, command: list[str]) -> dict[str, Any]:
    """Run one phase; its figures as a JSON-able dict."""
    driver.latencies, driver.waits, driver.failures = [], [], 0
    before = _sample(driver)
    if command[0] == "saturate":
        await driver.saturate(int(command[1]))
    else:
        await driver.paced(float(command[1]), float(command[2]))
    after = _sample(driver)
    spent = {k: after[k] - before[k] for k in before}
    return {
        "phase": command[0],
        "latencies": driver.latencies,
        "storage_waits": [w.storage for w in driver.waits],
        "worker_waits": [w.workers for w in driver.waits],
        "failures": driver.failures,
        "workers_count": driver.workers.processes,
        **spent,
    }


async def main(args: argparse.Namespace) -> None:
    meter = Meter()
    meter.time_engine()
    workers = ProcessWorkers(args.workers or None)
    await workers.start()
    shards = Shards.of(args.shard_count, [args.shard_id]) if args.shard_count else None
    svc = await Context.open(args.db, workers=workers, shards=shards)
    rnd = random.Random(args.seed)
    svc.seeds = lambda: rnd.getrandbits(63)
    client = StandInDiscord()
    sender = DiscordSender(client)  # type: ignore[arg-type]
    deliverer = Deliverer(sender, svc.storage, claimant=svc.claimant, shards=shards, drawings=svc.drawings)
    svc.storage.on_enqueue = deliverer.wake
    for part in PARTS:
        meter.time_awaits(getattr(svc.storage, part), "storage")
    meter.time_awaits(workers, "workers")
    delivering = asyncio.create_task(deliverer.run())
    driver = Driver(svc, deliverer, meter, workers, rnd)
    gate = asyncio.Semaphore(16)

    async def open_one(k: int) -> None:
        async with gate:
            await driver.open_table(args.players, args.first_channel + k * args.step)

    started = time.perf_counter()
    await asyncio.gather(*(open_one(k) for k in range(args.games)))
    print(
        json.dumps({"ready": len(driver.tables), "setup_seconds": time.perf_counter() - started}), flush=True
    )
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), sys.stdin
    )
    while (line := (await reader.readline()).decode().split()) and line[0] != "quit":
        print(json.dumps(await run_phase(driver, line)), flush=True)
    delivering.cancel()
    await svc.close()
    workers.close()


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="the database (a file or a postgresql:// URL)")
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--first-channel", type=int, default=1)
    parser.add_argument("--step", type=int, default=1, help="between this process's channel ids")
    parser.add_argument("--workers", type=int, default=0, help="worker processes (default: one per core)")
    parser.add_argument("--shard-count", type=int, default=0, help="shards in all (0: this process runs all)")
    parser.add_argument("--shard-id", type=int, default=0, help="the one shard this process runs")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse()))
