"""End-to-end: whole games played with taps only — the 🎲 button of a turn post opens a private
panel, its select menus and buttons lead to the move, Confirm plays it. No move is typed.

At every decision the test draws the move at random from *all* the legal moves of the stored
position (not from what a button offers), then reaches it by taps: so every kind of move, every
building, tier and hex is shown to be reachable. Each turn post is checked as a phone shows it:
one Components V2 container with the text, a gallery of pictures each with alt text, buttons.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionRecord
from fakediscord.fixtures import fake_discord
from test_e2e_support import citta_bot, posts_after

from bot.client.bot import CittaBot
from bot.ids import parse_custom_id
from bot.service.panel import words
from engine import Action, Game

SELECT = 3
COMMAND = 2

__all__ = ["fake_discord"]


@dataclass
class Tapper:
    """Plays the human seats of a game by taps, each move drawn at random from all legal moves."""

    fake: FakeDiscord
    bot: CittaBot
    game_id: int
    rnd: random.Random
    verbs: set[str] = field(default_factory=set)
    taps: int = 0
    played: str = "✅ You played"
    """How the panel starts once the move is made (in the players' language)."""

    async def stored(self) -> Game:
        row = await self.bot.service.storage.games.game(self.game_id)
        assert row is not None and row.snapshot is not None and row.record is not None
        return Game.restore(row.snapshot, row.record)

    async def users(self) -> dict[int, FakeUser]:
        """The human players by seat."""
        by_id = {u.id: u for u in self.fake.users}
        return {s.seat: by_id[s.user_id] for s in await self.bot.service.storage.games.seats(self.game_id)
                if s.user_id in by_id}  # fmt: skip

    async def _turn_post(self, user: FakeUser) -> FakeMessage:
        """The newest turn post that pings ``user``: it has the 🎲 button. (The posts of what is
        stored go out after the commit: they are sent first.)"""
        await self.bot.deliverer.settle()
        posts = [m for m in posts_after(self.fake, 0) if user.id in m.pinged and _panel_button(m)]
        assert posts, f"no post pings {user} with a panel button"
        return posts[-1]

    async def play_out(self) -> int:
        """Play the game to its end; the number of moves the humans made."""
        moves = 0
        while not (game := await self.stored()).is_over:
            users = await self.users()
            waiting = [users[s] for s in game.pending_seats() if s in users]
            if waiting:
                user = self.rnd.choice(waiting)
                seat = next(s for s, u in users.items() if u is user)
                await self.move(user, self.rnd.choice(game.legal_moves(seat)))
                moves += 1
            await self._after(game.record().moves)
            assert moves < 400, "the game does not end"
        return moves

    async def _after(self, moves: list[tuple[int, str]]) -> None:
        """Until the stored game has moved on from ``moves`` (a computer player may think)."""
        for _ in range(400):
            if (await self.stored()).record().moves != moves:
                return
            await asyncio.sleep(0.025)
        raise AssertionError("nothing was played")

    async def open_panel(self, user: FakeUser) -> FakeMessage:
        """Press 🎲 on the newest turn post that pinged ``user``: their private panel."""
        post = await self._turn_post(user)
        button = _panel_button(post)
        assert button is not None
        panel = await (await self.fake.click(post, button, user)).wait_message()
        await self.fake.wait_for(lambda: not panel.loading, 10)
        assert panel.ephemeral and panel.recipient is user
        return panel

    async def tap(self, panel: FakeMessage, action: Callable[[], Awaitable[object]]) -> None:
        """Tap (``action``) on ``panel`` and wait until the bot has updated the panel."""
        before = len(panel.versions)
        await action()
        self.taps += 1
        await self.fake.wait_for(lambda: len(panel.versions) > before, 10)

    async def move(self, user: FakeUser, target: Action) -> None:
        """From the post that pinged ``user``: open the panel, tap the way to ``target``, confirm."""
        check_post(await self._turn_post(user))
        panel = await self.open_panel(user)
        path = words(target)
        for _ in range(12):
            confirm = next((c for c in panel.custom_ids if c.startswith("citta:") and ":c." in c), None)
            if confirm is None:
                await self.tap(panel, lambda: self._tap_towards(panel, path, user))
                continue
            ref = parse_custom_id(confirm)
            assert ref is not None and ref.move == str(target), (ref, target, panel.text)

            def confirmed(c: str = confirm) -> Awaitable[InteractionRecord]:
                return self.fake.click(panel, c, user)

            await self.tap(panel, confirmed)
            assert panel.text.startswith(self.played), panel.text
            self.verbs.add(target.verb)
            return
        raise AssertionError(f"{target} was not reached by taps: {panel.text}")

    async def _tap_towards(self, panel: FakeMessage, path: tuple[str, ...], user: FakeUser) -> None:
        """One tap on the way to ``path``: the option that is its next word, or the next page."""
        for comp in panel.all_components():
            ref = parse_custom_id(comp.get("custom_id", ""))
            if comp.get("type") != SELECT or ref is None:
                continue
            assert path[: len(ref.path)] == ref.path, (path, ref.path)
            if path[len(ref.path)] in [o["value"] for o in comp["options"]]:
                await self.fake.select(panel, comp["custom_id"], [path[len(ref.path)]], user)
                return
        more = next(c for c in panel.custom_ids if c.startswith("citta:") and (r := parse_custom_id(c))
                    and r.action == "step" and r.page > 0)  # fmt: skip
        await self.fake.click(panel, more, user)


def _panel_button(msg: FakeMessage) -> str | None:
    return next((c for c in msg.custom_ids if c.endswith(":panel")), None)


def check_post(post: FakeMessage) -> None:
    """A turn post as a phone shows it: one V2 container, pictures each with alt text, buttons."""
    assert post.components_v2 and post.content == "", post
    pictures = post.gallery()
    assert pictures, "the post shows the board"
    for attachment, alt in pictures:
        assert alt and len(alt) <= 1024 and attachment.description == alt, (attachment, alt)
        assert attachment.data.startswith(b"\x89PNG")


def assert_no_move_typed(fake: FakeDiscord) -> None:
    """Commands were used (``/citta new``, ``add-ai``), but never ``/citta play``."""
    commands = [r for r in fake.store.interactions.values() if r.type == COMMAND]
    assert commands and not [r for r in commands if "/citta play" in repr(r)], "no move was typed"
    assert any("/citta new" in repr(r) for r in commands), "the check reads the command names"


async def open_game(fake: FakeDiscord, host: FakeUser, others: list[FakeUser], computers: int = 0) -> int:
    """``/citta new``, computer players added, Join by ``others`` and Start — all by the host's and
    the players' taps; the game's id."""
    lobby = await (await fake.slash(host, "citta new")).wait_message()
    join, start = (next(c for c in lobby.custom_ids if c.endswith(a)) for a in (":join", ":start"))
    for _ in range(computers):
        await (await fake.slash(host, "citta add-ai", level="basic")).wait_message()
    for user in others:
        await fake.click(lobby, join, user)

        def joined(u: FakeUser = user) -> bool:
            return u.mention in lobby.text

        await fake.wait_for(joined)
    await fake.click(lobby, start, host)
    await fake.wait_for(lambda: not lobby.custom_ids)  # started: the lobby keeps no buttons
    return int(join.split(":")[1])


async def test_two_players_play_a_whole_game_by_taps_only(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    async with citta_bot(fake, database, seed=21) as bot:
        tapper = Tapper(fake, bot, await open_game(fake, alice, [bob]), random.Random(5))
        moves = await tapper.play_out()
    print(f"2 players: {moves} moves by {tapper.taps} taps; kinds {sorted(tapper.verbs)}")
    assert moves > 40 and tapper.taps > 2 * moves
    assert {"gold", "build", "found"} <= tapper.verbs, tapper.verbs
    assert_no_move_typed(fake)
    fake.check()


async def test_four_players_with_a_computer_play_a_whole_game_by_taps_only(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    async with citta_bot(fake, database, seed=22) as bot:
        tapper = Tapper(fake, bot, await open_game(fake, alice, [bob, carol], computers=1), random.Random(6))
        moves = await tapper.play_out()
        assert len(await tapper.users()) == 3
    print(f"4 players: {moves} moves by {tapper.taps} taps; kinds {sorted(tapper.verbs)}")
    assert moves > 60
    assert_no_move_typed(fake)
    fake.check()


async def test_a_panel_the_game_moved_past_says_so_and_offers_a_fresh_one(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    async with citta_bot(fake, database, seed=21) as bot:
        tapper = Tapper(fake, bot, await open_game(fake, alice, [bob]), random.Random(1))
        users = await tapper.users()
        (to_move,) = (await tapper.stored()).pending_seats()
        first, second = users[to_move], users[1 - to_move]
        # A panel left at the confirm step of `gold` while the same move is made from another panel.
        old = await tapper.open_panel(first)
        await tapper.tap(old, lambda: fake.select(old, old.custom_ids[0], ["gold"], first))
        confirm = next(c for c in old.custom_ids if ":c." in c)
        await tapper.move(first, Action.parse("gold"))
        await tapper.tap(old, lambda: fake.click(old, confirm, first))
        assert old.text.startswith("⚠️ That move was already made: your `gold` (move 1) counts"), old.text
        assert len((await tapper.stored()).record().moves) == 1, "the move is made once"
        # A step of a panel made before the game moved on: a fresh panel, which says so.
        old = await tapper.open_panel(second)
        await tapper.move(second, Action.parse("gold"))
        await tapper.tap(old, lambda: fake.select(old, old.custom_ids[0], ["gold"], second))
        assert old.text.startswith("🔄 The game moved on since this panel was made"), old.text
        assert "Nothing is asked of you right now" in old.text and not old.custom_ids
    fake.check()
