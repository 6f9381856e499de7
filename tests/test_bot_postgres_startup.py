"""``python -m bot`` on PostgreSQL as a real process: ``CITTA_DB=postgresql://…`` runs the bot
(the database migrated, the password never logged), and a database it cannot use is one line
and exit 2 before any network, as for SQLite. Also the settings' checks of such a URL."""

from __future__ import annotations

import asyncio
import io
import logging
import signal
import sys
from pathlib import Path

import pytest
from pgserver import PgServer
from test_bot_startup import TOKEN, fake_discord, launch

from bot.config import ConfigError, check_database, load_settings, setup_logging
from bot.storage import open_storage
from bot.storage.backends import passwords
from bot.storage.sqlite import migration_files

PASSWORD = "pw-Secret-123"
"""Sent in the URL; the test server trusts local users and never asks for it."""

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def with_password(url: str) -> str:
    return url.replace("citta@", f"citta:{PASSWORD}@")


async def test_the_bot_runs_on_postgresql_and_never_logs_the_password(tmp_path: Path, postgres: str) -> None:
    url = with_password(postgres)
    async with fake_discord() as fake, launch(fake.http_url, tmp_path, CITTA_DB=url) as bot:
        await bot.wait_for("Logged in as", timeout=30)
        bot.proc.send_signal(signal.SIGTERM)
        code = await bot.finish(timeout=20)
    assert code == 0
    bot.check_clean()
    text = "\n".join(bot.lines)
    assert PASSWORD not in text and "(database postgresql://citta:[redacted]@/" in text
    assert not (tmp_path / "citta.db").exists(), "no SQLite file on the side"
    store = await open_storage(postgres)
    assert await store.schema_version() == len(migration_files())
    await store.close()


async def test_the_bot_waits_at_start_for_a_postgresql_server_that_is_not_up_yet(tmp_path: Path) -> None:
    """Compose starts the bot and its database together; a host reboots both: the bot says once that
    it waits, and starts when the server is up (it used to exit 2 at once, and be restarted)."""
    server = PgServer.start()
    try:
        url = with_password(server.url())
        await asyncio.to_thread(server.halt)
        async with fake_discord() as fake, launch(fake.http_url, tmp_path, CITTA_DB=url) as bot:
            await bot.wait_for("Waiting for the PostgreSQL server of CITTA_DB=", timeout=30)
            assert fake.requests == [], "nothing goes to Discord before the database is there"
            await asyncio.to_thread(server.resume)
            await bot.wait_for("Logged in as", timeout=60)
            bot.proc.send_signal(signal.SIGTERM)
            code = await bot.finish(timeout=20)
        assert code == 0
        text = "\n".join(bot.lines)
        assert text.count("Waiting for the PostgreSQL server") == 1 and PASSWORD not in text
    finally:
        server.stop()


async def test_a_postgresql_database_it_cannot_use_is_one_line_and_exit_2(
    tmp_path: Path, postgres_server: PgServer
) -> None:
    url = with_password(postgres_server.url("no_such_database"))
    async with fake_discord() as fake, launch(fake.http_url, tmp_path, CITTA_DB=url) as bot:
        code = await bot.finish(timeout=30)
    assert code == 2 and fake.requests == []
    [line] = bot.lines
    assert line.startswith(
        "citta-bot: The database of CITTA_DB=postgresql://citta:[redacted]@/no_such_database"
    )
    assert "does not exist" in line and PASSWORD not in line and TOKEN not in line


async def test_a_database_url_that_does_not_parse_is_one_line_without_the_password_and_exit_2(
    tmp_path: Path,
) -> None:
    """A generated password with ``/``, ``?`` or ``#`` breaks the URL: the process says so in one line
    that shows nothing between ``://`` and ``@`` and tells how to write such a password."""
    password = "Zq3/xK9?u#Tv"
    url = f"postgresql://citta:{password}@db.example:5432/citta"
    async with fake_discord() as fake, launch(fake.http_url, tmp_path, CITTA_DB=url) as bot:
        code = await bot.finish(timeout=30)
    assert code == 2 and fake.requests == []
    [line] = bot.lines
    assert line.startswith("citta-bot: ") and "percent-encoded" in line, line
    assert not [p for p in ("Zq3", "xK9", "u#Tv", "citta:") if p in line], line


def test_citta_db_may_be_a_postgresql_url() -> None:
    url = f"postgresql://citta:{PASSWORD}@db.internal:5432/citta"
    s = load_settings({"DISCORD_TOKEN": "t", "CITTA_DB": url}, env_file=None)
    assert s.db_path == url and PASSWORD not in repr(s) and "[redacted]" in repr(s)
    s = load_settings({"DISCORD_TOKEN": "t", "CITTA_DB": "sqlite:////data/c.db"}, env_file=None)
    assert s.db_path == Path("/data/c.db")
    with pytest.raises(ConfigError, match="CITTA_DB=mysql://…@db/citta is neither") as e:
        load_settings({"DISCORD_TOKEN": "t", "CITTA_DB": f"mysql://citta:{PASSWORD}@db/citta"}, env_file=None)
    assert PASSWORD not in str(e.value)


def test_the_postgresql_check_says_what_to_change(postgres_server: PgServer, tmp_path: Path) -> None:
    check_database(postgres_server.url())
    with pytest.raises(ConfigError, match="does not exist"):
        check_database(postgres_server.url("nothing_here"))
    nowhere = f"postgresql://citta:{PASSWORD}@/citta?host={tmp_path}"
    with pytest.raises(ConfigError, match="check that the server runs") as e:
        check_database(nowhere)
    assert PASSWORD not in str(e.value)


def test_the_database_password_is_redacted_from_the_log() -> None:
    url = f"postgresql://citta:{PASSWORD}@db/citta"
    stream = io.StringIO()
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        setup_logging("INFO", "token", *passwords(url), stream=stream)
        logging.getLogger("bot").info("connecting to %s", url)
    finally:
        root.handlers, root.level = saved[0], saved[1]
    assert PASSWORD not in stream.getvalue() and "citta:[redacted]@db" in stream.getvalue()
