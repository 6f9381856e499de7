"""``python -m bot.storage.copy SQLITE_PATH postgresql://…``: move the bot's SQLite database to
PostgreSQL (stop the bot first).

Every row of every table — games, seats, moves, secrets, clocks, preferences, the outbox and
the history — is copied in one transaction into an empty PostgreSQL database (migrated first;
a database that holds any row is refused). Before the transaction commits, each row is read
back and compared with its source, and each game with a record is replayed by the engine
(`engine.Game.replay`) and compared with its stored snapshot; any difference rolls everything
back. The SQLite file is brought up to the current schema first, as the bot would on start.

Exit codes: 0 copied and verified; 1 refused, a difference found or the database not reached
(nothing copied; one line says why); 2 wrong arguments.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import asyncpg

from bot.storage import convert
from bot.storage.backends import BadDatabase, shown, target
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import Storage
from engine import Game

if TYPE_CHECKING:
    from bot.storage.postgres.base import Connection

ORDER = {
    "games": ("id",), "seats": ("game", "seat"), "moves": ("game", "number"), "secrets": ("rowid",),
    "players": ("user_id",), "clocks": ("game", "seat"), "outbox": ("id",), "outbox_files": ("outbox",),
    "results": ("game", "seat"), "ratings": ("guild", "player"), "conduct": ("game", "at", "seat", "kind"),
    "season_settings": ("guild",), "seasons": ("guild", "number"),
    "tournaments": ("id",),
    "rank_roles": ("guild", "role"), "rank_grants": ("guild", "role", "member"), "rank_sync": ("guild",),
    "server_pages": ("guild",),
}  # fmt: skip
"""The tables in the order they are copied (every reference points to an earlier one), with the
order their rows are read in (``rowid``: the order stored, kept in PostgreSQL's ``id``)."""
PG_ONLY = {("secrets", "id")}
"""Columns only PostgreSQL has: the order secrets were stored in (SQLite's rowid)."""
IDENTITIES = ("games", "outbox", "secrets", "tournaments")
"""Tables whose id sequence continues after the copied rows."""


class CopyError(Exception):
    """The copy was refused or found a difference; nothing was copied."""


@dataclass
class Report:
    """What was copied and verified."""

    rows: dict[str, int] = field(default_factory=dict)
    replayed: int = 0
    """Games whose record replays to their stored snapshot."""
    unstarted: int = 0
    """Games without a record (lobbies never started): nothing to replay."""
    schema: tuple[int, int] = (0, 0)
    """The SQLite file's schema version before and after it was brought up to date."""


async def _source_rows(source: Storage) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    """Every table's columns and rows, read in one SQLite transaction (a consistent snapshot)."""
    tables: dict[str, tuple[list[str], list[tuple[Any, ...]]]] = {}
    async with source.db.locked() as db:
        await db.execute("BEGIN")
        try:
            for table, order in ORDER.items():
                async with db.execute(f"PRAGMA table_info({table})") as cur:
                    columns = [r[1] for r in await cur.fetchall()]
                listing = ", ".join(columns)
                async with db.execute(f"SELECT {listing} FROM {table} ORDER BY {', '.join(order)}") as cur:
                    tables[table] = columns, [tuple(r) for r in await cur.fetchall()]
        finally:
            await db.execute("COMMIT")
    return tables


async def _column_types(conn: Connection, table: str) -> dict[str, str]:
    rows = await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = $1",
        table,
    )
    return {r["column_name"]: r["data_type"] for r in rows}


def _to_postgres(value: Any, kind: str) -> Any:
    """An SQLite value as the PostgreSQL column of type ``kind`` takes it."""
    if value is None:
        return None
    if kind == "boolean":
        return bool(value)
    if kind == "double precision":
        return float(value)
    return value


def _comparable(value: Any, kind: str) -> Any:
    """A value as both backends compare equal: flags as 0/1, JSONB parsed."""
    if value is None:
        return None
    if kind == "boolean":
        return int(value)
    if kind == "jsonb":
        return json.loads(value)
    if kind == "double precision":
        return float(value)
    return value


def _order(table: str, types: dict[str, str]) -> str:
    """How PostgreSQL reads a table back in the order SQLite read it (text in code-point order)."""
    if ORDER[table] == ("rowid",):
        return "id"
    return ", ".join(f'{c} COLLATE "C"' if types[c] == "text" else c for c in ORDER[table])


