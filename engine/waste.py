"""What a legal move wastes: Golden Times pays for citizens that may not come (rules §5.5).

Golden Times N costs the same however many of its N citizens come, and they come only as far
as the city's population limit and the citizen supply allow (`engine.cities.fitting`): the
others are paid for and lost. The move is allowed as long as one fits (`engine.turn`); a
player is told before making it (`Game.wastes`).

>>> from engine import Action, Game
>>> from engine.words import ENGLISH, tell
>>> g = Game.new(["Ann", "Bob"], seed=7)  # Siena (J6) has 4 citizens and no market: room for 1
>>> tell(ENGLISH, waste(g.state, Action.parse("golden 3 J6")))
'Only 1 of the 3 citizens fit in Siena (its limit), but you pay for 3.'
>>> g.state.supply_citizens = 2
>>> g.state.cities[1].population = 2
>>> tell(ENGLISH, waste(g.state, Action.parse("golden 3 J6")))
'Only 2 of the 3 citizens can come to Siena (the supply has no more), but you pay for 3.'
>>> waste(g.state, Action.parse("golden 2 J6")) is None, waste(g.state, Action.parse("gold")) is None
(True, True)
"""

from __future__ import annotations

from .actions import Action
from .cities import city_at, fitting, room
from .state import GameState
from .words import PHRASE, Phrase


def waste(state: GameState, action: Action) -> Phrase | None:
    """What ``action`` would pay for and lose in ``state``, as a phrase to tell
    (`engine.words.tell`); None when it wastes nothing. ``action`` is taken to be legal."""
    if action.verb != "golden" or action.hex is None or action.n is None:
        return None
    city = city_at(state, action.hex)
    if city is None:
        return None
    fits = fitting(state, city, action.n)
    if fits >= action.n:
        return None
    if room(city) <= state.supply_citizens:
        return PHRASE.n(
            "Only {fits} of the {count} citizen fit in {city} (its limit), but you pay for {count}.",
            "Only {fits} of the {count} citizens fit in {city} (its limit), but you pay for {count}.",
            action.n, fits=fits, city=city.name,
        )  # fmt: skip
    return PHRASE.n(
        "Only {fits} of the {count} citizen can come to {city} (the supply has no more), but you pay for "
        "{count}.",
        "Only {fits} of the {count} citizens can come to {city} (the supply has no more), but you pay for "
        "{count}.",
        action.n, fits=fits, city=city.name,
    )  # fmt: skip
