"""The database, on each backend: migrations from an empty database, reopening, one open game per
channel; which backend ``CITTA_DB`` names."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_bot_support import query

from bot.storage import BadDatabase, ChannelBusy, StorageProtocol, open_storage
from bot.storage.backends import passwords, shown, target
from bot.storage.postgres import PG_MIGRATIONS, PostgresStorage
from bot.storage.sqlite import MIGRATIONS, Storage, migration_files

TABLES = {
    "games",
    "seats",
    "moves",
    "secrets",
    "players",
    "clocks",
    "outbox",
    "outbox_files",
    "results",
    "ratings",
}


def folder_of(store: StorageProtocol) -> Path:
    """The migrations of ``store``'s backend."""
    return PG_MIGRATIONS if isinstance(store, PostgresStorage) else MIGRATIONS


async def tables(store: StorageProtocol) -> set[str]:
    if isinstance(store, PostgresStorage):
        rows = await query(store, "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'")
    else:
        rows = await query(store, "SELECT name FROM sqlite_master WHERE type = 'table'")
    return {r["name"] for r in rows}


def test_both_backends_have_the_same_numbered_migrations() -> None:
    sqlite, postgres = migration_files(), migration_files(PG_MIGRATIONS)
    assert [(n, p.name) for n, p in sqlite] == [(n, p.name) for n, p in postgres]


async def test_migrations_build_every_table_in_an_empty_database(database: Path | str) -> None:
    store = await open_storage(database)
    assert await store.schema_version() == len(migration_files()) >= 1
    assert {*TABLES, "schema_version"} <= await tables(store)
    await store.close()


async def test_reopening_does_not_apply_migrations_twice(database: Path | str) -> None:
    await (await open_storage(database)).close()
    store = await open_storage(database)
    assert await store.schema_version() == len(migration_files())
    [count] = await query(store, "SELECT COUNT(*) AS n FROM schema_version")
    assert count["n"] == len(migration_files())
    await store.close()


async def test_a_new_migration_file_is_applied_on_the_next_start(
    database: Path | str, tmp_path: Path
) -> None:
    store = await open_storage(database)
    folder = tmp_path / "migrations"
    folder.mkdir()
    for _, path in migration_files(folder_of(store)):
        shutil.copy(path, folder / path.name)
    (folder / f"{len(migration_files()) + 1:04d}_extra.sql").write_text("CREATE TABLE extra (x INTEGER);")
    assert await store.migrate(folder) == len(migration_files()) + 1
    assert "extra" in await tables(store)
    await store.close()


async def test_a_pending_posts_file_stored_before_migration_8_is_sent_with_it(database: Path | str) -> None:
    """Migration 8 moves the outbox's files to a table of their own: a post stored by an
    earlier version keeps its pictures; a sent one has none to keep."""
    store = await open_storage(database)
    blob = "BYTEA" if isinstance(store, PostgresStorage) else "BLOB"
    undone = (
        "DROP INDEX games_running_by_guild",  # migration 19 (server pages)
        "DROP TABLE server_pages",
        "DROP TABLE rank_sync",  # migration 18 (rank roles)
        "DROP TABLE rank_grants",
        "DROP TABLE rank_roles",
        "DROP TABLE tournaments",  # migration 17 (tournaments)
        "DROP INDEX results_by_time",  # migration 16 (seasons)
        "DROP TABLE seasons",
        "DROP TABLE season_settings",
        "DROP INDEX games_by_page",  # migration 15
        "ALTER TABLE games DROP COLUMN page",
        *(f"ALTER TABLE players DROP COLUMN {c}" for c in ("digest_at", "digest_day", "next_ping")),  # 14
        "DROP TABLE conduct",  # migration 13
        "DROP INDEX results_by_user",
        *(f"ALTER TABLE games DROP COLUMN {c}" for c in ("min_finished", "max_pace_hours")),
        "ALTER TABLE moves DROP COLUMN asked_at",
        "ALTER TABLE players DROP COLUMN ahead",  # migration 12
        "DROP INDEX seats_by_user",  # migration 11
        "DROP INDEX outbox_by_game",
        "ALTER TABLE seats DROP COLUMN held_since",
        "DROP TABLE outbox_files",
        f"ALTER TABLE outbox ADD COLUMN image {blob}",
        "DROP INDEX games_lobbies_by_host",  # migration 10
        "DROP INDEX games_lobbies_by_age",
        *(f"ALTER TABLE games DROP COLUMN {c}" for c in ("lobby_message", "computer_by", "computer_at")),
        "ALTER TABLE outbox DROP COLUMN edits",
        "DELETE FROM schema_version WHERE version >= 8",
    )
    for undo in undone:
        await query(store, undo)  # the schema of version 7
    insert = (
        "INSERT INTO outbox (channel, payload, image, nonce, state, created_at) VALUES (?, '{}', ?, ?, ?, 0)"
    )
    await query(store, insert, 10, b"PNG", "n1", "pending")
    await query(store, insert, 11, None, "n2", "sent")
    assert await store.migrate() == len(migration_files())
    [pending] = [h for h in await store.outbox.heads() if h.channel == 10]
    row = await store.outbox.get(pending.id)
    assert row is not None and row.image == b"PNG" and pending.image is None
    assert await query(store, "SELECT outbox FROM outbox_files") == [{"outbox": pending.id}]
    await store.close()


