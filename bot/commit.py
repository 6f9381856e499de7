"""Storing moves and announcing them (part of the service layer).

After a player's move the bot answers at once for every seat it plays (computer players,
resigned players, absent players under the deadline policy) until a human must decide; all
those moves are stored in one transaction, with the clocks of the seats we now wait for, and
only then announced.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from dataclasses import dataclass, replace

from engine import Action, Event, Game

from . import clock, summary
from .base import ServiceBase
from .computer import decide, played_for
from .results import Button, DirectMessage, Message, Outcome, custom_id
from .rows import Clock, GameRow, GameSettings, MoveRow, SeatRow, Secret

Stage = tuple[int, str, int]


@dataclass
class Made:
    """A move made in this commit, with the events it caused."""

    seat: int
    action: Action
    events: list[Event]
    auto: bool = False
    how: str = ""
    """For a move the bot made: ``computer`` or ``default``."""


def stage(game: Game) -> Stage:
    """Year, phase and political round: the board is posted when this changes (setting ``round``)."""
    v = game.view(None)
    return v.year, v.phase, v.round


def bot_moves(
    game: Game, seats: list[SeatRow], settings: GameSettings, version: int, also: Collection[int] = ()
) -> list[Made]:
    """The bot's moves for the seats it plays (and ``also``) until a human must decide."""
    by_seat = {s.seat: s for s in seats}
    gone = {s.seat for s in seats if s.played_by_bot} | set(also)
    made: list[Made] = []
    while not game.is_over and (todo := [s for s in game.pending_seats() if s in gone]):
        seat = by_seat[todo[0]]
        if seat.seat in also and not seat.played_by_bot and not seat.resigned:
            seat = replace(seat, away=True)
        move, how = decide(game, seat, settings, seed=version + len(made))
        made.append(Made(seat.seat, move, game.play(seat.seat, move), auto=True, how=how))
    return made


class CommitMixin(ServiceBase):
    """Playing the bot's seats, storing a batch of moves, building the announcement."""

    async def _bot_moves(
        self, game: Game, seats: list[SeatRow], row: GameRow, also: Collection[int] = ()
    ) -> list[Made]:
        """`bot_moves` in a worker thread (a strong computer player thinks for a while)."""
        return await asyncio.to_thread(bot_moves, game, seats, row.settings, row.version, also)

    def _clocks(
        self, row: GameRow, game: Game, seats: list[SeatRow], gone: Collection[int] = ()
    ) -> list[Clock]:
        """Fresh clocks for the seats we wait for now (humans the bot does not play)."""
        by_seat = {s.seat: s for s in seats}
        now = self.now()
        return [
            clock.fresh(row.id, by_seat[s], now)
            for s in game.pending_seats()
            if not by_seat[s].played_by_bot and s not in gone
        ]

    async def _commit(
        self, row: GameRow, game: Game, seats: list[SeatRow], made: list[Made], *, actor: SeatRow | None,
        before: Stage | None = None, resign: int | None = None, away: Collection[int] = (), lead: str = "",
    ) -> Outcome | None:  # fmt: skip
        """Store the moves; None when another move got in first. Then build the announcement."""
        year = game.view(None).year
        rows, notes = [], []
        for k, m in enumerate(made, start=row.version + 1):
            public = [(e.kind, e.text) for e in summary.public(m.events)]
            reveals = any(e.reveals for e in m.events)
            line = summary.summary_line(m.events)
            rows.append(MoveRow(k, m.seat, str(m.action), line, m.auto, reveals=reveals, events=public))
            notes += [
                Secret(e.private_to, year, k, e.kind, e.text) for e in m.events if e.private_to is not None
            ]
        events = [e for m in made for e in m.events]
        lit = summary.highlight(events)
        status = "over" if game.is_over else "active"
        gone = {*away, *([resign] if resign is not None else [])}
        ok = await self.storage.commit_moves(
            row.id, based_on=row.version, moves=rows, record=game.record().model_dump(mode="json"),
            snapshot=game.snapshot(), status=status, highlight=lit, secrets=notes, now=self.now(),
            resign=resign, clocks=self._clocks(row, game, seats, gone), restart={m.seat for m in made},
            away=away,
        )  # fmt: skip
        if not ok:
            return None
        version = row.version + len(made)
        by_seat = {s.seat: s for s in seats}
        lines = [lead] if lead else []
        for m in made:
            by = played_for(by_seat[m.seat], m.how) if m.auto else ""
            lines.append(f"`{m.action}`{by} — {summary.summary_line(m.events)}")
        body = "\n".join(lines)
        if len(body) > summary.SUMMARY_LIMIT + 200:  # keep room for the mentions and a DM note
            body = body[: summary.SUMMARY_LIMIT + 199].rstrip() + "…"
        show_board = row.settings.board_every == "move" or before is None or before != stage(game)
        announcement = await self._announce(row.id, version, game, seats, body, lit if show_board else None)
        mine = [] if actor is None else [
            e.text for m in made if m.seat == actor.seat for e in m.events if e.private_to == actor.seat
        ]  # fmt: skip
        if actor is None:
            done = ""
        else:
            done = "You resigned." if resign is not None else f"You played `{made[0].action}`."
        users = {s.seat: s.user_id for s in seats}
        dms = tuple(
            DirectMessage(users[e.private_to], f"La Città (game {row.id}): {e.text}")
            for m in made
            for e in m.events
            if e.private_to is not None and e.kind == "peek" and users[e.private_to] > 0
        )
        return Outcome(
            reply=Message("\n".join([done, *mine]), ephemeral=True),
            announcement=announcement,
            dms=dms,
            game=row.id,
            peek_button=Button("Show my peek", custom_id(row.id, 0, None, "peek"), "primary"),
        )

    async def _announce(
        self, game_id: int, version: int, game: Game, seats: list[SeatRow], body: str, lit: list[str] | None
    ) -> Message:
        """``body``, who we wait for now (mentioned), the board (when ``lit`` is not None), buttons."""
        users = {s.seat: s.user_id for s in seats}
        names = {s.seat: s.name for s in seats}
        nxt, pinged = summary.next_line(game, users)
        return Message(
            f"{body}\n{nxt}" if nxt else body,
            image=None if lit is None else await self.render(game.view(None), lit),
            mentions=pinged,
            buttons=summary.decision_buttons(game, game_id, version, names),
        )
