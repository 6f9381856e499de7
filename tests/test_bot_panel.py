"""The private panel: every legal move reachable by taps, nothing else offered, Discord's limits kept."""

from __future__ import annotations

import random

from bot.ids import parse_custom_id
from bot.results import Message
from bot.service.panel import OPTIONS_PER_SELECT, back_of, panel_message, step, words
from engine import Action, Game


def _step_to(msg: Message, target: tuple[str, ...]) -> tuple[tuple[str, ...], int] | None:
    """The (path, page) a tap on ``msg`` leads to on the way to ``target``; None at the confirm."""
    for sel in msg.selects:
        ref = parse_custom_id(sel.custom_id)
        assert ref is not None and ref.action == "step"
        assert target[: len(ref.path)] == ref.path, f"the panel left the way to {target}: {ref.path}"
        for opt in sel.options:
            if opt.value == target[len(ref.path)]:
                return (*ref.path, opt.value), 0
    for b in msg.buttons:
        if b.label.startswith("More"):
            ref = parse_custom_id(b.custom_id)
            assert ref is not None
            return ref.path, ref.page
    return None


def _tap_to(game: Game, seat: int, move: Action) -> Message:
    """The panel's confirm step for ``move``, reached by choosing options only."""
    target, page = words(move), 0
    path: tuple[str, ...] = ()
    msg = panel_message(game, 1, 5, seat, path, page)
    for _ in range(30):
        _check_limits(msg)
        nxt = _step_to(msg, target)
        if nxt is None:
            return msg
        path, page = nxt
        msg = panel_message(game, 1, 5, seat, path, page)
    raise AssertionError(f"{move} not reached")


def _check_limits(msg: Message) -> None:
    assert len(msg.selects) + (1 if msg.buttons else 0) <= 5, "at most 5 rows"
    assert len(msg.buttons) <= 5
    for sel in msg.selects:
        assert 1 <= len(sel.options) <= OPTIONS_PER_SELECT and len(sel.placeholder) <= 150
        assert len({o.value for o in sel.options}) == len(sel.options)
        for o in sel.options:
            assert 1 <= len(o.label) <= 100 and len(o.value) <= 100 and len(o.description) <= 100
    ids = [s.custom_id for s in msg.selects] + [b.custom_id for b in msg.buttons]
    assert len(set(ids)) == len(ids) and all(len(i) <= 100 for i in ids)
    assert all(len(b.label) <= 80 for b in msg.buttons)


def _confirmed(msg: Message) -> str | None:
    refs = [parse_custom_id(b.custom_id) for b in msg.buttons]
    return next((r.move for r in refs if r is not None and r.action == "confirm"), None)


def _positions(seed: int, count: int) -> list[Game]:
    """``count`` positions of one random game, spread over it (with every kind of decision)."""
    rng = random.Random(seed)
    g = Game.new(["Ann", "Bob", "Cid"], seed=seed, setup="experienced")
    seen: list[Game] = []
    while not g.is_over:
        seat = g.pending_seats()[0]
        kinds = {d.kind for d in g.pending_decisions(seat)}
        if kinds != {"turn"} or rng.random() < 0.08:
            seen.append(Game.restore(g.snapshot(), g.record()))
        g.play(seat, rng.choice(g.legal_moves(seat)))
    return seen[:: max(1, len(seen) // count)]


def test_every_legal_move_of_a_turn_is_reached_by_taps_and_confirmed() -> None:
    g = Game.new(["Ann", "Bob", "Cid", "Dea"], seed=3)
    seat = g.pending_seats()[0]
    moves = g.legal_moves(seat)
    assert len(moves) > 100, "a turn with more moves than one page holds"
    for move in moves:
        assert _confirmed(_tap_to(g, seat, move)) == str(move)


def test_decisions_of_every_kind_are_reached_by_taps() -> None:
    kinds: set[str] = set()
    for g in _positions(11, 40) + _positions(12, 40):
        for seat in g.pending_seats():
            kinds |= {d.kind for d in g.pending_decisions(seat)}
            moves = g.legal_moves(seat)
            for move in random.Random(len(moves)).sample(moves, min(4, len(moves))):
                assert _confirmed(_tap_to(g, seat, move)) == str(move)
    assert kinds >= {"castle", "turn", "starve"}, kinds


def test_a_single_way_on_is_taken_at_once_and_back_skips_it() -> None:
    moves = [Action.parse("found I9 from L11"), Action.parse("found J9 from L11"), Action.parse("gold")]
    at = step(moves, ("found", "I9"))
    assert at.path == ("found", "I9", "from L11") and at.move == moves[0]
    assert back_of(moves, at.path) == ("found",)
    assert back_of(moves, ("found",)) == ()
    assert back_of(moves, ()) is None


def test_a_path_no_move_takes_any_more_starts_again() -> None:
    g = Game.new(["Ann", "Bob"], seed=4)
    seat = g.pending_seats()[0]
    msg = panel_message(g, 1, 5, seat, ("harvest", "Q17"), 0)
    assert msg.selects and parse_custom_id(msg.selects[0].custom_id).path == ()  # type: ignore[union-attr]


def test_a_seat_not_asked_gets_no_options() -> None:
    g = Game.new(["Ann", "Bob"], seed=4)
    other = next(s for s in range(2) if s not in g.pending_seats())
    msg = panel_message(g, 1, 5, other, (), 0)
    assert not msg.selects and "Nothing is asked of you" in msg.text
