"""A paused game going on (part of the service layer).

A game whose channel cannot be posted in for good (a deleted channel, a locked thread) is
paused: at once when the bot hears of the deletion (`channel_gone`), else when its post is
refused. Its posts are held, its clocks stop counting (no reminder, no deadline, no computer
move). It goes on in one of two ways:

- a moderator unlocks the thread, and the bot hears it (`resume_channel`);
- one of its players, its host or a member with Manage Server moves it to a channel without a
  game: ``/citta status`` there offers it with a button (`move_offer`) that moves it
  (`move_here`); its held posts go there, and a note that mentions its players says where it
  went (with the board, when no held post brings one). (A command of its own would not fit:
  Discord allows 25 in ``/citta``, and it has them.)

Either way the held posts go out in their order, the table is told the game goes on, and the
seats it waits for get their full time again from that moment.
"""

from __future__ import annotations

import logging

import i18n
from bot.errors import NoGame, NotAllowed
from bot.ids import custom_id
from bot.results import Button, DirectMessage, Message, Outcome, Picture, Post
from bot.service import clock, pictures, summary
from bot.service.context import Context
from bot.service.lobby import lobby_text
from bot.service.lookup import told
from bot.service.positions import restore
from bot.storage.protocol import OPEN, StorageProtocol
from bot.storage.rows import GameRow, SeatRow
from i18n import N_, _

log = logging.getLogger(__name__)

Movable = tuple[GameRow, list[SeatRow]]
"""A paused game the user may move, and its seats."""
MAX_OFFERED = 5
"""The paused games offered at most (a button each: one row of a message)."""
GONE = N_("the channel was deleted")
"""Why a game whose channel was deleted is paused: the gateway's event, or a post's 404 10003
(`bot.client.sender.GONE`)."""


async def channel_gone(ctx: Context, channel: int) -> list[int]:
    """``channel`` was deleted (the gateway said so): its open games are paused and its posts held;
    the games this paused, their players told (`tell_paused`)."""
    paused = await ctx.storage.outbox.hold_channel(channel, GONE, ctx.now())
    for game_id in paused:
        log.info("channel %s was deleted: game %s paused", channel, game_id)
        await tell_paused(ctx.storage, game_id, ctx.now())
    return paused


async def tell_paused(storage: StorageProtocol, game_id: int, now: int) -> None:
    """The players of ``game_id``, paused because its channel was deleted, told by DM, each in their
    language, how it goes on. Called by whichever saw the deletion first and paused the game —
    the gateway's event (`channel_gone`) or a post's 404 (`bot.service.delivery`) —, so once."""
    row = await storage.games.game(game_id)
    if row is None:
        return
    seats = await storage.games.seats(game_id)
    people = [s for s in seats if s.user_id > 0 and not s.resigned]
    prefs = await storage.players.prefs([s.user_id for s in people])
    dms = []
    for seat in people:
        with i18n.speaking(prefs[seat.user_id].language or row.settings.language):
            text = _("⏸ Game {game} ({players}) is paused: its channel was deleted. In a channel of the "
                     "server without a game, `/citta status` offers to go on with it there.", game=row.id,
                     players=", ".join(s.name for s in seats))  # fmt: skip
        dms.append(DirectMessage(seat.user_id, text))
    if dms:  # DMs only: nothing can be said in the channel
        await storage.outbox.enqueue(game_id, [Post(row.channel, None, tuple(dms))], now)


async def resume_channel(ctx: Context, channel: int) -> list[Outcome]:
    """The channel can be posted in again: each of its paused games goes on (none: nothing
    was paused there). An outcome per game, its note to the table stored for delivery."""
    now = ctx.now()
    resumed = await ctx.storage.outbox.release_channel(channel, now)
    outcomes = []
    for game_id in resumed:
        row = await ctx.storage.games.game(game_id)
        if row is None:
            continue
        await _fresh_clocks(ctx, row, now)
        log.info("game %s: its channel can be posted in again; the game goes on", game_id)
        with i18n.speaking(row.settings.language):  # told in the channel
            note = Message(_("▶️ The game goes on: I can post in this channel again."))
        outcomes.append(await told(ctx, row, Outcome(Message(""), note, game=game_id)))
    return outcomes


async def move_offer(ctx: Context, guild: int, user_id: int, can_manage: bool) -> Message | None:
    """For a channel without a game (``/citta status`` there): the paused games of ``guild``
    the user may move, each with a button that moves it to that channel (`move_here`); None
    when there are none."""
    movable = await _movable(ctx, guild, user_id, can_manage)
    if not movable:
        return None
    header = _("There is no game in this channel. Your paused games on this server (a button goes on "
               "with one here):")  # fmt: skip
    lines = [header]
    buttons = []
    for row, seats in movable[:MAX_OFFERED]:
        players, why = ", ".join(s.name for s in seats), _(row.paused or GONE)
        lines.append(_("⏸ Game {game} ({players}): {why}.", game=row.id, players=players, why=why))
        label = _("Go on here with game {game}", game=row.id)
        buttons.append(Button(label, custom_id(row.id, row.version, None, "here"), "primary"))
    return Message("\n".join(lines), buttons=tuple(buttons), ephemeral=True)


