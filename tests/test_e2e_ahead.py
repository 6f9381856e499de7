"""End-to-end: answers ahead (``/citta me ahead``). Alice and Bob set a standing answer for every
decision asked outside a turn; through a whole game, each such decision is answered by the bot the
moment it arises, posted in the channel as that player's answer, and nobody is pinged for it. (A
`first` never arose in the seeds tried: it needs two of a player's cities after one last citizen.)"""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.fixtures import fake_discord
from test_e2e_support import Table, citta_bot

from bot.service.ahead import KINDS
from engine import Game

__all__ = ["fake_discord"]

SEED = 3


def _outside(game: Game) -> list[str]:
    return [d.kind for s in game.pending_seats() for d in game.pending_decisions(s) if d.kind in KINDS]


async def _settled(table: Table) -> Game:
    """The stored game once nothing outside a turn is pending (the bot answers ahead at once)."""
    for _ in range(200):
        game = await table.stored()
        if not _outside(game):
            return game
        await asyncio.sleep(0.05)
    raise AssertionError(f"a decision outside a turn waits on a player: {_outside(game)}")


async def test_every_decision_outside_a_turn_is_answered_at_once_as_the_players_own(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot)
        await table.open(alice, [bob])
        for user in (alice, bob):
            for kind in KINDS:
                answer = "health education culture" if kind == "prefer" else "computer"
                rec = await fake.slash(user, "citta me ahead", kind=kind, answer=answer)
                said = await rec.wait_message()
                assert said.ephemeral and f"`{kind}` (" in said.text, said.text
                assert "you are asked" not in said.text.split(f"`{kind}` (")[1].split("\n")[0], said.text
        rnd = random.Random(SEED)
        while not (game := await _settled(table)).is_over:
            seat = game.pending_seats()[0]
            move = str(rnd.choice(game.legal_moves(seat)))
            rec = await fake.slash(table.players[seat], "citta play", move=move)
            await rec.wait_message()
            reply = rec.messages[-1]
            if reply.custom_ids:  # a waste warning: play it anyway
                await (await fake.click(reply, reply.custom_ids[0], table.players[seat])).wait_message()
        await bot.deliverer.settle()
        answered = [m for m in fake.messages() if "answer ahead)" in m.text]
        kinds = {re.match(r"`(\w+)", m.text)[1] for m in answered}  # type: ignore[index]
        assert kinds == {"prefer", "starve", "demolish"}, kinds  # `first` is rare: see the service tests
        for post in answered:
            name = re.search(r"\((\w+)'s answer ahead\)", post.text)
            assert name is not None, post.text
        asked = [m for m in fake.messages() if "Next: " in m.text and " to choose " in m.text]
        outside_only = [m for m in asked if " to play a turn" not in m.text]
        assert outside_only and not any(m.pinged for m in outside_only), (
            "nobody is pinged for an answer ahead"
        )
        fake.check()
