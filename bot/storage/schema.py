"""The schema both backends keep: their numbered migrations (``migrations/`` for SQLite,
``migrations/postgres/`` for PostgreSQL, the same tables) and the table that remembers the last
one applied."""

from __future__ import annotations

import re
from pathlib import Path

MIGRATIONS = Path(__file__).parent / "migrations"
PG_MIGRATIONS = MIGRATIONS / "postgres"
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")

VERSION_TABLE = "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
VERSION = "SELECT MAX(version) FROM schema_version"
"""The number of the last migration applied (NULL: none)."""


def migration_files(folder: Path = MIGRATIONS) -> list[tuple[int, Path]]:
    """The migration files, by number; their numbers must run 1, 2, 3 … without gaps."""
    found = sorted(
        (int(m.group(1)), p) for p in folder.iterdir() if (m := _MIGRATION_NAME.match(p.name)) is not None
    )
    if [n for n, _ in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"Migrations in {folder} must be numbered 0001, 0002, … without gaps.")
    return found
