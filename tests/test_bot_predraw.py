"""After a restart the running games' current posts are drawn ahead (`bot.service.predraw`), at the
lowest priority (`Workers.idle`): bounded to the most recently active games, each in its own worker,
only once that worker is warm, and never before a job that is waiting — a turn post goes first."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from pathlib import Path

import pytest
from test_bot_support import FakeClock, FakeRenderer, open_service, start_game

from bot.service import predraw
from bot.service.workers import ProcessWorkers


def stamp(seconds: float = 0.0) -> float:
    """A job (runs in a worker): sleep ``seconds``, then the time it ended."""
    time.sleep(seconds)
    return time.time()


async def test_a_turn_post_sent_while_idle_jobs_wait_goes_before_them() -> None:
    """One worker: pre-draws queued first (each 0.4 s), then a turn post: it waits at most for the
    one pre-draw already running, never for those still queued."""
    workers = ProcessWorkers(1)
    await workers.start()
    try:
        await workers.call(stamp)  # the worker has imported this module
        idle = [asyncio.ensure_future(workers.idle(game, stamp, 0.4)) for game in range(1, 4)]
        await asyncio.sleep(0.1)  # the first pre-draw runs, two wait
        sent = time.perf_counter()
        post = await workers.call_near(7, stamp)
        assert time.perf_counter() - sent < 0.8, "it waited only for the pre-draw already running"
        ended = await asyncio.gather(*idle)
        assert ended[0] < post < ended[1] < ended[2], "the post went before the queued pre-draws"
    finally:
        workers.close()


async def test_an_idle_job_waits_for_its_worker_to_warm_up_and_for_every_job_sent() -> None:
    """Sent before the worker has started (and before a job), the idle job still runs after it: a
    move made while the workers warm up is not queued behind a pre-draw."""
    workers = ProcessWorkers(1)
    try:
        idle = asyncio.ensure_future(workers.idle(1, stamp))
        await asyncio.sleep(0.05)
        job = await workers.call(stamp)
        assert await idle > job
    finally:
        workers.close()


async def test_an_idle_job_runs_only_on_its_keys_worker() -> None:
    """Two workers: the pre-draw of a game whose worker is busy does not go to the free one (its
    caches would warm the wrong worker); it waits for its own."""
    workers = ProcessWorkers(2)
    await workers.start()
    try:
        home = await workers.call_near(1, os.getpid)
        busy = asyncio.ensure_future(workers.call_near(1, stamp, 1.0))
        await asyncio.sleep(0.2)  # game 1's worker is busy, the other is free
        drawn_in = await workers.idle(1, os.getpid)
        assert drawn_in == home and busy.done()
    finally:
        workers.close()


async def test_the_most_recently_active_games_are_drawn_ahead_and_no_more(tmp_path: Path) -> None:
    renderer, clock = FakeRenderer(), FakeClock()
    svc = await open_service(tmp_path / "p.db", renderer=renderer, clock=clock)
    games = []
    for channel in (11, 12, 13):
        clock.advance(1)
        games.append((await start_game(svc, 3, channel=channel)).game)
    renderer.calls.clear()
    assert await predraw.predraw(svc, limit=2) == 2
    rows = [await svc.storage.games.game(g) for g in games]
    drawn = {tuple(p.name for p in view.players): view for view, _lit in renderer.calls}
    assert len(renderer.calls) == 2 and len(drawn) <= 2
    assert all(view.viewer is None for view, _lit in renderer.calls), "the spectator view, as posted"
    latest = [r for r in rows if r is not None][1:]  # the two started last
    for row in latest:
        assert svc.positions.look(row) is not None
    assert {row.id for row in latest} == set(list(svc.positions._kept)[-2:]), "their positions restored"
    assert await predraw.predraw(svc, limit=0) == 0 and len(renderer.calls) == 2
    await svc.close()


async def test_the_next_closeups_are_drawn_ahead_for_the_most_recent_games_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`CLOSEUP_GAMES` of the games drawn ahead also get the landscape of their next close-ups: the
    cities of the seat to act and of the one after it."""
    monkeypatch.setattr(predraw, "CLOSEUP_GAMES", 1)
    renderer, clock = FakeRenderer(), FakeClock()
    svc = await open_service(tmp_path / "c.db", renderer=renderer, clock=clock)
    for channel in (21, 22):
        clock.advance(1)
        await start_game(svc, 3, channel=channel)
    assert await predraw.predraw(svc) == 2 and len(renderer.ahead_calls) == 1
    view, seats = renderer.ahead_calls[0]
    latest = await svc.storage.games.latest_game(22)
    assert latest is not None and latest.record is not None
    assert tuple(p.name for p in view.players) == tuple(latest.record["players"])
    assert view.turn is not None and seats == [view.turn, (view.turn + 1) % 3]
    await svc.close()


class _Broken(FakeRenderer):
    def post(self, view: object, **options: object) -> list[tuple[str, bytes, str]]:
        raise RuntimeError("no fonts")


async def test_a_post_that_cannot_be_drawn_ahead_is_skipped_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    svc = await open_service(tmp_path / "b.db", renderer=_Broken())
    await start_game(svc, 2)
    assert await predraw.predraw(svc) == 0  # nothing raised: nobody waits for it
    assert "post ahead failed: RuntimeError('no fonts')" in caplog.text
    await svc.close()
