"""A tournament's document (part of the service layer): its settings, its entrants and its tables, as
stored (`bot.storage.tournaments_protocol`, JSON) and read back. Fields are only ever added, with
defaults, so a tournament stored by an earlier version keeps loading."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, Field

from bot.service.tournament_formats import Entrant as Seeded
from bot.service.tournament_formats import Format, Line, Result, ranked

Dropout = Literal["computer", "forfeit"]


class Rules(BaseModel):
    """What the organiser chose when opening the tournament."""

    name: str
    format: Format
    rounds: int
    """The rounds of a Swiss or a round robin (a knockout goes on until one table is left)."""
    size: int
    """Players at a table."""
    setup: Literal["beginner", "experienced"] = "beginner"
    deadline_hours: int = 24
    policy: Literal["wait", "computer", "skip"] = "computer"
    """The tables' deadline policy (`bot.service.reminders`)."""
    dropout: Dropout = "forfeit"
    level: str = "basic"
    """The computer level that takes a dropped player's place (``dropout`` computer)."""
    language: str = "en"
    signup_until: int
    organiser: int


class Player(BaseModel):
    """An entrant: their user id, name and rating at sign-up, and when they dropped out (the round:
    0 before the first; None: still in)."""

    user: int
    name: str
    rating: float
    dropped: int | None = None


class Table(BaseModel):
    """One table of a round: its players (user ids, in seat order), the post that announces it (its
    outbox id; the message's id is then the thread's), its game, and once finished its places,
    victory points and forfeits (by user id, as text: JSON's keys)."""

    round: int
    number: int
    players: list[int]
    post: int | None = None
    thread: int | None = None
    game: int | None = None
    places: dict[str, int] | None = None
    scores: dict[str, int] = Field(default_factory=dict)
    forfeits: list[int] = Field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.places is not None

    def result(self) -> Result:
        assert self.places is not None
        return Result(tuple(self.players), {int(k): v for k, v in self.places.items()},
                      {int(k): v for k, v in self.scores.items()}, frozenset(self.forfeits))  # fmt: skip


class State(BaseModel):
    """The whole tournament (see the module)."""

    rules: Rules
    players: list[Player] = Field(default_factory=list)
    tables: list[Table] = Field(default_factory=list)
    round: int = 0
    """The round being played (0: sign-up)."""
    winner: int | None = None
    signup_post: int | None = None

    def document(self) -> Callable[[list[int]], dict[str, Any]]:
        """The document as stored now, for a change that needs no outbox id in it
        (`bot.storage.tournaments_protocol.TournamentsProtocol.change`)."""
        doc = self.model_dump(mode="json")
        return lambda _ids: doc

    def player(self, user: int) -> Player | None:
        return next((p for p in self.players if p.user == user), None)

    def name(self, user: int) -> str:
        p = self.player(user)
        return p.name if p is not None else str(user)

    def seeded(self) -> list[Seeded]:
        """The entrants as the formats see them: a player who dropped out is seated no more when they
        forfeit; with a computer in their place they are."""
        keep = self.rules.dropout == "computer"
        return [Seeded(p.user, p.rating, k, p.dropped is None or keep) for k, p in enumerate(self.players)]

    def results(self) -> list[Result]:
        return [t.result() for t in self.tables if t.done]

    def ranked(self) -> list[Line]:
        """The standings in the order of the places (a knockout's by how far each player went:
        `tournament_formats.ranked`)."""
        rounds = [[t.result() for t in self.of_round(k) if t.done] for k in range(1, self.round + 1)]
        return ranked(self.rules.format, self.seeded(), rounds, self.winner)

    def of_round(self, round: int) -> list[Table]:
        return [t for t in self.tables if t.round == round]

    def played_by_computer(self, user: int) -> bool:
        """Whether ``user``'s seats are a computer's from now on (they dropped out, with ``computer``)."""
        p = self.player(user)
        return p is not None and p.dropped is not None and self.rules.dropout == "computer"
