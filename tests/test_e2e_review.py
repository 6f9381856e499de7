"""End-to-end: ``/citta-review`` steps through a game move by move, privately — the real bot on the
fake Discord. A finished game is walked forwards and backwards through every move, every round and
every year, each position the engine's replay of the record up to that move with every card turned
up; a review opened before a restart goes on after it; a running game's review shows each asker only
what their seat (or a spectator) could see at that moment."""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionRecord
from fakediscord.fixtures import fake_discord
from PIL import Image
from test_e2e_history import _finished_game, _post
from test_e2e_privacy import PRIVATE, SEED, poll, polled_cards
from test_e2e_support import PICTURE_WIDTH, Table, citta_bot

from bot import ids
from bot.service.limits import RATES, Limits, Rate
from engine import Game, View

__all__ = ["fake_discord"]


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (PICTURE_WIDTH, 8), "white").save(out, "PNG")  # (a turn post's width)
    return out.getvalue()


PNG = _png()
"""What the recorder "draws": a real picture (a replay's animation opens it), the same each time."""


class Recorder:
    """A renderer that draws nothing but keeps each view it is asked to draw."""

    def __init__(self) -> None:
        self.drawn: list[View] = []
        self.lock = threading.Lock()

    def __call__(self, view: View, **_options: Any) -> bytes:
        with self.lock:
            self.drawn.append(view)
        return PNG

    def post(self, view: View, *, highlight: list[str], last_move: str, focus: int | None,
             lang: str = "en") -> list[tuple[str, bytes, str]]:  # fmt: skip
        return [("board.png", self(view), f"The board after: {last_move}")]

    def ahead(self, view: View, *, seats: list[int]) -> None:
        """Nothing drawn ahead (only what is posted is recorded)."""


def _positions(record: dict[str, Any], seat: int | None, *, opened: bool) -> list[View]:
    """The engine's position after each number of moves, as a review shows it."""
    return [g.open_view() if opened else g.view(seat) for g, _events in Game.walk(record)]


async def _walk_to(review: Review, target: int) -> int:
    """Step ◀ ▶ to ``target`` (a position the menu does not offer)."""
    while (at := _at(review.msg)) != target:
        await review.press("▶" if at < target else "◀")
    return target


def _at(msg: FakeMessage) -> int:
    """The number of moves played before the position a review message shows."""
    if "before the first move" in msg.text:
        return 0
    found = re.search(r"move (\d+) of \d+", msg.text)
    return -1 if found is None else int(found.group(1))


class Review:
    """One member's review message, stepped by its buttons and menu."""

    def __init__(self, fake: FakeDiscord, user: FakeUser, msg: FakeMessage, recorder: Recorder) -> None:
        self.fake, self.user, self.msg, self.recorder = fake, user, msg, recorder

    def button(self, label: str) -> str:
        [cid] = [c["custom_id"] for c in self.msg.all_components() if c.get("label") == label]
        return str(cid)

    def menu(self) -> dict[str, Any]:
        [select] = [c for c in self.msg.all_components() if c.get("type") == 3]
        return select

    async def press(self, label: str) -> int:
        cid = self.button(label)
        return await self._step(int(cid.split(".")[1]), self.fake.click(self.msg, cid, self.user))

    async def pick(self, value: str) -> int:
        cid = self.menu()["custom_id"]
        return await self._step(int(value), self.fake.select(self.msg, cid, [value], self.user))

    async def _step(self, target: int, interaction: Awaitable[InteractionRecord]) -> int:
        """The position the review shows once ``interaction`` drew it (``target``, if all is well)."""
        drawn = len(self.recorder.drawn)
        rec = await interaction
        assert rec.updated is self.msg, rec
        await self.fake.wait_for(lambda: len(self.recorder.drawn) > drawn and not self.msg.loading
                                 and _at(self.msg) == target)  # fmt: skip
        return _at(self.msg)


