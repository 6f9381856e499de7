"""Load benchmark: many games at once through the service layer, a board drawn for every move,
on SQLite or PostgreSQL, in one bot process or two sharing the database.

Usage: python scripts/bench_load.py [--backend sqlite|postgres] [--processes 1|2] [--games 500]
                                    [--db postgresql://…] [--moves 3] [--rate 40] [--seconds 30]

Each process (`loadgen.py`) runs the service layer as the bot does — its worker-process pool
drawing each turn post's pictures with the real renderer, its delivery task sending each post
(to a stand-in for Discord that accepts it at once) — on its share of the games. Two phases:

1. **saturate**: every game moves as fast as it can (MOVES moves each): the most moves per
   second the machine manages;
2. **paced**: moves arrive at random at RATE per second over all the games for SECONDS, as
   players would: the latency a player sees at that load.

For each: moves per second, latency per move (from ``/citta play`` to its post sent: checked,
drawn, stored, delivered) p50/p95/max, the CPU time by where it went (drawing in the workers,
the storage, the engine, the rest of the event loop's thread) and what each move waited for,
and a line naming the bottleneck; before and after, the machine's speed (the CPU time to draw
a turn post here, as `scripts/bench_render.py` measures it: read the figures against it, the
machine's speed varies by a third from hour to hour). Target (issue 15) on a 2-core machine:
≥ 40 moves/s with a board drawn for each, p95 < 250 ms. For PostgreSQL without ``--db`` a throwaway server is
started with its durable defaults (fsync and synchronous commit on, as SQLite's commits are).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # pgserver

from bot.storage.backends import open_storage

CORES = os.cpu_count() or 1
TICKS = os.sysconf("SC_CLK_TCK")
DURABLE = {"listen_addresses": "''", "max_connections": "100"}
"""The throwaway server's settings: PostgreSQL's defaults otherwise (fsync, synchronous commit)."""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def machine_busy() -> tuple[float, float]:
    """All CPUs' busy and total jiffies so far (from /proc/stat: every process, others' too)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def tree_cpu(root_pid: int) -> float:
    """CPU seconds of a process and its children (a PostgreSQL server: the postmaster and its
    backends)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            pid, rest = stat.read_text().split(" ", 1)
        except OSError:
            continue
        fields = rest.rsplit(")", 1)[1].split()
        if int(pid) == root_pid or int(fields[1]) == root_pid:
            total += int(fields[11]) + int(fields[12])
    return total / TICKS


def drawing_speed(games: int = 50) -> float:
    """The machine's speed now: the median CPU time (ms) this process takes to draw a turn post,
    over the posts `scripts/bench_render.py` times (the same figure as its ``render_post``
    median; the machine's speed varies by a third from hour to hour, so the load's figures are
    read against it)."""
    import render
    from render import bands
    from render.samples import early_posts

    posts = early_posts(games)
    render.warm()
    for view, lit, focus in posts[:20]:
        render.render_post(view, highlight=lit, focus=focus)
    times = []
    for view, lit, focus in posts:
        bands.forget()  # the machine's speed: every band drawn, as before bands were kept
        start = time.process_time()
        render.render_post(view, highlight=lit, focus=focus)
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


class Children:
    """The load-generating processes, each with its share of the games."""

    def __init__(self, procs: list[asyncio.subprocess.Process]) -> None:
        self.procs = procs

    @classmethod
    async def start(cls, args: argparse.Namespace, db: str) -> Children:
        procs = []
        for k in range(args.processes):
            share = args.games // args.processes + (k < args.games % args.processes)
            options = {"--db": db, "--games": share, "--players": args.players, "--seed": k + 1,
                       "--workers": args.workers, "--step": args.processes,
                       "--first-channel": args.processes + k}  # fmt: skip
            if args.processes > 1:  # process k runs shard k: the games of channels k + 2, k + 4, …
                options |= {"--shard-count": args.processes, "--shard-id": k}
            command = [sys.executable, str(Path(__file__).with_name("loadgen.py"))]
            command += [str(x) for pair in options.items() for x in pair]
            procs.append(
                await asyncio.create_subprocess_exec(
                    *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=2**24
                )
            )
        return cls(procs)

    async def read(self) -> list[dict[str, Any]]:
        lines = []
        for p in self.procs:
            assert p.stdout is not None
            line = await p.stdout.readline()
            if not line:
                raise SystemExit(f"a load process exited with {await p.wait()}")
            lines.append(json.loads(line))
        return lines

    async def ask(self, command: str) -> list[dict[str, Any]]:
        for p in self.procs:
            assert p.stdin is not None
            p.stdin.write(f"{command}\n".encode())
            await p.stdin.drain()
        return [] if command == "quit" else await self.read()

    async def stop(self) -> None:
        await self.ask("quit")
        for p in self.procs:
            await p.wait()


@dataclass
class Phase:
    """One phase's figures, summed over the load processes (seconds)."""

    latencies: list[float]
    wall: float
    render: float  # CPU of the worker processes
    storage: float  # CPU of SQLite's thread, or of the PostgreSQL server
    engine: float  # CPU of the engine's calls on the event loop's thread
    loop: float  # CPU of the rest of the event loop's thread: the service, asyncio, the driver
    waited_workers: float  # what the moves waited for the worker pool (queue and drawing)
    waited_storage: float  # and for the storage
    loop_busy: float  # the busiest event loop's share of the wall time
    near: float  # the share of the posts drawn by the worker that drew their game's last one
    failures: int
    busy: float  # the share of the machine's CPU in use, by any program

    @classmethod
    def of(cls, parts: list[dict[str, Any]], db_cpu: float, busy: float) -> Phase:
        engine = sum(p["engine"] for p in parts)
        return cls(
            latencies=[x for p in parts for x in p["latencies"]],
            wall=max(p["wall"] for p in parts),
            render=sum(p["workers"] for p in parts),
            storage=sum(p["process"] - p["loop"] for p in parts) + db_cpu,  # aiosqlite's thread, the server
            engine=engine,
            loop=sum(p["loop"] for p in parts) - engine,
            waited_workers=sum(sum(p["worker_waits"]) for p in parts),
            waited_storage=sum(sum(p["storage_waits"]) for p in parts),
            loop_busy=max(p["loop"] / p["wall"] for p in parts),
            near=sum(p["near"] for p in parts) / max(1, sum(p["keyed"] for p in parts)),
            failures=sum(p["failures"] for p in parts),
            busy=busy,
        )

    @property
    def cpu(self) -> float:
        return self.render + self.storage + self.engine + self.loop

    def bottleneck(self) -> str:
        """Which resource limits the moves per second (or the latency)."""
        shares = {"drawing the pictures (render)": self.render, "the storage": self.storage,
                  "the engine and the event loop": self.engine + self.loop}  # fmt: skip
        top = max(shares, key=lambda k: shares[k])
        of_ours = f"{top} takes {shares[top] / self.cpu:.0%} of the benchmark's CPU time"
        ours = self.cpu / (CORES * self.wall)
        mean = sum(self.latencies) / len(self.latencies)
        if ours >= 0.85:
            return f"the CPU: the benchmark kept the {CORES} cores {ours:.0%} busy; {of_ours}"
        if self.busy >= 0.9:
            return (f"the CPU: the machine was {self.busy:.0%} busy, the benchmark's share {ours:.0%} "
                    f"(other programs took the rest); {of_ours}")  # fmt: skip
        if self.loop_busy >= 0.85:
            return (
                f"the event loop's thread ({self.loop_busy:.0%} busy): the engine and the service, one core"
            )
        if self.waited_storage >= 0.5 * mean * len(self.latencies):
            return "the storage: moves spend most of their time waiting for it"
        return f"none saturated (the CPU {ours:.0%} busy): of a move's time, {top} is the most"

    def print(self, name: str) -> None:
        moves, lat = len(self.latencies), self.latencies
        per = 1000 / moves  # seconds in all → ms per move
        failed = f"; {self.failures} post(s) not sent" if self.failures else ""
        print(f"\n{name}: {moves} moves in {self.wall:.1f} s = {moves / self.wall:.1f} moves/s; latency per "
              f"move p50 {percentile(lat, 0.5) * 1000:.0f} ms, p95 {percentile(lat, 0.95) * 1000:.0f} ms, "
              f"max {max(lat) * 1000:.0f} ms{failed}")  # fmt: skip
        print(f"  CPU per move: render {self.render * per:.1f} ms, storage {self.storage * per:.1f} ms, "
              f"engine {self.engine * per:.1f} ms, the rest of the event loop {self.loop * per:.1f} ms = "
              f"{self.cpu * per:.1f} ms: {CORES} cores carry at most "
              f"{CORES * moves / self.cpu:.0f} moves/s; {self.near:.0%} of the posts drawn by "
              "the worker of their game")  # fmt: skip
        idle = max(0.0, CORES * self.wall - self.cpu)
        print(f"  CPU time: render {self.render:.1f} s, storage {self.storage:.1f} s, "
              f"engine {self.engine:.1f} s, event loop {self.loop:.1f} s; not used by the benchmark "
              f"{idle:.1f} s of {CORES * self.wall:.1f} core-seconds (the machine, other programs "
              f"included, was {self.busy:.0%} busy)")  # fmt: skip
        mean = sum(lat) * per
        workers, storage = self.waited_workers * per, self.waited_storage * per
        print(f"  a move took {mean:.0f} ms on average: {workers:.0f} ms waiting for a worker (drawing, and "
              f"queued behind other drawings), {storage:.0f} ms for the storage, "
              f"{max(0.0, mean - workers - storage):.0f} ms on the event loop "
              "(engine, service, delivery)")  # fmt: skip
        print(f"  bottleneck: {self.bottleneck()}")


