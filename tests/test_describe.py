"""Move descriptions for autocomplete: every legal move gets one, short, starting with its text."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine import Action, Game
from engine.describe import MAX_LEN, describe


def _positions(players: int, seed: int, setup: str = "beginner") -> Iterator[tuple[Game, int]]:
    """Each position of a seeded random game, with the seat to move (inspect before the next)."""
    g = Game.new([f"P{i}" for i in range(players)], seed=seed, setup=setup)  # type: ignore[arg-type]
    rnd = random.Random(seed)
    while not g.is_over:
        seat = g.pending_seats()[0]
        yield g, seat
        g.play(seat, rnd.choice(g.legal_moves(seat)))


def test_every_legal_move_is_described_after_its_notation() -> None:
    kinds = set()
    for game, seat in _positions(3, 5, "experienced"):
        for a in game.legal_moves(seat):
            text = describe(game, seat, a)
            assert text.startswith(f"{a} — ") and len(text) > len(str(a)) + 3, text
            assert len(text) <= MAX_LEN
            kinds.add(a.verb)
    assert {"castle", "gold", "build", "found"} <= kinds


def test_build_names_the_city_and_the_service_change() -> None:
    g = Game.new(["Ann", "Bob"], seed=7)
    seat = g.pending_seats()[0]
    school = next(a for a in g.legal_moves(seat) if a.verb == "build" and a.building == "school")
    city = g.view(None).players[seat].cities[0].name
    text = describe(g, seat, school)
    assert f"{city} education 0→1" in text or "education 0→1" in text


def test_gold_tells_how_much_gold_you_have() -> None:
    g = Game.new(["Ann", "Bob"], seed=7)
    seat = g.pending_seats()[0]
    gold = g.view(seat).players[seat].gold
    assert describe(g, seat, Action.parse("gold")) == f"gold — take 2 gold (you have {gold})"


def test_golden_times_says_the_price_and_warns_when_citizens_will_not_fit() -> None:
    seen: set[bool] = set()
    for seed in range(1, 60):
        if len(seen) == 2:
            break
        for game, seat in _positions(2, seed):
            for a in game.legal_moves(seat):
                if a.verb == "golden" and a.n is not None:
                    text = describe(game, seat, a)
                    price = {1: ", free", 2: " for 2 gold", 3: " for 5 gold"}[a.n]
                    assert f"+{a.n} citizen{'s' if a.n > 1 else ''}{price}" in text
                    city = next(c for p in game.view(None).players for c in p.cities if c.castle == a.hex)
                    room = (city.limit or 99) - city.population
                    assert ("only" in text) == (room < a.n), text
                    seen.add(room < a.n)
    assert seen == {True, False}


def test_a_move_that_is_not_legal_still_gets_its_notation() -> None:
    g = Game.new(["Ann", "Bob"], seed=7)
    label = g.view(None).players[0].cities[0].castle
    assert describe(g, 0, Action.parse(f"demolish {label}")).startswith(f"demolish {label}")


def _city_with(buildings: list[tuple[str, str]], population: int = 4) -> Game:
    from scenario import Scenario

    sc = Scenario()
    sc.hex_terrain("J9", ("lake", 0), ("lake", 0))
    sc.city(0, "K9", population, buildings)
    return sc.turn(0).game()


def test_water_in_a_city_without_limit_does_not_claim_to_lift_it() -> None:
    g = _city_with([("market", "L9"), ("fountain", "J9")], population=6)
    text = describe(g, 0, Action.parse("build fountain I9"))
    assert "limit" not in text, text


def test_water_with_a_market_lifts_the_limit_from_8_to_none() -> None:
    g = _city_with([("market", "L9")])
    assert describe(g, 0, Action.parse("build fountain J9")).endswith("health 0→1, limit 8→none")


def test_a_market_in_a_city_with_water_lifts_the_limit_to_none() -> None:
    g = _city_with([("fountain", "J9")])
    text = describe(g, 0, Action.parse("build market L9"))
    assert text.startswith("build market L9 — Firenze +1 citizen, limit 5→none"), text


def test_a_move_that_leaves_the_player_short_of_food_says_so() -> None:
    from scenario import Scenario

    sc = Scenario()
    sc.hex_terrain("K9", ("farmland", 2), ("farmland", 1))  # the castle feeds 3
    sc.city(0, "K9", 3)
    g = sc.row("golden").turn(0).game()
    assert describe(g, 0, Action.parse("golden 1 K9")).endswith("; ⚠ 4 citizens for 3 food")
    assert "⚠" not in describe(g, 0, Action.parse("gold"))
    short = describe(g, 0, Action.parse("golden 3 K9"))
    assert short.endswith("; ⚠ 5 citizens for 3 food") and len(short) <= MAX_LEN
