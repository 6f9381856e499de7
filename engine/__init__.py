"""La Città rules engine: pure, deterministic and replayable.

>>> from engine import Game
>>> g = Game.new(["Ann", "Bob", "Cid"], seed=7, setup="beginner")
>>> g.pending_seats()
[1]
"""

from __future__ import annotations

from .actions import Action
from .errors import IllegalMove, IrreversibleMove, MalformedMove
from .events import Event
from .game import Game, Record
from .views import View

__all__ = ["Action", "Event", "Game", "IllegalMove", "IrreversibleMove", "MalformedMove", "Record", "View"]
