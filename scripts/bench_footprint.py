"""Footprint benchmark: the memory of the bot's whole process tree (the process and its worker
processes), RSS and PSS summed from ``/proc/<pid>/smaps_rollup``, for workers = 0, 1, 2.

Usage: python scripts/bench_footprint.py [--quick] [--seconds S] [--rate R] [--games G] [--workers 0 1 2]

For each worker count a child process runs the service layer as the bot does (`scripts/loadgen.py`'s
driver: `Context` with the workers of ``CITTA_WORKERS``, the real renderer, the delivery task with a
stand-in for Discord), in phases it names on its standard output while this process samples its
tree every half second:

- ``idle``: started, workers warm, nothing to do (the figure: the last sample);
- ``game``: one whole game of three players, move after move (the figure: the highest sample);
- ``after``: that game over, a few seconds idle (the last sample);
- ``settle``: until the `aside` lane's worker, which draws the game's replay, has stopped;
- ``soak``: G games, moves paced at R a second for S seconds (the default: 500 games, 20 moves a
  second, 10 minutes, as issue 31 asks; ``--quick``: 50 games, 2 minutes). The figures: the mean
  over the soak's second tenth (its second minute at the default length) and over its last tenth,
  and the change between them (target: within 5 %).

The soak's games are at every stage of their lives, as a server's running games are: before the
soak, the k-th of G games is played on (random legal moves, stored as the bot stores moves, with
nothing posted) to k/G of its length, and a game that ends in the soak is replaced by a new one
(its replay drawn in the `aside` lane, as the bot does: from the soak's first seconds on, a game
ends every few seconds). So what the games hold is about the same in the soak's last minute
as in its second, and what the figures compare is what the bot keeps. (Games all started at
once would all grow over the soak: 500 games reach about their 24th move at 20 moves a second.)
``--fresh`` starts them all at their first move instead.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadgen import Driver, Meter, StandInDiscord, Table

from bot.client.sender import DiscordSender
from bot.service.commit import Made, move_row
from bot.service.context import Context
from bot.service.delivery import Deliverer
from bot.service.workers import ProcessWorkers, workers_for
from engine import Game

SAMPLE = 0.5
IDLE = 5.0


def tree(root: int) -> list[int]:
    """``root`` and every process descended from it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def footprint(root: int) -> tuple[float, float, int]:
    """The tree of ``root``: RSS and PSS in MiB, and how many processes."""
    rss = pss = 0
    pids = tree(root)
    for pid in pids:
        try:
            text = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue
        for line in text.splitlines():
            if line.startswith("Rss:"):
                rss += int(line.split()[1])
            elif line.startswith("Pss:"):
                pss += int(line.split()[1])
    return rss / 1024, pss / 1024, len(pids)


