"""Errors a player can cause; each becomes a short private reply (never a crash)."""

from __future__ import annotations


class CittaError(Exception):
    """A request that cannot be done; the message is for the player who asked."""


class NoGame(CittaError):
    """There is no (fitting) game in this channel."""


class NotSeated(CittaError):
    """The user has no seat in the game."""


class NotAllowed(CittaError):
    """The user may not do this (not the host, not their button …)."""


class AlreadyMade(CittaError):
    """The move was already made (a second click, or a button from an older position)."""


class MoveRefused(CittaError):
    """The engine refused the move (illegal or malformed); the message is the engine's."""


class LobbyError(CittaError):
    """Joining, leaving or starting a lobby is not possible now."""


class TooSoon(CittaError):
    """The user asked for something costly too often in a short while (`bot.service.limits`); the
    message says when to try again."""
