"""What happened: the events a move causes, for logs, summaries and highlights.

An event's ``text`` is English; its ``message`` and ``values`` let a reader have it in their
own language (`Event.told`, `engine.words`).

An event marked ``reveals`` made something hidden known, and the move that caused it cannot
be taken back (`Game.take_back`; boardgame.io's rule): a politics card came into the row
(``refill``), a player polled the people (``poll``) or drew a card to pass (``pass``), the
voice of the people was revealed (``tally``) or a new year's card turned up (``voice``).
`REVEALED` says what became known, by kind.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from .state import trusted
from .words import ENGLISH, N_, PHRASE, Phrase, Words, told

if TYPE_CHECKING:
    from .placement import Lookahead

REVEALED = {
    "refill": N_("a politics card came into the row"),
    "poll": N_("the people were polled"),
    "pass": N_("a politics card was drawn"),
    "tally": N_("the voice of the people was revealed"),
    "voice": N_("a new voice card was turned up"),
}
"""What became known, by the kind of the event that ``reveals`` it."""
SOMETHING_HIDDEN = N_("something hidden became known")
"""What became known, for an event of another kind."""


class Event(BaseModel):
    """One thing that happened. ``private_to`` events may be shown to that seat only."""

    kind: str
    text: str
    seat: int | None = None
    hexes: list[str] = Field(default_factory=list)
    """Hexes the event concerns (for highlighting the board)."""
    private_to: int | None = None
    reveals: bool = False
    """Something hidden became known (a card drawn or polled): the move cannot be undone."""
    data: dict[str, Any] = Field(default_factory=dict)
    message: str = ""
    """The English message ``text`` was made from, with ``{placeholders}`` (empty: ``text`` is
    the message and has no values)."""
    values: dict[str, Any] = Field(default_factory=dict)
    """What fills the message's placeholders (terms under `engine.words.TERM_KEYS`)."""

    def told(self, words: Words = ENGLISH) -> str:
        """The text in ``words``' language."""
        return told(words, self.message, self.values) if self.message else self.text

    def visible_to(self, seat: int | None) -> bool:
        return self.private_to is None or self.private_to == seat

    # An event of `Events.add` tells its English ``text`` when first read (`Later`): every way
    # of reading the event tells it first, so that none sees it untold.

    @model_serializer(mode="wrap")
    def _dumped(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        self.text  # noqa: B018 (told, if not yet; no return type: the JSON schema stays that of the fields)
        return handler(self)

    def __eq__(self, other: object) -> bool:
        self.text  # noqa: B018
        if isinstance(other, Event):
            other.text  # noqa: B018
        return super().__eq__(other)

    __hash__ = None  # type: ignore[assignment]

    def __iter__(self) -> Any:
        self.text  # noqa: B018
        return super().__iter__()

    def __repr_args__(self) -> Any:
        self.text  # noqa: B018
        return super().__repr_args__()

    def __getstate__(self) -> dict[Any, Any]:
        self.text  # noqa: B018
        return super().__getstate__()

    def __copy__(self) -> Event:
        self.text  # noqa: B018
        return super().__copy__()

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Event:
        self.text  # noqa: B018
        return super().__deepcopy__(memo)


class Later:
    """An event's English text not told yet: its message and values (the event's own), told
    when the event's ``text`` is first read (`Text`). Read any other way (the event's
    ``__dict__``), it stands for that text: equal to it, and its copy and its repr are the text's."""

    __slots__ = ("message", "values")

    def __init__(self, message: str, values: dict[str, Any]) -> None:
        self.message, self.values = message, values

    def __str__(self) -> str:
        return told(ENGLISH, self.message, self.values)

    def __eq__(self, other: object) -> bool:
        return str(self) == (str(other) if isinstance(other, Later) else other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(str(self))

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        return str, (str(self),)

    def __deepcopy__(self, memo: dict[int, Any]) -> str:
        return str(self)


class Text:
    """`Event.text`: a text not told yet (`Later`) is told when first read, and kept."""

    def __get__(self, ev: Event | None, owner: type | None = None) -> Any:
        if ev is None:  # (as for pydantic's other fields: no default that a subclass would take)
            raise AttributeError("text")
        d = ev.__dict__
        try:
            text = d["text"]
        except KeyError:  # (an event constructed without it: as pydantic says)
            raise AttributeError(f"{type(ev).__name__!r} object has no attribute 'text'") from None
        if text.__class__ is Later:
            text = d["text"] = str(text)
        return text

    def __set__(self, ev: Event, value: Any) -> None:  # (pydantic's assignment writes the dict)
        BaseModel.__setattr__(ev, "text", value)


Event.text = Text()  # type: ignore[assignment]
"""(Set after the class is made, so that pydantic does not take it for the field's default.)"""


UNSET: Any = object()
"""A field of an event not given (`Events.add`): its default, and not marked as set."""


class Events(list[Event]):
    """The events of one `Game.play`, in order.

    ``opened``: the last decision asked while they happened, with its answers found so far
    (`engine.decisions.open_decision`), for `Game` to keep (not an event: never stored)."""

    opened: Lookahead | None = None

    def add(
        self, kind: str, message: str, /, values: dict[str, Any] | None = None, *,
        seat: int | None = UNSET, hexes: list[str] = UNSET, private_to: int | None = UNSET,
        reveals: bool = UNSET, data: dict[str, Any] = UNSET,
    ) -> Event:  # fmt: skip
        """Add an event of ``kind``: ``message`` (marked with ``N_``) filled with ``values``, or
        a finished English text when ``values`` is None; the other fields of `Event` as given
        (`UNSET`: not given).

        **Decision**: a move makes several events, so the engine's own are made without
        pydantic's validation of what it already knows to be right: the event is the one
        ``Event(kind=kind, text=..., ...)`` would make, field for field (the same fields in the
        same order, lists and dicts copied, the same fields marked as set, ``model_fields_set``;
        ``message`` and ``values`` unset when ``values`` is None), made as the engine's other models
        are (`engine.state.trusted`). The fields are parameters of their own, not keyword
        arguments gathered in a dict (tests/test_engine_speed.py compares with validated events).

        **Decision**: most events are never read (a computer player's search, a replay), so the
        English ``text`` of a message with values is told when first read (`Later`, `Text`),
        from the event's own ``message`` and ``values`` (which the engine does not change
        afterwards): every way of reading the event (the attribute, ``model_dump``, JSON, ``==``,
        ``repr``, ``dict()``, copies, pickling) tells it first, so all get the same string as
        ``told(ENGLISH, message, values)`` at once (tests/test_engine_speed.py compares)."""
        text: str | Later
        if values is None:
            given = {"kind", "text"}
            text, message, values = message, "", {}
        else:
            given = {"kind", "text", "message", "values"}
            values = dict(values)
            text = Later(message, values)
        if seat is UNSET:
            seat = None
        else:
            given.add("seat")
        if hexes is UNSET:
            hexes = []
        else:
            hexes = list(hexes)
            given.add("hexes")
        if private_to is UNSET:
            private_to = None
        else:
            given.add("private_to")
        if reveals is UNSET:
            reveals = False
        else:
            given.add("reveals")
        if data is UNSET:
            data = {}
        else:
            data = dict(data)
            given.add("data")
        fields = {
            "kind": kind, "text": text, "seat": seat, "hexes": hexes, "private_to": private_to,
            "reveals": reveals, "data": data, "message": message, "values": values,
        }  # fmt: skip
        ev = trusted(Event, fields, given)
        self.append(ev)
        return ev


def first_reveal(events: Iterable[Event]) -> Event | None:
    """The first of ``events`` that made something hidden known, if any."""
    return next((e for e in events if e.reveals), None)


def what_became_known(event: Event) -> Phrase:
    """What ``event`` made known, as a phrase to tell (``a politics card came into the row``)."""
    return PHRASE.t(REVEALED.get(event.kind, SOMETHING_HIDDEN))
