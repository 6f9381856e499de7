"""Settings from the environment and an optional ``.env`` file (read with pydantic-settings),
and logging that hides the token.

>>> load_settings({"DISCORD_TOKEN": "abc", "CITTA_DEV_GUILD": "42"}, env_file=None).dev_guild
42
>>> parse_shard_ids("0-2,5", 8)
(0, 1, 2, 5)
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sqlite3
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from bot.logs import QUIET_LOGGERS, REDACTED, RedactFilter, quiet_noisy_loggers, setup_logging
from bot.storage.backends import BadDatabase, shown, target
from bot.web.settings import WebSettings, web_settings

__all__ = ["QUIET_LOGGERS", "REDACTED", "RedactFilter", "quiet_noisy_loggers", "setup_logging"]

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
_SHARD_PART = re.compile(r"^(\d+)(?:-(\d+))?$")


class ConfigError(Exception):
    """A setting is missing or wrong; the message says what to set."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot is configured with (never read from the environment elsewhere)."""

    token: str = field(repr=False)
    db_path: Path | str = Path("citta.db")
    """``CITTA_DB``: an SQLite file (a `Path`), or a ``postgresql://`` URL (a `str`, with its
    password: show it with `bot.storage.backends.shown`)."""
    dev_guild: int | None = None
    log_level: str = "INFO"
    shard_count: int | None = None
    """``CITTA_SHARD_COUNT``: how many shards the bot has in all (None: discord.py asks Discord,
    and this process runs them all)."""
    shard_ids: tuple[int, ...] | None = None
    """``CITTA_SHARD_IDS``: the shards this process runs (None: all of ``shard_count``)."""
    workers: int | None = None
    """``CITTA_WORKERS``: the processes that draw the pictures and think for the computer players
    (None: one per CPU the process may use, by affinity and cgroup quota; 0: none, all in the bot's)."""
    worker_memory: int = 512
    """``CITTA_WORKER_MEMORY``: each worker's memory budget in MiB, 0: none (`ProcessWorkers`)."""
    render_cache: Path | None = None  # CITTA_RENDER_CACHE: the workers' kept warm-up (None: `cache_folder`)
    lobbies_per_member: int = 3
    """``CITTA_LOBBIES_PER_MEMBER``: how many open lobbies one member may host in a server."""
    lobby_days: int = 7
    """``CITTA_LOBBY_DAYS``: a lobby with no join, leave, computer or setting for this many days is
    closed, and a closed lobby forgotten after as many days."""
    web: WebSettings | None = None
    """The web server's (``CITTA_WEB_*``, `bot.web.settings`); None: no web server."""

    def __repr__(self) -> str:
        return (
            f"Settings(db_path={shown(self.db_path)!r}, dev_guild={self.dev_guild!r}, "
            f"log_level={self.log_level!r}, shard_count={self.shard_count!r}, shard_ids={self.shard_ids!r}, "
            f"workers={self.workers!r}, worker_memory={self.worker_memory!r}, "
            f"render_cache={self.render_cache!r}, "
            f"lobbies_per_member={self.lobbies_per_member!r}, lobby_days={self.lobby_days!r}, "
            f"web={self.web!r})"
        )


