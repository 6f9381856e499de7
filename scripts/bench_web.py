"""Web benchmark (issue 34): a game's page with many open live connections while moves are played.

Usage: python scripts/bench_web.py [CONNECTIONS] [MOVES] [GETS]

The bot's side runs as in production, in one event loop: the service on a fresh SQLite database with
its worker processes (a game of one member and three ``basic`` computer players; every move's post
drawn), and the web server (`bot.web.server.WebServer`). A second process (the viewers) opens
CONNECTIONS (default 1000) live connections (server-sent events, ``/g/<token>/events``) to the
game's page, then, while the bot plays MOVES (default 40) of the member's moves (each followed by
the computers' answers), asks for the page itself GETS times (default 200), one at a time.

Printed:

- the page's GET: p50 / p95 / max (the viewers' clock, while the moves are played);
- the live update's latency: from a move's commit (its transaction returned) to its event arriving
  at a viewer, over every event every connection received (p50 / p95 / max), and how many arrived;
- the bot's event-loop lag meanwhile (a 5 ms sleep's overshoot): p50 / p95 / max.

Both processes run on this machine, so both clocks are one.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import aiohttp
from bench_bot import human_move, percentile, probe
from screenshot_page import Standalone, started_game

from bot.service import advance as svc_advance
from bot.service.context import Context
from bot.service.page_address import fresh_token
from bot.service.workers import ProcessWorkers
from bot.web.server import WebServer
from bot.web.settings import WebSettings


def figures(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: none"
    ms = {"p50": statistics.median(values), "p95": percentile(values, 0.95), "max": max(values)}
    return f"{name}: " + ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in ms.items()) + f" (n={len(values)})"


def played_on(svc: Context, committed: dict[int, float]) -> None:
    """Note when each move count of the game was committed (the storage's commit returned)."""
    moves = svc.storage.moves
    commit = moves.commit_moves

    async def noted(game_id: int, **kw: Any) -> Any:
        ids = await commit(game_id, **kw)
        if ids is not None:
            committed[len(kw["record"]["moves"])] = time.time()
        return ids

    moves.commit_moves = noted  # type: ignore[method-assign]


# --- the viewers (their own process) ---------------------------------------------------------------


async def listen(
    session: aiohttp.ClientSession, url: str, opened: asyncio.Event, got: list[tuple[int, float]],
    count: list[int], total: int,
) -> None:  # fmt: skip
    """One live connection: each ``move`` event's count and when it arrived."""
    async with session.get(url, timeout=aiohttp.ClientTimeout(total=None, sock_read=None)) as r:
        assert r.status == 200, r.status
        count[0] += 1
        if count[0] == total:
            opened.set()
        kind = ""
        async for line in r.content:
            text = line.decode().strip()
            if text.startswith("event:"):
                kind = text.split(":", 1)[1].strip()
            elif text.startswith("data:") and kind == "move":
                got.append((int(json.loads(text[5:])["count"]), time.time()))


async def viewers(base: str, connections: int, gets: int, ready: Any, go: Any, out: Any) -> None:
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        opened, count = asyncio.Event(), [0]
        got: list[tuple[int, float]] = []
        tasks = [asyncio.create_task(listen(session, f"{base}/events", opened, got, count, connections))
                 for _ in range(connections)]  # fmt: skip
        await opened.wait()
        await asyncio.sleep(1.0)  # each has been told the game as it is
        got.clear()
        ready.set()
        await asyncio.get_running_loop().run_in_executor(None, go.wait)
        page: list[float] = []
        for _ in range(gets):
            start = time.perf_counter()
            async with session.get(base) as r:
                assert r.status == 200, r.status
                await r.read()
            page.append(time.perf_counter() - start)
            await asyncio.sleep(0.05)
        await asyncio.get_running_loop().run_in_executor(None, go.wait)  # the moves are all played
        await asyncio.sleep(2.0)  # the last events arrive
        for task in tasks:
            task.cancel()
        out.put({"page": page, "events": got})


def run_viewers(base: str, connections: int, gets: int, ready: Any, go: Any, out: Any) -> None:
    asyncio.run(viewers(base, connections, gets, ready, go, out))


# --- the bot --------------------------------------------------------------------------------------


async def main(connections: int, moves: int, gets: int) -> None:
    workers = ProcessWorkers()
    await workers.start()
    with tempfile.TemporaryDirectory() as tmp:
        svc = await Context.open(Path(tmp) / "bench.db", workers=workers, web_url="https://citta.example.org")
        web = WebServer(WebSettings(port=0, rate=10**9, url="https://citta.example.org"))
        web.attach(Standalone(svc))
        await web.start()
        game = await started_game(svc, 1)
        token = await svc.storage.games.page(game, fresh_token())
        committed: dict[int, float] = {}
        played_on(svc, committed)
        base = f"http://127.0.0.1:{web.port}/g/{token}"
        mp = multiprocessing.get_context("spawn")
        ready, go, out = mp.Event(), mp.Event(), mp.Queue()
        viewer = mp.Process(target=run_viewers, args=(base, connections, gets, ready, go, out))
        viewer.start()
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, ready.wait)
        print(f"{connections} live connections open to one game's page", flush=True)
        lags: list[float] = []
        stop = asyncio.Event()
        lagging = asyncio.create_task(probe(stop, lags))
        go.set()
        rnd = random.Random(2)
        played = 0
        while played < moves:
            row = await svc.storage.games.game(game)
            if row is None or row.status != "active":
                break
            await human_move(svc, game, rnd)
            await svc_advance.advance(svc, game)
            played += 1
            await asyncio.sleep(0.3)
        stop.set()
        await lagging
        result = await loop.run_in_executor(None, out.get)
        viewer.join()
        await web.stop()
        await svc.close()
    workers.close()
    latency = [at - committed[n] for n, at in result["events"] if n in committed]
    print(f"{played} of the member's moves played, {len(committed)} moves committed in all")
    print(figures("the page's GET", result["page"]))
    print(figures("a live update, from the move's commit to its event at a viewer", latency))
    received = len(result["events"])
    print(f"  events received: {received} ({received / connections:.1f} per connection)")
    print(figures("the bot's event-loop lag", lags))


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    asyncio.run(main(*(args + [1000, 40, 200][len(args) :])))
