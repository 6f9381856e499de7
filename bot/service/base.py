"""What every part of the service layer shares: the storage, the clock, the renderer, and
finding the game and the user's seat."""

from __future__ import annotations

import asyncio
import importlib
import logging
import secrets as _secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar, cast

import i18n
from bot.errors import NoGame, NotSeated
from bot.results import Drawing, Outcome, Picture, Post
from bot.service.drawings import Drawings
from bot.service.positions import Positions, restore
from bot.service.workers import ThreadWorkers, Workers
from bot.storage.backends import open_storage
from bot.storage.protocol import StorageProtocol
from bot.storage.rows import GameRow, SeatRow
from bot.storage.shards import Claimant, Shards
from engine import Game, View
from i18n import N_, _

log = logging.getLogger("bot.service")
NOT_RUNNING = {
    "lobby": N_("The game has not started yet: join it in the lobby, the host starts it."),
    "over": N_("That game is over. `/citta score` shows the result."),
    "abandoned": N_("That game was abandoned."),
}
"""Why a game that is not running cannot be played, by its status."""
STOPPED = N_("That game is not running.")
ATTEMPTS = 3
S = TypeVar("S", bound="ServiceBase")


PictureData = tuple[str, bytes, str]
"""A picture as the renderer gives it: file name, PNG, alt text."""


class Renderer(Protocol):
    def __call__(
        self, view: View, *, highlight: list[str] | None = None, width: int = 1400, lang: str = "en"
    ) -> bytes:
        """The full poster of the board and table (for large screens), its words in ``lang``."""
        ...

    def post(
        self, view: View, *, highlight: list[str], last_move: str, focus: int | None, lang: str = "en"
    ) -> list[PictureData]:
        """The pictures of a turn post, each readable on a phone, with their alt texts, all in
        ``lang`` (a language code: the renderer runs in a worker, maybe another process)."""
        ...


class DefaultRenderer:
    """`render.render_board` and `render.render_post`, imported on first use (in a worker)."""

    def __call__(
        self, view: View, *, highlight: list[str] | None = None, width: int = 1400, lang: str = "en"
    ) -> bytes:
        render_board = importlib.import_module("render").render_board
        return cast(bytes, render_board(view, highlight=highlight, width=width, lang=lang))

    def post(
        self, view: View, *, highlight: list[str], last_move: str, focus: int | None, lang: str = "en"
    ) -> list[PictureData]:
        render_post = importlib.import_module("render").render_post
        return cast(
            list[PictureData],
            render_post(view, highlight=highlight, last_move=last_move, focus=focus, lang=lang),
        )


default_renderer = DefaultRenderer()


class ServiceBase:
    """The shared state and helpers of `bot.service.CittaService` and its parts."""

    def __init__(
        self,
        storage: StorageProtocol,
        *,
        renderer: Renderer | None = default_renderer,
        clock: Callable[[], float] = time.time,
        seeds: Callable[[], int] = lambda: _secrets.randbits(63),
        workers: Workers | None = None,
        shards: Shards | None = None,
    ) -> None:
        self.storage = storage
        self.shards = shards
        """The shards this process runs: its clock works only on the games of their servers
        (None: every game)."""
        self.claimant = Claimant.new(shards)
        """Who this process is when it claims a game's clock (see `bot.storage.shards`)."""
        self.renderer = renderer
        self.workers: Workers = workers or ThreadWorkers()
        """Where computer players think and boards are drawn (worker processes in the bot)."""
        self.positions = Positions()
        """Games restored once per version (see `bot.service.positions`)."""
        self.drawings = Drawings(self.redraw)
        """Turn posts' pictures, kept until the delivery task sends the post (see
        `bot.service.drawings`)."""
        self.clock = clock
        """The time (seconds since the epoch); tests inject their own to drive deadlines."""
        self.seeds = seeds
        self._locks: dict[int, asyncio.Lock] = {}

    def game_lock(self, game_id: int) -> asyncio.Lock:
        """One change to a game at a time in this process (the version check still guards the
        database): simultaneous decisions then queue instead of losing races."""
        return self._locks.setdefault(game_id, asyncio.Lock())

    @classmethod
    async def open(cls: type[S], path: str | Path, **kw: object) -> S:
        """Open the database ``path`` names (an SQLite file or a PostgreSQL URL, see
        `bot.storage.backends`), migrating it, and make a service on it."""
        return cls(await open_storage(path), **kw)  # type: ignore[arg-type]

    async def close(self) -> None:
        await self.storage.close()

    def now(self) -> int:
        return int(self.clock())

    async def _game_row(self, channel: int | None, game_id: int | None, *, active: bool = True) -> GameRow:
        if game_id is not None:
            row = await self.storage.game(game_id)
        elif active:
            row = await self.storage.open_game(channel or 0)
        else:
            row = await self.storage.latest_game(channel or 0)
        if row is None:
            raise NoGame(_("There is no game in this channel. Start one with `/citta new`."))
        if active and row.status != "active":
            raise NoGame(_(NOT_RUNNING.get(row.status, STOPPED)))
        return row

    @staticmethod
    def _restore(row: GameRow) -> Game:
        return restore(row)

    async def _seat_of(self, row: GameRow, user_id: int) -> tuple[SeatRow, list[SeatRow]]:
        seats = await self.storage.seats(row.id)
        mine = next((s for s in seats if s.user_id == user_id), None)
        if mine is None:
            players = ", ".join(s.name for s in seats)
            raise NotSeated(
                _("You are not playing in this game (the players are {players}).", players=players)
            )
        return mine, seats

    async def _told(self, row: GameRow, outcome: Outcome) -> Outcome:
        """Store the outcome's announcement (a plain channel post) for delivery."""
        if outcome.announcement is None:
            return outcome
        post = Post(row.channel, outcome.announcement)
        return outcome.stored(await self.storage.enqueue(row.id, [post], self.now()))

    async def pictures(
        self, view: View, highlight: list[str], *, last_move: str = "", focus: int | None = None,
        lang: str | None = None, game: int | None = None,
    ) -> tuple[Picture, ...]:  # fmt: skip
        """The pictures of a post in ``lang`` (a language code; the current language when None:
        a channel post passes the game's), drawn by a worker (the one that drew ``game``'s last
        post, if it is free: the bands of its table are kept there); none (and a log line) if
        drawing fails."""
        if self.renderer is None:
            return ()
        code = lang or i18n.current().code
        try:
            drawn = await self.workers.call_near(
                game,
                self.renderer.post,
                view,
                highlight=highlight,
                last_move=last_move,
                focus=focus,
                lang=code,
            )
        except Exception:
            log.exception("Drawing the pictures failed; posting without them")
            return ()
        return tuple(Picture(name, data, alt) for name, data, alt in drawn)

    async def redraw(self, drawing: Drawing) -> tuple[Picture, ...]:
        """The pictures of a stored post, drawn again from its ``drawing``."""
        view = View.model_validate_json(drawing.view)
        return await self.pictures(
            view, list(drawing.highlight), last_move=drawing.last_move, focus=drawing.focus, lang=drawing.lang
        )

    async def render(self, view: View, highlight: list[str], *, lang: str | None = None) -> bytes | None:
        """The board PNG in ``lang`` (the current language when None), drawn by a worker; None
        (and a log line) if it fails."""
        if self.renderer is None:
            return None
        try:
            return await self.workers.call(
                self.renderer, view, highlight=highlight, lang=lang or i18n.current().code
            )
        except Exception:
            log.exception("Rendering the board failed; posting without the image")
            return None