async def move_here(
    ctx: Context, user_id: int, *, guild: int, channel: int, game_id: int, can_manage: bool = False
) -> Outcome:
    """Move the paused game ``game_id`` of ``guild`` to ``channel`` (which has none), where it
    goes on. Raises, changing nothing, when it is no paused game of ``guild``, the user may
    not move it (not its player or host, no Manage Server), or the channel has a game."""
    row = await ctx.storage.games.game(game_id)
    if row is None or row.guild != guild or row.status not in OPEN:
        raise NoGame(_("Game {game} is not running on this server.", game=game_id))
    if row.paused is None:
        raise NoGame(
            _("Game {game} is not paused: it goes on in <#{channel}>.", game=game_id, channel=row.channel)
        )
    seats = await ctx.storage.games.seats(game_id)
    if not _may_move(row, seats, user_id, can_manage):
        raise NotAllowed(_("Only the game's players, its host or a member with Manage Server may move it."))
    if await ctx.storage.games.open_game(channel) is not None:
        raise NotAllowed(_("This channel has a game already: move the paused game to a channel without one."))
    now = ctx.now()
    moved = await ctx.storage.games.move_game(game_id, channel, now)
    fresh = await ctx.storage.games.game(game_id)
    if moved is None or fresh is None:
        raise NotAllowed(_("The game or this channel changed at that moment; try again."))
    await _fresh_clocks(ctx, fresh, now)
    log.info("game %s: moved to channel %s (%d held post(s) with it)", game_id, channel, moved)
    with i18n.speaking(fresh.settings.language):  # told in the channel
        note = await _moved_note(ctx, fresh, seats, user_id, board=moved == 0)
    done = Message(_("Done: game {game} goes on in this channel.", game=game_id), ephemeral=True)
    return await told(ctx, fresh, Outcome(done, note, game=game_id))


async def _movable(ctx: Context, guild: int, user_id: int, can_manage: bool) -> list[Movable]:
    """The paused games of ``guild`` that the user may move, with their seats."""
    found = []
    for row in await ctx.storage.games.paused_games(guild):
        seats = await ctx.storage.games.seats(row.id)
        if _may_move(row, seats, user_id, can_manage):
            found.append((row, seats))
    return found


async def _moved_note(
    ctx: Context, row: GameRow, seats: list[SeatRow], mover: int, *, board: bool
) -> Message:
    """The note in the game's new channel: where it comes from, its players mentioned, the
    lobby again (a lobby) or what it waits for, with the board when ``board``."""
    players = tuple(s.user_id for s in seats if s.user_id > 0 and not s.resigned)
    head = _("▶️ <@{user}> moved game {game} here ({why}); it goes on in this channel. "
             "Players: {players}.", user=mover, game=row.id, why=_(row.paused or GONE),
             players=" ".join(f"<@{p}>" for p in players))  # fmt: skip
    if row.status == "lobby":
        lobby = lobby_text(row, seats)
        return Message(f"{head}\n{lobby.text}", mentions=players, buttons=lobby.buttons)
    game = restore(row)
    who, _users = summary.waited_for(game, {s.seat: s.user_id for s in seats})
    text = f"{head}\n{summary.when(game.view(None))}. " + _("Next: {who}.", who=who)
    drawn: tuple[Picture, ...] = ()
    if board:  # no held turn post brings the board along
        focus = next(iter(game.pending_seats()), None)
        drawn = await pictures.post_pictures(ctx, game.view(None), row.highlight, focus=focus,
                                             lang=row.settings.language, game=row.id)  # fmt: skip
    return Message(text, mentions=players, pictures=drawn)


async def _fresh_clocks(ctx: Context, row: GameRow, now: int) -> None:
    """The seats a running game waits for get their full time again from ``now``."""
    if row.status != "active":
        return
    seats = {s.seat: s for s in await ctx.storage.games.seats(row.id)}
    waiting = await ctx.storage.clocks.get(row.id)
    await ctx.storage.clocks.reset(row.id, [clock.fresh(row.id, seats[c.seat], now) for c in waiting])


def _may_move(row: GameRow, seats: list[SeatRow], user_id: int, can_manage: bool) -> bool:
    """Whether the user may move the paused game: one of its players, its host, or Manage Server."""
    return can_manage or user_id == row.host or any(s.user_id == user_id for s in seats)
