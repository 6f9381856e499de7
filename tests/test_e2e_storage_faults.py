"""End-to-end: the database fails under the real bot — PostgreSQL stopped as a move is stored and
started again, SQLite's disk failing ("disk I/O error") or full — and each time the mover is told
privately that nothing was done and what to do, nothing is half stored, and the same bot process
carries on: the move tried again is played and posted once."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord, FakeMessage, FakeUser
from fakediscord.fixtures import fake_discord
from pgserver import USER, PgServer
from test_e2e_support import Table, citta_bot, posts_after, refusal

import i18n
from bot.client.bot import CittaBot

__all__ = ["fake_discord"]

SEED = 17
PASSWORD = "s3cret-Pw"
"""The database password in the bot's URL (the tests' server trusts every local user, so it is
never checked): no log line may show it."""


@pytest.fixture
def own_postgres() -> Iterator[PgServer]:
    """A PostgreSQL server of this test's own, to stop and start again (the session's server is
    shared with the other tests of this process)."""
    server = PgServer.start()
    yield server
    server.stop()


UNREACHABLE = (
    "⚠️ I cannot reach my database at the moment, so I could not finish that. Nothing is stored "
    "half-way: please try again in a moment (a move already made is never made twice)."
)
FULL = (
    "⚠️ That could not be saved: the bot's storage is full. Nothing was done and nothing "
    "changed (no move was made). Please tell whoever hosts this bot."
)


def _told(text: str, locale: str) -> str:
    """``text`` as a user with the Discord client in ``locale`` reads it."""
    with i18n.speaking(i18n.choose(None, locale)):
        return i18n._(text)


def _posts_of(fake: FakeDiscord, move: str) -> list[FakeMessage]:
    return [m for m in posts_after(fake, 0) if m.text.startswith(f"`{move}`")]


async def _table(fake: FakeDiscord, bot: CittaBot) -> Table:
    table = Table(fake, bot, exact_boards=False)
    await table.open(fake.user("alice"), [fake.user("bob")])
    return table


async def _some_move(table: Table) -> tuple[FakeUser, str]:
    user = table.pending()[0]
    return user, random.Random(3).choice(await table.choices(user))


def _first_call_after(owner: object, name: str, before: Callable[[], Awaitable[None]]) -> None:
    """The next call of ``owner.name`` (a storage part's method) runs ``before`` first, as the
    database fails at that very moment."""
    original = getattr(owner, name)

    async def failing_then(*args: Any, **kwargs: Any) -> Any:
        setattr(owner, name, original)
        await before()
        return await original(*args, **kwargs)

    setattr(owner, name, failing_then)


async def _stored_rows(bot: CittaBot, game: int) -> tuple[int, int, int]:
    """The game's version, its moves and its announcements still to send, as stored (once the
    delivery has sent what it could)."""
    await bot.deliverer.settle()
    storage = bot.service.storage
    row = await storage.games.game(game)
    assert row is not None
    return row.version, len(await storage.moves.moves(game)), len(await storage.outbox.heads())


async def test_postgresql_stopped_as_a_move_is_stored_tells_the_mover_and_the_game_goes_on_once_it_is_back(
    fake_discord: FakeDiscord, own_postgres: PgServer, caplog: pytest.LogCaptureFixture
) -> None:
    fake, server = fake_discord, own_postgres
    caplog.set_level(logging.INFO)
    async with server.database() as plain:
        url = plain.replace(f"//{USER}@", f"//{USER}:{PASSWORD}@")
        async with citta_bot(fake, url, seed=SEED) as bot:
            table = await _table(fake, bot)
            await table.play(*await _some_move(table))
            before = await _stored_rows(bot, table.game_id)
            user, move = await _some_move(table)
            user.locale = "de"  # told in their Discord's language: their own choice cannot be read
            _first_call_after(
                bot.service.storage.moves, "commit_moves", lambda: asyncio.to_thread(server.halt)
            )
            rec = await fake.slash(user, "citta play", move=move)
            assert await refusal(fake, rec) == _told(UNREACHABLE, "de")
            again = await fake.slash(user, "citta play", move=move)  # the database is still down
            assert await refusal(fake, again) == _told(UNREACHABLE, "de")
            await bot.tick()  # the clock's loop goes on: the tick is skipped, with a warning
            bot.deliverer.wake()
            await asyncio.sleep(0.5)
            assert not _posts_of(fake, move)
            await asyncio.to_thread(server.resume)
            assert await _stored_rows(bot, table.game_id) == before, "nothing of the move was stored"
            user.locale = "en-US"
            await table.play(user, move)  # the same process: its pool reconnects
            for _ in range(3):
                await table.play(*await _some_move(table))
            await bot.deliverer.settle()
            assert len(_posts_of(fake, move)) == 1, "the move tried again is posted once"
            assert bot.clock_loop.is_running()
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("the database failed" in r.getMessage() for r in warnings), [r.getMessage() for r in warnings]
    assert not [r for r in warnings if r.levelno >= logging.ERROR and r.exc_info], "no incident, no traceback"
    assert len(warnings) < 10, "no tight retry loop while the database was down"
    assert PASSWORD not in caplog.text
    fake.check()


async def test_sqlite_failing_to_write_a_move_tells_the_mover_and_stores_nothing_of_it(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    async with citta_bot(fake, tmp_path / "citta.db", seed=SEED) as bot:
        table = await _table(fake, bot)
        before = await _stored_rows(bot, table.game_id)
        user, move = await _some_move(table)
        conn = bot.service.storage.db.conn  # type: ignore[attr-defined]
        execute = conn.execute

        async def disk_fails(sql: str, *args: Any) -> Any:
            if sql.startswith("INSERT INTO outbox"):  # the move and its record were written before it
                conn.execute = execute
                error = sqlite3.OperationalError("disk I/O error")
                error.sqlite_errorcode, error.sqlite_errorname = (
                    sqlite3.SQLITE_IOERR_WRITE,
                    "SQLITE_IOERR_WRITE",
                )
                raise error
            return await execute(sql, *args)

        conn.execute = disk_fails
        rec = await fake.slash(user, "citta play", move=move)
        assert await refusal(fake, rec) == UNREACHABLE
        assert await _stored_rows(bot, table.game_id) == before, "the transaction was rolled back whole"
        assert conn.execute is execute, "the write was tried"
        await table.play(user, move)
        await bot.deliverer.settle()
        assert len(_posts_of(fake, move)) == 1
    assert "Incident" not in caplog.text
    fake.check()


async def test_sqlite_disk_full_tells_the_mover_to_tell_the_host_and_reads_still_answer(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with citta_bot(fake, tmp_path / "citta.db", seed=SEED) as bot:
        table = await _table(fake, bot)
        before = await _stored_rows(bot, table.game_id)
        user, move = await _some_move(table)
        conn = bot.service.storage.db.conn  # type: ignore[attr-defined]
        await conn.execute("VACUUM")  # no free page left inside the file either
        [(pages,)] = await conn.execute_fetchall("PRAGMA page_count")
        await conn.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full
        rec = await fake.slash(user, "citta play", move=move)
        assert await refusal(fake, rec) == FULL
        assert await _stored_rows(bot, table.game_id) == before
        status = await fake.slash(table.players[0], "citta status")  # reads still answer
        assert status.original is not None and "⚠️" not in status.original.text
        assert status.original.text.startswith(f"Game {table.game_id} "), status.original.text
        assert len(await table.choices(user)) > 0, "autocomplete still offers the moves"
        await conn.execute(f"PRAGMA max_page_count = {pages * 100}")  # the host made room
        await table.play(user, move)
        await bot.deliverer.settle()
        assert len(_posts_of(fake, move)) == 1
    fake.check()
