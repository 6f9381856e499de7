"""Helpers for the bot's service-layer tests: a fake renderer, players, and a game driver.

(No tests here; the name keeps the file with the bot's tests.)
"""

from __future__ import annotations

import itertools
import random
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.ids import parse_custom_id
from bot.results import Message, Outcome, Post, User
from bot.service import advance as svc_advance
from bot.service import lobby as svc_lobby
from bot.service import moves as svc_moves
from bot.service import tick as svc_tick
from bot.service.context import Context
from bot.storage.protocol import StorageProtocol
from bot.storage.sqlite import Storage
from engine import Game, View

CHANNEL = 1000
GUILD = 1
SEED = 0x5EED_1234_5678_9ABC  # recognisable: must never show up in a message or a log
PNG = b"\x89PNG fake board"
PLAYERS = [User(101, "Ann"), User(102, "Bob"), User(103, "Cid"), User(104, "Dea"), User(105, "Eli")]
OUTSIDER = User(999, "Zed")
PRIVATE_PATTERNS = (re.compile(r"card \d is"), re.compile(r"You polled"), re.compile(r"You drew"))


class FakeRenderer:
    """Records the views it is asked to draw (and in which language); refuses anything but the
    spectator view."""

    def __init__(self) -> None:
        self.calls: list[tuple[View, list[str]]] = []
        self.langs: list[str] = []
        self.threads: set[int] = set()
        self.ahead_calls: list[tuple[View, list[int]]] = []

    def __call__(
        self, view: View, *, highlight: list[str] | None = None, width: int = 1400, lang: str = "en"
    ) -> bytes:
        assert view.viewer is None, "the channel board must be the spectator view"
        assert all(p is None for p in view.peek), "no polled card may be drawn on the board"
        self.calls.append((view, list(highlight or [])))
        self.langs.append(lang)
        self.threads.add(threading.get_ident())
        return PNG

    def post(
        self, view: View, *, highlight: list[str], last_move: str, focus: int | None, lang: str = "en"
    ) -> list[tuple[str, bytes, str]]:
        """The post's pictures: here the one fake PNG, its alt text naming the last move."""
        return [
            ("board.png", self(view, highlight=highlight, lang=lang), f"The board. Last move: {last_move}")
        ]

    def ahead(self, view: View, *, seats: list[int]) -> None:
        """What is drawn ahead after a restart (nothing is drawn): the view and the seats, kept."""
        self.ahead_calls.append((view, list(seats)))


MIDNIGHT = 1_699_920_000  # 2023-11-14 00:00 UTC
HOUR = 3600


class _Sent:
    id = 4242


class _Channel:
    def __init__(self, sent: list[dict[str, Any]]) -> None:
        self.sent = sent

    async def send(self, **kwargs: Any) -> _Sent:
        self.sent.append(kwargs)
        return _Sent()


class RecordingClient:
    """What the delivery task asks of Discord, answered at once; the posts' files recorded."""

    user = None

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def get_partial_messageable(self, channel_id: int) -> _Channel:
        return _Channel(self.sent)


class FakeClock:
    """The service's clock in tests: time moves only when the test says so."""

    def __init__(self, now: float = MIDNIGHT) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, hours: float) -> None:
        self.now += hours * HOUR


OPENED: list[Context] = []
"""The services `open_service` opened: after each test, those still open are closed
(`conftest.close_what_a_test_left_open`), since a test that fails before its ``close()``
would leave an SQLite connection's thread running, and pytest would never exit."""


async def open_service(
    path: Path | str, renderer: FakeRenderer | None = None, seed: int = SEED, clock: FakeClock | None = None
) -> Context:
    opened = await Context.open(
        path, renderer=renderer or FakeRenderer(), seeds=lambda: seed, clock=clock or FakeClock()
    )
    OPENED.append(opened)
    return opened


async def query(storage: StorageProtocol, sql: str, *args: object) -> list[dict[str, Any]]:
    """The rows of a raw query (``?`` placeholders) on either backend, for tests that look inside."""
    if isinstance(storage, Storage):
        return [dict(r) for r in await storage.db.all(sql, args)]
    from bot.storage.postgres import PostgresStorage

    assert isinstance(storage, PostgresStorage)
    number = itertools.count(1)
    return [dict(r) for r in await storage.db.all(re.sub(r"\?", lambda _: f"${next(number)}", sql), *args)]


