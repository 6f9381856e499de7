"""The real bot in a subprocess against the fake, for tests that ``kill -9`` it: `BotProcess`.

``await fake.spawn_bot({"CITTA_DB": str(db)})`` runs ``python tests/fakediscord/launch.py`` (the bot's
``bot.__main__.main`` pointed at the fake) with ``sys.executable``, in a temporary working directory (so
no ``.env`` is read; removed when the fake stops), its stdout and stderr in one log file there (or in
``log``). The environment is the test's, without
any DISCORD_*, CITTA_* or FAKE_* variable, plus FAKE_DISCORD_URL, DISCORD_TOKEN (the fake's token),
CITTA_DEV_GUILD (the fake's guild), CITTA_WORKERS (`WORKERS`) and PYTHONUNBUFFERED, then ``env`` over
them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from .launch import READY_MARK, ROOT

if TYPE_CHECKING:
    from .driver import FakeDiscord
    from .gateway import Session

LAUNCHER = Path(__file__).with_name("launch.py")


class BotProcess:
    """A bot process: `ready`, `kill9`, `wait`, `returncode`, `output`; ``session`` once ready."""

    def __init__(self, fake: FakeDiscord, proc: asyncio.subprocess.Process, workdir: Path, log: Path) -> None:
        self.fake, self.proc, self.workdir, self.log = fake, proc, workdir, log
        self._first_request = len(fake.requests)
        self._known = set(fake.sessions)  # sessions of earlier processes
        self.session: Session | None = None  # its gateway session, once ready

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def returncode(self) -> int | None:
        """None while it runs; -9 after `kill9` (or a FAKE_CRASH_AT crash)."""
        return self.proc.returncode

    def output(self) -> str:
        """Its stdout and stderr so far."""
        return self.log.read_text(encoding="utf-8", errors="replace")

    def _synced(self) -> bool:
        return any(
            m == "PUT" and p.endswith("/commands") for m, p in self.fake.requests[self._first_request :]
        )

    def _new_session(self) -> Session | None:
        claimed = {p.session.id for p in self.fake.bot_processes if p.session is not None}
        fresh = [s for s in self.fake.connected if s.id not in self._known | claimed]
        return fresh[0] if fresh else None

    async def ready(self, timeout: float = 30.0, every: float = 0.05) -> Session:
        """Wait until the bot synced its commands, its gateway session is connected and discord.py has
        dispatched ``ready`` (looked at ``every`` seconds); fail with its output if it exits (or takes
        longer than ``timeout``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if self.returncode is not None:
                raise AssertionError(f"the bot exited with {self.returncode}:\n{self.output()}")
            session = self._new_session()
            if session is not None and self._synced() and READY_MARK + "ready" in self.output():
                self.session = session
                return session
            if loop.time() > deadline:
                raise TimeoutError(f"the bot was not ready within {timeout}s:\n{self.output()}")
            await asyncio.sleep(every)

    def kill9(self) -> None:
        """SIGKILL it (nothing of it runs after this: no close, no flush)."""
        if self.returncode is None:
            self.proc.send_signal(signal.SIGKILL)

    async def wait(self, timeout: float = 30.0) -> int:
        """Wait for it to exit; its return code (-9 when killed). A TimeoutError says what it
        printed so far."""
        try:
            return await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            raise TimeoutError(f"the bot did not exit within {timeout}s:\n{self.output()}") from None

    async def close(self) -> None:
        """Kill it if it runs, and remove its working directory (with the log, unless given one)."""
        self.kill9()
        with contextlib.suppress(TimeoutError):
            await self.wait(10)
        shutil.rmtree(self.workdir, ignore_errors=True)

    def __repr__(self) -> str:
        return f"<BotProcess pid={self.pid} returncode={self.returncode} log={self.log}>"


WORKERS = "1"
"""The spawned bot's worker processes (``CITTA_WORKERS``), unless ``env`` says otherwise: one, so
that its pictures are still drawn in a worker process as in production, without warming a worker
per core at every start of every test."""


async def spawn(fake: FakeDiscord, env: dict[str, str], log: Path | None = None) -> BotProcess:
    """Start the real bot against ``fake`` (see the module docstring); it is not ready yet."""
    workdir = Path(tempfile.mkdtemp(prefix="fakediscord-bot-"))
    log = log or workdir / "bot.log"
    inherited = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CITTA_", "FAKE_"))}
    pythonpath = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    full = inherited | {
        "FAKE_DISCORD_URL": fake.http_url,
        "DISCORD_TOKEN": fake.token,
        "CITTA_DEV_GUILD": str(fake.store.guild_id),
        "CITTA_WORKERS": WORKERS,
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": pythonpath,
    }
    with log.open("ab") as out:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(LAUNCHER),
            env=full | env,
            cwd=workdir,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=out,
            stderr=asyncio.subprocess.STDOUT,
        )
    return BotProcess(fake, proc, workdir, log)
