"""Storing moves with their announcements (part of the service layer).

A change to a game and everything that announces it (the channel post with its board,
mentions and buttons, and the direct messages) are stored in one transaction: the post
waits in the outbox until the delivery task has sent it, so a crash can delay an
announcement but never lose it. The bot's own seats (computer players, resigned and absent
players) are played by `advance` after a player's move has been stored and announced, one
move and one post at a time, thinking in a worker process.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import i18n
from bot.results import (
    PEEK_LABEL,
    Button,
    DirectMessage,
    Drawing,
    Message,
    Outcome,
    Picture,
    Post,
    custom_id,
    unreached,
)
from bot.service import clock, summary
from bot.service.base import log
from bot.service.computer import played_for
from bot.service.drawings import new_key
from bot.service.ending import EndingMixin
from bot.service.workers import decide_move, plan_moves
from bot.storage.rows import Clock, GameRow, MoveRow, SeatRow, Secret
from engine import Action, Event, Game
from i18n import _

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
    s = game.state
    return s.year, s.phase, s.round


class CommitMixin(EndingMixin):
    """Playing the bot's seats, storing a batch of moves with the post that announces it."""

    async def _bot_moves(
        self, game: Game, seats: list[SeatRow], row: GameRow, also: Collection[int] = ()
    ) -> list[Made]:
        """The bot's moves for its seats (and ``also``) until a human must decide, planned in a
        worker and played here on ``game``."""
        if not any(s in {x.seat for x in seats if x.played_by_bot} | set(also) for s in game.pending_seats()):
            return []
        planned = await self.workers.call(
            plan_moves, game.snapshot(), game.record().model_dump(mode="json"), seats, row.settings,
            row.version, frozenset(also),
        )  # fmt: skip
        return [Made(seat, move, game.play(seat, move), auto=True, how=how) for seat, move, how in planned]

    async def advance(self, game_id: int) -> list[Outcome]:
        """Play the seats the bot plays, one move (one commit, one post) at a time, until a human
        must decide or the game ends. Each move is thought out in a worker without holding the
        game's lock; a move stored meanwhile makes it think again on the new position. A game
        that has ended gets its replay posted (`post_replay`)."""
        outcomes: list[Outcome] = []
        while True:
            row = await self.storage.game(game_id)
            if row is not None and row.status == "over":
                await self.post_replay(game_id)
            if row is None or row.status != "active" or row.paused is not None:
                return outcomes
            seats = await self.storage.seats(game_id)
            if not any(s.played_by_bot for s in seats):
                return outcomes  # every seat is a player's own (most moves: no position to restore)
            by_seat = {s.seat: s for s in seats}
            game = self.positions.look(row)
            todo = [s for s in game.pending_seats() if by_seat[s].played_by_bot]
            if game.is_over or not todo:
                return outcomes
            seat = by_seat[todo[0]]
            assert row.snapshot is not None and row.record is not None
            move, how = await self.workers.call(
                decide_move, row.snapshot, row.record, seat, row.settings, row.version
            )
            async with self.game_lock(game_id):
                now_row = await self.storage.game(game_id)
                if now_row is None or now_row.version != row.version:
                    continue
                game = self.positions.take(row)
                before = stage(game)
                made = [Made(seat.seat, move, game.play(seat.seat, move), auto=True, how=how)]
                batch = await self.storage.last_batch_id(game_id)
                outcome = await self._commit(row, game, seats, made, actor=None, before=before, batch=batch)
            if outcome is not None:
                log.info("game %s: the bot played %s for seat %s", game_id, move, seat.seat)
                outcomes.append(outcome)

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
        batch: int | None = None,
    ) -> Outcome | None:  # fmt: skip
        """Store the moves with their announcement; None when another move got in first."""
        year = game.state.year  # the secrets' year (as `View.year`, without drawing a view)
        rows, notes = [], []
        for k, m in enumerate(made, start=row.version + 1):
            public = [(e.kind, e.text) for e in summary.public(m.events)]
            said = [(e.message, e.values) for e in summary.public(m.events)]
            reveals = any(e.reveals for e in m.events)
            line = summary.summary_line(m.events)
            rows.append(
                MoveRow(k, m.seat, str(m.action), line, m.auto, reveals=reveals, events=public, messages=said)
            )
            notes += [
                Secret(e.private_to, year, k, e.kind, e.text, e.message, e.values)
                for e in m.events
                if e.private_to is not None
            ]
        events = [e for m in made for e in m.events]
        lit = summary.highlight(events)
        status = "over" if game.is_over else "active"
        gone = {*away, *([resign] if resign is not None else [])}
        version = row.version + len(made)
        outcome = await self._outcome(row, version, game, seats, made, actor=actor, resign=resign, lead=lead,
                                      lit=lit, before=before)  # fmt: skip
        record = game.record().model_dump(mode="json")
        ids = None
        try:
            async with self._ending(row, game, seats) as places:
                ids = await self.storage.commit_moves(
                    row.id, based_on=row.version, moves=rows, record=record, snapshot=game.snapshot(),
                    status=status, highlight=lit, secrets=notes, now=self.now(), resign=resign,
                    clocks=self._clocks(row, game, seats, gone), restart={m.seat for m in made}, away=away,
                    posts=[Post(row.channel, outcome=outcome), *self._final_posts(row, places)],
                    batch=batch, guild=row.guild or 0, placings=places,
                )  # fmt: skip
        finally:
            if ids is None:  # not stored (another move got in first, or it failed): no post of it
                self._let_go(outcome)
        if ids is None:
            return None
        self.positions.keep(row.id, version, record, game)
        bots = {s.seat for s in seats if s.played_by_bot} | gone
        return outcome.stored(ids, settled=not game.is_over and not bots & set(game.pending_seats()))

    def _let_go(self, outcome: Outcome) -> None:
        """Let go of the pictures drawn for ``outcome``'s post, which was not stored."""
        if outcome.announcement is not None and outcome.announcement.drawing is not None:
            self.drawings.drop(outcome.announcement.drawing)

    async def _outcome(
        self, row: GameRow, version: int, game: Game, seats: list[SeatRow], made: list[Made], *,
        actor: SeatRow | None, resign: int | None, lead: str, lit: list[str], before: Stage | None,
    ) -> Outcome:  # fmt: skip
        """The announcement of ``made`` (the channel post in the game's language, ``lead``
        already in it), the DMs (each in its reader's language) and the actor's reply (in the
        current language: the actor's)."""
        by_seat = {s.seat: s for s in seats}
        reader = i18n.current()
        with i18n.speaking(row.settings.language) as words:  # the channel's
            lines = [lead] if lead else []
            for m in made:
                by = played_for(by_seat[m.seat], m.how) if m.auto else ""
                lines.append(f"`{m.action}`{by} — {summary.summary_line(m.events, words=words)}")
            body = "\n".join(lines)
            if len(body) > summary.SUMMARY_LIMIT + 200:  # keep room for the mentions and a DM note
                body = body[: summary.SUMMARY_LIMIT + 199].rstrip() + "…"
            show_board = row.settings.board_every == "move" or before is None or before != stage(game)
            announcement = await self._announce(
                row.id, version, game, seats, body, lit if show_board else None
            )
            peek = Button(_(PEEK_LABEL), custom_id(row.id, 0, None, "peek"), "primary")
            note = unreached()
        me = None if actor is None else actor.seat
        mine = [e.told(reader) for m in made if m.seat == me for e in m.events if e.private_to == me]
        if actor is None:
            done = ""
        else:
            done = (
                _("You resigned.") if resign is not None else _("You played `{move}`.", move=made[0].action)
            )
        users = {s.seat: s.user_id for s in seats}
        peeks = [
            (users[e.private_to], e)
            for m in made
            for e in m.events
            if e.private_to is not None and e.kind == "peek" and users[e.private_to] > 0
        ]
        dms = await self._direct(row, peeks, actor=None if actor is None else (actor.user_id, reader.code))
        return Outcome(
            reply=Message("\n".join([done, *mine]), ephemeral=True),
            announcement=announcement,
            dms=dms,
            game=row.id,
            peek_button=peek,
            unreached=note,
        )

    async def _direct(
        self, row: GameRow, told: list[tuple[int, Event]], actor: tuple[int, str] | None = None
    ) -> tuple[DirectMessage, ...]:
        """Each user's private event as a direct message, in their own language: the one they
        chose, else (for the ``actor``: user id and the language they read now) the one they are
        reading, else the game's."""
        if not told:
            return ()
        prefs = await self.storage.prefs([user for user, _e in told])
        dms = []
        for user, event in told:
            reading = actor[1] if actor is not None and actor[0] == user else row.settings.language
            with i18n.speaking(prefs[user].language or reading) as words:
                text = _("La Città (game {game}): {text}", game=row.id, text=event.told(words))
            dms.append(DirectMessage(user, text))
        return tuple(dms)

    async def _announce(
        self, game_id: int, version: int, game: Game, seats: list[SeatRow], body: str, lit: list[str] | None,
        last_move: str | None = None,
    ) -> Message:  # fmt: skip
        """``body``, who we wait for now (mentioned), the board (when ``lit`` is not None), buttons:
        a channel post, written in the current language (call it speaking the game's). The
        pictures' alt text tells ``last_move`` (default: the body), as plain text."""
        users = {s.seat: s.user_id for s in seats}
        names = {s.seat: s.name for s in seats}
        nxt, pinged = summary.next_line(game, users)
        pending, view = game.pending_seats(), game.view(None)
        drawing: Drawing | None = None
        pictures: tuple[Picture, ...] = ()
        if lit is not None:  # the post stores what its pictures are drawn from, not them
            drawing = Drawing(new_key(), view.model_dump_json(), tuple(lit),
                              summary.plain(body if last_move is None else last_move),
                              pending[0] if pending else None, i18n.current().code)  # fmt: skip
            pictures = await self.pictures(
                view, lit, last_move=drawing.last_move, focus=drawing.focus, lang=drawing.lang, game=game_id
            )
            if pictures:
                self.drawings.keep(drawing, pictures)
            else:  # none drawn (no renderer, or it failed): the post goes without, as it is
                drawing = None
        numbers = summary.numbers_line(view, pending)
        return Message(
            "\n".join(t for t in (body, nxt, numbers) if t),
            pictures=pictures,
            mentions=pinged,
            buttons=summary.decision_buttons(game, game_id, version, names),
            drawing=drawing,
        )
