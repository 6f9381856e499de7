"""The public face of the engine: a game you can ask who acts, what they may do, and play.

>>> g = Game.new(["Ann", "Bob"], seed=7)
>>> g.pending_seats(), g.view(None).year
([1], 1)
>>> events = g.play(1, "gold")
>>> Game.replay(g.record()).state == g.state
True

A move may be taken back unless something hidden became known with it (`take_back`):

>>> g.take_back(1).record().moves
[]
>>> events = g.play(0, "master farm G5")  # the politics row is refilled from the pile
>>> g.take_back(2)
Traceback (most recent call last):
  ...
engine.errors.IrreversibleMove: `gold` cannot be taken back: a politics card came into the row.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from .actions import Action, among
from .construction import place_starting_castle
from .decisions import (
    ASKED,
    IN_ORDER,
    KEPT,
    VERB_KIND,
    Played,
    answers,
    canonical,
    default,
    options,
    problem,
    resolve,
)
from .errors import IllegalMove, IrreversibleMove
from .events import Event, Events, first_reveal, what_became_known
from .flow import advance
from .placement import Lookahead, Table
from .setup import beginner_castles, new_state
from .state import Decision, GameState, SetupKind, put
from .views import View, project
from .waiting import PHRASE_THEN, waiting
from .waste import waste
from .words import ENGLISH, N_, PHRASE, Phrase, Words, chain, told

MIN_PLAYERS, MAX_PLAYERS = 2, 5
"""Two parts of a list of clauses (who must act, and for what)."""


class Record(BaseModel):
    """Everything needed to replay a game: its setup and the players' moves, in order."""

    players: list[str]
    seed: int
    setup: SetupKind
    moves: list[tuple[int, str]] = []
    legacy_moves: int | None = None
    """How many of the moves were played before the engine asked ``first`` (rules §7), when
    it let a player's cities check their neighbours in founding order. ``None``: a record
    made before this field, all of whose moves are such (a new game starts at 0; a game
    restored from an older record gets its count when it next moves). See `Game.replay`."""


