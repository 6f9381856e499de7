"""The bot's service layer: every command and button, Discord-agnostic (plain data in and out).

The cogs call these methods with ids and names; the results (`bot.results`) say what to
reply, what to post in the channel, whom to DM and which buttons to attach. Each move is
checked by the engine, stored in one transaction with a version check, and only then
announced; the board is rendered off the event loop by an injected renderer.
"""

from __future__ import annotations

from dataclasses import replace

import i18n
from bot.errors import AlreadyMade, CittaError, MoveRefused, NoGame, NotAllowed
from bot.results import Button, Choice, Message, Outcome, User, custom_id
from bot.service import clock, summary
from bot.service.absence import AbsenceMixin
from bot.service.access import AccessMixin
from bot.service.archive import ArchiveMixin
from bot.service.base import ATTEMPTS, Renderer, ServiceBase, default_renderer, log
from bot.service.choices import choices_for
from bot.service.commit import CommitMixin, Made, stage
from bot.service.hint import HintMixin
from bot.service.lobby import LobbyMixin
from bot.service.panel import PanelMixin
from bot.service.recap import RecapMixin
from bot.service.reminders import TickMixin
from bot.service.resume import ResumeMixin
from bot.service.rules_help import rules_text
from bot.service.settings import SettingsMixin
from bot.service.undo import UndoMixin
from bot.storage.rows import GameRow, SeatRow
from engine import Action, Game, IllegalMove, MalformedMove
from i18n import _

__all__ = ["CittaService", "Renderer", "ServiceBase", "default_renderer"]


def _canonical(text: str) -> str | None:
    """The notation's canonical form of a typed move; None when it does not parse."""
    try:
        return str(Action.parse(text))
    except MalformedMove:
        return None


def _same_move(stored: str, typed: str | None) -> bool:
    """Whether ``typed`` (canonical) asks for the move ``stored``: the same, or ``found HEX``
    without its source, which the record keeps in full (``found HEX from HEX2``).

    >>> _same_move("found I9 from L11", "found I9"), _same_move("found I9 from L11", "found J9")
    (True, False)
    """
    return typed is not None and (stored == typed or stored.startswith(f"{typed} from "))


def _tag(seat: SeatRow, now: int) -> str:
    """What is special about a seat: resigned, a computer, away, on vacation."""
    if seat.resigned:
        return " " + _("(resigned)")
    if seat.computer:
        return " " + _("(computer, {level})", level=_(seat.ai_level or "basic"))
    if seat.away:
        return " " + _("(away: the bot plays for them)")
    return " " + _("(on vacation)") if clock.on_vacation(seat, now) else ""