async def test_a_finished_game_is_walked_through_every_move_round_and_year_and_after_a_restart(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, carol = fake.user("alice"), fake.user("carol")
    async with citta_bot(fake, database, seed=7) as bot:
        bot.service.renderer = recorder = Recorder()  # (nothing drawn: a quick game, each view kept)
        game_id, _final, _replay = await _finished_game(fake, bot, alice, [], "random")
        row = await bot.service.storage.games.game(game_id)
        assert row is not None and row.record is not None and row.status == "over"
        record, count = row.record, len(row.record["moves"])
        expected = _positions(record, None, opened=True)
        stages = [(g.state.year, g.state.phase, g.state.round) for g, _e in Game.walk(record)]
        bot.service.limits = Limits({**RATES, "review": Rate(10_000, 0.001)})  # stepping as fast as it can

        rec = await fake.slash(carol, "citta-review")  # not a player: a finished game is everyone's
        msg = await rec.wait_message(30)
        assert msg.ephemeral and msg.recipient is carol
        assert f"🔎 **Game {game_id}**, move {count} of {count}" in msg.text, msg.text
        assert recorder.drawn[-1] == expected[count]
        hidden = _positions(record, None, opened=False)
        turned_up = [k for k in range(count) if None in hidden[k].voice and None not in expected[k].voice]
        assert len(turned_up) > count // 2, "the face-down voice cards are shown as they were drawn"
        [(picture, alt)] = msg.gallery()
        assert picture.data == PNG and alt is not None and alt.startswith("The board after:")
        review = Review(fake, carol, msg, recorder)

        # Every move back with ◀, and forwards again with ▶: each the engine's position.
        for k in range(count - 1, -1, -1):
            assert await review.press("◀") == k
            assert recorder.drawn[-1] == expected[k], f"after {k} moves"
        assert "before the first move" in msg.text
        for k in range(1, count + 1):
            assert await review.press("▶") == k
            assert recorder.drawn[-1] == expected[k], f"after {k} moves"
            _seat, move = record["moves"][k - 1]
            assert f"`{move}`" in msg.text, (k, msg.text)

        # ⏮ to the start of each round and phase, back to the start; ⏭ through them to the end.
        starts = [k for k in range(1, count + 1) if stages[k] != stages[k - 1]]
        assert {stages[k][0] for k in starts} == {1, 2, 3, 4, 5, 6} and len(starts) > 12, starts
        for k in reversed([0, *(s for s in starts if s < count)]):
            assert await review.press("⏮") == k
            assert recorder.drawn[-1] == expected[k]
        for k in [*starts, *([] if starts[-1] == count else [count])]:
            assert await review.press("⏭") == k
            assert recorder.drawn[-1] == expected[k]
        assert _at(msg) == count

        # The menu jumps to the start, to each year's first position and to the end.
        years = {str(k) for k in starts if stages[k][0] != stages[k - 1][0] and stages[k][1] != "over"}
        offered = {o["value"]: o["label"] for o in review.menu()["options"]}
        assert years | {"0", str(count)} <= set(offered) and len(years) == 5, (years, offered)
        for value in sorted(years | {"0"}, key=int):
            assert await review.pick(value) == int(value)
            assert recorder.drawn[-1] == expected[int(value)]
            assert value == "0" or f"Year {stages[int(value)][0]} of 6" in msg.text, msg.text

        # 🤔: the strong computer's view of a move, in a message of its own; ⚡: the decisive moments,
        # whose menu turns that message into the review at one of them.
        turn = next(
            k for k in range(count, 0, -1) if stages[k - 1][1] == "politics" and stages[k][1] == "politics"
        )
        assert await review.pick(str(turn)) == turn if str(turn) in offered else await _walk_to(review, turn)
        why = await (await fake.click(msg, review.button("🤔 Why this move?"), carol)).wait_message(60)
        assert why.ephemeral and why.recipient is carol and why.text.startswith(f"🤔 **Move {turn}**"), (
            why.text
        )
        assert "strong computer player would have played" in why.text or "only move" in why.text, why.text
        moments = await (await fake.click(msg, review.button("⚡ Decisive moments"), carol)).wait_message(120)
        assert moments.text.startswith(f"⚡ **Decisive moments of game {game_id}**"), moments.text
        assert f"({count} moves judged)" in moments.text or "No move of game" in moments.text, moments.text
        jumps = [c for c in moments.all_components() if c.get("type") == 3]
        if jumps:
            [jump] = jumps
            first = jump["options"][0]["value"]
            assert await Review(fake, carol, moments, recorder).pick(first) == int(first)
            assert recorder.drawn[-1] == expected[int(first)]
        await review.pick("0")
        middle = _at(msg)

    async with citta_bot(fake, database, seed=7) as bot:  # a restart: the review goes on
        bot.service.renderer = recorder = review.recorder = Recorder()
        assert await review.press("▶") == middle + 1
        assert recorder.drawn[-1] == expected[middle + 1]

        # 🔎 on the final scoring post opens a review at the start, on the last turn post at its move;
        # /citta games offers each game's review.
        scoring = _post(fake, f"🏁 **Game {game_id} — final scoring**")
        assert scoring is not None
        for post, label, heading in ((scoring, "🔎 Review this game", "before the first move"),
                                     (_final, "🔎 Review", f"move {count} of {count}")):  # fmt: skip
            [cid] = [c["custom_id"] for c in post.all_components() if c.get("label") == label]
            opened = await (await fake.click(post, cid, carol)).wait_message(30)
            assert opened.ephemeral and opened.recipient is carol and heading in opened.text, opened.text
        listed = await (await fake.slash(carol, "citta games")).wait_message(30)
        [menu] = [c for c in listed.all_components() if c.get("type") == 3]
        assert str(game_id) in {o["value"] for o in menu["options"]}
        opened = await (await fake.select(listed, menu["custom_id"], [str(game_id)], carol)).wait_message(30)
        assert f"🔎 **Game {game_id}**, before the first move" in opened.text and opened.recipient is carol
    fake.check()


async def test_a_running_games_review_shows_each_asker_only_what_their_seat_saw(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot)
        await table.open(alice, [bob])
        await poll(table, alice)
        alices = polled_cards(table, alice)
        await poll(table, bob, last=True)
        bobs = polled_cards(table, bob)
        assert alices and bobs and set(alices) != set(bobs)
        row = await bot.service.storage.games.game(table.game_id)
        assert row is not None and row.record is not None
        bot.service.renderer = recorder = Recorder()

        # Bob's 🔎 on Alice's poll: his own review at that move, without her cards.
        post = next(m for m in fake.messages() if m.text.startswith("`poll") and "Alice polls" in m.text)
        [cid] = [c["custom_id"] for c in post.all_components() if c.get("label") == "🔎 Review"]
        opened = await (await fake.click(post, cid, bob)).wait_message(30)
        assert opened.recipient is bob and "move 1 of 2" in opened.text, opened.text
        assert recorder.drawn[-1] == _positions(row.record, table.seat(bob), opened=False)[1]
        assert not any(card in opened.text for card in alices)

        labels = {c.get("label") for c in opened.all_components()}
        assert not labels & {"🤔 Why this move?", "⚡ Decisive moments"}, "no computer's view while it runs"
        forged = await fake.forge(bob, ids.why_id(table.game_id, 1))
        assert "once a game is over" in (await forged.wait_message()).text

        for user, own, others in ((alice, alices, bobs), (bob, bobs, alices), (carol, [], [])):
            seat = table.seat(user) if own else None
            expected = _positions(row.record, seat, opened=False)
            rec = await fake.slash(user, "citta-review", move=0)
            msg = await rec.wait_message(30)
            review = Review(fake, user, msg, recorder)
            assert recorder.drawn[-1] == expected[0]
            texts = [msg.text]
            for k in range(1, len(expected)):
                assert await review.press("▶") == k
                view = recorder.drawn[-1]
                assert view == expected[k], (user.name, k)
                assert view.voice[1:] == [None, None, None], "the face-down voice stays face down"
                texts.append(msg.text)
                for _p, alt in msg.gallery():
                    assert alt is not None, "every picture has its alt text"
                    texts.append(alt)
            seen = "\n".join(texts)
            for card in set(others) - set(own):
                assert card not in seen, (user.name, card)
            if seat is None:
                assert not PRIVATE.search(seen), seen
            else:
                assert "You polled the people" in seen and all(card in seen for card in own), seen
    fake.check()
