"""What happened: the events a move causes, for logs, summaries and highlights."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


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

    def visible_to(self, seat: int | None) -> bool:
        return self.private_to is None or self.private_to == seat


class Events(list[Event]):
    """The events of one `Game.play`, in order."""

    def add(self, kind: str, text: str, **kw: Any) -> Event:
        ev = Event(kind=kind, text=text, **kw)
        self.append(ev)
        return ev
