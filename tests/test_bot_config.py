"""Settings, the missing-token exit, and the token never reaching the log."""

from __future__ import annotations

import contextlib
import io
import logging
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.config import REDACTED, ConfigError, check_database, load_settings, setup_logging
from bot.service.host import usable_cpus
from bot.service.workers import ProcessWorkers, ThreadWorkers, workers_for

ROOT = Path(__file__).resolve().parent.parent


def test_missing_token_prints_one_line_and_exits_with_code_2(tmp_path: Path) -> None:
    env = {"PYTHONPATH": str(ROOT), "SYSTEMROOT": os.environ.get("SYSTEMROOT", "")}
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0]


def test_settings_come_from_the_environment_over_the_env_file(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text('# local\nDISCORD_TOKEN="file-token"\nCITTA_DB=/data/x.db\nCITTA_DEV_GUILD=12\n')
    s = load_settings({"CITTA_DEV_GUILD": "34", "CITTA_LOG_LEVEL": "debug"}, env_file)
    assert (s.token, str(s.db_path), s.dev_guild, s.log_level) == ("file-token", "/data/x.db", 34, "DEBUG")
    assert "file-token" not in repr(s)


def test_the_env_file_may_have_comments_export_quotes_and_empty_values(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "# settings\nexport DISCORD_TOKEN='tok en'\nCITTA_DB=/data/c.db # on the volume\nCITTA_DEV_GUILD=\n"
    )
    s = load_settings({"CITTA_DB": ""}, env_file)
    assert (s.token, str(s.db_path), s.dev_guild) == ("tok en", "/data/c.db", None)


def test_defaults_when_only_the_token_is_set() -> None:
    s = load_settings({"DISCORD_TOKEN": "t"}, env_file=None)
    assert (str(s.db_path), s.dev_guild, s.log_level) == ("citta.db", None, "INFO")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "t", "CITTA_DEV_GUILD": "abc"}, "CITTA_DEV_GUILD"),
        ({"DISCORD_TOKEN": "t", "CITTA_LOG_LEVEL": "chatty"}, "CITTA_LOG_LEVEL"),
    ],
)
def test_wrong_settings_say_what_to_set(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings(env, env_file=None)


def test_the_token_is_redacted_from_log_messages_and_tracebacks() -> None:
    token = "MTIz.secret-token.XYZ"
    stream = io.StringIO()
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        setup_logging("DEBUG", token, stream=stream)
        log = logging.getLogger("bot.test")
        log.info("connecting with %s", token)
        log.debug(f"header Authorization: Bot {token}")
        try:
            raise RuntimeError(f"bad token {token}")
        except RuntimeError:
            log.exception("login failed")
    finally:
        root.handlers, _ = saved
        root.setLevel(saved[1])
    text = stream.getvalue()
    assert token not in text
    assert f"connecting with {REDACTED}" in text
    assert f"Authorization: Bot {REDACTED}" in text
    assert f"RuntimeError: bad token {REDACTED}" in text


def test_a_short_secret_is_redacted_where_it_stands_alone_not_inside_words() -> None:
    stream = io.StringIO()
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        setup_logging("INFO", "x", stream=stream)
        logging.getLogger("bot.test").warning("Cannot reach postgresql://citta:x@db/citta; next try in 2 s.")
    finally:
        root.handlers, _ = saved
        root.setLevel(saved[1])
    assert f"postgresql://citta:{REDACTED}@db/citta; next try in 2 s." in stream.getvalue()


def test_the_database_check_leaves_a_new_database_usable_and_an_old_one_unchanged(tmp_path: Path) -> None:
    new = tmp_path / "new.db"
    check_database(new)
    assert new.is_file()
    old = tmp_path / "old.db"
    with contextlib.closing(sqlite3.connect(old)) as db, db:
        db.execute("CREATE TABLE games (id INTEGER)")
        db.execute("INSERT INTO games VALUES (7)")
    check_database(old)
    with contextlib.closing(sqlite3.connect(old)) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master")]
        assert tables == ["games"] and db.execute("SELECT id FROM games").fetchall() == [(7,)]
    check_database(Path(":memory:"))


def test_a_database_locked_by_another_program_says_so(tmp_path: Path) -> None:
    path = tmp_path / "citta.db"
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(ConfigError, match="is locked by another program") as e:
            check_database(path, busy_timeout=0.05)
        other.execute("ROLLBACK")
    assert str(path) in str(e.value)


NOBODY = 65534


def _as_an_ordinary_user(check: Callable[[], str]) -> str:
    """``check()`` run by an ordinary user: in a forked child as ``nobody`` when the tests run as
    root (root may write any file), else right here."""
    if os.geteuid() != 0:
        return check()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop root, answer through the pipe, never return into pytest
        try:
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            os.write(write, check().encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, encoding="utf-8") as answer:
        text = answer.read()
    os.waitpid(pid, 0)
    return text


def test_a_read_only_database_file_says_whom_to_give_write_access() -> None:
    folder = Path(tempfile.mkdtemp(prefix="citta-ro-"))
    try:
        folder.chmod(0o755)
        path = folder / "citta.db"
        with contextlib.closing(sqlite3.connect(path)) as db:
            db.execute("CREATE TABLE games (id INTEGER)")
        path.chmod(0o444)
        folder.chmod(0o555)

        def check() -> str:
            try:
                check_database(path)
            except ConfigError as e:
                return f"{os.getuid()}:{e}"
            return "no error"

        answer = _as_an_ordinary_user(check)
        uid, _, text = answer.partition(":")
        assert f"uid {uid}" in text and str(path) in text and "CITTA_DB" in text, answer
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)


