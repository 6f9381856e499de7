"""Whole games through the service layer: 2 and 5 players to the final score, with restarts."""

from __future__ import annotations

import logging
import random
import threading
from pathlib import Path

import pytest
from test_bot_support import (
    CHANNEL,
    PLAYERS,
    PNG,
    PRIVATE_PATTERNS,
    SEED,
    FakeRenderer,
    Transcript,
    answer_all,
    current,
    open_service,
    start_game,
)

from bot.config import quiet_noisy_loggers
from bot.service import moves as svc_moves
from bot.service import questions as svc_questions
from bot.service.context import Context
from engine import Game, View


async def _play_whole_game(db: Path | str, n: int, setup: str, rng_seed: int, restarts: int) -> Transcript:
    renderer = FakeRenderer()
    svc = await open_service(db, renderer)
    log = Transcript()
    start = await start_game(svc, n, setup)
    log.add(start)
    rnd = random.Random(rng_seed)
    for _ in range(restarts):
        await answer_all(svc, rnd, log, 20 * n // 2)
        await svc.close()  # the bot stops ...
        svc = await open_service(db, renderer)  # ... and starts again on the same database
    while await answer_all(svc, rnd, log, 50):
        pass
    row = await svc.storage.games.latest_game(CHANNEL)
    assert row is not None and row.status == "over"
    game = await current(svc)
    assert game.is_over and game.scores is not None
    replayed = Game.replay(game.record()).snapshot()
    assert replayed == game.snapshot(), "the stored record replays to the stored state"
    moves = await svc.storage.moves.moves(row.id)
    assert [(m.seat, m.text) for m in moves] == game.record().moves
    assert row.version == len(moves)
    assert "The game is over" in log.public[-1 - len(log.outcomes[-1].announcement.buttons)]  # type: ignore[union-attr]
    score = await svc_questions.score(svc, CHANNEL)
    assert score.text.startswith("Final score")
    for p, s in zip(game.view(None).players, game.scores, strict=True):
        assert f"**{p.name}** {s}" in score.text
    assert all(
        o.announcement is None or [p.data for p in o.announcement.pictures] == [PNG] for o in log.outcomes
    )
    assert len(renderer.calls) >= len(moves) // 2
    await svc.close()
    return log


def _assert_nothing_hidden_in_public(log: Transcript, caplog: pytest.LogCaptureFixture) -> None:
    private = "\n".join(log.private)
    assert any(p.search(private) for p in PRIVATE_PATTERNS), "the game had private information to hide"
    public = "\n".join(log.public)
    for pattern in PRIVATE_PATTERNS:
        assert not pattern.search(public), pattern.pattern
    assert str(SEED) not in public and hex(SEED) not in public.lower()
    assert str(SEED) not in caplog.text
    for private in log.private:
        for line in private.splitlines():
            if any(p.search(line) for p in PRIVATE_PATTERNS):
                assert line not in caplog.text


async def test_two_player_game_reaches_the_final_score_across_a_restart(
    database: Path | str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    quiet_noisy_loggers()  # as setup_logging does in the bot
    log = await _play_whole_game(database, 2, "beginner", rng_seed=3, restarts=1)
    assert log.buttons_used > 5
    _assert_nothing_hidden_in_public(log, caplog)


async def test_five_player_game_reaches_the_final_score_across_two_restarts(
    database: Path | str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    quiet_noisy_loggers()  # as setup_logging does in the bot
    log = await _play_whole_game(database, 5, "experienced", rng_seed=5, restarts=2)
    assert log.buttons_used > 10
    _assert_nothing_hidden_in_public(log, caplog)
    mentions = [m for o in log.outcomes if o.announcement for m in o.announcement.mentions]
    assert set(mentions) == {u.id for u in PLAYERS}, "everyone is mentioned when it is their turn"


async def test_the_board_is_rendered_off_the_event_loop_with_the_move_highlighted(tmp_path: Path) -> None:
    renderer = FakeRenderer()
    svc = await open_service(tmp_path / "t.db", renderer)
    await start_game(svc, 2)
    game = await current(svc)
    seat = game.pending_seats()[0]
    build = next(a for a in game.legal_moves(seat) if a.verb == "build")
    await svc_moves.play(svc, PLAYERS[seat].id, str(build), channel=CHANNEL)
    assert renderer.calls[-1][1] == [build.hex]
    assert threading.get_ident() not in renderer.threads
    await svc.close()


async def test_a_failing_renderer_still_posts_the_move_without_a_picture(tmp_path: Path) -> None:
    def broken(
        view: View, *, highlight: list[str] | None = None, width: int = 1400, lang: str = "en"
    ) -> bytes:
        raise RuntimeError("no fonts")

    svc = await Context.open(tmp_path / "b.db", renderer=broken, seeds=lambda: SEED)
    start = await start_game(svc, 2)
    assert start.announcement is not None and start.announcement.pictures == ()
    assert "Next:" in start.announcement.text
    await svc.close()


async def test_the_real_renderer_draws_the_channel_board(tmp_path: Path) -> None:
    svc = await Context.open(tmp_path / "r.db", seeds=lambda: SEED)  # the default renderer
    start = await start_game(svc, 2)
    assert start.announcement is not None and start.announcement.pictures
    assert all(p.data.startswith(b"\x89PNG") and p.alt for p in start.announcement.pictures)
    await svc.close()
