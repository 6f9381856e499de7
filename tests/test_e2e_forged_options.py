"""End-to-end: a modified client's command options. Discord checks an option's type and range for
its own clients; the bot checks them too: a wrong value is refused privately, naming the option and
what it must be, and changes nothing (no traceback, no incident)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord
from fakediscord.fixtures import fake_discord
from test_e2e_support import Table, citta_bot, refusal

from bot.ids import MAX_GAME

__all__ = ["fake_discord"]

FORGED: list[tuple[str, dict[str, Any], str]] = [
    (
        "citta replay",
        {"game": "abc"},
        f"“game” of /citta replay must be a whole number from 1 to {MAX_GAME}.",
    ),
    (
        "citta replay",
        {"game": 2**70},
        f"“game” of /citta replay must be a whole number from 1 to {MAX_GAME}.",
    ),
    ("citta log", {"n": "10"}, "“n” of /citta log must be a whole number from 1 to 50."),
    ("citta log", {"n": 10**30}, "“n” of /citta log must be a whole number from 1 to 50."),
    ("citta log", {"n": True}, "“n” of /citta log must be a whole number from 1 to 50."),
    ("citta board", {"full": "yes"}, "“full” of /citta board must be True or False."),
    ("citta play", {"move": 12}, "“move” of /citta play must be text of at most"),
    ("citta play", {"move": "x" * 7000}, "“move” of /citta play must be text of at most"),
    ("citta log", {"lines": 3}, "/citta log has no option “lines”."),
]


async def test_a_forged_option_is_refused_privately_and_changes_nothing(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    async with citta_bot(fake, tmp_path / "citta.db", seed=3) as bot:
        table = Table(fake, bot)
        await table.open(alice, [bob])
        version = await table.version()
        before = len(fake.messages())
        with caplog.at_level(logging.WARNING):
            for command, raw, why in FORGED:
                text = await refusal(fake, await fake.forge_slash(alice, command, raw))
                assert text.startswith(f"⚠️ {why}"), (command, raw, text)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "no incident, no traceback"
        assert len(fake.messages()) == before and await table.version() == version
    fake.check()