def test_shards_come_as_a_count_and_ids_or_ranges() -> None:
    base = {"DISCORD_TOKEN": "t"}
    unset = load_settings(base, env_file=None)
    assert (unset.shard_count, unset.shard_ids) == (None, None), "unset: discord.py decides, in one process"
    s = load_settings(base | {"CITTA_SHARD_COUNT": "4", "CITTA_SHARD_IDS": "0-1, 3"}, env_file=None)
    assert (s.shard_count, s.shard_ids) == (4, (0, 1, 3))
    s = load_settings(base | {"CITTA_SHARD_COUNT": "2", "CITTA_SHARD_IDS": "1,1"}, env_file=None)
    assert (s.shard_count, s.shard_ids) == (2, (1,))
    s = load_settings(base | {"CITTA_SHARD_COUNT": "3"}, env_file=None)
    assert (s.shard_count, s.shard_ids) == (3, None), "a count alone: every shard in this process"


@pytest.mark.parametrize(
    ("count", "ids", "message"),
    [
        ("", "0-1", r"CITTA_SHARD_IDS=0-1 needs CITTA_SHARD_COUNT"),
        ("two", "", r"CITTA_SHARD_COUNT must be a whole number of shards, 1 or more, not 'two'"),
        ("0", "", r"CITTA_SHARD_COUNT must be a whole number .* not '0'"),
        ("2", "0,2", r"names shard 2, but with CITTA_SHARD_COUNT=2 the shard ids run from 0 to 1"),
        ("4", "1-9", r"names shard 9, .* run from 0 to 3"),
        ("4", "3-1", r"the range 3-1 runs backwards: write 1-3"),
        (
            "4",
            "0-",
            r"CITTA_SHARD_IDS=0- is not a list of shard ids: write ids and ranges such as 0-3 or 0,2",
        ),
        ("4", "0,,1", r"is not a list of shard ids"),
        ("4", "-1", r"is not a list of shard ids"),
    ],
)
def test_wrong_shard_settings_say_what_is_wrong_and_what_is_right(count: str, ids: str, message: str) -> None:
    env = {"DISCORD_TOKEN": "t", "CITTA_SHARD_COUNT": count, "CITTA_SHARD_IDS": ids}
    with pytest.raises(ConfigError, match=message) as e:
        load_settings(env, env_file=None)
    assert "\n" not in str(e.value)


