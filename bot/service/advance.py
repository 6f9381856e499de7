"""The seats the bot plays answer (part of the service layer): computer players, and resigned and
absent players (see `bot.service.computer`), and the decisions players answered ahead
(`bot.service.ahead`).

`advance` plays them one move at a time — one commit, one post each — until a person must decide
or the game ends, each move thought out in a worker without holding the game's lock; a move stored
meanwhile makes it think again on the new position. A game that has ended gets its server's rank
roles brought up to date (`bot.service.rank_sync`: at once, not at the clock's next tick) and its
replay (`bot.service.ending.post_replay`).
"""

from __future__ import annotations

import logging

from bot.results import Outcome
from bot.service import rank_sync
from bot.service.ahead import answer_stored
from bot.service.commit import Made, commit, stage
from bot.service.computer import decide_move
from bot.service.context import Context
from bot.service.ending import post_replay
from bot.service.standing import standing

log = logging.getLogger(__name__)


async def advance(ctx: Context, game_id: int) -> list[Outcome]:
    """Play the seats the bot plays, and the decisions players answered ahead (`bot.service.ahead`),
    until a person must decide or the game ends: the outcomes."""
    outcomes: list[Outcome] = []
    while True:
        row = await ctx.storage.games.game(game_id)
        if row is not None and row.status == "over":
            if row.guild:
                await rank_sync.sync_due(ctx, row.guild)
            await post_replay(ctx, game_id)
        if row is None or row.status != "active" or row.paused is not None:
            return outcomes
        seats = await ctx.storage.games.seats(game_id)
        by_seat = {s.seat: s for s in seats}
        game = ctx.positions.look(row)
        if game.is_over:
            return outcomes
        pending = game.pending_seats()
        answers = await standing(ctx, game, seats)
        todo = [s for s in pending if by_seat[s].played_by_bot or s in answers]
        if not todo:
            return outcomes
        seat = by_seat[todo[0]]
        assert row.snapshot is not None and row.record is not None
        if seat.seat in answers:
            move = await ctx.workers.call(
                answer_stored, row.snapshot, row.record, seat.seat, answers[seat.seat], row.version
            )
            how = "ahead"
        else:
            move, how = await ctx.workers.call(
                decide_move, row.snapshot, row.record, seat, row.settings, row.version
            )
        async with ctx.game_lock(game_id):
            now_row = await ctx.storage.games.game(game_id)
            if now_row is None or now_row.version != row.version:
                continue
            game = ctx.positions.take(row)
            before = stage(game)
            made = [Made(seat.seat, move, game.play(seat.seat, move), auto=how != "ahead", how=how)]
            batch = await ctx.storage.moves.last_batch_id(game_id)
            outcome = await commit(ctx, row, game, seats, made, actor=None, before=before, batch=batch)
        if outcome is not None:
            log.info("game %s: the bot played %s for seat %s (%s)", game_id, move, seat.seat, how)
            outcomes.append(outcome)
