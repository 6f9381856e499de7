"""Move notation (shared/notation.md): every form parses and prints back; bad text is refused."""

from __future__ import annotations

import pytest

from engine import Action, IllegalMove, MalformedMove

CANONICAL = [
    "castle I9",
    "gold",
    "found I9",
    "found I9 from L11",
    "build farm I9",
    "build market F6",
    "palace I10",
    "hospital I10",
    "bath I10",
    "cathedral I10",
    "university I10",
    "master palace I10",
    "master farm I10",
    "golden 2 I9",
    "bread 1 I10",
    "bread 3 I10 health",
    "harvest I10",
    "poll 1 3",
    "poll all",
    "pass",
    "first I9",
    "prefer I9 culture",
    "demolish H10 I10",
    "starve I9 I9 L11",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_text_round_trips(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert Action.parse(str(action)) == action
    assert eval(repr(action)) == action  # repr pastes back as code


def test_input_is_case_insensitive_and_ignores_extra_spaces() -> None:
    assert str(Action.parse("  BUILD   Farm   i9 ")) == "build farm I9"
    assert str(Action.parse("Poll 3 1")) == "poll 1 3"


def test_hex_lists_are_kept_in_board_order() -> None:
    assert str(Action.parse("demolish I10 H10")) == "demolish H10 I10"


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("", "Empty move"),
        ("fly I9", "Unknown move `fly`"),
        ("build palace I9", "palace` cannot be built with `build`"),
        ("build farm Z99", "`Z99` is not a hex"),
        ("build farm", "build B HEX"),
        ("golden 4 I9", "`4` is not 1, 2 or 3"),
        ("bread 1 I9 money", "not a service"),
        ("poll 1 1", "two different"),
        ("poll 1 4", "two different"),
        ("gold now", "gold"),
        ("demolish I10 I10", "once"),
        ("prefer I9", "prefer HEX S"),
        ("starve", "starve HEX"),
        ("found I9 L11", "found HEX from HEX2"),
        ("first", "first HEX"),
    ],
)
def test_malformed_text_says_what_would_be_right(text: str, hint: str) -> None:
    with pytest.raises(MalformedMove) as err:
        Action.parse(text)
    assert hint in str(err.value)


def test_malformed_move_is_an_illegal_move_and_a_value_error() -> None:
    assert issubclass(MalformedMove, IllegalMove)
    assert issubclass(IllegalMove, ValueError)


def test_actions_sort_by_verb_then_hex_in_board_order() -> None:
    moves = [
        Action.parse(t) for t in ("pass", "build farm I10", "gold", "build farm H10", "poll all", "poll 2 3")
    ]
    assert [str(a) for a in sorted(moves)] == [
        "gold",
        "build farm H10",
        "build farm I10",
        "poll 2 3",
        "poll all",
        "pass",
    ]