class Game:
    """A game of La Città. Create with `Game.new`, `Game.replay` or `Game.restore`."""

    def __init__(self, state: GameState, record: Record, setup_events: list[Event]) -> None:
        self.state = state
        self._record = record
        self.setup_events = setup_events
        self._legal: dict[int, list[Action]] = {}
        self._table: Table | None = None
        self._ahead: Lookahead | None = None
        self._asked: list[Lookahead] = []

    def _changed(self) -> None:
        """The position changed: forget what was derived from it."""
        self._legal.clear()
        self._table = None
        self._ahead = None
        self._asked = []

    def _keep(self, ev: Events, kept: list[Lookahead] = []) -> None:  # noqa: B006 (never changed)
        """Keep what asking the position's decisions found (`Lookahead`): the search for their
        answers, which the next `legal_moves` finishes (`_kept`), and a turn's or castle's
        lookups; with ``kept``, the searches kept before the move that are still good.

        **Decision**: a turn or a castle only when it is the one pending decision. It is asked
        last: once `engine.flow` asks it, nothing else happens before the move returns, so the
        position is the one searched. A starvation or demolition (not its lookups) while it is
        pending: its answers depend only on the seat's cities or the one city, which nothing
        but the seat's answer changes once it is asked (the engine may then answer another
        seat's starvation or another city's demolition, and another seat may answer its own:
        `play`; tests/test_engine_speed.py compares)."""
        pending, opened = self.state.pending, ev.opened
        only = pending[0] if len(pending) == 1 else None
        if opened is not None and opened.decision is only and opened.decision.kind in ("turn", "castle"):
            self._ahead, self._table = opened, opened.table  # (`is`: the very one asked, not an equal)
        if kept or (isinstance(ev, Played) and ev.asked):
            searched = [*kept, *ev.asked] if isinstance(ev, Played) else kept
            live = {id(d) for d in pending}  # (the very ones pending, not equal ones)
            self._asked = [a for a in searched if id(a.decision) in live]

    def _lookups(self) -> Table:
        """Derived lookups of the current position, kept until the next move."""
        if self._table is None:
            self._table = Table(self.state)
        return self._table

    # --- creation ---------------------------------------------------------------------

    @classmethod
    def new(cls, names: list[str], seed: int = 0, setup: SetupKind = "beginner") -> Game:
        """A new game for 2–5 players, set up and advanced to the first decision."""
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise ValueError(f"La Città is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}.")
        if setup not in ("beginner", "experienced"):
            raise ValueError(f"Setup is 'beginner' or 'experienced', not {setup!r}.")
        state = new_state(list(names), seed, setup)
        ev = Played()
        if setup == "beginner":
            for seat, label in beginner_castles(len(names)):
                place_starting_castle(state, seat, label, ev)
        advance(state, ev)
        record = Record(players=list(names), seed=seed, setup=setup, legacy_moves=0)
        game = cls(state, record, list(ev))
        game._keep(ev)
        return game

    @classmethod
    def replay(cls, record: Record | dict[str, Any]) -> Game:
        """Replay a record move by move; raises IllegalMove if a move does not apply.

        Records from before the engine asked ``first`` replay as they were played: where such
        a move leads to a ``first`` decision that the record does not answer next, the engine
        answers it as it did then (founding order, see `_answer_first_as_before`). The record
        of the replayed game is the given one.
        """
        return cls._replayed(Record.model_validate(record))[0]

    @classmethod
    def walk(cls, record: Record | dict[str, Any]) -> Iterator[tuple[Game, list[Event]]]:
        """Replay a record move by move (as `replay`), yielding the game as it is before its first
        move and after each one, with the events of that move (none before the first; those of a
        ``first`` answered as before go with the move that led to it, as they did when it was
        played): a review steps through a game with it. The game yielded is the same one each
        time, changed in place by the next move: ask it what it is before going on. After the
        last, its record is the given one."""
        rec = Record.model_validate(record)
        game = cls.new(rec.players, rec.seed, rec.setup)
        legacy = len(rec.moves) if rec.legacy_moves is None else rec.legacy_moves

        def settled(k: int) -> list[Event]:
            """Before move ``k`` (the end: ``len(rec.moves)``), a ``first`` answered as before."""
            if k > legacy:
                return []
            if k < len(rec.moves):
                seat, text = rec.moves[k]
                if text.lower().split()[:1] == ["first"] and seat in game.pending_seats():
                    return []
            return game._answer_first_as_before()

        settled(0)
        yield game, []
        for k, (seat, text) in enumerate(rec.moves):
            events = game.play(seat, text)
            events += settled(k + 1)
            if k + 1 == len(rec.moves):
                game._record = rec.model_copy(deep=True)
            yield game, events
        if not rec.moves:
            game._record = rec.model_copy(deep=True)

    @classmethod
    def _replayed(cls, rec: Record) -> tuple[Game, list[list[Event]]]:
        """`replay`, and the events of each move of the record (see `walk`)."""
        walked = list(cls.walk(rec))
        return walked[-1][0], [events for _game, events in walked[1:]]

    def _answer_first_as_before(self) -> list[Event]:
        """Answer pending ``first`` decisions as the engine did before it asked them: the
        earliest founded of the competing cities first (their founding order); the events."""
        ev = Events()
        while (d := next((d for d in self.state.pending if d.kind == "first"), None)) is not None:
            self.state.pending = [p for p in self.state.pending if p is not d]
            resolve(self.state, d, Action("first", hex=d.cities[0]), ev)
            advance(self.state, ev)
        self._changed()
        return list(ev)

    def take_back(self, count: int = 1) -> Game:
        """The game as it was before the record's last ``count`` moves: a new game, the record
        replayed without them (`replay`); this one is unchanged.

        Raises IrreversibleMove when something hidden became known with one of those moves (a
        politics card drawn, the people polled, the voice turned up: `Event.reveals`); it names
        the first of those moves and says what became known (`engine.events.REVEALED`).
        ValueError when ``count`` is not between 1 and the number of moves. Who may take what
        back is the caller's to decide.
        """
        rec = self.record()
        if not 1 <= count <= len(rec.moves):
            raise ValueError(f"Cannot take back {count} of the record's {len(rec.moves)} moves.")
        cut = len(rec.moves) - count
        _played, caused = Game._replayed(rec)
        for k in range(cut, len(rec.moves)):
            if (event := first_reveal(caused[k])) is not None:
                raise IrreversibleMove(
                    N_("`{move}` cannot be taken back: {why}."),
                    index=k, event=event, move=rec.moves[cut][1], why=what_became_known(event),
                )  # fmt: skip
        legacy = None if rec.legacy_moves is None else min(rec.legacy_moves, cut)
        return Game.replay(rec.model_copy(update={"moves": rec.moves[:cut], "legacy_moves": legacy}))

    @classmethod
    def restore(cls, snapshot: dict[str, Any], record: Record | dict[str, Any]) -> Game:
        """Rebuild a game from `snapshot()` and `record()` without replaying it."""
        return cls(GameState.model_validate(snapshot), Record.model_validate(record), [])

    def snapshot(self) -> dict[str, Any]:
        """The full state (secrets included) as JSON-ready data, for storage only."""
        return self.state.model_dump(mode="json")

    def record(self) -> Record:
        return self._record.model_copy(deep=True)

    @property
    def moves_played(self) -> int:
        """How many moves the record holds (`record` copies them all)."""
        return len(self._record.moves)

    # --- questions ----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.state.phase == "over"

    @property
    def scores(self) -> list[int] | None:
        return self.state.scores

    @property
    def winners(self) -> list[int] | None:
        return self.state.winners

    def pending_seats(self) -> list[int]:
        """Seats that must act now, ascending."""
        pending = self.state.pending
        if len(pending) == 1:  # (most often)
            return [pending[0].seat]
        return sorted({d.seat for d in pending})

    def pending_decisions(self, seat: int | None = None) -> list[Decision]:
        return [d for d in self.state.pending if seat is None or d.seat == seat]

    def legal_moves(self, seat: int) -> list[Action]:
        """Every move ``seat`` may make now, sorted; empty when it is not asked anything."""
        if seat not in self._legal:
            pending = self.state.pending
            mine = pending if len(pending) == 1 and pending[0].seat == seat else self.pending_decisions(seat)
            kept = self._kept(mine[0]) if len(mine) == 1 else None
            if kept is not None:  # the search `play` began (`_keep`)
                moves = kept if mine[0].kind in IN_ORDER else sorted(kept, key=Action.sort_key)
            elif len(mine) == 1 and mine[0].kind in IN_ORDER:
                moves = options(self._lookups(), mine[0])  # generated in canonical order
            else:
                t = self._lookups()
                moves = sorted((a for d in mine for a in options(t, d)), key=Action.sort_key)
            self._legal[seat] = moves
        return list(self._legal[seat])

    def _kept(self, d: Decision) -> list[Action] | None:
        """The answers of ``d`` from the search kept for it (`_keep`), finished now; None when
        none is kept."""
        ahead = self._ahead
        if ahead is not None and ahead.decision is d:
            self._ahead = None
            return ahead.answers()
        for search in self._asked:
            if search.decision is d:
                return search.answers()
        return None

    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (``None``: a spectator)."""
        return project(self.state, seat)

    def open_view(self) -> View:
        """Everything on the table, the face-down Voice of the People cards turned up: a spectator's
        view for the review of a game that is over (whether it may be shown is the caller's to
        decide). Neither the draw piles' order nor the seed is in any view."""
        view = project(self.state, None)
        return view.model_copy(update={"voice": list(self.state.voice)}) if self.state.voice else view

    def waiting_for(self, words: Words = ENGLISH) -> str:
        """Who must act and for what, in a sentence (in ``words``' language)."""
        said = waiting(self.state)
        return told(words, said["message"], said["values"])

    # --- playing ------------------------------------------------------------------------

    def check(self, seat: int, move: str | Action) -> tuple[Action, Decision]:
        """The move in canonical form and the decision it answers; IllegalMove when not allowed.

        A city may be named by any hex of it (``golden``, ``first``, ``prefer``, ``starve``,
        the source of ``found``); the canonical form, which the record keeps, names its castle.
        ``found HEX`` alone is completed with the castle `found_source` picks.

        A move among the seat's legal moves, when they are known (`legal_moves`, one decision
        pending), is not checked again: they are the moves `problem` allows. An `Action` found
        among them is not even put in canonical form first: listed moves are canonical
        (tests/test_engine_search_once.py).
        """
        if not 0 <= seat < len(self.state.players):
            raise IllegalMove(N_("There is no seat {seat} in this game."), seat=seat)
        listed = self._legal.get(seat)
        if listed and type(move) is Action and among(move, listed):
            pending = self.state.pending
            if len(pending) == 1:  # (most often: the seat's one decision)
                return move, pending[0]
            mine = self.pending_decisions(seat)
            if len(mine) == 1:  # a listed move is canonical and answers the one decision
                return move, mine[0]
        action = canonical(self.state, seat, Action.parse(move) if isinstance(move, str) else move)
        if self.is_over:
            raise IllegalMove(N_("The game is over; no more moves can be made."))
        mine = self.pending_decisions(seat)
        if not mine:
            raise IllegalMove(N_("It is not your turn. {waiting}"), waiting=waiting(self.state))
        kind = VERB_KIND[action.verb]
        fitting = [d for d in mine if d.kind == kind]
        if not fitting:
            wanted = [PHRASE.t(m) for m in dict.fromkeys(ASKED[d.kind] for d in mine)]
            raise IllegalMove(
                N_("`{move}` is not what is asked of you now: {asked}."),
                move=str(action), asked=chain(PHRASE_THEN, wanted),
            )  # fmt: skip
        decision = next((d for d in fitting if answers(self.state, d, action)), None)
        if decision is None:
            raise IllegalMove(
                N_("`{move}` names no city you are asked about; you are asked about: {hexes}."),
                move=str(action), hexes=[d.city or "" for d in fitting],
            )  # fmt: skip
        listed = self._legal.get(seat)
        if listed is not None and len(mine) == 1 and action in listed:
            return action, decision  # a legal move listed: `problem` would find none
        why = problem(self._lookups(), decision, action)
        if why:
            raise IllegalMove(why["message"], **why["values"])
        return action, decision

    def play(self, seat: int, move: str | Action) -> list[Event]:
        """Play a move for ``seat``; returns the events it caused (including automatic ones).

        Raises IllegalMove (MalformedMove for bad text) and leaves the game unchanged when
        the move is not allowed.
        """
        action, decision = self.check(seat, move)
        ev, state, kind = Played(), self.state, decision.kind
        pending = state.pending  # (`check` found ``decision`` there: alone, most often)
        put(state, "pending", [] if len(pending) == 1 else [d for d in pending if d is not decision])
        t = self._table if kind == "turn" else None  # (kept up to date by the turn)
        kept = [a for a in self._asked if a.decision.seat != seat] if kind in KEPT else []
        self._changed()
        resolve(state, decision, action, ev, t=t)
        ev.carry(t)
        advance(state, ev)
        self._keep(ev, kept)
        if self._record.legacy_moves is None:
            self._record.legacy_moves = len(self._record.moves)
        self._record.moves.append((seat, str(action)))
        return list(ev)

    def wastes(self, seat: int, move: str | Action) -> Phrase | None:
        """What ``seat``'s move would pay for and lose (Golden Times beyond the population limit
        or the supply, rules §5.5: `engine.waste`), as a phrase to tell (`engine.words.tell`);
        None when it wastes nothing. IllegalMove, as `check`, when the move is not allowed.
        """
        action, _decision = self.check(seat, move)
        return waste(self.state, action)

    def default_move(self, seat: int) -> Action | None:
        """The least harmful answer to the seat's first pending decision (for absent players)."""
        mine = self.pending_decisions(seat)
        if not mine:
            return None
        return default(self._lookups(), mine[0])