@contextlib.asynccontextmanager
async def database(args: argparse.Namespace) -> AsyncIterator[tuple[str, int | None]]:
    """The database to load (migrated) and the pid of its PostgreSQL server when started here."""
    if args.backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="citta-bench-") as tmp:
            db = str(Path(tmp) / "citta.db")
            await (await open_storage(db)).close()
            yield db, None
        return
    if args.db:
        await (await open_storage(args.db)).close()
        yield args.db, None
        return
    import asyncpg
    from pgserver import PgServer  # tests/pgserver.py

    server = PgServer.start(settings=DURABLE)
    try:
        admin = await asyncpg.connect(server.url())
        await admin.execute("CREATE DATABASE bench")
        await admin.close()
        await (await open_storage(server.url("bench"))).close()
        yield server.url("bench"), int((server.data / "postmaster.pid").read_text().split()[0])
    finally:
        server.stop()


async def bench(args: argparse.Namespace) -> None:
    print(f"the machine's speed before: a turn post drawn in {drawing_speed():.1f} ms of CPU "
          "(median; `scripts/bench_render.py` prints the same figure)")  # fmt: skip
    async with database(args) as (db, postmaster):
        started = time.perf_counter()
        children = await Children.start(args, db)
        ready = await children.read()
        assert sum(r["ready"] for r in ready) == args.games
        print(f"{args.backend}, {args.processes} process(es), {args.games} games of {args.players} players, "
              f"{CORES} cores: set up in {time.perf_counter() - started:.1f} s (each start drew its board); "
              f"load average {os.getloadavg()[0]:.1f}"
              + ("; the PostgreSQL server's CPU is not counted (--db)" if args.db else ""))  # fmt: skip
        phases = {"paced": (f"paced {args.rate / args.processes} {args.seconds}",
                            f"paced ({args.rate:g} moves/s offered for {args.seconds:g} s)")}  # fmt: skip
        if args.moves > 0:
            phases = {"saturate": (f"saturate {args.moves}",
                                   f"saturate ({args.moves} moves per game, each as fast as it can)"),
                      **phases}  # fmt: skip
        for command, title in phases.values():
            db_cpu, (busy, ticks) = tree_cpu(postmaster) if postmaster else 0.0, machine_busy()
            parts = await children.ask(command)
            db_cpu = (tree_cpu(postmaster) if postmaster else 0.0) - db_cpu
            busy, ticks = (a - b for a, b in zip(machine_busy(), (busy, ticks), strict=True))
            Phase.of(parts, db_cpu, busy / max(ticks, 1)).print(title)
        await children.stop()
    print(f"\nthe machine's speed after: a turn post drawn in {drawing_speed():.1f} ms of CPU (median)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--db", help="a PostgreSQL URL to use instead of a throwaway server")
    parser.add_argument("--processes", type=int, choices=(1, 2), default=1)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, default=3, choices=range(2, 6))
    parser.add_argument("--moves", type=int, default=3, help="moves per game when saturating (0: skip)")
    parser.add_argument("--rate", type=float, default=40.0, help="moves per second offered when paced")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the paced phase lasts")
    parser.add_argument(
        "--workers", type=int, default=0, help="worker processes each (default: one per core)"
    )
    args = parser.parse_args(argv)
    if args.db and args.backend != "postgres":
        parser.error("--db is for --backend postgres")
    asyncio.run(bench(args))


if __name__ == "__main__":
    main()
