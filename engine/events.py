"""What happened: the events a move causes, for logs, summaries and highlights.

An event's ``text`` is English; its ``message`` and ``values`` let a reader have it in their
own language (`Event.told`, `engine.words`).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from .words import ENGLISH, Words, told


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


class Events(list[Event]):
    """The events of one `Game.play`, in order."""

    def add(self, kind: str, message: str, /, values: dict[str, Any] | None = None, **kw: Any) -> Event:
        """Add an event of ``kind``: ``message`` (marked with ``N_``) filled with ``values``, or
        a finished English text when ``values`` is None."""
        if values is None:
            ev = Event(kind=kind, text=message, **kw)
        else:
            ev = Event(kind=kind, text=told(ENGLISH, message, values), message=message, values=values, **kw)
        self.append(ev)
        return ev
