"""Questions about a game, answered privately (part of the service layer): ``/citta status``,
``board``, ``log``, ``score`` and ``secrets``."""

from __future__ import annotations

import i18n
from bot.errors import NoGame
from bot.results import Message
from bot.service import clock, page_address, pictures, summary
from bot.service.context import Context
from bot.service.holders import known_peek, since_held
from bot.service.lookup import game_row, seat_of
from bot.service.positions import restore
from bot.service.resume import move_offer
from bot.storage.rows import SeatRow
from i18n import _


def _tag(seat: SeatRow, now: int) -> str:
    """What is special about a seat: resigned, a computer, away, on vacation."""
    if seat.resigned:
        return " " + _("(resigned)")
    if seat.computer:
        return " " + _("(computer, {level})", level=_(seat.ai_level or "basic"))
    if seat.away:
        return " " + _("(away: the bot plays for them)")
    return " " + _("(on vacation)") if clock.on_vacation(seat, now) else ""


async def status(
    ctx: Context, channel: int, *, guild: int | None = None, user_id: int = 0, can_manage: bool = False
) -> Message:
    """Year, phase, round, who we wait for and since when, and the game's web page (with
    ``CITTA_WEB_URL``: `bot.service.webpage`). In a channel without an open game, given
    the ``guild``: the user's paused games there, to go on with here (`bot.service.resume.move_offer`)."""
    if guild is not None and await ctx.storage.games.open_game(channel) is None:
        offer = await move_offer(ctx, guild, user_id, can_manage)
        if offer is not None:
            return offer
    row = await game_row(ctx, channel, None, active=False)
    seats = await ctx.storage.games.seats(row.id)
    listing = ", ".join(s.name + _tag(s, ctx.now()) for s in seats)
    setup = summary.setup_name(row.setup)
    if row.status == "lobby":
        text = _("Lobby ({setup}): {players}. The host starts the game.", setup=setup, players=listing)
        return Message(text, ephemeral=True)
    game = restore(row)
    users = {s.seat: s.user_id for s in seats}
    head = _("Game {game} ({setup}; {players}). {when}.", game=row.id, setup=setup, players=listing,
             when=summary.when(game.view(None)))  # fmt: skip
    page = await page_address.address(ctx, row.id)
    if page is not None:  # the answer is private: the address is for whoever the asker shares it with
        head += "\n" + _("🌐 The game's page, to watch it in a browser: {url}", url=page)
    if row.paused is not None:
        head += "\n" + _("⏸ The game is paused: {why}.", why=row.paused)
    elif row.blocked is not None:
        head += "\n" + _("⚠️ I cannot post in this channel: I lack the **{permission}** permission.",
                         permission=row.blocked)  # fmt: skip
    if game.is_over:
        return Message(f"{head}\n{summary.standings(game.view(None))}", ephemeral=True)
    who = summary.waited_for(game, users)[0]
    ends = [
        f"{seats[c.seat].name} <t:{end}:R>"
        for c in await ctx.storage.clocks.get(row.id)
        if (end := clock.deadline(c, row.settings)) is not None
    ]
    lines = [head, _("Next: {who} — waiting since {since}.", who=who, since=f"<t:{row.updated_at}:R>")]
    if ends:
        lines.append(_("Time is up for {players}.", players=", ".join(ends)))
    return Message("\n".join(lines), ephemeral=True)


async def board(ctx: Context, channel: int, *, full: bool = False, user_id: int = 0) -> Message:
    """The current board (spectator view) with the last move highlighted: the phone pictures, or with
    ``full`` the whole detailed poster for a large screen. Drawn once per game version, language
    and kind (`Context.asked`): the phone pictures as a turn post's are (as quick, by the game's
    worker), the poster in the workers' `aside` lane (it takes a while); a member who asks again
    and again meets `bot.service.limits` (each answer uploads its pictures, kept or not)."""
    row = await game_row(ctx, channel, None, active=False)
    if row.snapshot is None:
        raise NoGame(_("The game has not started yet: there is no board to show."))
    game = restore(row)
    view = game.view(None)
    text = f"{summary.when(view)}."
    key = ("board", row.id, row.version, i18n.current().code, full)
    ctx.limits.take(user_id, "board", now=ctx.clock())  # kept or not, each answer uploads its pictures
    if full:
        image = await ctx.asked.get(key, lambda: pictures.poster(ctx, view, row.highlight))
        return Message(text, image=image, ephemeral=True)
    moves = await ctx.storage.moves.moves(row.id, 1)
    last = f"{moves[-1].text} — {moves[-1].summary_in(i18n.current())}" if moves else ""
    pending = game.pending_seats()
    focus = pending[0] if pending else None
    drawn = await ctx.asked.get(
        key,
        lambda: pictures.post_pictures(ctx, view, row.highlight, last_move=last, focus=focus, game=row.id),
    )
    return Message(text, pictures=drawn, ephemeral=True)


async def log(ctx: Context, channel: int, last: int = 10) -> Message:
    """The last ``last`` moves with what they did (public events only)."""
    row = await game_row(ctx, channel, None, active=False)
    seats = {s.seat: s.name for s in await ctx.storage.games.seats(row.id)}
    moves = await ctx.storage.moves.moves(row.id, max(1, min(last, 50)))
    if not moves:
        return Message(_("No move has been made yet."), ephemeral=True)
    words = i18n.current()
    lines = [f"{m.number}. **{seats.get(m.seat, '?')}** `{m.text}` — {m.summary_in(words)}" for m in moves]
    text = "\n".join(lines)
    while len(text) > 1900 and len(lines) > 1:
        lines.pop(0)
        text = "\n".join(lines)
    return Message(text[:1990], ephemeral=True)


async def score(ctx: Context, channel: int) -> Message:
    """The score so far (or the final one)."""
    row = await game_row(ctx, channel, None, active=False)
    if row.snapshot is None:
        raise NoGame(_("The game has not started yet."))
    return Message(summary.standings(restore(row).view(None)), ephemeral=True)


async def secrets(
    ctx: Context, user_id: int, *, channel: int | None = None, game_id: int | None = None
) -> Message:
    """The user's private information of this year (polled cards, drawn cards), privately."""
    row = await game_row(ctx, channel, game_id, active=False)
    if row.snapshot is None:
        raise NoGame(_("The game has not started yet."))
    me = (await seat_of(ctx, row, user_id))[0]
    view = restore(row).view(me.seat)
    words = i18n.current()
    found = await ctx.storage.moves.secrets(row.id, me.seat, view.year)
    drawn = [s.told(words) for s in since_held(me, found) if s.kind != "peek"]
    view = view.model_copy(update={"peek": known_peek(me, view.peek, found)})  # what this player may know
    return Message(summary.peek_text(view, drawn), ephemeral=True)
