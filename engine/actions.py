"""Moves as small value objects with a text form that round-trips (`shared/notation.md`).

>>> a = Action.parse("  BUILD Farm i9 ")
>>> str(a), a
('build farm I9', Action.parse('build farm I9'))
>>> str(Action.parse("demolish i10 h10"))
'demolish H10 I10'
>>> str(Action.parse("found i9 FROM l11"))
'found I9 from L11'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, TypeVar

from .board import BOARD
from .components import (
    BUILDING_CARD_COST,
    BUILDINGS,
    LARGE,
    MASTER_COST,
    MEDIUM,
    NEEDS_LAKE,
    SERVICES,
    SIZE,
    SMALL,
    STACK_SIZE,
    TOKEN_STACK,
)
from .errors import MalformedMove
from .words import N_, PHRASE, Phrase

BUILDING_CARDS: tuple[str, ...] = MEDIUM + LARGE
VERBS: tuple[str, ...] = (
    "castle", "gold", "found", "build", *BUILDING_CARDS, "master", "golden", "bread",
    "harvest", "poll", "pass", "first", "prefer", "demolish", "starve",
)  # fmt: skip
_VERB_RANK = {v: i for i, v in enumerate(VERBS)}
POLITICS_VERBS = frozenset(("master", "golden", "bread", "harvest", "poll", *BUILDING_CARDS))
"""The verbs of the moves that play a face-up politics card."""
_HEX_ONLY = frozenset(("castle", "first", "harvest", *BUILDING_CARDS))
"""The verbs written with a hex alone (``castle I9``)."""
_BUILDING_RANK = {b: i for i, b in enumerate(BUILDINGS)}
_SERVICE_RANK: dict[str, int] = {s: i for i, s in enumerate(SERVICES)}


def _ticked(words: tuple[str, ...]) -> str:
    """Words of the notation as a message shows them: ```farm`, `quarry```."""
    return ", ".join(f"`{w}`" for w in words)


USAGE: dict[str, Phrase | str] = {
    "castle": PHRASE.t("`castle HEX` (e.g. `castle I9`)"),
    "gold": "`gold`",
    "found": PHRASE.t(
        "`found HEX from HEX2`, HEX2 a hex of the city that gives the citizen (e.g. `found I9 from L11`)"
    ),
    "build": PHRASE.t("`build B HEX` with B one of {choices} (e.g. `build farm I9`)", choices=_ticked(SMALL)),
    **{c: PHRASE.t("`{verb} HEX` (e.g. `{verb} I9`)", verb=c) for c in BUILDING_CARDS},
    "master": PHRASE.t(
        "`master B HEX` with B one of {choices} (e.g. `master palace I9`)", choices=_ticked(BUILDINGS)
    ),
    "golden": PHRASE.t("`golden N HEX` with N 1, 2 or 3 (e.g. `golden 2 I9`)"),
    "bread": PHRASE.t(
        "`bread N HEX [S]` with N 1, 2 or 3, S `culture`/`education`/`health` on a hospital "
        "(e.g. `bread 1 I9`)"
    ),
    "harvest": PHRASE.t("`harvest HEX` (e.g. `harvest I9`)"),
    "poll": PHRASE.t("`poll A B` with two of the face-down cards 1, 2, 3, or `poll all` (e.g. `poll 1 3`)"),
    "pass": "`pass`",
    "first": PHRASE.t(
        "`first HEX` with HEX a hex of your city that checks its neighbours first (e.g. `first I9`)"
    ),
    "prefer": PHRASE.t("`prefer HEX S` with S `culture`, `education` or `health` (e.g. `prefer I9 culture`)"),
    "demolish": PHRASE.t("`demolish HEX HEX ...` (e.g. `demolish H10 I10`)"),
    "starve": PHRASE.t("`starve HEX HEX ...` (e.g. `starve I9 I9`)"),
}
"""How each move is written, told in a refusal (the notation stays as it is in every language;
a move with nothing to explain is the notation alone)."""


def _hex_key(label: str) -> int:
    return BOARD.index[label]


class Action(NamedTuple):
    """One decision in canonical form. Build with `Action.parse`; `str()` gives the notation.

    An immutable value (a named tuple, so that the thousands made while listing legal
    moves cost little); two actions are equal when their canonical forms are.
    """

    verb: str
    hex: str | None = None
    building: str | None = None
    n: int | None = None
    service: str | None = None
    hexes: tuple[str, ...] = ()
    cards: tuple[int, ...] = ()
    source: str | None = None
    """``found``: a hex of the city that gives the spare citizen (its castle once canonical)."""

    # --- text ------------------------------------------------------------------------

    def __str__(self) -> str:
        v = self.verb
        if v in ("gold", "pass"):
            return v
        if v == "found":
            return f"found {self.hex}" + (f" from {self.source}" if self.source else "")
        if v in _HEX_ONLY:
            return f"{v} {self.hex}"
        if v in ("build", "master"):
            return f"{v} {self.building} {self.hex}"
        if v == "golden":
            return f"golden {self.n} {self.hex}"
        if v == "bread":
            tail = f" {self.service}" if self.service else ""
            return f"bread {self.n} {self.hex}{tail}"
        if v == "poll":
            return "poll all" if len(self.cards) == 3 else f"poll {self.cards[0]} {self.cards[1]}"
        if v == "prefer":
            return f"prefer {self.hex} {self.service}"
        return f"{v} {' '.join(self.hexes)}"  # demolish, starve

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    def sort_key(self) -> tuple[object, ...]:
        """Canonical order: by verb, building, count, hex (board order), source, service, hexes."""
        return (
            _VERB_RANK[self.verb],
            _BUILDING_RANK.get(self.building or "", -1),
            self.n or 0,
            _hex_key(self.hex) if self.hex else -1,
            _hex_key(self.source) if self.source else -1,
            _SERVICE_RANK.get(self.service or "", -1),
            tuple(_hex_key(h) for h in self.hexes),
            (len(self.cards), self.cards),
        )

    def __lt__(self, other: tuple[object, ...]) -> bool:
        assert isinstance(other, Action)
        return self.sort_key() < other.sort_key()

    @property
    def is_politics(self) -> bool:
        """Whether this move plays a face-up politics card."""
        return self.verb in POLITICS_VERBS

    @property
    def card(self) -> str | None:
        """The politics card this move plays, if any."""
        return self.verb if self.is_politics else None

    # --- parsing ---------------------------------------------------------------------

    @staticmethod
    def parse(text: str) -> Action:
        """Parse notation text (case-insensitive, extra spaces ignored); MalformedMove if not a move."""
        words = text.strip().lower().split()
        if not words:
            raise MalformedMove(N_("Empty move. Type a move such as `gold` or `build farm I9`."))
        verb, args = words[0], words[1:]
        if verb not in _VERB_RANK:
            raise MalformedMove(
                N_("Unknown move `{word}`. Moves start with one of: {verbs}."),
                word=words[0],
                verbs=_ticked(VERBS),
            )
        try:
            return _PARSERS[verb](verb, args)
        except MalformedMove:
            raise
        except (ValueError, IndexError, KeyError):
            raise MalformedMove(
                N_("`{move}` is not a valid `{verb}` move. Write it as {usage}."),
                move=text.strip(), verb=verb, usage=USAGE[verb],
            ) from None  # fmt: skip


def _hex(word: str, verb: str) -> str:
    try:
        return BOARD.normalize(word)
    except KeyError:
        raise MalformedMove(
            N_(
                "`{word}` is not a hex of the board. Hexes are labelled like I9 (column letter A–Q, "
                "row 1–17) as printed on the board; `{verb}`: {usage}."
            ),
            word=word.upper(), verb=verb, usage=USAGE[verb],
        ) from None  # fmt: skip


def _arity(verb: str, args: list[str], *counts: int) -> None:
    if len(args) not in counts:
        raise ValueError(verb)


def _p_bare(verb: str, args: list[str]) -> Action:
    _arity(verb, args, 0)
    return Action(verb)


def _p_hex(verb: str, args: list[str]) -> Action:
    _arity(verb, args, 1)
    return Action(verb, hex=_hex(args[0], verb))


def _p_found(verb: str, args: list[str]) -> Action:
    """``found HEX from HEX2``; ``found HEX`` alone is still read (records made before the source
    was named: the engine then takes the citizen as those versions did, see `found_source`)."""
    _arity(verb, args, 1, 3)
    if len(args) == 3 and args[1] != "from":
        raise ValueError(verb)
    source = _hex(args[2], verb) if len(args) == 3 else None
    return Action(verb, hex=_hex(args[0], verb), source=source)


def _p_building(verb: str, args: list[str]) -> Action:
    _arity(verb, args, 2)
    allowed = SMALL if verb == "build" else BUILDINGS
    if args[0] not in allowed:
        if verb == "build":
            message = N_(
                "`{word}` cannot be built with `{verb}` (the medium and large ones need a politics card). "
                "Choose one of {choices}: {usage}."
            )
        else:
            message = N_("`{word}` cannot be built with `{verb}`. Choose one of {choices}: {usage}.")
        raise MalformedMove(message, word=args[0], verb=verb, choices=_ticked(allowed), usage=USAGE[verb])
    return Action(verb, hex=_hex(args[1], verb), building=args[0])


def _count(word: str, verb: str) -> int:
    if word not in ("1", "2", "3"):
        raise MalformedMove(N_("`{word}` is not 1, 2 or 3: {usage}."), word=word, usage=USAGE[verb])
    return int(word)


def _p_golden(verb: str, args: list[str]) -> Action:
    _arity(verb, args, 2)
    return Action(verb, n=_count(args[0], verb), hex=_hex(args[1], verb))


def _service(word: str, verb: str) -> str:
    if word not in SERVICES:
        raise MalformedMove(
            N_("`{word}` is not a service (`culture`, `education`, `health`): {usage}."),
            word=word,
            usage=USAGE[verb],
        )
    return word


def _p_bread(verb: str, args: list[str]) -> Action:
    _arity(verb, args, 2, 3)
    service = _service(args[2], verb) if len(args) == 3 else None
    return Action(verb, n=_count(args[0], verb), hex=_hex(args[1], verb), service=service)


def _p_poll(verb: str, args: list[str]) -> Action:
    if args == ["all"]:
        return Action(verb, cards=(1, 2, 3))
    _arity(verb, args, 2)
    cards = tuple(sorted(int(a) for a in args))
    if len(set(cards)) != 2 or not all(c in (1, 2, 3) for c in cards):
        raise MalformedMove(N_("Poll two different face-down cards: {usage}."), usage=USAGE[verb])
    return Action(verb, cards=cards)


def _p_prefer(verb: str, args: list[str]) -> Action:
    _arity(verb, args, 2)
    return Action(verb, hex=_hex(args[0], verb), service=_service(args[1], verb))


def _p_hex_list(verb: str, args: list[str]) -> Action:
    if not args:
        raise ValueError(verb)
    hexes = tuple(sorted((_hex(a, verb) for a in args), key=_hex_key))
    if verb == "demolish" and len(set(hexes)) != len(hexes):
        raise MalformedMove(N_("Name each building to demolish once: {usage}."), usage=USAGE[verb])
    return Action(verb, hexes=hexes)


def among(move: Action, listed: list[Action]) -> bool:
    """``move in listed``, the very object looked for first: a move picked from the listed
    moves is found without comparing it with the others field by field (which costs several
    times as much: tests/test_engine_speed.py compares)."""
    for a in listed:
        if a is move:
            return True
    return move in listed


_ROWS: dict[tuple[str, str | None, str | None, int | None], tuple[Action, ...]] = {}


def placed(
    verb: str, building: str | None = None, source: str | None = None, n: int | None = None
) -> tuple[Action, ...]:
    """``Action(verb, hex=label, building=building, source=source, n=n)`` for every hex of the
    board, by board index (`Board.index`).

    **Decision**: a search for legal moves lists hundreds of moves a position; an action is an
    immutable value, so each is made once per process, when its row is first asked, and the
    search only picks them (`engine.turn.legal_turn_moves`). At most one row per verb,
    building and count, and one per ``found`` source hex: a few thousand small tuples."""
    key = (verb, building, source, n)
    row = _ROWS.get(key)
    if row is None:
        new = tuple.__new__  # made as the tuple it is
        row = _ROWS[key] = tuple(
            new(Action, (verb, h, building, n, None, (), (), source)) for h in BOARD.labels
        )
    return row


K = TypeVar("K")
V = TypeVar("V")


class _Made(dict[K, V]):
    """Values made once each, when first asked (then a plain lookup): rows of `placed`, a few
    per verb, so bounded by the board's hexes and the kinds of move."""

    def __init__(self, make: Callable[[K], V]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: K) -> V:
        value = self[key] = self.make(key)
        return value


