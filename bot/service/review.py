"""A game move by move, privately (``/citta-review``, part of the service layer): one message with
the pictures of the position after a move (a turn post's pictures, the move ringed), the move in
words, ⏮ ◀ ▶ ⏭ and a menu to jump to a year or a political round.

The review is driven by the stored record (`engine.Game.walk`), so records of every version open
in it, and its position rides in its components' ids (`bot.ids.review_id`): it goes on after a
restart, for a game of any length.

**Decision** (what a review shows): a finished game (``over``) everything — the Voice of the People
cards as they were drawn, every player's private events; a game that is still running (or was
abandoned) only what the asker's seat could see at that moment, or a spectator if they have no
seat: a polled card appears to the one who polled it, from the poll on. Who asks decides it at
every step, never the component's id. Who may review a game at all is who is shown it in the
server's history (`bot.service.visible`: its players, and members who can view its channel); in a
direct message with the bot, its players only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import i18n
from bot import ids
from bot.errors import NoGame
from bot.results import Button, Message, Option, Select
from bot.service import pictures, summary
from bot.service.commit import stage
from bot.service.context import Context
from bot.service.visible import Viewer, sees
from bot.storage.rows import GameRow, SeatRow
from engine import Event, Game, View
from i18n import _, _n

Stage = tuple[int, str, int]
MENU = 25
"""The most options of the menu (Discord's limit)."""


@dataclass(frozen=True)
class Position:
    """The position after ``moved`` moves of a record as the asker may see it: the view, the move
    that led to it (seat and notation; None before the first) and its events they may read."""

    moved: int
    count: int
    seat: int | None
    """The asker's seat (None: not a player)."""
    view: View
    move: tuple[int, str] | None
    events: list[Event]
    stages: list[Stage]
    """The stage (year, phase, political round) after each number of moves, 0 to ``count``."""


async def review(
    ctx: Context, viewer: Viewer, *, guild: int | None, channel: int, game_id: int | None, move: int | None
) -> Message:
    """The review of ``game_id`` (default: the channel's latest game) after ``move`` moves (default:
    the latest position); a move number past the end shows the end."""
    if game_id is None and guild is None:
        raise NoGame(_("Say which game to review: `/citta-review game:` and its number."))
    row = await (
        ctx.storage.games.game(game_id) if game_id is not None else ctx.storage.games.latest_game(channel)
    )
    seats = await ctx.storage.games.seats(row.id) if row is not None else []
    await _check(viewer, guild, row, seats, asked=game_id)
    assert row is not None
    ctx.limits.take(viewer.user_id, "review", now=ctx.clock())
    return await _shown(ctx, row, seats, viewer.user_id, move)


async def step(ctx: Context, viewer: Viewer, row: GameRow, seats: list[SeatRow], *, guild: int | None,
               position: int) -> Message:  # fmt: skip
    """A press of the review's step to ``position`` (a button's, or the menu's value)."""
    await _check(viewer, guild, row, seats, asked=row.id)
    ctx.limits.take(viewer.user_id, "review", now=ctx.clock())
    return await _shown(ctx, row, seats, viewer.user_id, position)


async def may_review(viewer: Viewer, row: GameRow, seats: list[SeatRow], *, guild: int | None) -> None:
    """Raise unless ``viewer`` may review ``row`` (asked before a step's answer is put off: a refusal
    is answered at once)."""
    await _check(viewer, guild, row, seats, asked=row.id)


async def _check(
    viewer: Viewer, guild: int | None, row: GameRow | None, seats: list[SeatRow], *, asked: int | None
) -> None:
    """Raise unless ``viewer`` may review ``row``; a game they may not see is one that does not exist."""
    players = [s.user_id for s in seats]
    if guild is None:
        shown = row is not None and viewer.user_id in players
    else:
        shown = row is not None and (row.guild or 0) == guild and await sees(viewer, row.channel, players)
    if row is None or not shown:
        if guild is None:
            raise NoGame(_("There is no such game among yours."))
        raise NoGame(_("There is no such game on this server.") if asked else _("No game was played here."))
    if row.record is None or row.status == "lobby":
        raise NoGame(_("Game {game} has not started: there is nothing to review yet.", game=row.id))


def position(record: dict[str, Any], moved: int | None, *, seat: int | None, over: bool) -> Position:
    """The game of ``record`` walked to ``moved`` moves (None: all; past the end: the end), as
    ``seat`` (None: a spectator) may see it; ``over``: everything (see the module's **Decision**)."""
    count = len(record["moves"])
    at = count if moved is None else max(0, min(moved, count))
    stages: list[Stage] = []
    found: tuple[View, list[Event]] | None = None
    for k, (game, events) in enumerate(Game.walk(record)):
        stages.append(stage(game))
        if k == at:
            view = game.open_view() if over else game.view(seat)
            found = view, [e for e in events if over or e.private_to is None or e.private_to == seat]
    assert found is not None
    moves = record["moves"]
    move = None if at == 0 else (int(moves[at - 1][0]), str(moves[at - 1][1]))
    return Position(at, count, seat, found[0], move, found[1], stages)


def asker_seat(seats: Sequence[SeatRow], user_id: int) -> int | None:
    """The seat of ``user_id`` in a game (None: they do not play in it)."""
    return next((s.seat for s in seats if s.user_id == user_id and user_id > 0), None)


async def _shown(
    ctx: Context, row: GameRow, seats: list[SeatRow], user_id: int, moved: int | None
) -> Message:
    """The review's message at ``moved`` moves, in the reader's language (the current one)."""
    assert row.record is not None
    at = position(row.record, moved, seat=asker_seat(seats, user_id), over=row.status == "over")
    head, said = words_of(at, row.id, {s.seat: s.name for s in seats})
    drawn = await pictures.post_pictures(
        ctx, at.view, summary.highlight(at.events), last_move=summary.plain(said or head), focus=None,
        lang=i18n.current().code, game=row.id,
    )  # fmt: skip
    buttons = steps(row.id, at) + (asks(row.id, at) if row.status == "over" else ())
    return Message(
        summary.cut("\n".join(t for t in (head, said) if t), 1900), pictures=drawn, ephemeral=True,
        buttons=buttons, selects=(menu(row.id, at),),
    )  # fmt: skip


def words_of(at: Position, game: int, names: Mapping[int, str]) -> tuple[str, str]:
    """What a review says at ``at``, in the current language: its heading (the game, the move's number,
    the year and round) and the move in words (who played what, and what happened; "" before the
    first move). The pictures are drawn from ``at.view``, the move's hexes ringed (`summary.highlight`)."""
    words = i18n.current()
    if at.move is None:
        head = _n(
            "🔎 **Game {game}**, before the first move ({count} move in all)",
            "🔎 **Game {game}**, before the first move ({count} moves in all)",
            at.count,
            game=game,
        )
        return f"{head} · {summary.when(at.view)}", ""
    head = _("🔎 **Game {game}**, move {move} of {count}", game=game, move=at.moved, count=at.count)
    seat, notation = at.move
    line = summary.summary_line(at.events, words=words)
    mine = [
        e.told(words) if e.private_to == at.seat
        else _("🔒 What only {name} saw: {text}", name=names.get(e.private_to, "?"), text=e.told(words))
        for e in at.events if e.private_to is not None
    ]  # fmt: skip
    said = f"**{names.get(seat, '?')}** `{notation}` — " + " ".join([line, *mine]).strip()
    return f"{head} · {summary.when(at.view)}", said


def steps(game: int, at: Position) -> tuple[Button, ...]:
    """⏮ ◀ ▶ ⏭, to the `targets`."""
    return tuple(
        Button(label, ids.review_id(game, target, place))
        for place, (label, target) in enumerate(zip(("⏮", "◀", "▶", "⏭"), targets(at), strict=True))
    )


def targets(at: Position) -> tuple[int, int, int, int]:
    """Where ⏮ ◀ ▶ ⏭ lead from ``at`` (numbers of moves; local play's ``[ p n ]`` too): the start of
    this political round or phase (of the one before, when at its start), a move back, a move on,
    the start of the next round or phase (the end, after the last)."""
    starts = _starts(at.stages)
    back = max((k for k in starts if k < at.moved), default=0)
    on = min((k for k in starts if k > at.moved), default=at.count)
    return back, max(0, at.moved - 1), min(at.count, at.moved + 1), on


def asks(game: int, at: Position) -> tuple[Button, ...]:
    """A finished game's questions to the strong computer (`bot.service.review_why`): 🤔 why this move
    (none before the first), ⚡ the game's decisive moments."""
    why = (Button(_("🤔 Why this move?"), ids.why_id(game, at.moved)),) if at.moved else ()
    return (*why, Button(_("⚡ Decisive moments"), ids.decisive_id(game)))


def menu(game: int, at: Position) -> Select:
    """The menu: the start, each year's first position, each round and phase of the year shown, the end."""
    starts = _starts(at.stages)
    year = at.stages[at.moved][0]
    picked: dict[int, str] = {0: _("The start")}
    for k in starts:
        y, phase, political_round = at.stages[k]
        if y == year:
            picked[k] = summary.stage_words(y, phase, political_round)
        elif y != at.stages[k - 1][0]:  # (its first political rounds may pass without a move)
            picked[k] = _("Year {year} of 6", year=y)
    picked[at.count] = _n("The end ({count} move)", "The end ({count} moves)", at.count)
    chosen = sorted(picked.items())
    if len(chosen) > MENU:  # (never with six years: kept within Discord's limit all the same)
        chosen = chosen[: MENU - 1] + chosen[-1:]
    options = tuple(
        Option(label[:100], str(k), _("after move {move}", move=k) if k else "") for k, label in chosen
    )
    return Select(ids.review_id(game, at.moved, 9, select=True), _("Jump to a year or a round…"), options)


def _starts(stages: list[Stage]) -> list[int]:
    """The numbers of moves after which a new political round or phase has begun."""
    return [k for k in range(1, len(stages)) if stages[k] != stages[k - 1]]
