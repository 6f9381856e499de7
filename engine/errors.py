"""The two ways a move can be refused: it is not a move at all, or it is not allowed now."""

from __future__ import annotations


class IllegalMove(ValueError):
    """The move is not allowed now; the message says why and what would be right."""


class MalformedMove(IllegalMove):
    """The text is not a move in the notation of `shared/notation.md`."""
