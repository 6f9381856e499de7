"""Helpers for the end-to-end tests: the real `CittaBot` against the fake Discord, seen as players see it.

(No tests here; the name keeps the file with the end-to-end tests.)

A `Table` acts through the fake only (slash commands, autocomplete, buttons) and checks every
channel message the bot posts against a *shadow* engine game that the test plays alongside: the
summary of the move, the board PNG, and whom the message pings next.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionRecord, running
from PIL import Image

from bot.client.bot import CittaBot
from bot.ids import parse_custom_id
from bot.service.workers import ThreadWorkers
from bot.web.server import WebServer
from engine import Game
from render import render_post

PICTURE_WIDTH = 1080  # every picture of a turn post
START_LINE = re.compile(r"<@(\d+)> as ([^,.]+)")
NEXT_LINE = re.compile(r"^Next: (.*)$", re.MULTILINE)
WARNING = "⚠️"


@contextlib.asynccontextmanager
async def citta_bot(
    fake: FakeDiscord,
    db: Path | str,
    *,
    seed: int,
    global_commands: bool = False,
    web: WebServer | None = None,
) -> AsyncIterator[CittaBot]:
    """The real bot on database ``db`` (an SQLite file or a PostgreSQL URL: the ``database``
    fixture gives each test both in turn), connected to ``fake``; new games get the seed ``seed``.
    Its commands are the fake's first server's (`CittaBot.dev_guild`), or with ``global_commands``
    every server's, as in production. With ``web``, the bot attaches to that web server (started by
    the test, as `bot.client.startup.run` starts it)."""
    dev_guild = None if global_commands else fake.guild_id
    client = CittaBot(db_path=db, dev_guild=dev_guild, workers=ThreadWorkers(), web=web)
    async with running(client, fake) as bot:
        bot.service.seeds = lambda: seed  # a fixed game, so that runs are repeatable
        yield bot


def png_size(data: bytes) -> tuple[int, int]:
    """The size of a PNG, after decoding all of it (a truncated or corrupt file raises)."""
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG", img.format
    img.load()
    return img.size


def board_of(msg: FakeMessage) -> bytes:
    """The overview of the board in a turn post's gallery (each picture there has its alt text)."""
    pictures = msg.gallery()
    assert pictures and all(alt for _, alt in pictures), "every picture has its alt text"
    att = pictures[0][0]
    assert att.filename == "board.png" and att.data.startswith(b"\x89PNG"), "the board is a PNG"
    assert att.width == PICTURE_WIDTH, att.width
    return att.data


def next_mentions(msg: FakeMessage) -> list[int]:
    """The user ids of the ``Next: …`` line ([] when there is none)."""
    m = NEXT_LINE.search(msg.text)
    return [int(u) for u in re.findall(r"<@(\d+)>", m.group(1))] if m else []


async def answer(fake: FakeDiscord, rec: InteractionRecord) -> FakeMessage:
    """The bot's reply to an interaction that it deferred privately (``thinking``)."""
    msg = await rec.wait_message()
    assert rec.deferred and rec.ephemeral and msg.recipient is rec.user, rec
    return msg


def posts_after(fake: FakeDiscord, after: int, channel: FakeChannel | None = None) -> list[FakeMessage]:
    """The bot's channel posts (not interaction responses) made after the snowflake ``after``."""
    return [
        m for m in fake.messages(channel or fake.channel)
        if m.id > after and m.author is fake.bot_user and m.interaction is None and not m.deleted
    ]  # fmt: skip


async def announcement(
    fake: FakeDiscord, rec: InteractionRecord, move: str | None = None, timeout: float = 5.0
) -> FakeMessage:
    """The public channel message that an interaction led to: the bot's next post in the channel
    (every announcement goes out through the outbox, as a channel post); with ``move``, the next
    one announcing that move (other players may move at the same time)."""

    def post() -> FakeMessage | None:
        after = posts_after(fake, rec.id, rec.channel)
        return next((m for m in after if move is None or m.text.startswith(f"`{move}`")), None)

    found: FakeMessage = await fake.wait_for(post, timeout)
    return found


async def private_answer(
    fake: FakeDiscord, user: FakeUser, command: str, *, wait: float = 5.0, **options: Any
) -> FakeMessage:
    """``user``'s slash command ``command`` and its answer, which only they see (within ``wait``
    seconds when it was deferred), at most 2,000 characters as Discord allows."""
    rec = await fake.slash(user, command, **options)
    msg = await rec.wait_message(wait) if rec.deferred else rec.original
    assert msg is not None and msg.ephemeral and msg.recipient is user, (command, rec)
    assert len(msg.text) <= 2000
    return msg