class _Read(BaseSettings):
    """The settings as read, before they are checked: the environment given to `load_settings` (init
    values: it wins), then ``.env`` (python-dotenv: ``#`` comments, ``export``, quotes); empty is unset."""

    model_config = SettingsConfigDict(env_ignore_empty=True, extra="ignore", env_file_encoding="utf-8")

    DISCORD_TOKEN: str = ""
    CITTA_DB: str = ""
    CITTA_DEV_GUILD: str = ""
    CITTA_LOG_LEVEL: str = ""
    CITTA_SHARD_COUNT: str = ""
    CITTA_SHARD_IDS: str = ""
    CITTA_WORKERS: str = ""
    CITTA_WORKER_MEMORY: str = ""
    CITTA_RENDER_CACHE: str = ""
    CITTA_LOBBIES_PER_MEMBER: str = ""
    CITTA_LOBBY_DAYS: str = ""
    CITTA_WEB_PORT: str = ""
    CITTA_WEB_HOST: str = ""
    CITTA_WEB_URL: str = ""
    CITTA_READY_OUTBOX_AGE: str = ""
    CITTA_WEB_RATE: str = ""

    @classmethod
    def settings_customise_sources(
        cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource, dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:  # fmt: skip
        return init_settings, dotenv_settings


def load_settings(environ: Mapping[str, str], env_file: Path | None = Path(".env")) -> Settings:
    """Settings from ``environ``, falling back to ``env_file``; ConfigError when one is wrong."""
    given: dict[str, Any] = {k: v for k, v in environ.items() if k in _Read.model_fields and v.strip()}
    read = _Read(_env_file=env_file if env_file is not None and env_file.is_file() else None, **given)
    values = read.model_dump()
    token = values.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set: set it in the environment or in a .env file "
            "(see .env.example) to the bot token of your Discord application."
        )
    guild_text = values.get("CITTA_DEV_GUILD", "").strip()
    dev_guild = None
    if guild_text:
        if not guild_text.isdigit():
            raise ConfigError(f"CITTA_DEV_GUILD must be a server id (digits only), not {guild_text!r}.")
        dev_guild = int(guild_text)
    level = values.get("CITTA_LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in LEVELS:
        raise ConfigError(f"CITTA_LOG_LEVEL must be one of {', '.join(LEVELS)}, not {level!r}.")
    try:
        db = target(values.get("CITTA_DB", "").strip() or "citta.db")
    except BadDatabase as e:
        raise ConfigError(str(e)) from None
    count, ids = _shards(
        values.get("CITTA_SHARD_COUNT", "").strip(), values.get("CITTA_SHARD_IDS", "").strip()
    )
    workers_text = values.get("CITTA_WORKERS", "").strip()
    if workers_text and not workers_text.isdigit():
        what = "a whole number of worker processes (0: draw in the bot's process)"
        raise ConfigError(f"CITTA_WORKERS must be {what}, not {workers_text!r}.")
    try:
        web = web_settings(values)
    except ValueError as e:
        raise ConfigError(str(e)) from None
    return Settings(
        token=token, db_path=db.where, dev_guild=dev_guild, log_level=level, shard_count=count, shard_ids=ids,
        workers=int(workers_text) if workers_text else None,
        worker_memory=_whole(values, "CITTA_WORKER_MEMORY", 512, "MiB per worker process (0: no budget)", 0),
        render_cache=Path(cache) if (cache := values.get("CITTA_RENDER_CACHE", "").strip()) else None,
        lobbies_per_member=_whole(values, "CITTA_LOBBIES_PER_MEMBER", 3, "open lobbies per member"),
        lobby_days=_whole(values, "CITTA_LOBBY_DAYS", 7, "days"), web=web,
    )  # fmt: skip


def _whole(values: Mapping[str, Any], name: str, default: int, what: str, least: int = 1) -> int:
    """A whole-number setting of ``least`` or more (``default`` when unset); ConfigError otherwise."""
    text = str(values.get(name, "") or "").strip()
    if not text:
        return default
    if not text.isdigit() or int(text) < least:
        raise ConfigError(f"{name} must be a whole number of {what}, {least} or more, not {text!r}.")
    return int(text)


def _shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """``CITTA_SHARD_COUNT`` and ``CITTA_SHARD_IDS`` read and checked together."""
    if not count_text:
        if ids_text:
            raise ConfigError(
                f"CITTA_SHARD_IDS={ids_text} needs CITTA_SHARD_COUNT: set it to the number of shards "
                "in all (the ids run from 0 to that number minus 1)."
            )
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ConfigError(
            f"CITTA_SHARD_COUNT must be a whole number of shards, 1 or more, not {count_text!r}."
        )
    count = int(count_text)
    return count, (parse_shard_ids(ids_text, count) if ids_text else None)


def parse_shard_ids(text: str, count: int) -> tuple[int, ...]:
    """``CITTA_SHARD_IDS`` (``0-3``, ``0,2``, ``0-1,5``) as sorted shard ids, each below ``count``;
    ConfigError saying what is wrong."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        m = _SHARD_PART.match(part)
        if m is None:
            raise ConfigError(
                f"CITTA_SHARD_IDS={text} is not a list of shard ids: write ids and ranges such as 0-3 or 0,2."
            )
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        if last < first:
            raise ConfigError(f"CITTA_SHARD_IDS: the range {part} runs backwards: write {last}-{first}.")
        if last >= count:
            raise ConfigError(
                f"CITTA_SHARD_IDS={text} names shard {last}, but with CITTA_SHARD_COUNT={count} the shard "
                f"ids run from 0 to {count - 1}."
            )
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


def check_database(
    path: Path | str, busy_timeout: float = 5.0, *, wait: float = 0.0, say: Callable[[str], None] = print
) -> None:
    """Open the database and make a write that is rolled back, before any network work.

    Raises ConfigError naming the path and what to change when the folder is missing, the path
    is a folder, or SQLite cannot open or write the file (permissions, a read-only mount, a
    file that is not a database, a lock held by another program, a full disk). A database file
    this check created is removed again when the check fails. ``busy_timeout``: how long to wait
    for a write lock another program holds (for PostgreSQL: to connect; see `check_postgres`,
    which waits up to ``wait`` seconds for a server that is not up yet, telling ``say`` once).
    """
    if isinstance(path, str):
        if target(path).kind == "postgres":
            check_postgres(path, timeout=max(busy_timeout, 1.0), wait=wait, say=say)
            return
        path = Path(path)
    if str(path) == ":memory:":
        return
    where = path.absolute()
    folder = where.parent
    if folder.exists() and not folder.is_dir():
        raise ConfigError(
            f"CITTA_DB={where} is under {folder}, which is a file, not a folder: "
            "set CITTA_DB to a file in a folder."
        )
    if not folder.is_dir():
        raise ConfigError(
            f"The database folder {folder} does not exist: create it, "
            "or set CITTA_DB to a file in an existing folder."
        )
    if where.is_dir():
        raise ConfigError(f"CITTA_DB is the folder {where}: set it to a file, such as {where / 'citta.db'}.")
    existed = where.exists()
    try:
        with contextlib.closing(sqlite3.connect(where, timeout=busy_timeout, isolation_level=None)) as db:
            db.execute("BEGIN IMMEDIATE")
            db.execute("CREATE TABLE citta_write_check (x)")
            db.execute("ROLLBACK")
    except sqlite3.Error as e:
        if not existed:
            with contextlib.suppress(OSError):
                where.unlink(missing_ok=True)
        raise ConfigError(_database_advice(where, e)) from None


def _database_advice(path: Path, error: sqlite3.Error) -> str:
    """What to change when SQLite refused to open or write ``path``."""
    name = error.sqlite_errorname
    if name == "SQLITE_NOTADB":
        return (
            f"{path} is not an SQLite database ({error}): "
            "set CITTA_DB to the bot's database or to a new file."
        )
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return (
            f"The database {path} is locked by another program (another copy of the bot?): "
            "stop it, or set CITTA_DB to another file."
        )
    if name == "SQLITE_FULL":
        return f"Cannot write the database {path}: the disk is full; free space or set CITTA_DB elsewhere."
    user = f"this user (uid {os.getuid()})" if hasattr(os, "getuid") else "this user"
    return (
        f"Cannot write the database {path} ({error}): give {user} write access to {path.parent} "
        "(chown or chmod it, or mount it read-write), or set CITTA_DB to a writable place."
    )


def check_postgres(
    url: str, timeout: float = 5.0, *, wait: float = 0.0, say: Callable[[str], None] = print
) -> None:
    """Connect to the PostgreSQL database ``url`` and create a table in a transaction rolled
    back; ConfigError saying what to change (the server, the user or password, the database,
    the user's rights), with the password redacted.

    A server that cannot be reached yet (refused, timed out, starting up: Compose starts the bot
    and its database together, a host reboots both) is tried again every `RETRY` seconds for up
    to ``wait`` seconds, and ``say`` is told once that the bot waits for it; what a running server
    refuses (a user, a database, a right) is reported at once."""
    deadline = time.monotonic() + wait
    told = False
    while True:
        try:
            _probe_postgres(url, timeout)
            return
        except _Unreached as e:
            if time.monotonic() + RETRY > deadline:
                raise
            if not told:
                say(f"Waiting for the PostgreSQL server of CITTA_DB={shown(url)} ({e.fault}): "
                    f"trying again every {RETRY:g} s for up to {wait:g} s.")  # fmt: skip
                told = True
            time.sleep(RETRY)


RETRY = 2.0
"""Seconds between two tries to reach a PostgreSQL server that is not up yet (`check_postgres`)."""


class _Unreached(ConfigError):
    """The PostgreSQL server could not be reached (yet); ``fault`` names how, for the log."""

    def __init__(self, message: str, fault: str) -> None:
        super().__init__(message)
        self.fault = fault


def _probe_postgres(url: str, timeout: float) -> None:
    """`check_postgres`'s one try."""
    import asyncpg  # only for PostgreSQL

    async def probe() -> None:
        conn = await asyncpg.connect(url, timeout=timeout)
        try:
            async with conn.transaction():
                await conn.execute("CREATE TABLE citta_write_check (x INTEGER)")
                raise _RolledBack
        except _RolledBack:
            pass
        finally:
            await conn.close()

    where = shown(url)
    try:
        asyncio.run(probe())
    except (asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError) as e:
        raise ConfigError(f"PostgreSQL refused the user or password of CITTA_DB={where} ({e}).") from None
    except asyncpg.InvalidCatalogNameError as e:
        raise ConfigError(
            f"The database of CITTA_DB={where} does not exist ({e}): create it (createdb) or name another."
        ) from None
    except asyncpg.InsufficientPrivilegeError as e:
        raise ConfigError(
            f"The user of CITTA_DB={where} may not create tables ({e}): grant it CREATE on the schema "
            "(or make it the database's owner)."
        ) from None
    except (OSError, TimeoutError, asyncpg.CannotConnectNowError) as e:
        raise _Unreached(
            f"Cannot use the PostgreSQL database CITTA_DB={where} ({type(e).__name__}: {e}): "
            "check that the server runs and the host and port are right.",
            type(e).__name__,
        ) from None
    except (asyncpg.PostgresError, asyncpg.InterfaceError) as e:
        raise ConfigError(
            f"Cannot use the PostgreSQL database CITTA_DB={where} ({type(e).__name__}: {e}): "
            "check that the server runs and the host and port are right."
        ) from None


class _RolledBack(Exception):
    """Ends the probe's transaction (rolled back)."""