async def child(args: argparse.Namespace) -> None:
    """The measured bot: phases announced on stdout (``PHASE name``), one line each."""

    def phase(name: str) -> None:
        print(f"PHASE {name}", flush=True)

    workers = workers_for(args.workers, args.memory)
    if isinstance(workers, ProcessWorkers):
        await workers.start()
    with tempfile.TemporaryDirectory() as tmp:
        svc = await Context.open(Path(tmp) / "footprint.db", workers=workers)
        rnd = random.Random(1)
        svc.seeds = lambda: rnd.getrandbits(63)
        deliverer = Deliverer(
            DiscordSender(StandInDiscord()),  # type: ignore[arg-type]
            svc.storage, claimant=svc.claimant, drawings=svc.drawings,
        )  # fmt: skip
        svc.storage.on_enqueue = deliverer.wake
        delivering = asyncio.create_task(deliverer.run())
        driver = Soak(svc, deliverer, Meter(), workers, rnd)  # type: ignore[arg-type]
        driver.waits = collections.deque(maxlen=1)  # type: ignore[assignment]  # not read here: not kept
        phase("idle")
        await asyncio.sleep(IDLE)
        phase("game")
        await driver.open_table(3, 1)
        moves = 0
        while (row := await svc.storage.games.game(driver.tables[0].game_id)) and row.status == "active":
            await driver.move(driver.tables[0])
            moves += 1
        phase("after")
        await asyncio.sleep(IDLE)
        # The game's replay is drawn in the `aside` lane's worker, stopped when idle: the soak begins
        # once it is gone (else its memory would count in the soak's first minutes and not its last).
        phase("settle")
        while isinstance(workers, ProcessWorkers) and len(workers.pids()) > workers.processes:
            await asyncio.sleep(SAMPLE)
        driver.tables.clear()
        gate = asyncio.Semaphore(16)

        async def open_one(k: int) -> None:
            async with gate:
                await driver.open_table(3, 100 + k)

        await asyncio.gather(*(open_one(k) for k in range(args.games)))
        if not args.fresh:
            for k, table in enumerate(driver.tables):
                await played_on(svc, table, k / args.games, rnd)
        phase("soak")
        try:
            await driver.paced(args.rate, args.seconds)
        finally:
            phase(f"done {moves} {len(driver.latencies)}")
            delivering.cancel()
            await svc.close()
            workers.close()


async def played_on(svc: Context, table: Table, share: float, rnd: random.Random) -> None:
    """``table``'s game played on to ``share`` of its length (random legal moves; at most to the move
    before its last), stored in one commit as the bot stores moves (`bot.service.commit`), with
    nothing posted."""
    row = await svc.storage.games.game(table.game_id)
    assert row is not None and row.snapshot is not None and row.record is not None
    whole = Game.restore(row.snapshot, row.record)
    moves = []
    while not whole.is_over:  # its length, in the random moves it will be played on with
        seat = whole.pending_seats()[0]
        moves.append((seat, rnd.choice(whole.legal_moves(seat))))
        whole.play(*moves[-1])
    game = Game.restore(row.snapshot, row.record)
    made = [
        Made(seat, move, game.play(seat, move))
        for seat, move in moves[: min(len(moves) - 1, int(share * len(moves)))]
    ]
    if not made:
        return
    rows = [move_row(number, m) for number, m in enumerate(made, start=row.version + 1)]
    stored = await svc.storage.moves.commit_moves(
        row.id, based_on=row.version, moves=rows, record=game.record().model_dump(mode="json"),
        snapshot=game.snapshot(), status="active", highlight=[], secrets=[], now=svc.now(),
    )  # fmt: skip
    assert stored is not None
    by_seat = {s.seat: s.user_id for s in await svc.storage.games.seats(row.id)}
    table.pending = tuple(by_seat[s] for s in game.pending_seats())


class Soak(Driver):
    """`loadgen.Driver` whose finished games are replaced by new ones (a soak runs over many games)."""

    opened = 0

    async def move(self, table: Table) -> None:
        row = await self.svc.storage.games.game(table.game_id)
        if row is not None and row.status == "active":
            await super().move(table)
            return
        self.opened += 1
        await self.open_table(len(table.users), 10_000 + self.opened)
        fresh = self.tables.pop()
        table.game_id, table.channel, table.users, table.pending = (
            fresh.game_id, fresh.channel, fresh.users, fresh.pending,
        )  # fmt: skip


