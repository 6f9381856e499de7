"""What one member may ask for again and again costs the bot once: the board, a replay and a hint
are made once per game version (a replay once per game and language) and kept; a member who asks
for new ones faster than anyone plays is told, privately, when to try again; others are not."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from test_bot_support import PLAYERS, Transcript, answer_all, current, play_one, start_game

from bot.errors import TooSoon
from bot.service import archive as svc_archive
from bot.service import describe as svc_describe
from bot.service import hint as svc_hint
from bot.service import questions as svc_questions
from bot.service.context import Context
from bot.service.pictures import default_renderer
from bot.service.visible import Viewer
from bot.service.workers import ThreadWorkers

T = TypeVar("T")
ANN, BOB = PLAYERS[0], PLAYERS[1]
CHANNEL, GUILD = 1000, 1


class Recording(ThreadWorkers):
    """Workers that note the functions sent to the `aside` lane and to the games' lane."""

    def __init__(self) -> None:
        self.aside_sent: list[str] = []
        self.game_sent: list[str] = []

    async def call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        self.game_sent.append(getattr(fn, "__name__", repr(fn)))
        return await super().call(fn, *args, **kwargs)

    async def aside(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        self.aside_sent.append(getattr(fn, "__name__", repr(fn)))
        return await asyncio.to_thread(fn, *args, **kwargs)


@pytest.fixture
def workers(svc: Context) -> Recording:
    svc.workers = Recording()
    assert isinstance(svc.workers, Recording)
    return svc.workers


async def test_the_board_asked_again_at_one_version_is_drawn_once_the_poster_aside(
    svc: Context, workers: Recording
) -> None:
    await start_game(svc, 2)
    assert workers.game_sent == ["post"], "the start post is drawn in the games' lane"
    workers.game_sent.clear()
    boards = [await svc_questions.board(svc, CHANNEL, user_id=u.id) for u in PLAYERS * 2]
    assert all(b.pictures == boards[0].pictures and b.pictures for b in boards)
    assert workers.game_sent == ["post"] and workers.aside_sent == [], "drawn once, as quick as a post"
    full = [await svc_questions.board(svc, CHANNEL, full=True, user_id=u.id) for u in PLAYERS]
    assert all(f.image == full[0].image and f.image for f in full)
    assert workers.aside_sent == [repr(svc.renderer)], "the poster once, in the private lane"


async def test_a_member_asking_for_the_board_again_and_again_is_told_when_to_try_again(
    svc: Context, workers: Recording
) -> None:
    """Each answer uploads the pictures, kept or not: every request counts."""
    await start_game(svc, 2)
    for full in (False, True, False, False):
        await svc_questions.board(svc, CHANNEL, full=full, user_id=ANN.id)
    drawn = len(workers.aside_sent) + len(workers.game_sent)
    with pytest.raises(TooSoon, match=r"^You asked for the board several times .*: try again in 5 s\.$"):
        await svc_questions.board(svc, CHANNEL, user_id=ANN.id)
    await svc_questions.board(svc, CHANNEL, user_id=BOB.id)  # another member is not held back
    clock = svc.clock
    clock.now += 5  # type: ignore[attr-defined]
    await svc_questions.board(svc, CHANNEL, user_id=ANN.id)
    assert len(workers.aside_sent) + len(workers.game_sent) == drawn, "nothing more was drawn"


async def test_a_member_asking_for_new_descriptions_faster_than_anyone_plays_is_told_when_to_try_again(
    svc: Context, workers: Recording
) -> None:
    """The position in words of one version is written once and costs nothing to ask again; the
    words of new positions, asked at once again and again, meet the limit."""
    await start_game(svc, 2)
    rnd, log = random.Random(5), Transcript()
    for _ in range(3):
        for _ in range(4):
            await svc_describe.describe(svc, CHANNEL, user_id=ANN.id)
        assert await play_one(svc, rnd, log)
    assert workers.aside_sent == ["position_words"] * 3
    with pytest.raises(TooSoon, match=r"the position in words.*try again in 10 s"):
        await svc_describe.describe(svc, CHANNEL, user_id=ANN.id)
    await svc_describe.describe(svc, CHANNEL, user_id=BOB.id)


async def test_a_hint_asked_again_at_one_position_is_thought_out_once(
    svc: Context, workers: Recording
) -> None:
    await start_game(svc, 2)
    game = await current(svc)
    mover = PLAYERS[game.pending_seats()[0]]
    hints = [await svc_hint.hint(svc, mover.id, channel=CHANNEL) for _ in range(6)]
    assert all(h == hints[0] for h in hints) and workers.aside_sent == ["hint_of"]


async def test_replays_are_drawn_once_and_each_member_gets_a_few_in_a_while(
    svc: Context, workers: Recording
) -> None:
    await start_game(svc, 2)
    await answer_all(svc, random.Random(3), Transcript(), 400)
    svc.renderer = default_renderer
    at_once = await asyncio.gather(
        *(svc_archive.replay(svc, GUILD, CHANNEL, Viewer.of(p.id, {CHANNEL})) for p in PLAYERS[:4])
    )
    assert all(r.image == at_once[0].image and r.image for r in at_once)
    assert workers.aside_sent == ["animation"], "four members asking at once: one drawing"
    await svc_archive.replay(svc, GUILD, CHANNEL, Viewer.of(ANN.id, {CHANNEL}))
    with pytest.raises(TooSoon, match=r"^You asked for a replay several times .*: try again in 30 s\.$"):
        await svc_archive.replay(svc, GUILD, CHANNEL, Viewer.of(ANN.id, {CHANNEL}))
    assert workers.aside_sent == ["animation"]
