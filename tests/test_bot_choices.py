"""Autocomplete for /citta play: legal moves only, filtered by the text, ranked, at most 25."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import choices
from bot.service.choices import MAX_CHOICES, choices_for, rank_moves
from engine import Action, Game
from engine.board import BOARD
from engine.describe import describe


def _game() -> tuple[Game, int]:
    g = Game.new(["Ann", "Bob", "Cid", "Dea"], seed=3)
    return g, g.pending_seats()[0]


def test_empty_text_shows_every_kind_of_move_within_25() -> None:
    g, seat = _game()
    legal = g.legal_moves(seat)
    shown = rank_moves(g, seat, "")
    assert len(legal) > MAX_CHOICES and len(shown) == MAX_CHOICES
    assert {(a.verb, a.building) for a in legal} <= {(a.verb, a.building) for a in shown}
    assert shown == [a for a in legal if a in shown], "canonical order is kept"


def test_typing_narrows_to_moves_starting_with_the_text() -> None:
    g, seat = _game()
    shown = rank_moves(g, seat, "build sch")
    assert shown and all(str(a).startswith("build school") for a in shown)


def test_a_hex_typed_alone_lists_the_moves_on_that_hex() -> None:
    g, seat = _game()
    hexes = [a.hex for a in g.legal_moves(seat) if a.verb == "build"]
    target = hexes[0]
    assert target is not None
    shown = rank_moves(g, seat, target.lower())
    assert shown and all(a.hex == target for a in shown)
    assert {a.building for a in shown} >= {"farm", "school"}


def test_words_in_any_order_match_the_move_and_its_description() -> None:
    g, seat = _game()
    target = next(a for a in g.legal_moves(seat) if a.verb == "build" and a.building == "school")
    shown = rank_moves(g, seat, f"{target.hex} school")
    assert shown[0] == target
    city = g.view(None).players[seat].cities[0].name
    assert rank_moves(g, seat, city.lower()), "the city name (from the description) matches"


def test_choices_carry_the_description_as_name_and_the_move_as_value() -> None:
    g, seat = _game()
    shown = choices_for(g, seat, "gold")
    assert shown[0].value == "gold" and shown[0].name.startswith("gold — ")
    assert all("gold" in c.name and len(c.name) <= 100 for c in shown)


def test_nothing_is_offered_to_a_seat_that_is_not_asked() -> None:
    g, _ = _game()
    other = next(s for s in range(4) if s not in g.pending_seats())
    assert choices_for(g, other, "") == []
    assert not BOARD.is_hex("gold")


def _first_asked() -> Game:
    from test_relocation_order import two_take_the_last

    g = two_take_the_last(firenze_pop=5)
    g.play(1, "gold")
    return g


def test_which_city_goes_first_is_offered_with_what_each_takes() -> None:
    shown = choices_for(_first_asked(), 0, "")
    assert [c.value for c in shown] == ["first N5", "first K6"]
    assert shown[1].name == "first K6 — Firenze first: takes from P1's Pisa (last); full, to the supply"


def test_which_city_goes_first_gets_buttons_the_least_harmful_first() -> None:
    from bot.service.summary import decision_buttons

    panel, *buttons, review = decision_buttons(_first_asked(), 7, 3, {0: "P0", 1: "P1"})
    assert panel.custom_id == "citta:7:3:-:panel", "the panel's button comes first"
    assert review.custom_id == "citta:7:0:-:o.1", "the review at this position comes last"
    assert [b.label.split(" — ")[0] for b in buttons] == ["first N5", "first K6"]
    assert all(b.style == "primary" and len(b.label) <= 80 for b in buttons)


def test_typing_the_city_that_gives_the_citizen_finds_the_founding_from_it() -> None:
    g, seat = _game()
    found = next(a for a in g.legal_moves(seat) if a.verb == "found")
    sources = {a.source for a in g.legal_moves(seat) if a.verb == "found" and a.hex == found.hex}
    assert len(sources) == 2
    for source in sources:
        city = next(c.name for c in g.view(None).players[seat].cities if c.castle == source)
        shown = rank_moves(g, seat, f"found {found.hex} {city}")
        assert shown[0] == found._replace(source=source)


def test_each_move_is_described_once_per_version_whatever_is_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord lets a client send 6,000 characters at every key: they are cut before matching, and
    the descriptions of a position's moves are written once per game version, not at every key."""
    g, seat = _game()
    written: list[Action] = []

    def counting(game: Game, seat: int, action: Action, **kw: Any) -> str:
        written.append(action)
        return describe(game, seat, action, **kw)

    monkeypatch.setattr(choices, "describe", counting)
    for typed in ("", "b", "bu", "build", "culture", "c " * 2999 + "q", "x" * 6000, "farm food"):
        kept = choices.described_at(7, 0, g, seat)
        assert len(choices_for(g, seat, typed, described=kept)) <= MAX_CHOICES
    assert written and len(written) == len(set(written)) <= len(g.legal_moves(seat))
    g.play(seat, g.legal_moves(seat)[0])  # the same game object at its next version
    written.clear()
    nxt = g.pending_seats()[0]
    shown = choices_for(g, nxt, "", described=choices.described_at(7, 1, g, nxt))
    assert written and [c.name for c in shown] == [describe(g, nxt, Action.parse(c.value)) for c in shown]


def test_another_game_with_the_same_id_and_version_is_described_afresh() -> None:
    """Two services (tests, or a database put back) may both have a game 7 at version 0: the kept
    descriptions of one are never used for the other, whose moves they do not describe."""
    g, seat = _game()
    assert choices_for(g, seat, "gold", described=choices.described_at(7, 0, g, seat))
    other, _ = _game()
    for _ in range(4):  # elsewhere, the same game went on: the same seat has more gold in hand
        mover = other.pending_seats()[0]
        other.play(mover, other.legal_moves(mover)[0])
    assert other.pending_seats()[0] == seat
    shown = choices_for(other, seat, "gold", described=choices.described_at(7, 0, other, seat))
    assert shown and [c.name for c in shown] == [describe(other, seat, Action.parse(c.value)) for c in shown]
