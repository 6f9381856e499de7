"""``python -m bot`` as a real process: start-up failures are one line, a network that is down is
retried, and SIGTERM stops the bot cleanly. The process is tests/fakediscord/launch.py (the bot's
own ``main`` with discord.py pointed at loopback); Discord is a server on 127.0.0.1 or a closed
port there, so nothing leaves the machine."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web
from fakediscord.driver import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent
LAUNCHER = Path(__file__).resolve().parent / "fakediscord" / "launch.py"
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.fake-but-well-formed-token-0123456789"
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING|ERROR|CRITICAL) +\S+: ")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


class Bot:
    """A ``python -m bot`` process (through the launcher) and what it wrote on stderr."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lines: list[str] = []

    async def wait_for(self, text: str, timeout: float = 10.0) -> str:
        """Read stderr up to the first line containing ``text``."""
        assert self.proc.stderr is not None
        async with asyncio.timeout(timeout):
            while True:
                raw = await self.proc.stderr.readline()
                assert raw, f"the bot ended before logging {text!r}: {self.lines}"
                self.lines.append(raw.decode().rstrip("\n"))
                if text in self.lines[-1]:
                    return self.lines[-1]

    async def finish(self, timeout: float = 10.0) -> int:
        """Wait for the exit; the exit code (the rest of stderr is in ``lines``)."""
        assert self.proc.stderr is not None
        async with asyncio.timeout(timeout):
            rest = await self.proc.stderr.read()
            code = await self.proc.wait()
        self.lines += rest.decode().splitlines()
        return code

    def check_clean(self) -> None:
        """No traceback, the token nowhere, and nothing but log lines."""
        text = "\n".join(self.lines)
        assert "Traceback" not in text and TOKEN not in text, text
        assert all(LOG_LINE.match(line) for line in self.lines), text

    def at(self, *levels: str) -> list[str]:
        return [line for line in self.lines if (m := LOG_LINE.match(line)) and m.group(1) in levels]


@contextlib.asynccontextmanager
async def launch(discord_url: str, tmp_path: Path, **env: str) -> AsyncIterator[Bot]:
    """Start the bot against ``discord_url``; kill it if the test left it running."""
    environ = {
        "PYTHONPATH": str(ROOT),
        "SYSTEMROOT": os.environ.get("SYSTEMROOT", ""),
        "FAKE_DISCORD_URL": discord_url,
        "DISCORD_TOKEN": TOKEN,
        "CITTA_DB": str(tmp_path / "citta.db"),
        **env,
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(LAUNCHER), cwd=tmp_path, env=environ,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        yield Bot(proc)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


@contextlib.asynccontextmanager
async def fake_discord(token: str = TOKEN) -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(token=token)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@contextlib.asynccontextmanager
async def answering(status: int) -> AsyncIterator[str]:
    """A server on 127.0.0.1 answering every request with ``status``; its URL."""

    async def handle(request: web.Request) -> web.Response:
        return web.json_response({"message": f"{status}: test", "code": 0}, status=status)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handle)
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.5)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


