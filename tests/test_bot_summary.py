"""The texts built from a game: the standings count in words that agree with their numbers."""

from __future__ import annotations

from bot.summary import standings
from engine import Game


def test_standings_say_one_citizen_and_many_citizens() -> None:
    view = Game.new(["Ann", "Bob"], seed=3).view(None)
    one = view.players[0].model_copy(update={"citizens": 1, "score": -4, "hunger_vp": 5})
    view = view.model_copy(update={"players": [one, *view.players[1:]]})
    lines = standings(view).splitlines()
    assert lines[1].startswith("**Ann** -4 (1 citizen, 0 complete cities, −5 for hunger;"), lines[1]
    assert f"({view.players[1].citizens} citizens," in lines[2], lines[2]
