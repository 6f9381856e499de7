"""Leaving a game (part of the service layer): ``/citta resign`` (or leaving a lobby) and
``/citta abandon`` with its confirmation."""

from __future__ import annotations

import logging
from dataclasses import replace

import i18n
from bot.errors import AlreadyMade, NoGame, NotAllowed
from bot.ids import custom_id
from bot.results import Button, Message, Outcome, User
from bot.service import lobby
from bot.service.commit import ATTEMPTS, bot_moves, commit, stage
from bot.service.context import Context
from bot.service.lookup import game_row, seat_of, told
from bot.service.positions import restore
from bot.service.tournament_state import State
from bot.storage.rows import GameRow
from i18n import _

log = logging.getLogger(__name__)


async def resign(ctx: Context, user_id: int, *, channel: int) -> Outcome:
    """Leave a lobby, or resign a running game (the bot then makes the least harmful moves)."""
    row = await game_row(ctx, channel, None, active=False)
    if row.status == "lobby":
        left = await lobby.leave(ctx, row.id, User(user_id, ""))
        bye = Message(_("You left the lobby."), ephemeral=True)
        if not left.reply.text:  # the lobby's message is edited through the outbox
            return Outcome(bye, game=row.id)
        return await told(ctx, row, Outcome(bye, left.reply, game=row.id))
    row = await game_row(ctx, channel, None)
    async with ctx.game_lock(row.id):
        return await _resign(ctx, row, user_id, channel)


async def _resign(ctx: Context, row: GameRow, user_id: int, channel: int) -> Outcome:
    for _attempt in range(ATTEMPTS):
        me, seats = await seat_of(ctx, row, user_id)
        if me.resigned:
            raise NotAllowed(_("You have already resigned."))
        game = restore(row)
        seats = [replace(s, resigned=True) if s.seat == me.seat else s for s in seats]
        with i18n.speaking(row.settings.language):  # the channel's
            lead = _("**{name}** resigns; the bot makes their moves from now on.", name=me.name)
            abandoned = _("Every player has resigned: the game is abandoned.")
            over = Message(f"{lead} {abandoned}")
        if all(s.resigned or s.computer for s in seats):
            await ctx.storage.games.set_status(row.id, "abandoned", now=ctx.now())
            return await told(
                ctx, row, Outcome(Message(_("You resigned."), ephemeral=True), over, game=row.id)
            )
        before = stage(game)
        made = await bot_moves(ctx, game, seats, row)
        outcome = await commit(
            ctx, row, game, seats, made, actor=me, before=before, resign=me.seat, lead=lead
        )
        if outcome is not None:
            return outcome
        row = await game_row(ctx, channel, None)
    raise AlreadyMade(_("The game changed while resigning; try again."))


async def abandon_prompt(ctx: Context, user_id: int, *, channel: int, can_manage: bool) -> Message:
    """The private confirmation (with its button) for abandoning the channel's game."""
    row = await game_row(ctx, channel, None, active=False)
    _check_abandon(row, user_id, can_manage)
    await _check_table(ctx, row, can_manage)
    button = Button(_("Abandon the game"), custom_id(row.id, row.version, None, "abandon"), "danger")
    return Message(
        _("Abandon this game for everyone? This cannot be undone."), ephemeral=True, buttons=(button,)
    )


def _check_abandon(row: GameRow, user_id: int, can_manage: bool) -> None:
    if row.status not in ("lobby", "active"):
        raise NoGame(_("That game is already finished."))
    if user_id != row.host and not can_manage:
        raise NotAllowed(_("Only the host or a member with Manage Server can abandon the game."))


async def _check_table(ctx: Context, row: GameRow, can_manage: bool) -> None:
    """A table of a running tournament is abandoned only by a member with Manage Server: its
    players would all share its first place (`bot.service.tournament_rounds`), so a host who is
    losing must not end it that way."""
    if can_manage or row.guild is None:
        return
    for t in await ctx.storage.tournaments.of_guild(row.guild):
        if t.status != "running":
            continue
        state = State.model_validate(t.state)
        if any(table.game == row.id for table in state.tables):
            raise NotAllowed(
                _("This game is a table of the tournament **{name}**: only a member with Manage Server can "
                  "abandon it. To stop playing, resign with `/citta resign`.", name=state.rules.name)
            )  # fmt: skip


async def abandon(ctx: Context, user_id: int, *, game_id: int, can_manage: bool) -> Outcome:
    """Abandon the game (its host, or a member with Manage Server; a tournament's table: only the
    latter, `_check_table`); the channel is told."""
    row = await game_row(ctx, None, game_id, active=False)
    _check_abandon(row, user_id, can_manage)
    await _check_table(ctx, row, can_manage)
    edit = lobby.view if row.status == "lobby" else None  # a lobby's message says it is closed
    if not await ctx.storage.games.set_status(row.id, "abandoned", now=ctx.now(), view=edit):
        raise NoGame(_("That game is already finished."))
    log.info("game %s abandoned by user %s", row.id, user_id)
    with i18n.speaking(row.settings.language):  # the channel's
        text = _(
            "{user} abandoned game {game}. `/citta new` starts a new one.", user=f"<@{user_id}>", game=row.id
        )
    done = Message(_("The game is abandoned."), ephemeral=True)
    return await told(ctx, row, Outcome(done, Message(text), game=row.id))
