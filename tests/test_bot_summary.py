"""The texts built from a game: the standings count in words that agree with their numbers."""

from __future__ import annotations

from bot.service.summary import standings
from engine import Game


def test_standings_say_one_citizen_and_many_citizens() -> None:
    view = Game.new(["Ann", "Bob"], seed=3).view(None)
    one = view.players[0].model_copy(update={"citizens": 1, "score": -4, "hunger_vp": 5})
    view = view.model_copy(update={"players": [one, *view.players[1:]]})
    lines = standings(view).splitlines()
    assert lines[1].startswith("**Ann** -4 (1 citizen, 0 complete cities, −5 for hunger;"), lines[1]
    assert f"({view.players[1].citizens} citizens," in lines[2], lines[2]


def test_the_channel_names_the_cities_a_player_chooses_between_in_relocation() -> None:
    from test_relocation_order import two_take_the_last

    from bot.service.summary import asked, next_line

    game = two_take_the_last()
    game.play(1, "gold")
    assert asked(game, 0) == "choose which city takes first in relocation: Firenze or Siena"
    text, pinged = next_line(game, {0: 11, 1: 12})
    assert (
        text == "Next: <@11> to choose which city takes first in relocation: Firenze or Siena."
        and pinged == (11,)
    )
