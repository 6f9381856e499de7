"""The computer players think in worker processes: the event loop stays responsive while
strong players think in two games at once, and a dead worker is replaced."""

from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest
from test_bot_support import PLAYERS, FakeRenderer, current

from bot.service import advance as svc_advance
from bot.service import lobby as svc_lobby
from bot.service import moves as svc_moves
from bot.service import worker_start
from bot.service import workers as workers_module
from bot.service.context import Context
from bot.service.worker_start import WORKER_NICENESS
from bot.service.workers import ASIDE_NICENESS, ProcessWorkers

LAG_LIMIT = 0.020
PROBE = 0.005


async def _game_against_strong(svc: Context, channel: int, computers: int) -> int:
    host = PLAYERS[0]
    await svc_lobby.new_game(svc, host, channel=channel, players=computers + 1)
    real = svc.clock
    for k in range(computers):  # one request each, as if a few seconds apart
        svc.clock = lambda k=k: real() + k * (svc_lobby.SAME_REQUEST + 1)  # type: ignore[misc]
        await svc_lobby.add_ai(svc, host, channel=channel, level="strong")
    svc.clock = real
    row = await svc.storage.games.latest_game(channel)
    assert row is not None and row.status == "active"
    await svc_advance.advance(svc, row.id)
    return row.id


async def _probe(stop: asyncio.Event, lags: list[float]) -> None:
    """How late the event loop wakes a task that sleeps `PROBE` seconds, again and again."""
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(PROBE)
        lags.append(time.perf_counter() - start - PROBE)


@pytest.fixture
async def pool() -> object:
    workers = ProcessWorkers()
    await workers.start()
    yield workers
    workers.close()


async def _round(svc: Context, games: list[int]) -> tuple[list[float], float, float]:
    """The human moves in each game, then both games' strong players answer at the same time;
    the event loop's lags meanwhile, this process's CPU time, and the wall time."""
    for game_id in games:
        row = await svc.storage.games.game(game_id)
        assert row is not None
        game = await current(svc, row.channel)
        assert game.pending_seats() == [0]
        await svc_moves.play(svc, PLAYERS[0].id, str(game.legal_moves(0)[0]), game_id=game_id, confirmed=True)
    stop = asyncio.Event()
    lags: list[float] = []
    probe = asyncio.create_task(_probe(stop, lags))
    cpu, wall = time.process_time(), time.perf_counter()
    answers = await asyncio.gather(*(svc_advance.advance(svc, g) for g in games))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    stop.set()
    await probe
    assert all(len(a) >= 3 for a in answers), "every strong player answered in both games"
    return sorted(lags), cpu, wall


async def test_the_event_loop_stays_responsive_while_strong_players_think_in_two_games(
    tmp_path: Path, pool: ProcessWorkers
) -> None:
    """The lag is measured over a round of moves (another round, up to three, if one was disturbed:
    any process can be delayed on a busy machine, and the tests run two at a time); the computers'
    thinking is elsewhere in any case: this process uses a small part of the time they take."""
    svc = await Context.open(tmp_path / "w.db", renderer=FakeRenderer(), workers=pool)
    games = [await _game_against_strong(svc, channel, 3) for channel in (1, 2)]
    for _ in range(3):
        lags, cpu, wall = await _round(svc, games)
        p99 = lags[int(0.99 * (len(lags) - 1))]
        median, top = statistics.median(lags) * 1000, lags[-1] * 1000
        print(f"\nlag over {len(lags)} probes: median {median:.2f} ms, p99 {p99 * 1000:.2f} ms, "
              f"max {top:.2f} ms; this process's CPU {cpu:.2f} s in {wall:.2f} s")  # fmt: skip
        if p99 < LAG_LIMIT:
            break
    await svc.close()
    assert cpu < 0.25 * wall, "the computer players think in this process"
    assert p99 < LAG_LIMIT, f"the event loop ran {p99 * 1000:.1f} ms late (p99) while the computers thought"


async def test_a_worker_that_dies_is_replaced(pool: ProcessWorkers) -> None:
    first = await pool.call(os.getpid)
    assert first != os.getpid(), "the work runs in another process"
    os.kill(first, 9)
    await asyncio.sleep(0.2)
    pids = {await pool.call(os.getpid) for _ in range(4)}
    assert first not in pids and os.getpid() not in pids


def slow_pid(seconds: float) -> int:
    """A job that takes ``seconds`` (runs in a worker): the worker's process id."""
    time.sleep(seconds)
    return os.getpid()


@pytest.fixture
async def one() -> object:
    workers = ProcessWorkers(1)
    await workers.start()
    yield workers
    workers.close()


