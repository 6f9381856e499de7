"""Politics cards (rules §6): costs, effects and limits of each of the 10 kinds."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from scenario import Scenario

from engine import Game, IllegalMove
from engine.components import POLITICS_COPIES, politics_deck


def city_game(
    *cards: str, gold: int = 10, population: int = 6, buildings: Sequence[tuple[str, str]] = ()
) -> Game:
    """Seat 0 on turn with a city at K9 (lake on one side), these cards in the row."""
    sc = Scenario().hex_terrain("K9", ("lake", 0), ("farmland", 2))
    sc.city(0, "K9", population, list(buildings))
    sc.city(1, "C9", 4)
    sc.row(*cards)
    sc.state.players[0].gold = gold
    return sc.turn(0).game()


def test_the_deck_has_32_cards_of_10_kinds() -> None:
    assert len(politics_deck()) == 32
    assert len(POLITICS_COPIES) == 10


@pytest.mark.parametrize(
    ("move", "cost", "kind", "service", "points"),
    [
        ("palace L9", 1, "palace", "culture", 2),
        ("hospital L9", 1, "hospital", "health", 1),
        ("bath L9", 1, "bath", "health", 2),
        ("cathedral L9", 3, "cathedral", "culture", 3),
        ("university L9", 3, "university", "education", 3),
        ("master school L9", 1, "school", "education", 1),
        ("master palace L9", 2, "palace", "culture", 2),
        ("master cathedral L9", 4, "cathedral", "culture", 3),
    ],
)
def test_building_cards_cost_their_price_and_add_their_arches(
    move: str, cost: int, kind: str, service: str, points: int
) -> None:
    g = city_game(move.split()[0])
    g.play(0, move)
    city = g.view(0).players[0].cities[0]
    assert g.state.players[0].gold == 10 - cost
    assert [b.kind for b in city.buildings] == [kind]
    assert getattr(city, service) == points
    assert city.castle_citizens == 5, "the spare citizen moved onto the building"


def test_a_building_card_needs_the_gold() -> None:
    g = city_game("cathedral", gold=2)
    with pytest.raises(IllegalMove, match="costs 3 gold; you have 2"):
        g.play(0, "cathedral L9")
    assert not any(m.verb == "cathedral" for m in g.legal_moves(0))


def test_a_card_must_be_in_the_face_up_row() -> None:
    g = city_game()
    g.state.politics_row = ["golden"] * 7
    with pytest.raises(IllegalMove, match="no Palace card in the face-up politics row"):
        g.play(0, "palace L9")


def test_a_public_bath_must_stand_next_to_a_lake_but_a_hospital_need_not() -> None:
    g = city_game("bath", "hospital", buildings=[("farm", "L9")])
    with pytest.raises(IllegalMove, match="next to a lake"):
        g.play(0, "bath M9")
    g.play(0, "hospital M9")


def test_the_played_card_is_replaced_at_once_from_the_pile() -> None:
    g = city_game("palace")
    top = g.state.politics_pile[0]
    events = g.play(0, "palace L9")
    assert len(g.state.politics_row) == 7
    assert top in g.state.politics_row
    assert g.state.politics_used == ["palace"]
    assert any(e.kind == "refill" and e.reveals for e in events)


def test_an_empty_pile_is_refilled_from_the_shuffled_discard() -> None:
    g = city_game("palace")
    g.state.politics_discard = g.state.politics_pile
    g.state.politics_pile = []
    events = g.play(0, "palace L9")
    assert [e.kind for e in events][:2] == ["build", "reshuffle"]
    assert len(g.state.politics_row) == 7
    assert g.state.politics_discard == []


def test_with_no_card_left_the_row_shrinks() -> None:
    g = city_game("palace")
    g.state.politics_pile = []
    g.play(0, "palace L9")
    assert len(g.state.politics_row) == 6


def test_played_cards_go_to_the_discard_at_the_end_of_the_year() -> None:
    g = city_game("palace")
    g.play(0, "palace L9")
    while g.state.year == 1:
        seat = g.pending_seats()[0]
        move = g.default_move(seat)
        assert move is not None
        g.play(seat, move)
    assert "palace" in g.state.politics_discard
    assert g.state.politics_used == []


@pytest.mark.parametrize(("n", "cost"), [(1, 0), (2, 2), (3, 5)])
def test_golden_times_brings_citizens_for_its_price(n: int, cost: int) -> None:
    g = city_game("golden", population=4, buildings=[("market", "L9")])
    g.play(0, f"golden {n} K9")
    assert g.view(0).players[0].cities[0].population == 4 + n
    assert g.state.players[0].gold == 10 - cost


def test_golden_times_respects_the_population_limit_and_says_so() -> None:
    g = city_game("golden", population=4)
    events = g.play(0, "golden 3 K9")
    assert g.view(0).players[0].cities[0].population == 5
    assert "2 did not fit" in events[0].text


def test_golden_times_is_refused_when_no_citizen_fits() -> None:
    g = city_game("golden", population=5)
    with pytest.raises(IllegalMove, match="at its population limit"):
        g.play(0, "golden 1 K9")


def test_golden_times_goes_to_one_of_your_own_cities() -> None:
    g = city_game("golden")
    with pytest.raises(IllegalMove, match="not to you"):
        g.play(0, "golden 1 C9")


@pytest.mark.parametrize(("n", "cost"), [(1, 0), (2, 2), (3, 5)])
def test_bread_and_games_adds_notables_to_an_arch(n: int, cost: int) -> None:
    g = city_game("bread", buildings=[("statue", "L9")])
    g.play(0, f"bread {n} L9")
    city = g.view(0).players[0].cities[0]
    assert city.culture == 1 + n
    assert g.view(0).players[0].notables == 4 - n
    assert g.state.players[0].gold == 10 - cost


def test_bread_and_games_on_a_hospital_names_the_arch() -> None:
    g = city_game("bread", buildings=[("hospital", "L9")])
    with pytest.raises(IllegalMove, match="Say which arch"):
        g.play(0, "bread 1 L9")
    assert {str(m) for m in g.legal_moves(0) if m.verb == "bread" and m.n == 1} == {
        "bread 1 L9 education",
        "bread 1 L9 health",
    }
    g.play(0, "bread 1 L9 health")
    assert g.view(0).players[0].cities[0].health == 2


def test_bread_and_games_needs_a_building_with_arches() -> None:
    g = city_game("bread", buildings=[("farm", "L9")])
    with pytest.raises(IllegalMove, match="no arches"):
        g.play(0, "bread 1 L9")


def test_bread_and_games_stacks_but_four_notables_a_year_is_the_limit() -> None:
    g = city_game("bread", buildings=[("statue", "L9")])
    g.state.politics_row = ["bread"] * 7
    g.play(0, "bread 3 L9")
    g.play(1, "gold")
    with pytest.raises(IllegalMove, match="needs 2 notables; you have 1"):
        g.play(0, "bread 2 L9")
    g.play(0, "bread 1 L9")
    assert g.view(0).players[0].cities[0].culture == 1 + 4


def test_rich_harvest_doubles_a_farm_for_this_years_feeding() -> None:
    g = city_game("harvest", buildings=[("farm", "L9")])
    before = g.view(0).players[0].food
    g.play(0, "harvest L9")
    assert g.view(0).players[0].food == before + 2
    assert g.view(0).players[0].notables == 3


def test_rich_harvest_goes_on_a_farm_not_a_castle() -> None:
    g = city_game("harvest", buildings=[("farm", "L9")])
    with pytest.raises(IllegalMove, match="a castle does not count"):
        g.play(0, "harvest K9")


def test_rich_harvest_is_not_played_twice_on_one_farm_in_a_year() -> None:
    g = city_game("harvest", buildings=[("farm", "L9")])
    g.state.cities[0].buildings[0].harvest = True
    with pytest.raises(IllegalMove, match="already has a Rich Harvest this year"):
        g.play(0, "harvest L9")


def test_rich_harvest_cannot_be_played_in_year_6() -> None:
    g = city_game("harvest", buildings=[("farm", "L9")])
    g.state.year = 6
    with pytest.raises(IllegalMove, match="last year"):
        g.play(0, "harvest L9")


def test_polling_two_cards_is_free_and_private() -> None:
    g = city_game("poll", gold=0)
    events = g.play(0, "poll 1 3")
    voice = g.state.voice
    assert g.view(0).peek == [None, voice[1], None, voice[3]]
    assert g.view(1).peek == [None, None, None, None]
    assert g.view(None).peek == [None, None, None, None]
    assert g.view(1).voice[1:] == [None, None, None]
    private = [e for e in events if e.private_to is not None]
    assert [e.private_to for e in private] == [0]
    assert all(voice[1] not in e.text or e.private_to == 0 for e in events if e.kind != "voice")


def test_polling_all_three_costs_2_gold() -> None:
    g = city_game("poll", gold=1)
    with pytest.raises(IllegalMove, match="costs 2 gold; you have 1"):
        g.play(0, "poll all")
    g.state.players[0].gold = 2
    g.play(0, "poll all")
    assert g.view(0).peek[1:] == g.state.voice[1:]
    assert g.state.players[0].gold == 0


def test_a_polled_card_stays_known_for_the_rest_of_the_year() -> None:
    g = city_game("poll")
    g.play(0, "poll 1 2")
    seen = g.view(0).peek
    g.play(1, "gold")
    assert g.view(0).peek == seen
    while g.state.year == 1:
        seat = g.pending_seats()[0]
        move = g.default_move(seat)
        assert move is not None
        g.play(seat, move)
    assert g.view(0).peek == [None, None, None, None]


def test_legal_moves_list_every_cost_option_and_target() -> None:
    g = city_game("golden", "bread", "master", "poll", buildings=[("market", "L9"), ("statue", "J9")])
    texts = {str(m) for m in g.legal_moves(0)}
    assert {"golden 1 K9", "golden 2 K9", "golden 3 K9"} <= texts
    assert {"bread 1 J9", "bread 2 J9", "bread 3 J9"} <= texts
    assert {"poll 1 2", "poll 1 3", "poll 2 3", "poll all"} <= texts
    assert {"master cathedral M9", "master farm M9", "master palace I9"} <= texts
