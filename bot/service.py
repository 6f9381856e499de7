"""The bot's service layer: every command and button, Discord-agnostic (plain data in and out).

The cogs call these methods with ids and names; the results (`bot.results`) say what to
reply, what to post in the channel, whom to DM and which buttons to attach. Each move is
checked by the engine, stored in one transaction with a version check, and only then
announced; the board is rendered off the event loop by an injected renderer.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import secrets as _secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, cast

from engine import Action, Event, Game, IllegalMove, View
from engine.cities import city_at, room

from . import summary
from .choices import choices_for
from .errors import AlreadyMade, MoveRefused, NoGame, NotAllowed, NotSeated
from .lobby import LobbyMixin
from .results import Button, Choice, DirectMessage, Message, Outcome, User, custom_id
from .rules_help import rules_text
from .storage import GameRow, MoveRow, SeatRow, Secret, Storage

log = logging.getLogger(__name__)
ATTEMPTS = 3


class Renderer(Protocol):
    def __call__(self, view: View, *, highlight: list[str] | None = None, width: int = 1400) -> bytes: ...


def default_renderer(view: View, *, highlight: list[str] | None = None, width: int = 1400) -> bytes:
    """`render.render_board`, imported on first use."""
    render_board = cast(Renderer, importlib.import_module("render").render_board)
    return render_board(view, highlight=highlight, width=width)


@dataclass
class _Made:
    seat: int
    action: Action
    events: list[Event]
    auto: bool = False


class CittaService(LobbyMixin):
    """Games in channels: lobbies, moves, questions. One instance per bot (or per test)."""

    def __init__(
        self,
        storage: Storage,
        *,
        renderer: Renderer | None = default_renderer,
        clock: Callable[[], float] = time.time,
        seeds: Callable[[], int] = lambda: _secrets.randbits(63),
    ) -> None:
        self.storage = storage
        self.renderer = renderer
        self.clock = clock
        self.seeds = seeds

    @classmethod
    async def open(cls, path: str | Path, **kw: object) -> CittaService:
        """Open the database at ``path`` (migrating it) and make a service on it."""
        return cls(await Storage.open(path), **kw)  # type: ignore[arg-type]

    async def close(self) -> None:
        await self.storage.close()

    def now(self) -> int:
        return int(self.clock())

    # --- shared helpers -------------------------------------------------------------

    async def _game_row(self, channel: int | None, game_id: int | None, *, active: bool = True) -> GameRow:
        if game_id is not None:
            row = await self.storage.game(game_id)
        elif active:
            row = await self.storage.open_game(channel or 0)
        else:
            row = await self.storage.latest_game(channel or 0)
        if row is None:
            raise NoGame("There is no game in this channel. Start one with `/citta new`.")
        if active and row.status != "active":
            raise NoGame(
                {
                    "lobby": "The game has not started yet: join it in the lobby, the host starts it.",
                    "over": "That game is over. `/citta score` shows the result.",
                    "abandoned": "That game was abandoned.",
                }.get(row.status, "That game is not running.")
            )
        return row

    @staticmethod
    def _restore(row: GameRow) -> Game:
        assert row.snapshot is not None and row.record is not None
        return Game.restore(row.snapshot, row.record)

    async def _seat_of(self, row: GameRow, user_id: int) -> tuple[SeatRow, list[SeatRow]]:
        seats = await self.storage.seats(row.id)
        mine = next((s for s in seats if s.user_id == user_id), None)
        if mine is None:
            players = ", ".join(s.name for s in seats)
            raise NotSeated(f"You are not playing in this game (the players are {players}).")
        return mine, seats

    async def render(self, view: View, highlight: list[str]) -> bytes | None:
        """The board PNG, rendered in a worker thread; None (and a log line) if it fails."""
        if self.renderer is None:
            return None
        try:
            return await asyncio.to_thread(self.renderer, view, highlight=highlight)
        except Exception:
            log.exception("Rendering the board failed; posting without the image")
            return None

    # --- playing --------------------------------------------------------------------

    async def play(
        self,
        user_id: int,
        text: str,
        *,
        channel: int | None = None,
        game_id: int | None = None,
        based_on: int | None = None,
        seat: int | None = None,
        confirmed: bool = False,
    ) -> Outcome:
        """Play ``text`` for the user's seat; raises a `CittaError` (nothing stored) if refused.

        ``based_on`` is the game version the player saw (buttons carry it): if the seat has
        moved since, the move was already made. A move that loses the race against another
        move is checked again on the new position.
        """
        for _ in range(ATTEMPTS):
            row = await self._game_row(channel, game_id)
            me, seats = await self._seat_of(row, user_id)
            if seat is not None and me.seat != seat:
                owner = next((s.name for s in seats if s.seat == seat), "another player")
                raise NotAllowed(f"This button is for {owner}.")
            if me.resigned:
                raise NotAllowed("You have resigned from this game.")
            if based_on is None:
                based_on = row.version
            elif based_on > row.version:
                raise NotAllowed("That button does not belong to this game's current position.")
            if based_on < row.version and await self.storage.moved_since(row.id, based_on, me.seat):
                raise AlreadyMade("That move was already made.")
            game = self._restore(row)
            try:
                action, _ = game.check(me.seat, text)
            except IllegalMove as e:
                raise MoveRefused(str(e)) from None
            if not confirmed and (warning := self._warning(game, action)):
                cid = custom_id(row.id, row.version, me.seat, move=str(action))
                button = Button(f"Play {action} anyway", cid, "danger")
                return Outcome(reply=Message(warning, ephemeral=True, buttons=(button,)), game=row.id)
            made = [_Made(me.seat, action, game.play(me.seat, action))]
            made += self._auto_moves(game, seats)
            outcome = await self._commit(row, game, seats, made, actor=me)
            if outcome is not None:
                log.info("game %s: seat %s played %s", row.id, me.seat, action)
                return outcome
        raise AlreadyMade("That move was already made.")

    @staticmethod
    def _warning(game: Game, action: Action) -> str | None:
        """A warning for a legal move that wastes something (rules §5.5 Golden Times)."""
        if action.verb != "golden" or action.hex is None or action.n is None:
            return None
        city = city_at(game.state, action.hex)
        if city is None:
            return None
        fits = min(action.n, room(city), game.state.supply_citizens)
        if fits >= action.n:
            return None
        return (
            f"⚠️ Only {fits} of the {action.n} citizens fit in {city.name} (its limit), but you pay for "
            f"{action.n}. Press the button to play `{action}` anyway, or choose another move."
        )

    @staticmethod
    def _auto_moves(game: Game, seats: list[SeatRow], resigning: int | None = None) -> list[_Made]:
        """Default moves for resigned seats until a playing seat must decide."""
        gone = {s.seat for s in seats if s.resigned} | ({resigning} if resigning is not None else set())
        made: list[_Made] = []
        while not game.is_over and (todo := [s for s in game.pending_seats() if s in gone]):
            move = game.default_move(todo[0])
            assert move is not None
            made.append(_Made(todo[0], move, game.play(todo[0], move), auto=True))
        return made

    async def _commit(
        self, row: GameRow, game: Game, seats: list[SeatRow], made: list[_Made], *, actor: SeatRow,
        resign: int | None = None, lead: str = "",
    ) -> Outcome | None:  # fmt: skip
        """Store the moves; None when another move got in first. Then build the announcement."""
        year = game.view(None).year
        rows, notes = [], []
        for k, m in enumerate(made, start=row.version + 1):
            rows.append(MoveRow(k, m.seat, str(m.action), summary.summary_line(m.events), m.auto))
            notes += [
                Secret(e.private_to, year, k, e.kind, e.text) for e in m.events if e.private_to is not None
            ]
        events = [e for m in made for e in m.events]
        lit = summary.highlight(events)
        status = "over" if game.is_over else "active"
        ok = await self.storage.commit_moves(
            row.id, based_on=row.version, moves=rows, record=game.record().model_dump(mode="json"),
            snapshot=game.snapshot(), status=status, highlight=lit, secrets=notes, now=self.now(),
            resign=resign,
        )  # fmt: skip
        if not ok:
            return None
        version = row.version + len(made)
        users = {s.seat: s.user_id for s in seats}
        names = {s.seat: s.name for s in seats}
        lines = [lead] if lead else []
        for m in made:
            by = f" (for {names[m.seat]}, who resigned)" if m.auto else ""
            lines.append(f"`{m.action}`{by} — {summary.summary_line(m.events)}")
        body = "\n".join(lines)
        if len(body) > summary.SUMMARY_LIMIT + 200:  # keep room for the mentions and a DM note
            body = body[: summary.SUMMARY_LIMIT + 199].rstrip() + "…"
        nxt, pinged = summary.next_line(game, users)
        announcement = Message(
            f"{body}\n{nxt}" if nxt else body,
            image=await self.render(game.view(None), lit),
            mentions=pinged,
            buttons=summary.decision_buttons(game, row.id, version, names),
        )
        mine = [e.text for m in made if m.seat == actor.seat for e in m.events if e.private_to == actor.seat]
        done = "You resigned." if resign is not None else f"You played `{made[0].action}`."
        reply = "\n".join([done, *mine])
        dms = tuple(
            DirectMessage(users[e.private_to], f"La Città (game {row.id}): {e.text}")
            for m in made
            for e in m.events
            if e.private_to is not None and e.kind == "peek"
        )
        return Outcome(
            reply=Message(reply, ephemeral=True),
            announcement=announcement,
            dms=dms,
            game=row.id,
            peek_button=Button("Show my peek", custom_id(row.id, 0, None, "peek"), "primary"),
        )

    async def choices(self, channel: int, user_id: int, typed: str) -> list[Choice]:
        """Autocomplete for ``/citta play``: the user's legal moves fitting ``typed`` (max 25)."""
        row = await self.storage.open_game(channel)
        if row is None or row.status != "active":
            return []
        seats = await self.storage.seats(row.id)
        mine = next((s for s in seats if s.user_id == user_id), None)
        if mine is None:
            return []
        return choices_for(self._restore(row), mine.seat, typed)

    # --- questions ------------------------------------------------------------------

    async def status(self, channel: int) -> Message:
        """Year, phase, round, who we wait for and since when."""
        row = await self._game_row(channel, None, active=False)
        seats = await self.storage.seats(row.id)
        listing = ", ".join(s.name + (" (resigned)" if s.resigned else "") for s in seats)
        if row.status == "lobby":
            return Message(f"Lobby ({row.setup} setup): {listing}. The host starts the game.", ephemeral=True)
        game = self._restore(row)
        users = {s.seat: s.user_id for s in seats}
        head = f"Game {row.id} ({row.setup} setup; {listing}). {summary.when(game.view(None))}."
        if game.is_over:
            return Message(f"{head}\n{summary.standings(game.view(None))}", ephemeral=True)
        nxt, _ = summary.next_line(game, users)
        return Message(f"{head}\n{nxt[:-1]} — waiting since <t:{row.updated_at}:R>.", ephemeral=True)

    async def board(self, channel: int) -> Message:
        """The current board (spectator view) with the last move highlighted."""
        row = await self._game_row(channel, None, active=False)
        if row.snapshot is None:
            raise NoGame("The game has not started yet: there is no board to show.")
        view = self._restore(row).view(None)
        return Message(f"{summary.when(view)}.", image=await self.render(view, row.highlight), ephemeral=True)

    async def log(self, channel: int, last: int = 10) -> Message:
        """The last ``last`` moves with what they did (public events only)."""
        row = await self._game_row(channel, None, active=False)
        seats = {s.seat: s.name for s in await self.storage.seats(row.id)}
        moves = await self.storage.moves(row.id, max(1, min(last, 50)))
        if not moves:
            return Message("No move has been made yet.", ephemeral=True)
        lines = [f"{m.number}. **{seats.get(m.seat, '?')}** `{m.text}` — {m.summary}" for m in moves]
        text = "\n".join(lines)
        while len(text) > 1900 and len(lines) > 1:
            lines.pop(0)
            text = "\n".join(lines)
        return Message(text[:1990], ephemeral=True)

    async def score(self, channel: int) -> Message:
        row = await self._game_row(channel, None, active=False)
        if row.snapshot is None:
            raise NoGame("The game has not started yet.")
        return Message(summary.standings(self._restore(row).view(None)), ephemeral=True)

    async def secrets(
        self, user_id: int, *, channel: int | None = None, game_id: int | None = None
    ) -> Message:
        """The user's private information of this year (polled cards, drawn cards), privately."""
        row = await self._game_row(channel, game_id, active=False)
        if row.snapshot is None:
            raise NoGame("The game has not started yet.")
        me, _ = await self._seat_of(row, user_id)
        view = self._restore(row).view(me.seat)
        drawn = [s.text for s in await self.storage.secrets(row.id, me.seat, view.year) if s.kind != "peek"]
        return Message(summary.peek_text(view, drawn), ephemeral=True)

    @staticmethod
    def rules(topic: str | None = None) -> Message:
        return Message(rules_text(topic), ephemeral=True)

    # --- leaving --------------------------------------------------------------------

    async def resign(self, user_id: int, *, channel: int) -> Outcome:
        """Leave a lobby, or resign a running game (the bot then makes the least harmful moves)."""
        row = await self._game_row(channel, None, active=False)
        if row.status == "lobby":
            left = await self.leave(row.id, User(user_id, ""))
            return Outcome(Message("You left the lobby.", ephemeral=True), left.reply, game=row.id)
        row = await self._game_row(channel, None)
        for _ in range(ATTEMPTS):
            me, seats = await self._seat_of(row, user_id)
            if me.resigned:
                raise NotAllowed("You have already resigned.")
            game = self._restore(row)
            made = self._auto_moves(game, seats, resigning=me.seat)
            lead = f"**{me.name}** resigns; the bot makes their moves from now on."
            if all(s.resigned or s.seat == me.seat for s in seats):
                await self.storage.set_status(row.id, "abandoned", now=self.now())
                over = Message(f"{lead} Every player has resigned: the game is abandoned.")
                return Outcome(Message("You resigned.", ephemeral=True), over, game=row.id)
            outcome = await self._commit(row, game, seats, made, actor=me, resign=me.seat, lead=lead)
            if outcome is not None:
                return outcome
            row = await self._game_row(channel, None)
        raise AlreadyMade("The game changed while resigning; try again.")

    async def abandon_prompt(self, user_id: int, *, channel: int, can_manage: bool) -> Message:
        """The private confirmation (with its button) for abandoning the channel's game."""
        row = await self._game_row(channel, None, active=False)
        self._check_abandon(row, user_id, can_manage)
        button = Button("Abandon the game", custom_id(row.id, row.version, None, "abandon"), "danger")
        return Message(
            "Abandon this game for everyone? This cannot be undone.", ephemeral=True, buttons=(button,)
        )

    @staticmethod
    def _check_abandon(row: GameRow, user_id: int, can_manage: bool) -> None:
        if row.status not in ("lobby", "active"):
            raise NoGame("That game is already finished.")
        if user_id != row.host and not can_manage:
            raise NotAllowed("Only the host or a member with Manage Server can abandon the game.")

    async def abandon(self, user_id: int, *, game_id: int, can_manage: bool) -> Outcome:
        row = await self._game_row(None, game_id, active=False)
        self._check_abandon(row, user_id, can_manage)
        if not await self.storage.set_status(row.id, "abandoned", now=self.now()):
            raise NoGame("That game is already finished.")
        log.info("game %s abandoned by user %s", row.id, user_id)
        return Outcome(Message("The game is abandoned.", ephemeral=True),
                       Message(f"<@{user_id}> abandoned game {row.id}. `/citta new` starts a new one."),
                       game=row.id)  # fmt: skip