async def _killed_while_running(workers: ProcessWorkers, job: asyncio.Future[int]) -> int:
    """SIGKILL the worker as it runs ``job`` (it started, it is not done): the pid killed."""
    await asyncio.sleep(0.5)
    assert not job.done()
    [pid] = workers.pids()
    os.kill(pid, 9)
    return pid


async def test_a_job_whose_worker_is_killed_while_it_runs_is_tried_once_more_and_answers_once(
    one: ProcessWorkers, caplog: pytest.LogCaptureFixture
) -> None:
    job = asyncio.ensure_future(one.call(slow_pid, 2.0))
    killed = await _killed_while_running(one, job)
    answered = await asyncio.wait_for(job, 60)
    assert answered != killed and one.pids() == [answered], "a new worker ran the job"
    assert "while running a job; the job is tried once more" in caplog.text
    assert await one.call(os.getpid) == answered, "the new worker takes the next jobs"


async def test_a_job_whose_worker_is_killed_twice_fails_and_the_next_job_runs(one: ProcessWorkers) -> None:
    job = asyncio.ensure_future(one.call(slow_pid, 2.0))
    first = await _killed_while_running(one, job)
    for _ in range(200):  # the job tried once more, in a new worker
        if one.pids() and one.pids() != [first]:
            break
        await asyncio.sleep(0.05)
    await _killed_while_running(one, job)
    with pytest.raises(BrokenProcessPool):
        await asyncio.wait_for(job, 60)
    assert await one.call(os.getpid) not in (first, os.getpid()), "a third worker runs the next job"


@pytest.fixture
async def two() -> object:
    workers = ProcessWorkers(2)
    await workers.start()
    yield workers
    workers.close()


async def test_a_keyed_job_runs_on_its_keys_worker_when_that_one_is_free(two: ProcessWorkers) -> None:
    ran = {key: {await two.call_near(key, os.getpid) for _ in range(3)} for key in range(1, 16, 2)}
    assert all(len(pids) == 1 for pids in ran.values()), "a key's jobs all ran in one worker"
    assert len(set.union(*ran.values())) == 2, "the keys (every other game id) are shared out over both"
    assert (two.near, two.keyed) == (24, 24)


async def test_a_job_does_not_wait_for_its_keys_worker_while_another_is_free(two: ProcessWorkers) -> None:
    home = await two.call_near(0, os.getpid)
    busy = asyncio.ensure_future(two.call_near(0, time.sleep, 3))
    await asyncio.sleep(0.1)  # it runs on worker 0
    started = time.perf_counter()
    other = await two.call_near(0, os.getpid)
    assert other != home and not busy.done(), "it ran on the free worker"
    assert time.perf_counter() - started < 2
    await busy


async def test_a_worker_that_comes_free_takes_a_job_meant_for_it_before_older_ones(
    two: ProcessWorkers,
) -> None:
    pid = [await two.call_near(k, os.getpid) for k in range(2)]
    short, long = (asyncio.ensure_future(two.call_near(k, time.sleep, s)) for k, s in ((0, 0.5), (1, 2.5)))
    await asyncio.sleep(0.1)
    older = asyncio.ensure_future(two.call_near(1, os.getpid))  # worker 1's, still busy
    newer = asyncio.ensure_future(two.call_near(0, os.getpid))
    order: list[str] = []
    older.add_done_callback(lambda _: order.append("older"))
    newer.add_done_callback(lambda _: order.append("newer"))
    assert await newer == pid[0] and not long.done(), "worker 0, free first, ran the job meant for it"
    await asyncio.gather(short, long, older)
    assert order == ["newer", "older"]


async def test_a_members_private_request_never_holds_up_a_games_job() -> None:
    """One worker: a replay, hint or board a member asked for runs in the `aside` lane, so a turn
    post's drawing sent meanwhile does not wait for it; the lane's worker yields the CPU to all."""
    workers = ProcessWorkers(1)
    await workers.start()
    try:
        game_worker = await workers.call(os.getpid)
        flood = [asyncio.ensure_future(workers.aside(time.sleep, 1.5)) for _ in range(3)]
        await asyncio.sleep(0.3)  # the first private request runs, two wait behind it
        started = time.perf_counter()
        assert await workers.call(os.getpid) == game_worker
        assert time.perf_counter() - started < 1.0 and not any(f.done() for f in flood)
        assert await workers.aside(os.nice, 0) == ASIDE_NICENESS, "it runs at the lowest priority"
        assert all(f.done() for f in flood), "private requests run one after another, in order"
        assert await workers.aside(os.getpid) not in (game_worker, os.getpid())
    finally:
        workers.close()


