"""The real bot (``python -m bot`` through `fakediscord.launch`) in a subprocess against the fake:
spawned, used, ``kill -9``-ed, restarted on the same database, and crashed at a chosen call."""

from __future__ import annotations

import signal
from pathlib import Path

from fakediscord import FakeDiscord, InteractionRecord
from fakediscord.fixtures import fake_discord

__all__ = ["fake_discord"]

KILLED = -signal.SIGKILL


async def rules(fake: FakeDiscord) -> InteractionRecord:
    return await fake.slash(fake.user("alice"), "citta rules")


async def test_the_real_bot_answers_is_killed_and_restarts_on_its_database(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "citta.db"
    first = await fake.spawn_bot({"CITTA_DB": str(db)})
    session = await first.ready()
    assert "citta" in fake.commands and fake.commands["citta"].guild_id == fake.guild_id
    rec = await rules(fake)
    msg = await rec.wait_message()
    assert rec.ephemeral and msg.text and fake.messages() == []
    first.kill9()
    assert await first.wait() == KILLED and first.returncode == KILLED
    await fake.wait_for(lambda: not session.connected)
    assert session.id in fake.sessions  # killed, not closed: Discord would let it resume
    second = await fake.spawn_bot({"CITTA_DB": str(db)})
    assert (await second.ready()).id != session.id and db.exists()
    again = await rules(fake)
    assert (await again.wait_message()).text == msg.text
    assert "Logged in as" in second.output()


async def test_fake_crash_at_kills_the_bot_before_an_async_method(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    proc = await fake.spawn_bot(
        {"CITTA_DB": str(tmp_path / "c.db"), "FAKE_CRASH_AT": "bot.storage.Storage.migrate:before"}
    )
    assert await proc.wait() == KILLED
    assert "FAKE_CRASH_AT: SIGKILL at bot.storage.Storage.migrate:before" in proc.output()
    assert fake.commands == {} and fake.connected == []  # it died opening its database


async def test_fake_crash_at_kills_the_bot_after_the_nth_call_of_a_function(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    # rules_text is a module function that bot.service imported by name: both are wrapped
    spec = "bot.service.rules_help.rules_text:after:2"
    proc = await fake.spawn_bot({"CITTA_DB": str(tmp_path / "c.db"), "FAKE_CRASH_AT": spec})
    await proc.ready()
    assert (await (await rules(fake)).wait_message()).ephemeral
    fake.ack_timeout = 1.0
    doomed = await rules(fake)
    assert await proc.wait() == KILLED and doomed.failed  # it wrote the text, then died unanswered
    fake.allow(doomed)
    assert f"FAKE_CRASH_AT: SIGKILL at {spec}" in proc.output()


async def test_a_bot_killed_while_its_request_is_held_still_had_it_handled(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    proc = await fake.spawn_bot({"CITTA_DB": str(tmp_path / "c.db")})
    await proc.ready()
    held = fake.hold("POST", r"/interactions/\d+/[^/]+/callback")
    rec = await fake.slash(fake.user("alice"), "citta rules", wait=False)
    await held.wait_arrived()
    proc.kill9()
    assert await proc.wait() == KILLED
    held.release()  # Discord got the answer before the process died: the user sees it
    assert (await rec.wait_message()).ephemeral and not rec.failed
