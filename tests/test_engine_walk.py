"""`Game.walk` steps through a record as `Game.replay` plays it: the position after each move is the
one a replay of the record cut there reaches, old records (answered ``first`` as before) included;
`Game.open_view` turns up the hidden voice cards and nothing else."""

from __future__ import annotations

import pytest
from test_random_play import random_game
from test_relocation_order import fixture_games

from engine import Game, Record


def _cut(record: Record, k: int) -> Record:
    legacy = None if record.legacy_moves is None else min(record.legacy_moves, k)
    return record.model_copy(update={"moves": record.moves[:k], "legacy_moves": legacy})


def _records() -> list[Record]:
    games = [random_game(n, seed, setup, every_move=False).record() for n, seed, setup in
             ((2, 3, "beginner"), (5, 8, "experienced"))]  # fmt: skip
    return [*games, *(Record.model_validate(g["record"]) for g in fixture_games())]


@pytest.mark.parametrize("record", _records(), ids=["two", "five", "old-whole", "old-cut"])
def test_each_position_walked_is_the_replay_of_the_record_cut_there(record: Record) -> None:
    k, last = -1, len(record.moves)
    for k, (game, events) in enumerate(Game.walk(record)):
        if k % 7 == 0 or k > last - 4:  # (each a replay from the start: a sample, and the end)
            assert game.state == Game.replay(_cut(record, k)).state, f"after {k} moves"
        assert (events == []) == (k == 0)
    assert k == len(record.moves)
    assert game.record() == record


def test_the_events_walked_are_those_the_replay_plays() -> None:
    record = _records()[1]
    walked = [[e.text for e in events] for _game, events in Game.walk(record)][1:]
    _game, caused = Game._replayed(record)
    assert walked == [[e.text for e in events] for events in caused]


def test_the_open_view_shows_the_voice_cards_face_down_to_a_spectator() -> None:
    g = Game.new(["Ann", "Bob", "Cid"], seed=4)
    while not (g.state.voice and not g.state.voice_revealed):
        seat = g.pending_seats()[0]
        g.play(seat, g.legal_moves(seat)[0])
    spectator, opened = g.view(None), g.open_view()
    assert None in spectator.voice and None not in opened.voice
    assert opened.voice == list(g.state.voice)
    assert opened.model_copy(update={"voice": spectator.voice}) == spectator, "nothing else differs"