def test_the_workers_are_a_count_of_processes_or_none() -> None:
    assert load_settings({"DISCORD_TOKEN": "t"}, env_file=None).workers is None
    assert load_settings({"DISCORD_TOKEN": "t", "CITTA_WORKERS": "0"}, env_file=None).workers == 0
    assert load_settings({"DISCORD_TOKEN": "t", "CITTA_WORKERS": " 3 "}, env_file=None).workers == 3
    with pytest.raises(ConfigError, match="CITTA_WORKERS must be a whole number"):
        load_settings({"DISCORD_TOKEN": "t", "CITTA_WORKERS": "two"}, env_file=None)
    assert isinstance(workers_for(0), ThreadWorkers)
    pool = workers_for(None)
    try:
        assert isinstance(pool, ProcessWorkers) and pool.processes == usable_cpus() >= 1
    finally:
        pool.close()


def test_the_worker_memory_budget_is_whole_mib_512_by_default_and_0_for_none() -> None:
    assert load_settings({"DISCORD_TOKEN": "t"}, env_file=None).worker_memory == 512
    assert load_settings({"DISCORD_TOKEN": "t", "CITTA_WORKER_MEMORY": "0"}, env_file=None).worker_memory == 0
    assert (
        load_settings({"DISCORD_TOKEN": "t", "CITTA_WORKER_MEMORY": "250"}, env_file=None).worker_memory
        == 250
    )
    with pytest.raises(ConfigError, match=r"CITTA_WORKER_MEMORY must be a whole number of MiB .*not '1.5'"):
        load_settings({"DISCORD_TOKEN": "t", "CITTA_WORKER_MEMORY": "1.5"}, env_file=None)
    pool = workers_for(2, 250)
    try:
        assert isinstance(pool, ProcessWorkers) and pool.memory == 250
    finally:
        pool.close()
    unbounded = workers_for(2, 0)
    try:
        assert isinstance(unbounded, ProcessWorkers) and unbounded.memory is None
    finally:
        unbounded.close()


@pytest.mark.parametrize("password", ["Zq3/xK9?u#Tv", "pQ7/Vv8@w0rdQ", "a4B#c9D", "x1Y?y2Z/z3W"])
def test_a_database_url_that_does_not_parse_is_reported_without_its_password(password: str) -> None:
    url = f"postgresql://citta:{password}@db.example:5432/citta"
    with pytest.raises(ConfigError) as refused:
        load_settings({"DISCORD_TOKEN": "t", "CITTA_DB": url}, env_file=None)
    said = str(refused.value)
    secret_parts = [p for p in re.split(r"[/?#@]", password) if len(p) > 2]
    assert not [p for p in secret_parts if p in said], said
    assert "citta:" not in said and "percent-encoded" in said and "%2F" in said, said


def test_the_render_cache_folder_is_read_and_defaults_to_none() -> None:
    assert load_settings({"DISCORD_TOKEN": "t"}, env_file=None).render_cache is None
    read = load_settings({"DISCORD_TOKEN": "t", "CITTA_RENDER_CACHE": " /var/cache/citta "}, env_file=None)
    assert read.render_cache == Path("/var/cache/citta")


def test_the_render_cache_goes_beside_an_sqlite_database_else_in_the_users_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.service.worker_start import CACHE_NAME, cache_folder

    assert cache_folder(tmp_path / "citta.db") == tmp_path.resolve() / CACHE_NAME
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_folder("postgresql://u@h/citta") == tmp_path / "xdg" / CACHE_NAME
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_folder("postgresql://u@h/citta") == Path.home() / ".cache" / CACHE_NAME
    pool = workers_for(1, 0, tmp_path)
    try:
        assert isinstance(pool, ProcessWorkers) and pool.cache == tmp_path
    finally:
        pool.close()