def measure(args: argparse.Namespace, workers: int) -> dict[str, Any]:
    """Run a child with ``workers`` and sample its tree; the figures of its phases."""
    cmd = [sys.executable, __file__, "--child", "--workers", str(workers), "--seconds", str(args.seconds),
           "--rate", str(args.rate), "--games", str(args.games), "--memory", str(args.memory)]  # fmt: skip
    cmd += ["--fresh"] if args.fresh else []
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, text=True, env=os.environ | {"PYTHONUNBUFFERED": "1"}
    )
    current = ["start"]
    samples: list[tuple[str, float, float, float, int]] = []
    stop = threading.Event()

    def sampler() -> None:
        while not stop.is_set():
            rss, pss, n = footprint(proc.pid)
            samples.append((current[0], time.monotonic(), rss, pss, n))
            stop.wait(SAMPLE)

    thread = threading.Thread(target=sampler, daemon=True)
    thread.start()
    done = ""
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("PHASE "):
            name = line.split()[1]
            if name == "done":
                done = line
                samples.append((current[0], time.monotonic(), *footprint(proc.pid)))
            current[0] = name
    proc.wait()
    stop.set()
    thread.join()

    def of(name: str) -> list[tuple[float, float, int]]:
        return [(r, p, n) for ph, _t, r, p, n in samples if ph == name and r > 0]

    soak = [(t, r, p) for ph, t, r, p, _n in samples if ph == "soak" and r > 0]
    tenth = (soak[-1][0] - soak[0][0]) / 10 if len(soak) > 1 else 0.0

    def mean_in(k: int) -> tuple[float, float]:
        part = [(r, p) for t, r, p in soak if soak[0][0] + k * tenth <= t <= soak[0][0] + (k + 1) * tenth]
        part = part or [(r, p) for _t, r, p in soak[-1:]]
        return sum(r for r, _ in part) / len(part), sum(p for _, p in part) / len(part)

    parts = done.split()
    game_moves, soak_moves = (int(parts[2]), int(parts[3])) if len(parts) == 4 else (0, 0)
    return {
        "workers": workers, "idle": of("idle")[-1], "game": max(of("game"), key=lambda s: s[1]),
        "after": of("after")[-1], "second": mean_in(1), "last": mean_in(9),
        "peak": max((r, p) for _t, r, p in soak), "game_moves": game_moves,
        "soak_moves": soak_moves,
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="50 games, 2 minutes (unless given)")
    parser.add_argument("--seconds", type=float, default=None, help="the soak's length (default 600)")
    parser.add_argument("--rate", type=float, default=20.0, help="moves a second in the soak")
    parser.add_argument("--games", type=int, default=None, help="games in the soak (default 500)")
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--fresh", action="store_true", help="the soak's games all start at their first move")
    parser.add_argument("--memory", type=int, default=400, help="CITTA_WORKER_MEMORY (MiB; 0: none)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.seconds = args.seconds or (120.0 if args.quick else 600.0)
    args.games = args.games or (50 if args.quick else 500)
    if args.child:
        args.workers = args.workers[0]
        asyncio.run(child(args))
        return
    start = "all at their first move" if args.fresh else "at every stage of their lives"
    print(f"soak: {args.games} games ({start}), {args.rate:g} moves/s, {args.seconds:g} s", end="")
    print(f"; budget {args.memory} MiB")
    print("MiB, RSS / PSS of the tree")
    print(
        "workers | procs | idle        | game (max)      | after game  | soak 2nd tenth | soak last tenth "
        "| change PSS | soak peak"
    )
    for count in args.workers:
        f = measure(args, count)
        idle, game, after = f["idle"], f["game"], f["after"]
        second, last, peak = f["second"], f["last"], f["peak"]
        change = (last[1] - second[1]) / second[1] * 100
        print(
            f"{count:7} | {idle[2]:5} | {idle[0]:5.0f} / {idle[1]:4.0f} "
            f"| {game[0]:7.0f} / {game[1]:4.0f}     | "
            f"{after[0]:4.0f} / {after[1]:4.0f} | {second[0]:5.0f} / {second[1]:4.0f}  | "
            f"{last[0]:5.0f} / {last[1]:4.0f}   | {change:+9.1f} % | {peak[0]:4.0f} / {peak[1]:4.0f}"
            f"   ({f['game_moves']} moves in the game, {f['soak_moves']} in the soak)",
            flush=True,
        )


if __name__ == "__main__":
    main()
