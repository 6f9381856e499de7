"""The two ways a move can be refused: it is not a move at all, or it is not allowed now.

The reason is an English message with named values (`engine.words`), so that a reader can
have it in their own language: ``IllegalMove(N_("{hex} is not on the board."), hex="Z9")``;
``str(error)`` is the English text, ``error.told(words)`` the reader's.
"""

from __future__ import annotations

from typing import Any

from .words import ENGLISH, Words, told


class IllegalMove(ValueError):
    """The move is not allowed now; the message says why and what would be right."""

    def __init__(self, message: str = "", /, **values: Any) -> None:
        self.message = message
        self.values = values
        super().__init__(told(ENGLISH, message, values) if values else message)

    def told(self, words: Words = ENGLISH) -> str:
        """Why, in ``words``' language."""
        return told(words, self.message, self.values)


class MalformedMove(IllegalMove):
    """The text is not a move in the notation of `shared/notation.md`."""
