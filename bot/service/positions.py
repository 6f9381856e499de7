"""The positions this process has in hand (part of the service layer): a game is restored from
its stored snapshot once per version, not for every question asked of it — the autocomplete and
the panel as a player picks a move, then the move itself.

A kept position is found by the game's id and checked against the row just read: the same
version and the same record. The snapshot is the replay of the record, so the same record is
the same position (renaming a player rewrites both; a move or an undo changes the version),
whichever process stored it. A position the commit of a move has just stored is kept with the
record it stored, and the legal moves it worked out for the post's buttons come with it.

`look` lends the kept game, to be read at once (its legal moves, its views), never played on;
`take` hands it to a move, which plays on it: the kept copy is forgotten first, so a move that is
then not stored (another got in first) leaves nothing wrong behind. At most `KEEP` games are
kept, the least recently used let go first.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from bot.storage.rows import GameRow
from engine import Game

KEEP = 512
"""Positions kept at most: about 50 KB each in memory (a game's state and its lookups)."""


def restore(row: GameRow) -> Game:
    """The game at ``row``'s stored position (a game that has started)."""
    assert row.snapshot is not None and row.record is not None
    return Game.restore(row.snapshot, row.record)


class Positions:
    """Restored games by game id, each with the version and the record it is the position of."""

    def __init__(self, keep: int = KEEP) -> None:
        self.limit = keep
        self._kept: OrderedDict[int, tuple[int, dict[str, Any], Game]] = OrderedDict()

    def look(self, row: GameRow) -> Game:
        """The game at ``row``'s position, to read now and not to play on (it stays kept)."""
        game = self._find(row)
        if game is None:
            game = restore(row)
            assert row.record is not None
            self.keep(row.id, row.version, row.record, game)
        return game

    def take(self, row: GameRow) -> Game:
        """The game at ``row``'s position for a move to play on: the caller's own."""
        game = self._find(row)
        if game is None:
            return restore(row)
        del self._kept[row.id]
        return game

    def keep(self, game_id: int, version: int, record: dict[str, Any], game: Game) -> None:
        """``game`` is the position stored as ``version`` with ``record`` (as JSON data)."""
        self._kept[game_id] = (version, record, game)
        self._kept.move_to_end(game_id)
        while len(self._kept) > self.limit:
            self._kept.popitem(last=False)

    def _find(self, row: GameRow) -> Game | None:
        kept = self._kept.get(row.id)
        if kept is None or kept[0] != row.version or kept[1] != row.record:
            return None
        self._kept.move_to_end(row.id)
        return kept[2]
