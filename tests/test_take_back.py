"""Taking moves back (`Game.take_back`): the game as it was before them, unless something hidden
became known with one of them (then `IrreversibleMove` says which move and what)."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import pytest

import i18n
from engine import Game, IrreversibleMove
from engine.events import REVEALED, Event
from engine.state import GameState

FIXTURE = Path(__file__).parent / "fixtures" / "records_before_first.json"


def played(seed: int, players: int = 3) -> tuple[Game, list[GameState], list[list[Event]]]:
    """A whole game of random legal moves, the state before each move and the events of each."""
    rng = random.Random(seed)
    g = Game.new([f"P{i}" for i in range(players)], seed=seed)
    states, caused = [], []
    while not g.is_over:
        seat = g.pending_seats()[0]
        states.append(g.state.model_copy(deep=True))
        caused.append(g.play(seat, rng.choice(g.legal_moves(seat))))
    return g, states, caused


def test_moves_taken_back_leave_the_game_as_it_was_before_them() -> None:
    g = Game.new(["Ann", "Bob", "Cid"], seed=7)
    before = g.state.model_copy(deep=True)
    g.play(1, "gold")
    g.play(2, "found H3 from J9")
    back = g.take_back(2)
    assert back.state == before and back.record().moves == []
    assert g.record().moves == [(1, "gold"), (2, "found H3 from J9")], "the game itself is unchanged"
    assert g.take_back(1).record().moves == [(1, "gold")]
    assert back.play(1, "gold"), "the game goes on from there"


@pytest.mark.parametrize("seed", [1, 2])
def test_moves_can_be_taken_back_exactly_when_none_of_them_made_something_known(seed: int) -> None:
    g, states, caused = played(seed)
    moves = g.record().moves
    counts = sorted({*range(1, 6), *range(6, len(moves) + 1, 9)})
    refused = 0
    for count in counts:
        cut = len(moves) - count
        revealing = [(k, e) for k in range(cut, len(moves)) for e in caused[k] if e.reveals]
        if not revealing:
            back = g.take_back(count)
            assert back.state == states[cut] and back.record().moves == moves[:cut]
            continue
        refused += 1
        with pytest.raises(IrreversibleMove) as refusal:
            g.take_back(count)
        index, event = revealing[0]
        assert (refusal.value.index, refusal.value.event) == (index, event)
        assert str(refusal.value) == f"`{moves[cut][1]}` cannot be taken back: {REVEALED[event.kind]}."
    assert 0 < refused < len(counts), "some were refused, some taken back"


def test_each_kind_of_thing_made_known_is_said_in_the_readers_language() -> None:
    g, _states, caused = played(1)
    seen: dict[str, IrreversibleMove] = {}
    for k in range(len(caused)):
        kind = next((e.kind for e in caused[k] if e.reveals), None)
        if kind is not None and kind not in seen:
            with pytest.raises(IrreversibleMove) as refusal:
                g.take_back(len(caused) - k)
            seen[kind] = refusal.value
    assert set(seen) == set(REVEALED), "a politics card drawn, a poll, a pass, the tally, a new voice card"
    german = i18n.lang("de")
    for kind, error in seen.items():
        assert error.what == {"message": REVEALED[kind], "values": {}}
        told = error.told(german)
        assert told != str(error) and german.t(REVEALED[kind]) in told and f"`{error.values['move']}`" in told


def test_a_count_beyond_the_record_is_refused() -> None:
    g = Game.new(["Ann", "Bob"], seed=7)
    g.play(1, "gold")
    for count in (0, -1, 2):
        with pytest.raises(ValueError, match="Cannot take back"):
            g.take_back(count)


def test_records_from_before_first_take_back_to_what_they_replay_to() -> None:
    taken = 0
    for game in json.loads(FIXTURE.read_text())["games"]:
        record = game["record"]
        g = Game.replay(record)
        for count in range(1, 12):
            try:
                back = g.take_back(count)
            except IrreversibleMove:
                continue
            taken += 1
            kept = record["moves"][:-count]
            assert back.state == Game.replay({**record, "moves": kept}).state
            assert back.record().legacy_moves is None, "its moves are still all from before `first`"
    assert taken


def test_the_moves_made_before_first_that_are_kept_are_counted() -> None:
    g = Game.new(["Ann", "Bob", "Cid"], seed=7)
    for seat, move in [(1, "gold"), (2, "gold"), (0, "gold")]:
        g.play(seat, move)
    record = g.record().model_copy(update={"legacy_moves": 3})
    assert Game.replay(record).take_back(2).record().legacy_moves == 1


def test_a_refusal_survives_the_trip_to_a_worker_process_and_back() -> None:
    g = Game.new(["Ann", "Bob"], seed=7)
    g.play(1, "gold")
    g.play(0, "master farm G5")
    with pytest.raises(IrreversibleMove) as refusal:
        g.take_back(1)
    again = pickle.loads(pickle.dumps(refusal.value))
    assert (str(again), again.index, again.event, again.what) == (
        "`master farm G5` cannot be taken back: a politics card came into the row.",
        1,
        refusal.value.event,
        refusal.value.what,
    )