async def test_a_worker_that_read_the_kept_warm_up_draws_the_same_post_as_one_that_drew_it(
    tmp_path: Path,
) -> None:
    """The first worker with a folder draws its warm-up and keeps it there; the next reads it
    (drawing nothing at start-up) and draws the very bytes a worker without a folder draws."""
    import render
    from render.samples import new_game

    first = ProcessWorkers(1, cache=tmp_path)
    await first.start()
    first.close()
    assert len(list(tmp_path.glob("render-*.stash"))) == 1
    reading, drawing = ProcessWorkers(1, cache=tmp_path), ProcessWorkers(1)
    try:
        await asyncio.gather(reading.start(), drawing.start())
        sprites = "__import__('render.sprites').sprites.building.cache_info().currsize"
        waiting = "len(__import__('render.stash').stash._kept)"  # kept, not asked for yet
        assert await reading.call(eval, sprites) == 0 and await reading.call(eval, waiting) > 0
        assert await drawing.call(eval, sprites) > 0 and await drawing.call(eval, waiting) == 0
        game = new_game(4, seed=2)
        seat = game.pending_seats()[0]
        posts = [await w.call(render.render_post, game.view(None), focus=seat) for w in (reading, drawing)]
        assert posts[0] == posts[1]
    finally:
        reading.close()
        drawing.close()


async def test_the_worker_of_private_requests_stops_when_idle_and_starts_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """It holds as much memory as a game's worker: it is let go after a while without work."""
    monkeypatch.setattr(workers_module, "ASIDE_IDLE", 0.5)
    workers = ProcessWorkers(1)
    try:
        first = await workers.aside(os.getpid)
        assert first in workers.pids()
        await asyncio.sleep(0.2)
        assert await workers.aside(os.getpid) == first, "still there while requests come"
        await asyncio.sleep(1.5)
        assert first not in workers.pids()
        await asyncio.to_thread(_gone, first)
        assert await workers.aside(os.getpid) != first, "started again for the next request"
    finally:
        workers.close()


def _gone(pid: int) -> None:
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise AssertionError(f"worker {pid} still runs")


async def test_a_private_request_whose_worker_dies_is_tried_once_more() -> None:
    workers = ProcessWorkers(1)
    try:
        first = await workers.aside(os.getpid)
        dying = asyncio.ensure_future(workers.aside(time.sleep, 2))
        await asyncio.sleep(0.3)
        os.kill(first, 9)
        await dying
        assert dying.result() is None, "the job ran again in a new worker"
        assert await workers.aside(os.getpid) not in (first, os.getpid())
    finally:
        workers.close()


def pid_and(value: int) -> tuple[int, int]:
    """A job (runs in a worker): ``value`` and the worker's process id."""
    return value, os.getpid()


async def test_a_worker_past_its_memory_budget_is_replaced_and_the_results_come_back_in_order() -> None:
    workers = ProcessWorkers(1, memory=1)  # 1 MiB: every warm worker is past it after each job
    try:
        answers = await asyncio.gather(*(workers.call(pid_and, k) for k in range(3)))
        assert [value for value, _pid in answers] == [0, 1, 2], "every result came back, in order"
        assert len({pid for _value, pid in answers}) == 3, "each job ran in a fresh worker"
        assert workers.replaced == 3
        assert await workers.aside(os.getpid) != await workers.aside(os.getpid), "the private lane too"
    finally:
        workers.close()


async def test_a_worker_within_its_memory_budget_is_kept() -> None:
    workers = ProcessWorkers(1, memory=4096)
    try:
        pids = {(await workers.call(pid_and, k))[1] for k in range(3)}
        assert len(pids) == 1 and workers.replaced == 0
    finally:
        workers.close()


async def test_closing_workers_still_warming_leaves_no_pool_thread_running() -> None:
    """A pool's thread still running at the interpreter's exit may close its pipe while Python's
    exit hook writes to it: a traceback at every quick stop (a token refused during warm-up)."""
    workers = ProcessWorkers(2)
    warming = asyncio.ensure_future(workers.start())
    await asyncio.sleep(0.05)
    threads = [pool._executor_manager_thread for pool in workers._pools]
    workers.close()
    assert threads and all(t is not None and not t.is_alive() for t in threads)  # type: ignore[attr-defined]
    warming.cancel()
    with contextlib.suppress(asyncio.CancelledError, BrokenProcessPool):
        await warming


