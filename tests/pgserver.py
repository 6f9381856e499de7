"""A real, throwaway PostgreSQL server for the tests, from the machine's own binaries.

`PgServer.start` runs ``initdb`` and ``pg_ctl`` (as the ``postgres`` user through ``runuser``
when the tests run as root: initdb refuses root) in a fresh folder that owns everything: the
data, the log and the unix socket (no TCP port, so nothing to collide with), with trust
authentication and durability off (fsync) for speed. `PgServer.database` gives each test a
database of its own, dropped after it. `PgServer.stop` ends the server (``-m immediate``) and
removes the folder. `PgServer.halt` and `PgServer.resume` stop the server and start it again on the
same data (a restart of the database under a running bot).

Why not pytest-postgresql: it needs psycopg (with libpq) besides asyncpg, and it runs
``initdb`` as the current user, which fails as root, as CI runs.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

import asyncpg

USER = "citta"
"""The database superuser the tests connect as."""
RUN_AS = "postgres"
"""The system user that runs the server when the tests run as root."""
SETTINGS = {
    "listen_addresses": "''",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "200",
}


class PgServerMissing(RuntimeError):
    """The PostgreSQL binaries (or the user to run them as) are not on this machine."""


def binary(name: str) -> str:
    """The path of a PostgreSQL server program: on the PATH, else in Debian's versioned folder."""
    found = shutil.which(name)
    if found:
        return found
    for candidate in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), reverse=True):
        return str(candidate)
    raise PgServerMissing(
        f"{name} not found: the storage tests need a PostgreSQL 15 server's binaries "
        "(initdb, pg_ctl; Debian: apt-get install postgresql)."
    )


class PgServer:
    """One PostgreSQL server in ``root``, reached through its unix socket there."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.data = root / "data"
        self.log = root / "server.log"
        self._numbers = itertools.count(1)
        self._as: list[str] = []
        self.options = ""
        """The server's ``-c`` options, as `start` was given them."""
        self.running = False
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam(RUN_AS)
            except KeyError:
                raise PgServerMissing(
                    f"Running as root, but there is no {RUN_AS!r} user to run initdb as."
                ) from None
            os.chown(root, owner.pw_uid, owner.pw_gid)
            self._as = [shutil.which("runuser") or "runuser", "-u", RUN_AS, "--"]

    @classmethod
    def start(cls, settings: Mapping[str, str] = SETTINGS) -> PgServer:
        """Create the cluster and start it (about a second) with ``settings`` (the server's
        ``-c`` options; the default trades durability for speed); stop it with `stop`."""
        initdb, pg_ctl = binary("initdb"), binary("pg_ctl")
        server = cls(Path(tempfile.mkdtemp(prefix="citta-pg-")))
        server.options = " ".join(f"-c {k}={v}" for k, v in settings.items())
        try:
            server._run(initdb, "-D", str(server.data), "-U", USER, "--auth=trust", "-E", "UTF8",
                        "--locale=C", "--no-sync")  # fmt: skip
            server._run(pg_ctl, "-D", str(server.data), "-l", str(server.log), "-w", "-t", "60",
                        "-o", f"-k {server.root} {server.options}", "start")  # fmt: skip
            server.running = True
        except BaseException:
            server._remove()
            raise
        return server

    def _run(self, *command: str) -> None:
        done = subprocess.run([*self._as, *command], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            raise RuntimeError(
                f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}{log}"
            )

    def halt(self) -> None:
        """Stop the server (``-m fast``: its connections are cut at once, as a host's restart does;
        what was committed is kept, which ``immediate`` with this server's asynchronous commits
        would not promise), keeping its data for `resume`."""
        self._run(binary("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")
        self.running = False

    def resume(self) -> None:
        """Start the server again on its data after `halt` (it recovers as after a crash)."""
        self._run(binary("pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60",
                  "-o", f"-k {self.root} {self.options}", "start")  # fmt: skip
        self.running = True

    def stop(self) -> None:
        """Stop the server at once (unless `halt` stopped it) and remove its folder."""
        try:
            if self.running:
                self._run(binary("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            self._remove()

    def _remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """A ``postgresql://`` URL of one of the server's databases (through the unix socket)."""
        return f"postgresql://{USER}@/{database}?host={self.root}"

    @contextlib.asynccontextmanager
    async def database(self) -> AsyncIterator[str]:
        """A new empty database for one test: its URL; dropped (its connections ended) afterwards."""
        name = f"test_{os.getpid()}_{next(self._numbers)}"
        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f'CREATE DATABASE "{name}"')
        finally:
            await admin.close()
        try:
            yield self.url(name)
        finally:
            admin = await asyncpg.connect(self.url())
            try:
                await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            finally:
                await admin.close()