async def refusal(fake: FakeDiscord, rec: InteractionRecord) -> str:
    """The private ⚠️ answer to an interaction that changed nothing."""
    msg = await answer(fake, rec) if rec.deferred else rec.original
    assert msg is not None and msg.ephemeral and msg.recipient is rec.user, rec
    assert msg.text.startswith(WARNING), msg.text
    assert not any(not m.ephemeral for m in rec.messages), "a refused request posts nothing in public"
    return msg.text


@dataclass
class Table:
    """A game in the fake's channel, played through Discord by ``fake``'s users, checked move by move."""

    fake: FakeDiscord
    bot: CittaBot
    players: list[FakeUser] = field(default_factory=list)  # by seat, as the start message says
    shadow: Game | None = None  # the test's own copy of the game, played alongside
    game_id: int = 0
    last: FakeMessage | None = None  # the newest channel message about the game
    played: list[tuple[int, str]] = field(default_factory=list)
    exact_boards: bool = True  # compare each posted PNG with a render of the shadow's spectator view
    channel: FakeChannel | None = None  # where the game is played (default: the fake's text channel)

    # --- the lobby --------------------------------------------------------------------------------

    async def open(self, host: FakeUser, others: list[FakeUser], **options: Any) -> FakeMessage:
        """``/citta new``, Join by ``others``, Start by the host; returns the start announcement."""
        rec = await self.fake.slash(host, "citta new", channel=self.channel, **options)
        lobby = await rec.wait_message()
        assert not lobby.ephemeral and lobby.text.startswith("**La Città** — new game"), lobby.text
        join, start = (next(c for c in lobby.custom_ids if c.endswith(a)) for a in (":join", ":start"))
        self.game_id = int(join.split(":")[1])
        for k, user in enumerate(others, start=2):
            click = await self.fake.click(lobby, join, user)
            assert click.response_type == 6  # acknowledged silently; the lobby message is edited

            def joined(u: FakeUser = user) -> bool:
                return u.mention in lobby.text

            await self.fake.wait_for(joined)
            assert f"{k}. {user.mention}" in lobby.text
        if options.get("players") != 1 + len(others):  # else the last Join started the game
            click = await self.fake.click(lobby, start, host)
        msg = await announcement(self.fake, click)
        await self.fake.wait_for(lambda: "— started" in lobby.text)
        return await self.begin(msg)

    async def begin(self, msg: FakeMessage) -> FakeMessage:
        """Check the start announcement; take the seats from it and the shadow game from the bot."""
        assert msg.text.startswith(f"**La Città** game {self.game_id} begins"), msg.text
        ids = [int(u) for u, _ in START_LINE.findall(msg.text)]
        by_id = {u.id: u for u in self.fake.users}
        self.players = [by_id[i] for i in ids]
        assert msg.pinged >= set(ids), "the start pings every player"
        self.shadow = await self.stored()
        assert self.shadow.record().moves == []
        await self.check_board(msg)
        self.check_next(msg)
        self.last = msg
        return msg

    # --- what the bot has stored (never used to decide a move) ------------------------------------

    async def stored(self) -> Game:
        row = await self.bot.service.storage.games.game(self.game_id)
        assert row is not None and row.snapshot is not None and row.record is not None
        return Game.restore(row.snapshot, row.record)

    async def version(self) -> int:
        row = await self.bot.service.storage.games.game(self.game_id)
        assert row is not None
        return row.version

    # --- playing ----------------------------------------------------------------------------------

    def seat(self, user: FakeUser) -> int:
        return self.players.index(user)

    @property
    def game(self) -> Game:
        assert self.shadow is not None
        return self.shadow

    def pending(self) -> list[FakeUser]:
        return [self.players[s] for s in self.game.pending_seats()]

    async def choices(self, user: FakeUser, typed: str = "") -> list[str]:
        """The moves ``/citta play`` offers ``user`` after typing ``typed``."""
        found = await self.fake.autocomplete(
            user, "citta play", focused="move", value=typed, channel=self.channel
        )
        assert len(found) <= 25 and all(0 < len(c["name"]) <= 100 for c in found)
        return [c["value"] for c in found]

    def buttons(self, user: FakeUser, msg: FakeMessage | None = None) -> list[str]:
        """Custom ids of the move buttons for ``user`` on ``msg`` (default: the newest message)."""
        msg = msg or self.last
        seat = self.seat(user)
        refs = [(cid, parse_custom_id(cid)) for cid in (msg.custom_ids if msg else [])]
        return [cid for cid, r in refs if r is not None and r.action == "move" and r.seat == seat]

    async def play(self, user: FakeUser, move: str) -> FakeMessage:
        """``/citta play move`` (confirming a warning with its button); the checked announcement."""
        rec = await self.fake.slash(user, "citta play", move=move, channel=self.channel)
        return await self.settle(user, rec, move)

    async def press(self, user: FakeUser, custom_id: str, msg: FakeMessage | None = None) -> FakeMessage:
        """Press a move button on ``msg`` (default: the newest message); the checked announcement."""
        msg = msg or self.last
        assert msg is not None
        ref = parse_custom_id(custom_id)
        assert ref is not None and ref.move is not None
        rec = await self.fake.click(msg, custom_id, user)
        return await self.settle(user, rec, ref.move)

    async def settle(self, user: FakeUser, rec: InteractionRecord, move: str) -> FakeMessage:
        reply = await answer(self.fake, rec)
        if reply.custom_ids:  # a warning about a wasteful move: play it anyway
            assert reply.text.startswith(WARNING) and len(reply.custom_ids) == 1, reply.text
            rec = await self.fake.click(reply, reply.custom_ids[0], user)
            reply = await answer(self.fake, rec)
        assert reply.text.startswith(f"You played `{move}`."), reply.text
        msg = await announcement(self.fake, rec, move)
        await self.check_move(msg, self.seat(user), move, reply)
        return msg

    async def play_randomly(self, rnd: random.Random, user: FakeUser, *, buttons: float = 0.4) -> str:
        """One move of ``user`` as a player would choose it: a button, or an autocomplete choice."""
        mine = self.buttons(user)
        if mine and rnd.random() < buttons:
            cid = rnd.choice(mine)
            await self.press(user, cid)
            return cid
        offered = await self.choices(user)
        assert offered, f"{user} must move but autocomplete offers nothing"
        move = rnd.choice(offered)
        if rnd.random() < 0.3:  # type the start of it, as players do, and pick from the narrowed list
            typed = move.split()[0][:3]
            narrowed = await self.choices(user, typed)
            assert narrowed and narrowed[0].startswith(typed), (typed, narrowed)
            move = rnd.choice(narrowed)
        await self.play(user, move)
        return move

    # --- checks -----------------------------------------------------------------------------------

    async def check_move(self, msg: FakeMessage, seat: int, move: str, reply: FakeMessage) -> None:
        """The announcement of ``move``: its summary, the board, who is next; and the private reply."""
        events = self.game.play(seat, move)
        self.played.append((seat, move))
        first, *_ = msg.text.splitlines()
        assert first.startswith(f"`{move}` — "), msg.text
        public = [e.text.strip() for e in events if e.private_to is None and e.text.strip()]
        private = [e.text.strip() for e in events if e.private_to == seat]
        others = [e.text.strip() for e in events if e.private_to not in (None, seat)]
        if "…" not in msg.text:  # a very long summary is cut; all of it is in /citta log
            for text in public:
                assert text in msg.text, (text, msg.text)
        elif public:
            assert public[0][:40] in msg.text
        for text in private:
            assert text not in msg.text, "private information in a channel message"
            assert text in reply.text, "the player sees their own private information"
        for text in others:  # e.g. the next player's only possible move, played for them, drew a card
            assert text not in msg.text, "private information in a channel message"
            assert text not in reply.text.replace(f"You played `{move}`.", ""), "another's secret"
        await self.check_board(msg)
        self.check_next(msg)
        self.last = msg

    def check_next(self, msg: FakeMessage) -> None:
        expected = [u.id for u in self.pending()]
        assert next_mentions(msg) == expected, (msg.text, expected)
        if expected:
            assert set(expected) <= msg.pinged, "the next players are pinged"
            assert msg.pinged <= {u.id for u in self.players}
        else:
            assert self.game.is_over and "The game is over" in msg.text, msg.text

    async def check_board(self, msg: FakeMessage) -> None:
        """The post's pictures: the spectator view of the current position, as the renderer draws it."""
        data = board_of(msg)
        size = await asyncio.to_thread(png_size, data)
        if self.exact_boards:
            row = await self.bot.service.storage.games.game(self.game_id)
            assert row is not None
            spectator = self.game.view(None)
            pending = self.game.pending_seats()
            expected = await asyncio.to_thread(
                render_post, spectator, highlight=row.highlight, focus=pending[0] if pending else None
            )
            posted = [(a.filename, a.data) for a, _ in msg.gallery()]
            assert posted == [(name, png) for name, png, _ in expected], "the spectator view of the position"
        else:
            assert size[0] == PICTURE_WIDTH and size[1] > PICTURE_WIDTH // 2, size

    async def check_final_score(self, user: FakeUser) -> str:
        """``/citta score`` after the end: the shadow game's final scores, privately."""
        assert self.game.is_over and self.game.scores is not None
        rec = await self.fake.slash(user, "citta score", channel=self.channel)
        assert rec.ephemeral and rec.original is not None
        text = rec.original.text
        assert text.startswith("Final score"), text
        for p, score in zip(self.game.view(None).players, self.game.scores, strict=True):
            assert f"**{p.name}** {score}" in text, (p.name, score, text)
        stored = await self.stored()
        assert stored.is_over and stored.record().moves == self.played
        return text
