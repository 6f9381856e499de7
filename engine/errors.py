"""The ways the engine refuses: a text that is not a move at all, a move not allowed now, and
moves that cannot be taken back.

The reason is an English message with named values (`engine.words`), so that a reader can
have it in their own language: ``IllegalMove(N_("{hex} is not on the board."), hex="Z9")``;
``str(error)`` is the English text, ``error.told(words)`` the reader's.
"""

from __future__ import annotations

from typing import Any

from .events import Event
from .words import ENGLISH, Phrase, Words, told


class Refusal(ValueError):
    """The engine refuses what was asked; the message says why."""

    def __init__(self, message: str = "", /, **values: Any) -> None:
        self.message = message
        self.values = values
        super().__init__(told(ENGLISH, message, values) if values else message)

    def told(self, words: Words = ENGLISH) -> str:
        """Why, in ``words``' language."""
        return told(words, self.message, self.values)


class IllegalMove(Refusal):
    """The move is not allowed now; the message says why and what would be right."""


class MalformedMove(IllegalMove):
    """The text is not a move in the notation of `shared/notation.md`."""


class IrreversibleMove(Refusal):
    """Moves cannot be taken back (`Game.take_back`): something hidden became known with one of
    them. The message names the first move asked back and what became known (``why``)."""

    def __init__(
        self, message: str = "", /, *, index: int = -1, event: Event | None = None, **values: Any
    ) -> None:
        super().__init__(message, **values)
        self.index = index
        """The move of the record that made something known (0 is the first move)."""
        self.event = event
        """Its first event that did (`Event.reveals`), as it was told then."""

    @property
    def what(self) -> Phrase | None:
        """What became known, as a phrase to tell (`engine.events.REVEALED`)."""
        why: Phrase | None = self.values.get("why")
        return why