def closed_port() -> str:
    """The URL of a port on 127.0.0.1 where nothing listens (connections are refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


async def test_a_token_discord_refuses_is_one_line_and_exit_2(tmp_path: Path) -> None:
    async with fake_discord(token="the-right-token") as fake, launch(fake.http_url, tmp_path) as bot:
        code = await bot.finish()
    assert code == 2
    bot.check_clean()
    assert bot.at("WARNING", "ERROR", "CRITICAL") == bot.at("ERROR")
    [error] = bot.at("ERROR")
    assert "Discord refused the token" in error and "DISCORD_TOKEN" in error
    assert ("GET", "/api/v10/users/@me") in fake.requests


def _unwritable_folder(tmp_path: Path) -> Path:
    """A folder this process cannot create files in (root ignores permissions: use /proc)."""
    if os.geteuid() == 0:
        if not Path("/proc/self").is_dir():
            pytest.skip("running as root without /proc: no unwritable folder to test with")
        return Path("/proc")
    folder = tmp_path / "read-only"
    folder.mkdir(mode=0o500)
    return folder


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("missing folder", "does not exist: create it"),
        ("folder is a file", "which is a file, not a folder"),
        ("path is a folder", "is the folder"),
        ("not a database", "is not an SQLite database"),
        ("unwritable folder", "give this user"),
    ],
)
async def test_an_unusable_database_is_one_line_and_exit_2_before_any_network(
    tmp_path: Path, case: str, expected: str
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    db = {
        "missing folder": data / "missing" / "citta.db",
        "folder is a file": data / "file" / "citta.db",
        "path is a folder": data,
        "not a database": data / "notes.db",
        "unwritable folder": _unwritable_folder(tmp_path) / "citta.db",
    }[case]
    (data / "file").write_text("a file, not a folder")
    (data / "notes.db").write_text("these are notes, not an SQLite database; " * 40)
    async with fake_discord() as fake, launch(fake.http_url, tmp_path, CITTA_DB=str(db)) as bot:
        code = await bot.finish()
    assert code == 2
    assert fake.requests == []  # Discord was never contacted
    [line] = bot.lines
    assert line.startswith("citta-bot: ") and expected in line, line
    assert str(db.parent if case == "missing folder" else db) in line and "CITTA_DB" in line
    assert "Traceback" not in line and TOKEN not in line
    if case in ("missing folder", "unwritable folder"):
        assert not db.exists()


async def test_a_network_that_is_down_is_retried_with_backoff_until_sigterm(tmp_path: Path) -> None:
    async with launch(closed_port(), tmp_path) as bot:
        first = await bot.wait_for("Cannot reach Discord")
        second = await bot.wait_for("Cannot reach Discord")
        bot.proc.send_signal(signal.SIGTERM)
        code = await bot.finish(timeout=20)
    assert code == 0  # handled: an unhandled SIGTERM ends Python with -15 at once
    assert "try 1: Cannot connect to host 127.0.0.1" in first and "next try in 2 s" in first
    assert "try 2: Cannot connect to host 127.0.0.1" in second and "next try in 4 s" in second
    bot.check_clean()
    assert bot.lines[-1].endswith("bot: Stopped.")
    assert bot.at("ERROR", "CRITICAL") == []
    assert len(bot.at("WARNING")) == 2  # one line per try


async def test_discord_server_errors_are_retried_too(tmp_path: Path) -> None:
    async with answering(503) as url, launch(url, tmp_path) as bot:
        line = await bot.wait_for("Cannot reach Discord")
        bot.proc.send_signal(signal.SIGINT)
        code = await bot.finish(timeout=20)
    assert "try 1: Discord answered 503 Service Unavailable); next try in 2 s" in line
    assert code == 0
    bot.check_clean()
    assert bot.lines[-1].endswith("bot: Stopped.")


async def test_sigterm_while_connected_closes_the_gateway_and_exits_0(tmp_path: Path) -> None:
    async with fake_discord() as fake, launch(fake.http_url, tmp_path) as bot:
        await bot.wait_for("Logged in as")
        assert len(fake.connected) == 1
        bot.proc.send_signal(signal.SIGTERM)
        code = await bot.finish(timeout=20)
        async with asyncio.timeout(20):
            while fake.connected:  # the bot closed its websocket: no session left open
                await asyncio.sleep(0.05)
    assert code == 0
    bot.check_clean()
    assert bot.at("WARNING", "ERROR", "CRITICAL") == []
    assert bot.lines[-1].endswith("bot: Stopped.")
    assert (tmp_path / "citta.db").is_file()


SPAWN_SEEN = """
import runpy, sys
from bot.service import workers
def spawn(self):
    print("discord" in sys.modules, self.processes, flush=True)
    sys.exit(0)
workers.ProcessWorkers.spawn = spawn
if len(sys.argv) > 1:
    runpy.run_path(sys.argv[1], run_name="__main__")
else:
    from bot.__main__ import main
    main()
"""
LAUNCHER = ROOT / "tests" / "fakediscord" / "launch.py"


@pytest.mark.parametrize("launcher", [False, True], ids=["python -m bot", "the tests' launcher"])
def test_the_workers_start_before_discord_py_is_imported(tmp_path: Path, launcher: bool) -> None:
    """They warm while the bot imports discord.py (a quarter of a second of CPU) and logs in. The
    tests' launcher (which points discord.py at the fake Discord) imports it no sooner than the bot
    does, so a restart measured through it starts as one of ``python -m bot``."""
    environ = {
        "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": TOKEN, "CITTA_DB": str(tmp_path / "citta.db"),
        "CITTA_WORKERS": "2", "PATH": os.environ.get("PATH", ""), "FAKE_DISCORD_URL": "http://127.0.0.1:9",
    }  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", SPAWN_SEEN, *([str(LAUNCHER)] if launcher else [])],
        cwd=tmp_path,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout.split()) == (0, ["False", "2"]), done.stderr