async def test_a_game_s_page_token_is_made_once_found_by_it_and_renewed_ends_the_old_one(
    database: Path | str,
) -> None:
    store = await open_storage(database)
    kw = dict(guild=1, host=5, host_name="Ann", setup="beginner", players_wanted=None, now=0)
    game = await store.games.create_lobby(channel=10, **kw)  # type: ignore[arg-type]
    other = await store.games.create_lobby(channel=11, **kw)  # type: ignore[arg-type]
    assert await store.games.game_by_page("first") is None, "no page before it is asked for"
    assert await store.games.page(game, "first") == "first"
    assert await store.games.page(game, "second") == "first", "made once: a later ask gets the same"
    assert await store.games.page(other, "third") == "third"
    assert await store.games.page(999, "none") is None, "no such game"
    found = await store.games.game_by_page("first")
    assert found is not None and found.id == game
    assert await store.games.renew_page(game, "renewed")
    assert await store.games.game_by_page("first") is None, "the old address finds nothing"
    renewed = await store.games.game_by_page("renewed")
    assert renewed is not None and renewed.id == game
    assert await store.games.page(game, "again") == "renewed"
    assert not await store.games.renew_page(999, "nothing")
    await store.close()


def test_migration_numbers_must_not_have_gaps(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("")
    (tmp_path / "0003_c.sql").write_text("")
    with pytest.raises(RuntimeError, match="without gaps"):
        migration_files(tmp_path)


async def test_one_open_game_per_channel_but_many_channels(database: Path | str) -> None:
    store = await open_storage(database)
    kw = dict(guild=1, host=5, host_name="Ann", setup="beginner", players_wanted=None, now=0)
    first = await store.games.create_lobby(channel=10, **kw)  # type: ignore[arg-type]
    with pytest.raises(ChannelBusy):
        await store.games.create_lobby(channel=10, **kw)  # type: ignore[arg-type]
    assert await store.games.create_lobby(channel=11, **kw) != first  # type: ignore[arg-type]
    assert await store.games.set_status(first, "abandoned", now=1)
    await store.games.create_lobby(channel=10, **kw)  # type: ignore[arg-type]
    await store.close()


async def test_citta_db_chooses_the_backend(tmp_path: Path, postgres: str) -> None:
    for value in (tmp_path / "a.db", str(tmp_path / "b.db"), f"sqlite:///{tmp_path / 'c.db'}"):
        store = await open_storage(value)
        assert isinstance(store, Storage)
        await store.close()
    assert {p.name for p in tmp_path.iterdir()} >= {"a.db", "b.db", "c.db"}
    store = await open_storage(postgres)
    assert isinstance(store, PostgresStorage)
    await store.close()


@pytest.mark.parametrize(
    ("value", "kind", "where"),
    [
        ("citta.db", "sqlite", Path("citta.db")),
        ("  /data/citta.db ", "sqlite", Path("/data/citta.db")),
        ("sqlite:///citta.db", "sqlite", Path("citta.db")),
        ("sqlite:////data/citta.db", "sqlite", Path("/data/citta.db")),
        ("postgresql://citta:pw@db:5432/citta", "postgres", "postgresql://citta:pw@db:5432/citta"),
        ("postgres://citta@db/citta", "postgres", "postgres://citta@db/citta"),
        ("postgresql://citta@/citta?host=/run/pg", "postgres", "postgresql://citta@/citta?host=/run/pg"),
    ],
)
def test_a_path_or_a_url_names_one_backend(value: str, kind: str, where: Path | str) -> None:
    assert (target(value).kind, target(value).where) == (kind, where)


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("mysql://root:hunter2@db/citta", "neither SQLite nor PostgreSQL"),
        ("sqlite://citta.db", "names no file"),
        ("sqlite:///", "names no file"),
        ("postgresql://citta:hunter2@db:port/citta", "is not a PostgreSQL URL"),
        ("postgresql:///citta", "names no server"),
        ("   ", "is empty"),
    ],
)
def test_a_url_of_no_known_backend_is_refused_without_its_password(value: str, says: str) -> None:
    with pytest.raises(BadDatabase, match=says) as refused:
        target(value)
    assert "hunter2" not in str(refused.value)


def test_the_password_is_redacted_where_the_url_is_shown() -> None:
    url = "postgresql://citta:p%40ss@db:5432/citta?sslmode=require"
    assert shown(url) == "postgresql://citta:[redacted]@db:5432/citta?sslmode=require"
    assert (
        shown("postgresql://citta@db/citta?password=p4ss")
        == "postgresql://citta@db/citta?password=[redacted]"
    )
    assert shown("/data/citta.db") == "/data/citta.db"
    assert passwords(url) == ("p%40ss", "p@ss")
    assert passwords("/data/citta.db") == ()