async def _copy_table(
    conn: Connection, table: str, columns: list[str], rows: list[tuple[Any, ...]]
) -> list[tuple[Any, ...]]:
    """Insert ``rows`` and read them back (inside the caller's transaction): the differences."""
    types = await _column_types(conn, table)
    missing = [c for c in columns if c not in types]
    extra = {c for c in types if c not in columns} - {c for t, c in PG_ONLY if t == table}
    if missing or extra:
        raise CopyError(
            f"The table {table} differs: only SQLite has {missing}, only PostgreSQL has {sorted(extra)}."
        )
    kinds = [types[c] for c in columns]
    records = [tuple(_to_postgres(v, k) for v, k in zip(row, kinds, strict=True)) for row in rows]
    await conn.copy_records_to_table(table, records=records, columns=columns)
    back = await conn.fetch(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {_order(table, types)}")
    wanted = [tuple(_comparable(v, k) for v, k in zip(row, kinds, strict=True)) for row in rows]
    found = [tuple(_comparable(v, k) for v, k in zip(r.values(), kinds, strict=True)) for r in back]
    return [row for row, other in zip(wanted, found, strict=False) if row != other] + (
        [] if len(wanted) == len(found) else [("row count", len(wanted), len(found))]
    )


async def _replay(conn: Connection, report: Report) -> list[str]:
    """Replay every copied game's record (as read back) and compare it with its snapshot."""
    problems = []
    for row in await conn.fetch("SELECT * FROM games ORDER BY id"):
        game = convert.game(row)
        if game.record is None or game.snapshot is None:
            report.unstarted += 1
            continue
        try:
            replayed = Game.replay(game.record).snapshot()
        except Exception as e:
            problems.append(f"game {game.id}: its record does not replay ({e})")
            continue
        if replayed != game.snapshot:
            problems.append(f"game {game.id}: its record replays to another state than its snapshot")
        else:
            report.replayed += 1
    return problems


async def copy_database(source_path: Path, url: str) -> Report:
    """Copy the SQLite database at ``source_path`` into the empty PostgreSQL database ``url``,
    verified (see the module docstring); CopyError, with nothing copied, otherwise."""
    if not source_path.is_file():
        raise CopyError(f"{source_path} is not a file: name the bot's SQLite database (CITTA_DB).")
    report = Report()
    try:
        with contextlib.closing(sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)) as probe:
            found = probe.execute("SELECT name FROM sqlite_master WHERE name = 'schema_version'").fetchone()
            before = probe.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] if found else 0
        source = await Storage.open(source_path)
    except sqlite3.Error as e:
        raise CopyError(f"Cannot read {source_path} as the bot's SQLite database ({e}).") from None
    try:
        report.schema = (before or 0, await source.schema_version())
        tables = await _source_rows(source)
    finally:
        await source.close()
    store = await PostgresStorage.open(url)
    try:
        async with store.db.transaction() as conn:
            held = {t: await conn.fetchval(f"SELECT COUNT(*) FROM {t}") for t in ORDER}
            if any(held.values()):
                listed = ", ".join(f"{n} {t}" for t, n in held.items() if n)
                raise CopyError(f"The target database is not empty ({listed}): give an empty one.")
            problems = []
            for table, (columns, rows) in tables.items():
                differences = await _copy_table(conn, table, columns, rows)
                problems += [f"{table}: {d!r}"[:300] for d in differences]
                report.rows[table] = len(rows)
            for table in IDENTITIES:
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, "
                    f"false) FROM {table}"
                )
            problems += await _replay(conn, report)
            if problems:
                raise CopyError("Nothing was copied; the copy differs:\n  " + "\n  ".join(problems[:20]))
    finally:
        await store.close()
    return report


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    """The command line; see the module docstring for the exit codes."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.storage.copy",
        description="Copy the bot's SQLite database to an empty PostgreSQL one, verified.",
    )
    parser.add_argument("sqlite", help="the SQLite database file (the bot's CITTA_DB)")
    parser.add_argument("postgresql", help="postgresql://user:password@host:port/database (empty)")
    args = parser.parse_args(argv)
    try:
        found = target(args.postgresql)
    except BadDatabase as e:
        parser.error(str(e).replace("CITTA_DB=", ""))
    if found.kind != "postgres":
        parser.error(f"{args.postgresql} is not a postgresql:// URL")
    try:
        report = asyncio.run(copy_database(Path(args.sqlite), args.postgresql))
    except CopyError as e:
        print(f"citta-copy: {e}", file=sys.stderr)
        return 1
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
        print(
            f"citta-copy: Cannot use the PostgreSQL database {shown(args.postgresql)} ({type(e).__name__}: "
            f"{e}); nothing was copied.",
            file=sys.stderr,
        )
        return 1
    before, after = report.schema
    schema = f"schema {after}" if before == after else f"schema {before}, brought up to {after}"
    print(f"Copied {args.sqlite} ({schema}) to {shown(args.postgresql)}:", file=out)
    for table, count in report.rows.items():
        print(f"  {table:<8} {count:>7}", file=out)
    print(
        f"Verified: every row read back equal to its source; {report.replayed} game(s) replayed from their "
        f"record to their stored state ({report.unstarted} never started).",
        file=out,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
