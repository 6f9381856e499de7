"""Storing moves with their announcements (part of the service layer).

A change to a game and everything that announces it (the channel post with its board, mentions and
buttons, and the direct messages) are stored in one transaction (`commit`): the post waits in the
outbox until the delivery task has sent it, so a crash can delay an announcement but never lose it.
A move that ends the game is stored with its placings, the new ratings and the final post
(`bot.service.ending`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import i18n
from bot.ids import custom_id
from bot.results import PEEK_LABEL, Button, DirectMessage, Drawing, Message, Outcome, Picture, Post, unreached
from bot.service import clock, ending, page_address, pictures, summary
from bot.service.computer import plan_moves, played_for
from bot.service.context import Context
from bot.service.drawings import new_key
from bot.service.next_up import heads_up
from bot.service.standing import standing
from bot.storage.rows import Clock, GameRow, MoveRow, SeatRow, Secret
from engine import Action, Event, Game
from i18n import N_, _

PAGE_LABEL = N_("🌐 Live page")
"""The turn post's link to the game's web page."""

ATTEMPTS = 3
"""How often a change is tried on a newer position when another change got in first."""
Stage = tuple[int, str, int]


@dataclass
class Made:
    """A move made in this commit, with the events it caused."""

    seat: int
    action: Action
    events: list[Event]
    auto: bool = False
    how: str = ""
    """For a move the bot made: ``computer`` or ``default``; ``ahead``: a player's standing answer
    (`bot.service.ahead`), their own move (not ``auto``)."""


def stage(game: Game) -> Stage:
    """Year, phase and political round: the board is posted when this changes (setting ``round``)."""
    s = game.state
    return s.year, s.phase, s.round


async def bot_moves(
    ctx: Context, game: Game, seats: list[SeatRow], row: GameRow, also: Collection[int] = ()
) -> list[Made]:
    """The bot's moves for its seats (and ``also``) until a person must decide, planned in a worker and
    played here on ``game``."""
    if not any(s in {x.seat for x in seats if x.played_by_bot} | set(also) for s in game.pending_seats()):
        return []
    planned = await ctx.workers.call(
        plan_moves,
        game.snapshot(),
        game.record().model_dump(mode="json"),
        seats,
        row.settings,
        row.version,
        frozenset(also),
    )
    return [Made(seat, move, game.play(seat, move), auto=True, how=how) for seat, move, how in planned]


def move_row(number: int, m: Made) -> MoveRow:
    """The move log's entry of ``m``, the game's move ``number``: its public events (their texts, and
    their messages to tell them in a reader's language) and its one-line summary."""
    public = summary.public(m.events)
    return MoveRow(
        number,
        m.seat,
        str(m.action),
        summary.summary_line(m.events),
        m.auto,
        reveals=any(e.reveals for e in m.events),
        events=[(e.kind, e.text) for e in public],
        messages=[(e.message, e.values) for e in public],
    )


def fresh_clocks(
    ctx: Context, row: GameRow, game: Game, seats: list[SeatRow], gone: Collection[int] = ()
) -> list[Clock]:
    """Fresh clocks for the seats we wait for now (people the bot does not play for)."""
    by_seat = {s.seat: s for s in seats}
    now = ctx.now()
    return [
        clock.fresh(row.id, by_seat[s], now)
        for s in game.pending_seats()
        if not by_seat[s].played_by_bot and s not in gone
    ]


async def commit(
    ctx: Context,
    row: GameRow,
    game: Game,
    seats: list[SeatRow],
    made: list[Made],
    *,
    actor: SeatRow | None,
    before: Stage | None = None,
    resign: int | None = None,
    away: Collection[int] = (),
    lead: str = "",
    batch: int | None = None,
) -> Outcome | None:
    """Store the moves with their announcement; None when another move got in first."""
    year = game.state.year  # the secrets' year (as `View.year`, without drawing a view)
    rows, notes = [], []
    for k, m in enumerate(made, start=row.version + 1):
        rows.append(move_row(k, m))
        notes += [
            Secret(e.private_to, year, k, e.kind, e.text, e.message, e.values)
            for e in m.events
            if e.private_to is not None
        ]
    lit = summary.highlight([e for m in made for e in m.events])
    gone = {*away, *([resign] if resign is not None else [])}
    version = row.version + len(made)
    outcome = await _outcome(
        ctx, row, version, game, seats, made, actor=actor, resign=resign, lead=lead, lit=lit, before=before
    )
    record = game.record().model_dump(mode="json")
    ids = None
    try:
        async with ending.placings_of(ctx, row, game, seats) as places:
            ids = await ctx.storage.moves.commit_moves(
                row.id,
                based_on=row.version,
                moves=rows,
                record=record,
                snapshot=game.snapshot(),
                status="over" if game.is_over else "active",
                highlight=lit,
                secrets=notes,
                now=ctx.now(),
                resign=resign,
                clocks=fresh_clocks(ctx, row, game, seats, gone),
                restart={m.seat for m in made},
                away=away,
                posts=[Post(row.channel, outcome=outcome), *ending.final_posts(row, places, seats)],
                batch=batch,
                guild=row.guild or 0,
                placings=places,
            )
    finally:
        if ids is None:  # not stored (another move got in first, or it failed): no post of it
            let_go(ctx, outcome)
    if ids is None:
        return None
    for m in made:
        ctx.metrics.moves.labels(by="bot" if m.auto else "player").inc()
    ctx.positions.keep(row.id, version, record, game)
    bots = {s.seat for s in seats if s.played_by_bot} | gone
    bot_next = bool(bots & set(game.pending_seats())) or bool(await standing(ctx, game, seats))
    return outcome.stored(ids, settled=not game.is_over and not bot_next)


def let_go(ctx: Context, outcome: Outcome) -> None:
    """Let go of the pictures drawn for ``outcome``'s post, which was not stored."""
    if outcome.announcement is not None and outcome.announcement.drawing is not None:
        ctx.drawings.drop(outcome.announcement.drawing)


async def _outcome(
    ctx: Context,
    row: GameRow,
    version: int,
    game: Game,
    seats: list[SeatRow],
    made: list[Made],
    *,
    actor: SeatRow | None,
    resign: int | None,
    lead: str,
    lit: list[str],
    before: Stage | None,
) -> Outcome:
    """The announcement of ``made`` (the channel post in the game's language, ``lead`` already in it),
    the DMs (each in its reader's language) and the actor's reply (in the current language: the actor's)."""
    by_seat = {s.seat: s for s in seats}
    reader = i18n.current()
    with i18n.speaking(row.settings.language) as words:  # the channel's
        lines = [lead] if lead else []
        for m in made:
            by = played_for(by_seat[m.seat], m.how) if m.auto or m.how else ""
            lines.append(f"`{m.action}`{by} — {summary.summary_line(m.events, words=words)}")
        body = "\n".join(lines)
        if len(body) > summary.SUMMARY_LIMIT + 200:  # keep room for the mentions and a DM note
            body = body[: summary.SUMMARY_LIMIT + 199].rstrip() + "…"
        show_board = row.settings.board_every == "move" or before is None or before != stage(game)
        announcement = await announce(ctx, row.id, version, game, seats, body, lit if show_board else None)
        peek = Button(_(PEEK_LABEL), custom_id(row.id, 0, None, "peek"), "primary")
        note = unreached()
    me = None if actor is None else actor.seat
    mine = [e.told(reader) for m in made if m.seat == me for e in m.events if e.private_to == me]
    done = ""
    if actor is not None:
        done = _("You resigned.") if resign is not None else _("You played `{move}`.", move=made[0].action)
    users = {s.seat: s.user_id for s in seats}
    peeks = [
        (users[e.private_to], e)
        for m in made
        for e in m.events
        if e.private_to is not None and e.kind == "peek" and users[e.private_to] > 0
    ]
    dms = await direct(ctx, row, peeks, actor=None if actor is None else (actor.user_id, reader.code))
    dms += await heads_up(ctx, row, game, seats, [m.seat for m in made])
    return Outcome(
        reply=Message("\n".join([done, *mine]), ephemeral=True),
        announcement=announcement,
        dms=dms,
        game=row.id,
        peek_button=peek,
        unreached=note,
    )


async def direct(
    ctx: Context, row: GameRow, told: list[tuple[int, Event]], actor: tuple[int, str] | None = None
) -> tuple[DirectMessage, ...]:
    """Each user's private event as a direct message, in their own language: the one they chose,
    else (for the ``actor``: user id and the language they read now) the one they are reading, else
    the game's."""
    if not told:
        return ()
    prefs = await ctx.storage.players.prefs([user for user, _e in told])
    dms = []
    for user, event in told:
        reading = actor[1] if actor is not None and actor[0] == user else row.settings.language
        with i18n.speaking(prefs[user].language or reading) as words:
            text = _("La Città (game {game}): {text}", game=row.id, text=event.told(words))
        dms.append(DirectMessage(user, text))
    return tuple(dms)


async def page_link(ctx: Context, game_id: int) -> tuple[Button, ...]:
    """🌐: a link button to the game's web page, when the bot has one (``CITTA_WEB_URL``)."""
    url = await page_address.address(ctx, game_id)
    return () if url is None else (Button(_(PAGE_LABEL), "", "secondary", url),)


async def announce(
    ctx: Context,
    game_id: int,
    version: int,
    game: Game,
    seats: list[SeatRow],
    body: str,
    lit: list[str] | None,
    last_move: str | None = None,
) -> Message:
    """``body``, who we wait for now (mentioned), the board (when ``lit`` is not None), buttons: a channel
    post, written in the current language (call it speaking the game's). The pictures' alt text tells
    ``last_move`` (default: the body), as plain text."""
    users = {s.seat: s.user_id for s in seats}
    names = {s.seat: s.name for s in seats}
    bots = {s.seat for s in seats if s.computer or s.resigned}  # the bot answers them: no button
    nxt, pinged = summary.next_line(game, users)
    answered = {users[s] for s in await standing(ctx, game, seats)}  # at once: no need to ping them
    pinged = tuple(u for u in pinged if u not in answered)
    pending, view = game.pending_seats(), game.view(None)
    drawing: Drawing | None = None
    drawn: tuple[Picture, ...] = ()
    if lit is not None:  # the post stores what its pictures are drawn from, not them
        drawing = Drawing(
            new_key(),
            view.model_dump_json(),
            tuple(lit),
            summary.plain(body if last_move is None else last_move),
            pending[0] if pending else None,
            i18n.current().code,
        )
        drawn = await pictures.post_pictures(
            ctx, view, lit, last_move=drawing.last_move, focus=drawing.focus, lang=drawing.lang, game=game_id
        )
        if drawn:
            ctx.drawings.keep(drawing, drawn)
        else:  # none drawn (no renderer, or it failed): the post goes without, as it is
            drawing = None
    numbers = summary.numbers_line(view, pending)
    return Message(
        "\n".join(t for t in (body, nxt, numbers) if t),
        pictures=drawn,
        mentions=pinged,
        buttons=summary.decision_buttons(game, game_id, version, names, bots, await page_link(ctx, game_id)),
        drawing=drawing,
    )
