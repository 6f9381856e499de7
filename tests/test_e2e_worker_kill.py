"""End-to-end: the real bot process (`python -m bot`, with its worker process, as in production)
has its worker killed with SIGKILL while it draws a turn post's pictures: a new worker is started,
the drawing tried once more, and the post arrives once, with its pictures."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

from fakediscord import FakeDiscord, FakeMessage
from fakediscord.fixtures import fake_discord
from test_e2e_crash import _first_move, _open, _posts

__all__ = ["fake_discord"]


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux's /proc)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _worker_of(bot: int) -> int:
    """The bot's worker process (not multiprocessing's resource tracker)."""
    [worker] = [
        c for c in _children(bot)
        if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()
        and b"resource_tracker" not in Path(f"/proc/{c}/cmdline").read_bytes()
    ]  # fmt: skip
    return worker


def _running(pid: int) -> bool:
    """Whether ``pid`` is on a CPU (or waiting for one): a worker at work, not one waiting for a job."""
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(") ", 1)[1][0] == "R"


async def _kill_once_it_works(pid: int, timeout: float = 30) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not _running(pid):
        assert loop.time() < deadline, "the worker never drew the post's pictures"
        await asyncio.sleep(0.002)
    os.kill(pid, signal.SIGKILL)


async def test_a_worker_killed_while_it_draws_a_turn_post_is_replaced_and_the_post_arrives_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    bot = await fake.spawn_bot({"CITTA_DB": str(tmp_path / "citta.db"), "CITTA_WORKERS": "1"})
    await bot.ready()
    start = await _open(fake, alice, bob)  # its pictures drawn by the worker: it is warm now
    mover, move = await _first_move(fake, start)
    worker = _worker_of(bot.pid)
    await asyncio.sleep(0.5)  # whatever the start left the worker to do is done
    played = await fake.slash(mover, "citta play", move=move, wait=False)
    await _kill_once_it_works(worker)
    reply = await played.wait_message(timeout=60)
    assert reply.text.startswith(f"You played `{move}`."), reply.text
    post: FakeMessage = await fake.wait_for(lambda: next(iter(_posts(fake, f"`{move}`")), None), timeout=60)
    names = [a.filename for a in post.attachments]
    assert names[:1] == ["board.png"] and names[-1:] == ["table.png"], f"the post has its pictures: {names}"
    assert "A worker process died while running a job; the job is tried once more" in bot.output()
    assert _worker_of(bot.pid) != worker, "a new worker was started"
    await bot.close()
    assert len(_posts(fake, f"`{move}`")) == 1, "the post arrives once"
    fake.check()