class CittaService(
    AccessMixin,
    ArchiveMixin,
    LobbyMixin,
    PanelMixin,
    SettingsMixin,
    AbsenceMixin,
    TickMixin,
    ResumeMixin,
    UndoMixin,
    RecapMixin,
    HintMixin,
    CommitMixin,
    ServiceBase,
):
    """Games in channels: lobbies, moves, questions, clocks. One instance per bot (or per test)."""

    # --- playing --------------------------------------------------------------------

    async def play(
        self,
        user_id: int,
        text: str,
        *,
        channel: int | None = None,
        game_id: int | None = None,
        based_on: int | None = None,
        seat: int | None = None,
        confirmed: bool = False,
    ) -> Outcome:
        """Play ``text`` for the user's seat; raises a `CittaError` (nothing stored) if refused.

        ``based_on`` is the game version the player saw: a button carries it; for a typed move
        it is the version when the request arrived. If the seat has moved since (for a typed
        move: made this same move since), the move was already made, so a second copy of the
        same request applies once. A move that loses the race against another move is checked
        again on the new position. The seats the bot plays answer afterwards (`advance`).
        """
        first = await self._game_row(channel, game_id)
        async with self.game_lock(first.id):
            return await self._play(
                user_id, text, first, first.version if based_on is None else based_on, seat, confirmed
            )

    async def _play(
        self, user_id: int, text: str, first: GameRow, based_on: int, seat: int | None, confirmed: bool
    ) -> Outcome:
        for attempt in range(ATTEMPTS):
            # The row read before the lock will do for a first try: a move stored meanwhile makes
            # the commit find a newer version (and a refusal look again: `_current`), and the
            # next try reads the game again.
            row = first if attempt == 0 else await self._game_row(None, first.id)
            me, seats = await self._seat_of(row, user_id)
            if seat is not None and me.seat != seat:
                owner = next((s.name for s in seats if s.seat == seat), _("another player"))
                raise NotAllowed(_("This button is for {owner}.", owner=owner))
            if me.resigned:
                raise NotAllowed(_("You have resigned from this game."))
            if me.away:
                await self.storage.come_back(row.id, me.seat)
                me = replace(me, away=False)
                seats = [me if s.seat == me.seat else s for s in seats]
            if based_on > row.version:
                raise NotAllowed(_("That button does not belong to this game's current position."))
            same = None if seat is not None else _canonical(text)
            # Nothing was made since ``based_on`` on a row still at it (were the row behind, the
            # commit would fail and the next try, on a newer row, look).
            copy = (seat is not None or same is not None) and row.version > based_on
            earlier = await self.storage.moved_since(row.id, based_on, me.seat, same) if copy else None
            if earlier is not None:
                raise AlreadyMade(
                    _(
                        "That move was already made: your `{move}` (move {number}) counts.",
                        move=earlier.text,
                        number=earlier.number,
                    )
                )
            game = self.positions.take(row)
            try:
                action = game.check(me.seat, text)[0]
            except IllegalMove as e:
                if not await self._current(row, first):
                    continue
                raise await self._refusal(row, game, me, text, e) from None
            if not confirmed and (warning := summary.waste_warning(game, action)):
                if not await self._current(row, first):
                    continue
                cid = custom_id(row.id, row.version, me.seat, move=str(action))
                button = Button(_("Play {move} anyway", move=action), cid, "danger")
                return Outcome(reply=Message(warning, ephemeral=True, buttons=(button,)), game=row.id)
            before = stage(game)
            made = [Made(me.seat, action, game.play(me.seat, action))]
            outcome = await self._commit(row, game, seats, made, actor=me, before=before)
            if outcome is not None:
                log.info("game %s: seat %s played %s", row.id, me.seat, action)
                return outcome
        raise AlreadyMade(_("That move was already made."))

    async def _current(self, row: GameRow, first: GameRow) -> bool:
        """Whether a move may be refused (or questioned) on ``row``: a row read inside the game's
        lock may; ``first``, read before it, only while the game is still at its version (a move
        stored as this one waited for the lock may have made it legal)."""
        return row is not first or (await self._game_row(None, first.id)).version == first.version

    async def _refusal(
        self, row: GameRow, game: Game, me: SeatRow, text: str, error: IllegalMove
    ) -> CittaError:
        """Why a move is refused. When it is the seat's last stored move (the player tries again,
        e.g. after the bot restarted before announcing it), say that it counted."""
        last = await self.storage.last_move_of(row.id, me.seat)
        if last is not None and not last.auto and _same_move(last.text, _canonical(text)):
            users = {s.seat: s.user_id for s in await self.storage.seats(row.id)}
            waiting = summary.next_line(game, users)[0]
            made = _(
                "Your move `{move}` was already made (move {number}, {when}) and counts.",
                move=last.text, number=last.number, when=f"<t:{last.created_at}:R>",
            )  # fmt: skip
            return AlreadyMade(f"{made} {waiting}".strip())
        return MoveRefused(error.told(i18n.current()))

    async def choices(self, channel: int, user_id: int, typed: str) -> list[Choice]:
        """Autocomplete for ``/citta play``: the user's legal moves fitting ``typed`` (max 25)."""
        table = await self.storage.open_game_with_seats(channel)
        if table is None or table[0].status != "active":
            return []
        row, seats = table
        mine = next((s for s in seats if s.user_id == user_id), None)
        if mine is None:
            return []
        return choices_for(self.positions.look(row), mine.seat, typed)

    # --- questions ------------------------------------------------------------------

    async def status(
        self, channel: int, *, guild: int | None = None, user_id: int = 0, can_manage: bool = False
    ) -> Message:
        """Year, phase, round, who we wait for and since when. In a channel without an open game,
        given the ``guild``: the user's paused games there, to go on with here (`move_offer`)."""
        if guild is not None and await self.storage.open_game(channel) is None:
            offer = await self.move_offer(guild, user_id, can_manage)
            if offer is not None:
                return offer
        row = await self._game_row(channel, None, active=False)
        seats = await self.storage.seats(row.id)
        listing = ", ".join(s.name + _tag(s, self.now()) for s in seats)
        setup = summary.setup_name(row.setup)
        if row.status == "lobby":
            text = _("Lobby ({setup}): {players}. The host starts the game.", setup=setup, players=listing)
            return Message(text, ephemeral=True)
        game = self._restore(row)
        users = {s.seat: s.user_id for s in seats}
        head = _("Game {game} ({setup}; {players}). {when}.", game=row.id, setup=setup, players=listing,
                 when=summary.when(game.view(None)))  # fmt: skip
        if row.paused is not None:
            head += "\n" + _("⏸ The game is paused: {why}.", why=row.paused)
        elif row.blocked is not None:
            head += "\n" + _(
                "⚠️ I cannot post in this channel: I lack the **{permission}** permission.",
                permission=row.blocked,
            )
        if game.is_over:
            return Message(f"{head}\n{summary.standings(game.view(None))}", ephemeral=True)
        who = summary.waited_for(game, users)[0]
        ends = [
            f"{seats[c.seat].name} <t:{end}:R>"
            for c in await self.storage.clocks(row.id)
            if (end := clock.deadline(c, row.settings)) is not None
        ]
        lines = [head, _("Next: {who} — waiting since {since}.", who=who, since=f"<t:{row.updated_at}:R>")]
        if ends:
            lines.append(_("Time is up for {players}.", players=", ".join(ends)))
        return Message("\n".join(lines), ephemeral=True)

    async def board(self, channel: int, *, full: bool = False) -> Message:
        """The current board (spectator view) with the last move highlighted: the phone
        pictures, or with ``full`` the whole detailed poster for a large screen."""
        row = await self._game_row(channel, None, active=False)
        if row.snapshot is None:
            raise NoGame(_("The game has not started yet: there is no board to show."))
        game = self._restore(row)
        view = game.view(None)
        text = f"{summary.when(view)}."
        if full:
            return Message(text, image=await self.render(view, row.highlight), ephemeral=True)
        moves = await self.storage.moves(row.id, 1)
        last = f"{moves[-1].text} — {moves[-1].summary_in(i18n.current())}" if moves else ""
        pending = game.pending_seats()
        focus = pending[0] if pending else None
        pictures = await self.pictures(view, row.highlight, last_move=last, focus=focus, game=row.id)
        return Message(text, pictures=pictures, ephemeral=True)

    async def log(self, channel: int, last: int = 10) -> Message:
        """The last ``last`` moves with what they did (public events only)."""
        row = await self._game_row(channel, None, active=False)
        seats = {s.seat: s.name for s in await self.storage.seats(row.id)}
        moves = await self.storage.moves(row.id, max(1, min(last, 50)))
        if not moves:
            return Message(_("No move has been made yet."), ephemeral=True)
        words = i18n.current()
        lines = [
            f"{m.number}. **{seats.get(m.seat, '?')}** `{m.text}` — {m.summary_in(words)}" for m in moves
        ]
        text = "\n".join(lines)
        while len(text) > 1900 and len(lines) > 1:
            lines.pop(0)
            text = "\n".join(lines)
        return Message(text[:1990], ephemeral=True)

    async def score(self, channel: int) -> Message:
        row = await self._game_row(channel, None, active=False)
        if row.snapshot is None:
            raise NoGame(_("The game has not started yet."))
        return Message(summary.standings(self._restore(row).view(None)), ephemeral=True)

    async def secrets(
        self, user_id: int, *, channel: int | None = None, game_id: int | None = None
    ) -> Message:
        """The user's private information of this year (polled cards, drawn cards), privately."""
        row = await self._game_row(channel, game_id, active=False)
        if row.snapshot is None:
            raise NoGame(_("The game has not started yet."))
        me = (await self._seat_of(row, user_id))[0]
        view = self._restore(row).view(me.seat)
        words = i18n.current()
        secrets = await self.storage.secrets(row.id, me.seat, view.year)
        drawn = [s.told(words) for s in secrets if s.kind != "peek"]
        return Message(summary.peek_text(view, drawn), ephemeral=True)

    @staticmethod
    def rules(topic: str | None = None) -> Message:
        return Message(rules_text(topic), ephemeral=True)

    # --- leaving --------------------------------------------------------------------

    async def resign(self, user_id: int, *, channel: int) -> Outcome:
        """Leave a lobby, or resign a running game (the bot then makes the least harmful moves)."""
        row = await self._game_row(channel, None, active=False)
        if row.status == "lobby":
            left = await self.leave(row.id, User(user_id, ""))
            bye = Message(_("You left the lobby."), ephemeral=True)
            return await self._told(row, Outcome(bye, left.reply, game=row.id))
        row = await self._game_row(channel, None)
        async with self.game_lock(row.id):
            return await self._resign(row, user_id, channel)

    async def _resign(self, row: GameRow, user_id: int, channel: int) -> Outcome:
        for _attempt in range(ATTEMPTS):
            me, seats = await self._seat_of(row, user_id)
            if me.resigned:
                raise NotAllowed(_("You have already resigned."))
            game = self._restore(row)
            seats = [replace(s, resigned=True) if s.seat == me.seat else s for s in seats]
            with i18n.speaking(row.settings.language):  # the channel's
                lead = _("**{name}** resigns; the bot makes their moves from now on.", name=me.name)
                abandoned = _("Every player has resigned: the game is abandoned.")
                over = Message(f"{lead} {abandoned}")
            if all(s.resigned or s.computer for s in seats):
                await self.storage.set_status(row.id, "abandoned", now=self.now())
                return await self._told(
                    row, Outcome(Message(_("You resigned."), ephemeral=True), over, game=row.id)
                )
            before = stage(game)
            made = await self._bot_moves(game, seats, row)
            outcome = await self._commit(
                row, game, seats, made, actor=me, before=before, resign=me.seat, lead=lead
            )
            if outcome is not None:
                return outcome
            row = await self._game_row(channel, None)
        raise AlreadyMade(_("The game changed while resigning; try again."))

    async def abandon_prompt(self, user_id: int, *, channel: int, can_manage: bool) -> Message:
        """The private confirmation (with its button) for abandoning the channel's game."""
        row = await self._game_row(channel, None, active=False)
        self._check_abandon(row, user_id, can_manage)
        button = Button(_("Abandon the game"), custom_id(row.id, row.version, None, "abandon"), "danger")
        return Message(
            _("Abandon this game for everyone? This cannot be undone."), ephemeral=True, buttons=(button,)
        )

    @staticmethod
    def _check_abandon(row: GameRow, user_id: int, can_manage: bool) -> None:
        if row.status not in ("lobby", "active"):
            raise NoGame(_("That game is already finished."))
        if user_id != row.host and not can_manage:
            raise NotAllowed(_("Only the host or a member with Manage Server can abandon the game."))

    async def abandon(self, user_id: int, *, game_id: int, can_manage: bool) -> Outcome:
        row = await self._game_row(None, game_id, active=False)
        self._check_abandon(row, user_id, can_manage)
        if not await self.storage.set_status(row.id, "abandoned", now=self.now()):
            raise NoGame(_("That game is already finished."))
        log.info("game %s abandoned by user %s", row.id, user_id)
        with i18n.speaking(row.settings.language):  # the channel's
            text = _(
                "{user} abandoned game {game}. `/citta new` starts a new one.",
                user=f"<@{user_id}>",
                game=row.id,
            )
        return await self._told(
            row, Outcome(Message(_("The game is abandoned."), ephemeral=True), Message(text), game=row.id)
        )
