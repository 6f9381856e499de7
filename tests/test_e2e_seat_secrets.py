"""End-to-end: a seat's secrets stay with its player. Another player of the game — a host with a
second account, say — may not take the seat over while its player still has time (to read its polled
cards); the player may hand it over themselves, and the new holder sees only what the seat learns
from then on."""

from __future__ import annotations

from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.fixtures import fake_discord
from test_e2e_support import Table, citta_bot, refusal

from engine import Game

__all__ = ["fake_discord"]


def _bob_can_poll_first(game: Game) -> bool:
    return game.pending_seats() == [1] and "poll 1 2" in [str(a) for a in game.legal_moves(1)]


SEED = next(s for s in range(500) if _bob_can_poll_first(Game.new(["Alice", "Bob"], seed=s)))
"""A game where Bob (the host's guest) may poll two cards at his first turn."""


async def test_a_seated_host_cannot_take_a_players_seat_to_read_its_cards_but_the_player_may_hand_it_on(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob, erin = fake.user("alice"), fake.user("bob"), fake.user("erin")
    second = fake.add_user("alice-second-account")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot)
        await table.open(alice, [bob])
        assert table.pending() == [bob]
        await table.play(bob, "poll 1 2")
        mine = await (await fake.slash(bob, "citta secrets")).wait_message()
        assert "card 1 is" in mine.text and "card 2 is" in mine.text, mine.text
        await table.play(alice, "gold")
        assert table.pending() == [bob], "Bob's turn, and he still has time"

        before = len(fake.messages())
        text = await refusal(fake, await fake.slash(alice, "citta replace", old=bob, new=second))
        assert "only Bob can hand it over" in text, text
        assert len(fake.messages()) == before, "nothing announced: the seat did not change"
        theirs = await (await fake.slash(second, "citta secrets")).wait_message()
        assert "card" not in theirs.text, "the second account learnt nothing"

        await fake.slash(bob, "citta replace", old=bob, new=erin)  # the player's own choice
        await fake.wait_for_message(lambda m: m.text.startswith(f"🔁 {erin.mention} takes over"))
        new = await (await fake.slash(erin, "citta secrets")).wait_message()
        assert "card" not in new.text and "no private information" in new.text, new.text
        still = await (await fake.slash(bob, "citta secrets")).wait_message()
        assert "card 1 is" not in still.text, "the old player has no seat any more"
    fake.check()