async def start_game(svc: Context, n: int, setup: str = "beginner", channel: int = CHANNEL) -> Outcome:
    """Open a lobby with ``n`` of `PLAYERS`, all joined, and start it; the start outcome."""
    host = PLAYERS[0]
    await svc_lobby.new_game(svc, host, channel=channel, guild=GUILD, setup=setup)
    row = await svc.storage.games.open_game(channel)
    assert row is not None
    for user in PLAYERS[1:n]:
        await svc_lobby.join(svc, row.id, user)
    return await svc_lobby.start(svc, row.id, host)


async def answered(svc: Context, outcome: Outcome) -> list[Outcome]:
    """``outcome`` and the moves of the seats the bot plays that follow it (as the bot does
    after announcing a move: `bot.service.advance.advance`, which it skips for a settled outcome)."""
    more = await svc_advance.advance(svc, outcome.game)
    assert not (outcome.settled and more), "a settled outcome left the bot something to play"
    return [outcome, *more]


async def current(svc: Context, channel: int = CHANNEL) -> Game:
    row = await svc.storage.games.latest_game(channel)
    assert row is not None and row.snapshot is not None and row.record is not None
    return Game.restore(row.snapshot, row.record)


@dataclass
class Transcript:
    """Everything the bot said in public, and everything it said privately."""

    public: list[str] = field(default_factory=list)
    private: list[str] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    buttons_used: int = 0
    confirmations: int = 0

    def add_public(self, msg: Message | None) -> None:
        if msg is not None:
            assert not msg.ephemeral
            self.public.append(msg.text)
            self.public.extend(b.label for b in msg.buttons)

    def add(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)
        self.private.append(outcome.reply.text)
        self.private.extend(dm.text for dm in outcome.dms)
        self.add_public(outcome.announcement_for({dm.user_id for dm in outcome.dms}))


async def play_one(svc: Context, rnd: random.Random, log: Transcript, channel: int = CHANNEL) -> bool:
    """One move by a pending player: a random decision button or a random legal move typed."""
    row = await svc.storage.games.open_game(channel)
    if row is None:
        return False
    game = await current(svc, channel)
    seat = rnd.choice(game.pending_seats())
    user = PLAYERS[seat]
    last = log.outcomes[-1].announcement if log.outcomes else None
    mine = [
        r for b in (last.buttons if last else ()) if (r := parse_custom_id(b.custom_id)) and r.seat == seat
    ]
    if mine and rnd.random() < 0.5:
        ref = rnd.choice(mine)
        outcome = await svc_moves.play(
            svc, user.id, ref.move or "", game_id=ref.game, based_on=ref.version, seat=ref.seat
        )
        log.buttons_used += 1
    else:
        move = rnd.choice(game.legal_moves(seat))
        outcome = await svc_moves.play(svc, user.id, str(move), channel=channel)
    if outcome.announcement is None:  # a warning first: confirm with its button
        confirm = parse_custom_id(outcome.reply.buttons[0].custom_id)
        assert confirm is not None and confirm.move is not None
        log.private.append(outcome.reply.text)
        outcome = await svc_moves.play_pressed(svc, user.id, confirm)
        log.confirmations += 1
    log.add(outcome)
    return True


async def answer_all(svc: Context, rnd: random.Random, log: Transcript, limit: int) -> int:
    """Play up to ``limit`` moves (fewer if the game ends); the number played."""
    for k in range(limit):
        if not await play_one(svc, rnd, log):
            return k
    return limit


class Table:
    """A service on a database (a file or a URL) with a fake clock, restarted at will like the bot."""

    def __init__(self, path: Path | str, clock: FakeClock) -> None:
        self.path, self.clock = path, clock
        self.svc: Context

    async def open(self) -> Context:
        self.svc = await open_service(self.path, clock=self.clock)
        return self.svc

    async def restart(self) -> Context:
        await self.svc.close()
        return await self.open()

    async def at(self, hours: float) -> list[Post]:
        """Set the clock to ``hours`` after the start and let the clock tick."""
        self.clock.now = MIDNIGHT + hours * HOUR
        return await svc_tick.tick(self.svc)
