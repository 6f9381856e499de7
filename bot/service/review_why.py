"""Why, at each move of a finished game (part of the service layer, issue 33): on a review's request,
the strong computer player's view of a move — what it would have played there and the difference
it expects, from the mover's own view at that moment (`engine.ai.judge`) — and the game's decisive
moments: the moves that lost most against the strong player's, each a jump into the review.

Both are asked for by a button of the review (🤔, ⚡) and answered in a message of their own, so the
review's steps never wait for them. The computer thinks in the workers' `aside` lane (it never
delays a game's posts or another review's pictures): one move for a fraction of a second, a whole
game for seconds (scripts/bench_judge.py). Each is made once per game and language (`Context.asked`)
and counted against the member's rate (`bot.service.limits`).

**Decision**: only for a finished game. While a game runs, the computer's view of its moves would
be a hint to its players about their own game (and, for a move of another seat, a look through that
seat's eyes).
"""

from __future__ import annotations

from typing import Any

import i18n
from bot import ids
from bot.errors import NotAllowed
from bot.results import Message, Option, Select
from bot.service import review
from bot.service.context import Context
from bot.service.history import number
from bot.service.visible import Viewer
from bot.storage.rows import GameRow, SeatRow
from engine import Game
from engine.ai import judge as strong
from i18n import _, _n

DECISIVE = 5
"""The most decisive moments listed."""


def judged(record: dict[str, Any], moved: int, seed: int, lang: str) -> strong.Judgement | None:
    """The judgement of the record's ``moved``-th move (from 1), from the position before it; its
    words in ``lang`` (runs in a worker, maybe another process: the language goes with the call)."""
    seat, text = record["moves"][moved - 1]
    for k, (game, _events) in enumerate(Game.walk(record)):
        if k == moved - 1:
            return strong.judge(game, seat, text, seed=seed, words=i18n.lang(lang))
    raise ValueError(f"the record has no move {moved}")


def game_judged(record: dict[str, Any], seed: int, lang: str) -> list[strong.Judgement | None]:
    """Every move of the record judged (`engine.ai.judge.judge_game`, its cheaper pass), in a worker."""
    return strong.judge_game(record, seed=seed, words=i18n.lang(lang))


async def why(ctx: Context, viewer: Viewer, row: GameRow, seats: list[SeatRow], *, guild: int | None,
              position: int) -> Message:  # fmt: skip
    """The strong computer's view of the move that led to ``position`` (the moves before it), privately."""
    await review.may_review(viewer, row, seats, guild=guild)
    record = _finished(row)
    moved = max(1, min(position, len(record["moves"])))
    code = i18n.current().code
    key = ("why", row.id, moved, code)
    if not ctx.asked.holds(key):
        ctx.limits.take(viewer.user_id, "why", now=ctx.clock())
    found: strong.Judgement | None = await ctx.asked.get(
        key, lambda: ctx.workers.aside(judged, record, moved, row.id, code)
    )
    names = {s.seat: s.name for s in seats}
    seat, played = record["moves"][moved - 1]
    lines = [_("🤔 **Move {move}**: {name} played `{played}`.", move=moved, name=names.get(seat, "?"),
               played=played)]  # fmt: skip
    lines.append(judgement_words(found, names.get(seat, "?")))
    return Message("\n".join(lines), ephemeral=True)


def judgement_words(found: strong.Judgement | None, name: str) -> str:
    """What the strong computer makes of a move, in a sentence (the current language)."""
    if found is None:
        return _("It was the only move {name} could make.", name=name)
    difference = found.difference
    if found.agrees:
        return _("The strong computer player would have played the same.")
    reason = f" ({found.why})" if found.why else ""
    if difference is None:
        return _("The strong computer player would have played `{best}`{reason}.", best=str(found.best),
                 reason=reason)  # fmt: skip
    if difference < 0.05:
        return _(
            "The strong computer player would have played `{best}`{reason}, but expects the move played "
            "to do as well.",
            best=str(found.best), reason=reason,
        )  # fmt: skip
    return _(
        "The strong computer player would have played `{best}`{reason}: it expects that to leave {name} "
        "about {points} victory points better off against the rivals.",
        best=str(found.best), reason=reason, name=name, points=number(difference),
    )  # fmt: skip


async def decisive(
    ctx: Context, viewer: Viewer, row: GameRow, seats: list[SeatRow], *, guild: int | None
) -> Message:
    """The game's decisive moments, privately, with a menu that turns the message into the review at one."""
    await review.may_review(viewer, row, seats, guild=guild)
    record = _finished(row)
    code = i18n.current().code
    key = ("decisive", row.id, code)
    if not ctx.asked.holds(key):
        ctx.limits.take(viewer.user_id, "decisive", now=ctx.clock())
    judged_all: list[strong.Judgement | None] = await ctx.asked.get(
        key, lambda: ctx.workers.aside(game_judged, record, row.id, code)
    )
    names = {s.seat: s.name for s in seats}
    picked = strong.decisive(judged_all, DECISIVE)
    head = _("⚡ **Decisive moments of game {game}**: the moves that lost most against the strong "
             "computer player's, in victory points against the rivals", game=row.id)  # fmt: skip
    if not picked:
        text = _("No move of game {game} lost more than half a point against the strong computer player's.",
                 game=row.id)  # fmt: skip
        return Message(f"{head}\n{text}", ephemeral=True)
    lines, options = [head], []
    for place, k in enumerate(picked, start=1):
        found = judged_all[k]
        assert found is not None and found.difference is not None
        name = names.get(found.seat, "?")
        line = _("{place}. Move {move}: {name} `{played}` — `{best}` was worth {points} more",
                 place=place, move=k + 1, name=name, played=str(found.played), best=str(found.best),
                 points=number(found.difference))  # fmt: skip
        lines.append(line)
        label = _("Move {move}: {name} `{played}`", move=k + 1, name=name, played=str(found.played))
        options.append(Option(label.replace("`", "")[:100], str(k + 1)))
    jump = Select(ids.review_id(row.id, 0, 8, select=True), _("Review one of these moves…"), tuple(options))
    count = _n("({count} move judged)", "({count} moves judged)", len(judged_all))
    return Message("\n".join([*lines, count]), ephemeral=True, selects=(jump,))


def _finished(row: GameRow) -> dict[str, Any]:
    """The record of a game that is over; `NotAllowed` for one that still runs or was abandoned."""
    if row.status != "over" or row.record is None:
        raise NotAllowed(
            _("The computer's view of the moves is given once a game is over: until then it would "
              "help its players.")
        )  # fmt: skip
    return row.record