SCRIPT = """
import asyncio, os, sys
from bot.service.workers import ProcessWorkers

async def main():
    workers = ProcessWorkers(2)
    if sys.argv[1] == "started":
        await workers.start()
        pids = {await workers.call(os.getpid) for _ in range(8)}
    else:  # killed while the workers are still starting
        jobs = [asyncio.ensure_future(workers.call_near(k, os.getpid)) for k in range(2)]
        await asyncio.sleep(0)  # each job handed to its worker, which is starting
        pids = set(workers.pids())
    print(" ".join(map(str, sorted(pids))), flush=True)
    await asyncio.sleep(60)

if __name__ == "__main__":
    asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie has died already
        return stat.read().split(") ")[1][0] != "Z"


@pytest.mark.parametrize("when", ["started", "starting"])
async def test_the_workers_end_when_the_bot_is_killed(tmp_path: Path, when: str) -> None:
    script = tmp_path / "bot_with_workers.py"
    script.write_text(SCRIPT)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(script), when, stdout=asyncio.subprocess.PIPE, cwd=Path(__file__).parent.parent
    )
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), 60)
    workers = [int(p) for p in line.split()]
    assert workers and all(_alive(p) for p in workers)
    proc.kill()  # SIGKILL: the bot cannot shut its pool down
    await proc.wait()
    for _ in range(100):  # a starting worker ends once it has started
        if not any(_alive(p) for p in workers):
            break
        await asyncio.sleep(0.1)
    assert not any(_alive(p) for p in workers), "orphaned worker processes keep running"


def _resident_mib() -> float:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024


def test_a_trimmed_heap_gives_the_memory_of_freed_pictures_back() -> None:
    """What a drawing freed inside the heap (a block still in use above it) stays resident until
    the heap is trimmed (`worker_start.trim_heap`, after every `TRIM_EVERY`-th job)."""
    blocks = [bytearray(64 * 1024) for _ in range(1600)]  # 100 MiB, each block within the heap
    kept = blocks[-1]
    del blocks
    before = _resident_mib()
    worker_start.trim_heap()
    assert before - _resident_mib() > 50, "the freed blocks went back to the system"
    assert len(kept) == 64 * 1024


def test_every_sixteenth_job_trims_the_heap_whether_or_not_it_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    trims: list[int] = []
    monkeypatch.setattr(worker_start, "trim_heap", lambda: trims.append(1))
    monkeypatch.setattr(worker_start, "_jobs", 0)

    def job(k: int) -> Callable[[], int]:
        return lambda: k

    results = [worker_start.run_job(job(k)) for k in range(worker_start.TRIM_EVERY - 1)]
    assert results == list(range(worker_start.TRIM_EVERY - 1)) and trims == []
    with pytest.raises(ZeroDivisionError):
        worker_start.run_job(lambda: 1 // 0)
    assert trims == [1]
    for _ in range(worker_start.TRIM_EVERY):
        worker_start.run_job(lambda: None)
    assert trims == [1, 1]


async def test_the_bots_own_heap_is_trimmed_after_every_so_many_finished_jobs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bot's process takes in every job's result: its heap is trimmed every `OWN_TRIM_EVERY` jobs."""
    trims: list[int] = []
    monkeypatch.setattr(workers_module, "trim_heap", lambda: trims.append(1))
    monkeypatch.setattr(workers_module, "OWN_TRIM_EVERY", 2)
    workers = ProcessWorkers(1)
    try:
        for _ in range(5):
            await workers.call(os.getpid)
        assert trims == [1, 1]
    finally:
        workers.close()


WARM_AT = textwrap.dedent(
    """
    import os, sys
    import render
    from bot.service.worker_start import warm_worker
    base, seen = os.nice(0), []
    render.warm_start = lambda cache: seen.append(os.nice(0) - base)
    warm_worker(os.getppid(), int(sys.argv[1]), None, sys.argv[2] == "first")
    print(seen[0], os.nice(0) - base)
    """
)


@pytest.mark.parametrize(("warm_first", "while_warming"), [(True, 0), (False, WORKER_NICENESS)])
def test_a_games_worker_warms_at_the_bots_priority_and_then_yields(
    warm_first: bool, while_warming: int
) -> None:
    out = subprocess.run(
        [sys.executable, "-c", WARM_AT, str(WORKER_NICENESS), "first" if warm_first else "-"],
        capture_output=True, text=True, check=True, cwd=Path(__file__).resolve().parent.parent,
    ).stdout.split()  # fmt: skip
    assert out == [str(while_warming), str(WORKER_NICENESS)]


async def test_a_games_worker_runs_its_jobs_at_its_lower_priority() -> None:
    workers = ProcessWorkers(1)
    await workers.start()
    try:
        assert await workers.call(os.nice, 0) == os.nice(0) + WORKER_NICENESS
    finally:
        workers.close()


async def test_workers_started_before_the_event_loop_are_the_ones_that_take_the_jobs() -> None:
    workers = ProcessWorkers(2)
    workers.spawn()  # as ``python -m bot`` does, before it imports discord.py
    early = set(workers.pids())
    try:
        assert len(early) == 2, "both processes are started at once"
        await workers.start()
        assert set(workers.pids()) == early
        assert {await workers.call_near(k, os.getpid) for k in range(8)} <= early
    finally:
        workers.close()
