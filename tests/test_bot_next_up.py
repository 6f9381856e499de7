""" "You are next" (`bot.service.next_up`, ``/citta me next``): a player who asks for it gets a
direct message each time the player before them starts a turn — and only then."""

from __future__ import annotations

import random
from pathlib import Path

from test_bot_support import CHANNEL, PLAYERS, current, open_service, start_game

from bot.service import moves as svc_moves
from bot.service import next_up


async def test_the_player_after_the_one_whose_turn_opens_is_told_when_they_asked(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "citta.db")
    cid = PLAYERS[2]
    assert "no message" in (await next_up.set_next(svc, cid.id)).text
    assert "You get a direct message" in (await next_up.set_next(svc, cid.id, True)).text
    await start_game(svc, 3)
    rnd, told, expected = random.Random(2), 0, 0
    for _ in range(40):
        game = await current(svc)
        seat = game.pending_seats()[0]
        outcome = await svc_moves.play(svc, PLAYERS[seat].id, str(rnd.choice(game.legal_moves(seat))),
                                       channel=CHANNEL, confirmed=True)  # fmt: skip
        after = await current(svc)
        due = next_up.next_seat(after) == 2 and seat != 2 and after.state.turn_seat() != seat
        got = [dm for dm in outcome.dms if dm.user_id == cid.id and "you are next" in dm.text]
        assert len(got) == int(due), (after.state.round, after.state.turn_index, seat, outcome.dms)
        told += len(got)
        expected += due
    assert told == expected > 2, "the check saw several turns open before Cid's"
    assert "no message" in (await next_up.set_next(svc, cid.id, False)).text
    await svc.close()


def test_no_turn_follows_the_last_turn_of_the_years_last_round() -> None:
    from engine import Game

    game = Game.new(["A", "B", "C"], seed=1)
    while not (game.state.phase == "politics" and game.state.round == 5 and game.state.turn_index == 2):
        seat = game.pending_seats()[0]
        game.play(seat, game.legal_moves(seat)[0])
    assert next_up.next_seat(game) is None
