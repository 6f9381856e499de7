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


class StorageUnavailable(Exception):
    """The database could not be reached or could not answer: the connection was lost or refused,
    it timed out, the server is restarting, SQLite's file could not be read or written ("disk I/O
    error"). Both backends raise it (and only it) for such faults, in place of their drivers' own
    errors, so that the door can tell the user that nothing was done and to try again in a moment
    (`bot.client.door.fail`), and the loops can wait for the database to come back.

    What was in flight was not stored: a write is one transaction, rolled back whole. The message
    is for the log: it names the fault, never the database's address or password, nor any value of
    a query. Not a `CittaError`: its words for the user are the door's, in the user's language."""


class StorageFull(StorageUnavailable):
    """The database has no room left (SQLite: "database or disk is full"; PostgreSQL: disk full):
    trying again will not help until the bot's host makes room, so the user is told to tell them."""
