"""Answers ahead (`bot.service.ahead`, ``/citta me ahead``): a player's standing answers to the
decisions asked outside their turn are applied the moment such a decision arises — as that
player's move, from their own view — so a game where everyone answers ahead never waits on one."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from test_bot_support import CHANNEL, PLAYERS, current, open_service, start_game

from bot.errors import CittaError
from bot.service import advance as svc_advance
from bot.service import ahead, standing
from bot.service import moves as svc_moves
from bot.service.context import Context
from engine import Game
from engine.ai import choose

ORDER = "health education culture"


def _asked_outside(game: Game) -> list[str]:
    """The kinds of the decisions outside a turn that someone is asked now."""
    return [d.kind for s in game.pending_seats() for d in game.pending_decisions(s) if d.kind in ahead.KINDS]


def _first_position(kind: str) -> tuple[Game, int]:
    """A position of a random game where a seat is asked a ``kind`` decision, and that seat."""
    for seed in range(200):
        rng, game = random.Random(seed), Game.new(["A", "B", "C"], seed=seed)
        while not game.is_over:
            for seat in game.pending_seats():
                if any(d.kind == kind for d in game.pending_decisions(seat)):
                    return game, seat
            seat = game.pending_seats()[0]
            game.play(seat, rng.choice(game.legal_moves(seat)))
    raise AssertionError(f"no {kind} decision in 200 random games")


def test_a_fixed_order_picks_the_first_service_the_decision_offers() -> None:
    game, seat = _first_position("prefer")
    [decision, *_] = game.pending_decisions(seat)
    for order in (ORDER, "culture education health", "education culture health"):
        move = ahead.answer(game, seat, {"prefer": order}, seed=1)
        wanted = next(s for s in order.split() if s in decision.services)
        assert move.verb == "prefer" and move.service == wanted and move in game.legal_moves(seat)


@pytest.mark.parametrize("kind", ["prefer", "starve", "demolish"])
def test_computer_is_the_strong_computers_choice_from_the_seats_own_view(kind: str) -> None:
    game, seat = _first_position(kind)
    assert ahead.covered(game, seat, {kind: ahead.COMPUTER})
    assert not ahead.covered(game, seat, {k: ahead.COMPUTER for k in ahead.KINDS if k != kind})
    move = ahead.answer(game, seat, {kind: ahead.COMPUTER}, seed=7)
    assert move == choose(game, seat, "strong", seed=7), "the same choice as the deadline's computer"


def test_a_turn_is_never_answered_ahead() -> None:
    game = Game.new(["A", "B"], seed=3)
    seat = game.pending_seats()[0]
    assert not ahead.covered(game, seat, {k: ahead.COMPUTER for k in ahead.KINDS})


def _asked_outside_seat(game: Game, seat: int) -> bool:
    return any(d.kind in ahead.KINDS for d in game.pending_decisions(seat))


async def _play(svc: Context, rnd: random.Random) -> list[str]:
    """One random move by a pending player (a waste warning confirmed), then what the bot answers
    after it: the texts of the posts of the moves answered ahead."""
    game = await current(svc)
    seat = rnd.choice(game.pending_seats())
    user, move = PLAYERS[seat], str(rnd.choice(game.legal_moves(seat)))
    outcome = await svc_moves.play(svc, user.id, move, channel=CHANNEL)
    if outcome.announcement is None:
        outcome = await svc_moves.play(svc, user.id, move, channel=CHANNEL, confirmed=True)
    assert outcome.announcement is not None, outcome.reply.text
    after = await current(svc)
    asked = {PLAYERS[s].id for s in after.pending_seats() if _asked_outside_seat(after, s)}
    if any(p.ahead for p in (await svc.storage.players.prefs(asked)).values()):
        assert not asked & set(outcome.announcement.mentions), "a player who answers ahead is not pinged"
    more = await svc_advance.advance(svc, outcome.game)
    assert not (outcome.settled and more), "a settled move left the bot answers to make: it would never run"
    return [
        o.announcement.text
        for o in more
        if o.announcement is not None and "answer ahead" in o.announcement.text
    ]


async def test_a_game_where_everyone_answers_ahead_never_waits_on_a_decision_outside_a_turn(
    tmp_path: Path,
) -> None:
    svc = await open_service(tmp_path / "citta.db")
    for user in PLAYERS[:3]:
        await standing.set_ahead(svc, user.id, "prefer", ORDER)
        for kind in ("first", "starve", "demolish"):
            await standing.set_ahead(svc, user.id, kind, "computer")
    await svc_advance.advance(svc, (await start_game(svc, 3)).game)
    rnd, answered = random.Random(4), Counter[str]()
    while not (game := await current(svc)).is_over:
        assert not _asked_outside(game), "a decision outside a turn waits on a player"
        for text in await _play(svc, rnd):
            answered[text.split("`")[1].split()[0]] += 1
    assert answered["prefer"] and answered["demolish"] and answered["starve"], answered
    await svc.close()


async def test_without_answers_ahead_the_same_decisions_wait_on_the_player(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "citta.db")
    await svc_advance.advance(svc, (await start_game(svc, 3)).game)
    rnd = random.Random(4)
    while not _asked_outside(await current(svc)):
        assert not await _play(svc, rnd)
    await svc.close()


async def test_answers_ahead_are_shown_set_and_turned_off_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "citta.db")
    user = PLAYERS[0].id
    shown = (await standing.set_ahead(svc, user)).text
    assert shown.count("): you are asked") == 4, shown
    text = (await standing.set_ahead(svc, user, "prefer", "Health, education > culture")).text
    assert "`prefer` (which service a city with a tied voice uses): health › education › culture" in text
    assert (await svc.storage.players.prefs([user]))[user].ahead == {"prefer": ORDER}
    await standing.set_ahead(svc, user, "demolish", "computer")
    for kind, given, why in (("prefer", "gold", "is not an answer for `prefer`"),
                             ("starve", ORDER, "write `computer` or `off`"),
                             ("castle", "computer", "are for `prefer`, `first`")):  # fmt: skip
        with pytest.raises(CittaError, match=why):
            await standing.set_ahead(svc, user, kind, given)
    assert (await svc.storage.players.prefs([user]))[user].ahead == {"prefer": ORDER, "demolish": "computer"}
    await standing.set_ahead(svc, user, "prefer", "off")
    assert (await svc.storage.players.prefs([user]))[user].ahead == {"demolish": "computer"}
    await svc.close()