Line = tuple[str, int, str, int, tuple[bool, bool], tuple[Action, ...]]
"""A row of `placed` a turn's building moves are picked from (`engine.turn._Builder`), after
what the search asks of its building: the kind, its cost in gold, its token stack and the
stack's size, and its group (``market``, ``lake``: the kinds whose sites are the same, by
`city_building_problem` and `terrain_problem` in `engine.placement`). (A plain tuple: one
unpacked in a loop costs less than a named one.)"""


def _line(kind: str, cost: int, row: tuple[Action, ...]) -> Line:
    pile = TOKEN_STACK[kind]
    return (kind, cost, pile, STACK_SIZE[pile], (kind == "market", kind in NEEDS_LAKE), row)


def _lines(how: str) -> list[Line]:
    """The `Line`s of ``build`` (the small buildings), ``card`` (the building cards) or
    ``master`` (the master builder, every kind)."""
    if how == "build":
        return [_line(kind, 0, placed("build", kind)) for kind in SMALL]
    if how == "card":
        return [_line(card, cost, placed(card)) for card, cost in BUILDING_CARD_COST.items()]
    return [_line(kind, MASTER_COST[SIZE[kind]], placed("master", kind)) for kind in BUILDINGS]


LINES: _Made[str, list[Line]] = _Made(_lines)
"""`_lines` of each way of building, for a turn's search (`engine.turn.legal_turn_moves`):
looked up by a word, not asked of `placed` (a key made and hashed) kind by kind."""
FOUNDING: _Made[str, tuple[Action, ...]] = _Made(lambda castle: placed("found", source=castle))
"""The founding moves with a citizen from the city of each castle hex."""
GOLDEN: _Made[int, tuple[Action, ...]] = _Made(lambda n: placed("golden", n=n))
BREAD: _Made[int, tuple[Action, ...]] = _Made(lambda n: placed("bread", n=n))
"""Golden Times and Bread and Games (on a building of one arch) of each count."""


_PARSERS = {
    "castle": _p_hex,
    "gold": _p_bare,
    "pass": _p_bare,
    "found": _p_found,
    "first": _p_hex,
    "harvest": _p_hex,
    **{c: _p_hex for c in BUILDING_CARDS},
    "build": _p_building,
    "master": _p_building,
    "golden": _p_golden,
    "bread": _p_bread,
    "poll": _p_poll,
    "prefer": _p_prefer,
    "demolish": _p_hex_list,
    "starve": _p_hex_list,
}
