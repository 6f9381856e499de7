"""End-to-end: whole games through the fake Discord, from ``/citta new`` to the final score."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from pathlib import Path

from fakediscord import FakeDiscord, FakeMessage, FakeUser
from fakediscord.fixtures import fake_discord
from test_e2e_support import WARNING, Table, announcement, answer, board_of, citta_bot, next_mentions

from bot.ids import kind_of
from engine import Game

__all__ = ["fake_discord"]


def _only_review(custom_ids: list[str]) -> bool:
    """Whether a post's only component is its 🔎 (a review of the game at that move)."""
    return [kind_of(c).name for c in custom_ids] == ["review-at"]


async def test_two_players_play_a_whole_game_with_slash_commands_and_buttons(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    rnd = random.Random(1)
    async with citta_bot(fake, database, seed=11) as bot:
        table = Table(fake, bot)
        await table.open(alice, [bob])
        assert table.players == [alice, bob]
        pressed = typed = 0
        while not table.game.is_over:
            user = rnd.choice(table.pending())
            how = await table.play_randomly(rnd, user)
            pressed += how.startswith("citta:")
            typed += not how.startswith("citta:")
            assert len(table.played) < 200, "the game does not end"
        assert pressed >= 5 and typed >= 5, (pressed, typed)
        assert table.last is not None and _only_review(table.last.custom_ids), "only 🔎 after the end"
        await table.check_final_score(bob)
        status = await fake.slash(alice, "citta status")
        assert status.ephemeral and status.original is not None
        assert "The game is over" in status.original.text
    public = [m for m in fake.messages() if not m.text.startswith(HISTORY_POSTS)]
    assert len(public) == 2 + len(table.played), "the lobby, the start and one message per move"
    fake.check()


OVER = "The game is over"
HISTORY_POSTS = ("🏁", "🎞️")
"""The end-of-game posts (scoring and rating changes, the replay) that follow the final move."""


@dataclass
class ScriptedPlayer:
    """A player who waits to be mentioned, looks at the autocomplete list and plays one of its moves
    (sometimes with a button of the message that mentioned them), all through the fake Discord."""

    table: Table
    user: FakeUser
    rnd: random.Random
    moves: list[str] = field(default_factory=list)  # the moves the bot accepted, in order

    async def run(self) -> None:
        fake, seen = self.table.fake, 0
        while True:
            msg = await fake.wait_for_message(
                lambda m: self.user.id in next_mentions(m) or OVER in m.text, after=seen, timeout=60
            )
            seen = msg.seq
            if OVER in msg.text:
                return
            # Autocomplete offers nothing when the message is older than one posted before it (not my
            # turn any more). A refused move is tried again, as a player would (see the races tests).
            for _ in range(5):
                offered = await self.table.choices(self.user)
                if not offered or await self.move(msg, offered):
                    break

    async def move(self, mentioned: FakeMessage, offered: list[str]) -> bool:
        """Play one of ``offered``; False if the bot refused it."""
        fake = self.table.fake
        mine = self.table.buttons(self.user, mentioned)
        if mine and self.rnd.random() < 0.25:
            cid = self.rnd.choice(mine)
            rec = await fake.click(mentioned, cid, self.user)
            move = cid.split(":m.", 1)[1].replace("_", " ")
        else:
            move = offered[0] if self.rnd.random() < 0.5 else self.rnd.choice(offered)
            rec = await fake.slash(self.user, "citta play", move=move)
        reply = await answer(fake, rec)
        if reply.custom_ids:  # a warning: play it anyway
            rec = await fake.click(reply, reply.custom_ids[0], self.user)
            reply = await answer(fake, rec)
        if reply.text.startswith(WARNING):
            return False
        assert reply.text.startswith(f"You played `{move}`."), reply.text
        self.moves.append(move)
        msg = await announcement(fake, rec, move)
        assert msg.text.startswith(f"`{move}` — "), msg.text
        board_of(msg)
        assert set(next_mentions(msg)) <= msg.pinged
        return True


async def test_five_scripted_players_play_a_whole_game_at_the_same_time(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    users = [fake.user(n) for n in ("alice", "bob", "carol", "dave", "erin")]
    async with citta_bot(fake, database, seed=5) as bot:
        table = Table(fake, bot, exact_boards=False)
        await table.open(users[0], users[1:], setup="experienced", players=5)
        assert table.players == users
        players = [ScriptedPlayer(table, u, random.Random(k)) for k, u in enumerate(users)]
        await asyncio.wait_for(asyncio.gather(*(p.run() for p in players)), 90)
        game = await table.stored()
        assert game.is_over and game.scores is not None
        record = game.record().moves
        for seat, p in enumerate(players):
            assert [m for s, m in record if s == seat] == p.moves, f"{p.user}'s moves, in order"
        assert Game.replay(game.record()).snapshot() == game.snapshot()
        rec = await fake.slash(users[3], "citta score")
        assert rec.original is not None and rec.original.text.startswith("Final score")
        for seen, score in zip(game.view(None).players, game.scores, strict=True):
            assert f"**{seen.name}** {score}" in rec.original.text
    public = [m for m in fake.messages() if not m.text.startswith(HISTORY_POSTS)]
    final = public[-1]
    assert OVER in final.text and _only_review(final.custom_ids) and board_of(final)
    pinged = set().union(*(m.pinged for m in public))
    assert pinged == {u.id for u in users}, "everyone was asked to play"
    assert len(public) == 2 + len(record), "the lobby, the start and one message per move"
    fake.check()
