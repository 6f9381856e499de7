"""End-to-end: a lobby's host sets a minimum of reliability (``/citta settings finished:``); a Join below
it is refused privately with the player's figure and the minimum, the lobby unchanged; one above it
joins, with their figures beside them — the real bot on the fake Discord, on SQLite and PostgreSQL."""

from __future__ import annotations

import time
from pathlib import Path

from fakediscord import FakeDiscord, FakeUser
from fakediscord.fixtures import fake_discord
from test_bot_support import query
from test_e2e_bad_input import lobby_refusal
from test_e2e_lobbies import _open
from test_e2e_support import citta_bot

from bot.client.bot import CittaBot
from bot.storage.protocol import StorageProtocol

__all__ = ["fake_discord"]


async def _past_game(store: StorageProtocol, user: FakeUser, *, finished: bool, at: int) -> None:
    """A game ``user`` played some days ago, elsewhere: finished in their seat, or resigned."""
    [game] = await query(
        store,
        "INSERT INTO games (guild, channel, host, status, setup, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, 'beginner', ?, ?) RETURNING id",
        77, 9000 + at % 1000, user.id, "over" if finished else "abandoned", at, at,
    )  # fmt: skip
    if finished:
        await query(
            store,
            "INSERT INTO results (game, seat, guild, player, user_id, name, rank, score, gold, citizens, "
            "bonus, hunger_vp, resigned, hungry_years, built, mu_before, sigma_before, mu_after, "
            "sigma_after, ended_at) "
            "VALUES (?, 0, 77, ?, ?, ?, 1, 30, 5, 12, 3, 0, ?, 0, '{}', 25, 8, 26, 7, ?)",
            game["id"], f"user:{user.id}", user.id, user.name, False, at,
        )  # fmt: skip
    else:
        await query(
            store,
            "INSERT INTO conduct (game, seat, user_id, kind, at) VALUES (?, 0, ?, 'resigned', ?)",
            game["id"], user.id, at,
        )  # fmt: skip


async def test_a_join_below_the_hosts_minimum_is_refused_privately_and_one_above_shows_the_figures(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    async with citta_bot(fake, database, seed=5) as bot:
        assert isinstance(bot, CittaBot)
        store, now = bot.service.storage, int(time.time())
        for k in range(3):  # Bob resigned his three games
            await _past_game(store, bob, finished=False, at=now - (k + 1) * 86400)
        for k in range(4):  # Carol finished four and resigned one: 80%
            await _past_game(store, carol, finished=True, at=now - (k + 1) * 3600)
        await _past_game(store, carol, finished=False, at=now - 7200)
        lobby = await _open(fake, alice)
        rec = await fake.slash(alice, "citta settings", finished=80)
        await rec.wait_message()
        minimum = "Minimum to join (last 90 days): finished at least 80% of their games."
        await fake.wait_for(lambda: minimum in lobby.text)
        assert lobby.text.endswith(f"1. {alice.mention} (host)"), "a player with no games has no figures"
        before = lobby.text

        join = next(c for c in lobby.custom_ids if c.endswith(":join"))
        text = await lobby_refusal(fake, await fake.click(lobby, join, bob))
        assert "In the last 90 days you finished 0 of your 3 games (0%); the host of this game asks for at " \
            "least 80%." in text, text  # fmt: skip
        assert lobby.text == before and bob.mention not in lobby.text, "the lobby is as it was"

        await fake.click(lobby, join, carol)
        await fake.wait_for(lambda: carol.mention in lobby.text)
        assert f"{carol.mention} — 4 finished · 1 resigned" in lobby.text, lobby.text
        assert minimum in lobby.text
    fake.check()
