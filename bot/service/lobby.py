"""Lobbies: open a game in a channel, join, leave, and start it (part of the service layer).

Seats follow the join order (the host is seat 1); the engine draws the start player from
the game's seed, so the seating gives nobody an advantage. A lobby with a player count
starts by itself when it is full; otherwise the host presses Start (2–5 players).

The lobby's message is the answer to ``/citta new``; its id is noted (`shown`), and from then on
every change of the lobby (a Join, a Leave, a computer added, a setting, the start, its close) is
stored with the edit of that message, in one transaction, and the outbox sends the edit: a bot
stopped between the two leaves nothing stale. A change whose edit could not be stored (the
message is not known: a lobby opened before, or a stop right after its answer) returns the lobby
message as its reply, for the press to edit in place as before; otherwise the reply is empty.

A member hosts at most `Context.lobby_limit` open lobbies in a server; lobbies nothing happened in
for `Context.lobby_days` are closed by the clock (`bot.service.stale`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import i18n
from bot.errors import LobbyError, NoGame, NotAllowed
from bot.ids import custom_id
from bot.results import Button, Message, Outcome, Post, User
from bot.service import reliability, summary
from bot.service.commit import announce, fresh_clocks
from bot.service.computer import levels
from bot.service.context import Context
from bot.service.reliability import Figures
from bot.storage.protocol import ChannelBusy
from bot.storage.rows import GameRow, LobbyView, SeatRow, TooManyLobbies
from engine import Game
from i18n import N_, _, _n

MIN_PLAYERS, MAX_PLAYERS = 2, 5
NAME_LIMIT = 32
SETUPS = {"beginner": N_("beginner setup"), "experienced": N_("experienced setup")}
"""The setups as the lobby and the start post name them."""
SAME_REQUEST = 5
"""Seconds within which a member's second ``/citta add-ai`` for the same lobby is the same request
again (a double tap, a client's retry), measured with the context's clock: it adds nothing and is
answered privately. A second computer is one more request a few seconds later."""


def clean_name(name: str) -> str:
    """A display name safe to show in messages: plain text (no formatting, no mention, no link
    Discord would make of it), not too long.

    >>> clean_name("[Nitro](https://example.com/x) **Ann**")
    'Nitro(https example.com/x) Ann'
    """
    kept = "".join(ch for ch in name if ch.isprintable() and ch not in "*_`~|<>@#\\[]")
    kept = kept.replace("://", " ")  # a URL's scheme: Discord links nothing without it
    return (" ".join(kept.split()) or "player")[:NAME_LIMIT]


def unique_names(names: list[str]) -> list[str]:
    """Names with repeats numbered (``Ann``, ``Ann 2``) so that messages tell players apart."""
    out: list[str] = []
    for n in names:
        candidate, k = n, 2
        while candidate in out:
            candidate, k = f"{n} {k}", k + 1
        out.append(candidate)
    return out


def who(seat: SeatRow) -> str:
    """A seat as the channel sees it: a mention, or a computer player's name and level."""
    return (
        _("🤖 {name} ({level})", name=seat.name, level=_(seat.ai_level) if seat.ai_level else "")
        if seat.computer
        else f"<@{seat.user_id}>"
    )


async def new_game(
    ctx: Context, user: User, *, channel: int, guild: int | None = None, setup: str = "beginner",
    players: int | None = None, language: str | None = None,
) -> Message:  # fmt: skip
    """Open a lobby in the channel, with the user as host; the message has Join/Leave/Start.
    ``language`` is the game's (its posts and pictures): the server's, say; English when
    we do not speak it."""
    if setup not in ("beginner", "experienced"):
        raise LobbyError(_("The setup is 'beginner' or 'experienced'."))
    if players is not None and not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise LobbyError(_("La Città is for {low} to {high} players.", low=MIN_PLAYERS, high=MAX_PLAYERS))
    try:
        game_id = await ctx.storage.games.create_lobby(
            guild=guild, channel=channel, host=user.id, host_name=clean_name(user.name), setup=setup,
            players_wanted=players, now=ctx.now(), limit=ctx.lobby_limit,
        )  # fmt: skip
    except TooManyLobbies as e:
        where = ", ".join(f"<#{c}>" for c in e.channels)
        raise LobbyError(
            _n(
                "You already host {count} open lobby ({channels}), as many as one member may. "
                "Start it, or close it with `/citta abandon` in its channel, to open a new one.",
                "You already host {count} open lobbies ({channels}), as many as one member may. "
                "Start one, or close one with `/citta abandon` in its channel, to open a new one.",
                len(e.channels),
                channels=where,
            )
        ) from None
    except ChannelBusy:
        raise LobbyError(
            _(
                "This channel already has a game. Finish it (or `/citta abandon` it) first, "
                "or start one in another channel."
            )
        ) from None
    row = await ctx.storage.games.game(game_id)
    if row is not None and row.settings.language != i18n.choose(language):
        await ctx.storage.games.set_settings(game_id, replace(row.settings, language=i18n.choose(language)))
    return await lobby_message(ctx, game_id)


async def shown(ctx: Context, channel: int, message_id: int, sent: Message) -> None:
    """Note ``message_id`` as the message of the channel's lobby (the answer to ``/citta new``, just
    sent, or one a Join was pressed on while none was known), which shows ``sent``: its changes edit it
    through the outbox from now on, and a change stored while it was not known (a ``/citta settings``
    or ``/citta add-ai`` at once) edits it now."""
    found = await ctx.storage.games.open_game_with_seats(channel)
    if found is None:
        return
    row, seats = found
    if row.status == "lobby" and row.lobby_message is None:
        view = await viewer(ctx, seats)
        await ctx.storage.games.show_lobby(row.id, message_id, now=ctx.now(), view=view, sent=sent)


def view(row: GameRow, seats: list[SeatRow], figures: Mapping[int, Figures] | None = None) -> Message:
    """The lobby's message as the lobby is (`bot.storage.protocol.LobbyView`), in the game's language;
    with each player's ``figures`` beside them (`bot.service.reliability`)."""
    with i18n.speaking(row.settings.language):
        return lobby_text(row, seats, figures)


async def viewer(ctx: Context, seats: list[SeatRow], *also: int) -> LobbyView:
    """The lobby's message with the figures of the players in ``seats`` and of ``also`` (one about
    to join): the view a lobby change stores its edit with."""
    return _with(await reliability.everywhere(ctx, [*(s.user_id for s in seats), *also]))


def _with(figures: Mapping[int, Figures]) -> LobbyView:
    def shown(row: GameRow, seats: list[SeatRow]) -> Message:
        return view(row, seats, figures)

    return shown


async def _changed(ctx: Context, row: GameRow, outcome: Outcome) -> Outcome:
    """The outcome of a lobby change, its reply empty when the change stored the edit of the
    lobby's message (it was known), else the lobby message to edit in place."""
    if row.lobby_message is not None:
        return replace(outcome, reply=Message(""))
    return replace(outcome, reply=await lobby_message(ctx, row.id))


async def lobby_message(ctx: Context, game_id: int) -> Message:
    """The lobby message (a channel post, in the game's language): who is in, and the
    Join / Leave / Start buttons."""
    row = await ctx.storage.games.game(game_id)
    if row is None:
        raise NoGame(_("There is no such game."))
    seats = await ctx.storage.games.seats(game_id)
    figures = await reliability.everywhere(ctx, [s.user_id for s in seats]) if row.status == "lobby" else None
    with i18n.speaking(row.settings.language):
        return lobby_text(row, seats, figures)


async def _lobby_row(ctx: Context, game_id: int, user_id: int | None = None) -> GameRow:
    """The lobby; LobbyError saying what became of it (and of the user) when it is no lobby."""
    row = await ctx.storage.games.game(game_id)
    if row is None:
        raise NoGame(_("There is no such game."))
    if row.status == "lobby":
        return row
    if row.status == "abandoned":
        raise LobbyError(_("This lobby was closed; `/citta new` opens a new one."))
    seats = await ctx.storage.games.seats(game_id)
    mine = next((s for s in seats if s.user_id == user_id), None)
    if mine is not None:
        raise LobbyError(
            _("The game has already started, and you are in it (seat {seat}).", seat=mine.seat + 1)
        )
    raise LobbyError(_("The game has already started without you; `/citta new` opens another one."))


async def join(ctx: Context, game_id: int, user: User) -> Outcome:
    """Join a lobby. The reply is the updated lobby message (to edit in place).

    Lobby changes of one game happen one at a time; a Join that finds the game started
    (by a simultaneous press) says whether the presser is in it."""
    async with ctx.game_lock(game_id):
        return await _join(ctx, game_id, user)


async def _join(ctx: Context, game_id: int, user: User) -> Outcome:
    row = await _lobby_row(ctx, game_id, user.id)
    limit = row.players_wanted or MAX_PLAYERS
    seated = await ctx.storage.games.seats(game_id)
    figures = await reliability.everywhere(ctx, [*(s.user_id for s in seated), user.id])
    why = reliability.refusal(figures[user.id], row.settings)  # the host's minimum, if any
    if why is not None and all(s.user_id != user.id for s in seated):
        raise LobbyError(why)
    result = await ctx.storage.games.join_lobby(
        game_id, user.id, clean_name(user.name), limit, ctx.now(), view=_with(figures)
    )
    if result == "already":
        raise LobbyError(_("You are already in this game."))
    if result == "full":
        raise LobbyError(
            _n("The game is full ({count} player).", "The game is full ({count} players).", limit)
        )
    if result == "closed":
        await _lobby_row(ctx, game_id, user.id)  # raises, saying what became of the lobby
        raise LobbyError(_("This lobby is closed."))
    seats = await ctx.storage.games.seats(game_id)
    if row.players_wanted and len(seats) >= row.players_wanted:
        return await _start(ctx, row, seats, user.id)
    return await _changed(ctx, row, Outcome(reply=Message(""), game=game_id))


async def leave(ctx: Context, game_id: int, user: User) -> Outcome:
    """Leave a lobby (a leaving host hands the lobby to the next player; empty lobbies close)."""
    async with ctx.game_lock(game_id):
        return await _leave(ctx, game_id, user)


async def _leave(ctx: Context, game_id: int, user: User) -> Outcome:
    row = await _lobby_row(ctx, game_id, user.id)
    shown = await viewer(ctx, await ctx.storage.games.seats(game_id))
    result, _host = await ctx.storage.games.leave_lobby(game_id, user.id, ctx.now(), view=shown)
    if result == "not_in":
        raise LobbyError(_("You are not in this game."))
    if result == "closed":
        raise LobbyError(_("This lobby is closed: the game has started or was abandoned."))
    return await _changed(ctx, row, Outcome(reply=Message(""), game=game_id))


async def add_ai(ctx: Context, user: User, *, channel: int, level: str = "basic") -> Outcome:
    """The host fills a lobby seat with a computer player: the reply says so, the lobby message is edited."""
    row = await ctx.storage.games.open_game(channel)
    if row is None or row.status != "lobby":
        raise LobbyError(_("Computer players join a lobby: open one with `/citta new` first."))
    if user.id != row.host:
        raise NotAllowed(_("Only the host can add a computer player."))
    if level not in levels():
        raise LobbyError(_("The computer levels are {levels}.", levels=", ".join(levels())))
    async with ctx.game_lock(row.id):
        return await _add_ai(ctx, row, user, level)


async def _add_ai(ctx: Context, row: GameRow, user: User, level: str) -> Outcome:
    """One computer player per request: a second request of the same member within
    `SAME_REQUEST` seconds of their last computer is that request again. The storage checks both
    the request and the seats in one transaction, so that two requests at once (here under the
    game's lock, or from two processes) add one computer and never a seat beyond the limit."""
    row = await _lobby_row(ctx, row.id, user.id)
    limit = row.players_wanted or MAX_PLAYERS
    now = ctx.now()
    shown = await viewer(ctx, await ctx.storage.games.seats(row.id))
    result, k = await ctx.storage.games.add_computer(
        row.id, by=user.id, level=level, limit=limit, now=now, since=now - SAME_REQUEST, view=shown
    )
    if result == "recent":
        raise LobbyError(
            _(
                "Computer {number} was added a moment ago at your request; send `/citta add-ai` "
                "again in a few seconds to add another.",
                number=k,
            )
        )
    if result == "full":
        raise LobbyError(
            _n("The game is full ({count} player).", "The game is full ({count} players).", limit)
        )
    if result != "joined":
        raise LobbyError(_("This lobby is closed: the game has started or was abandoned."))
    seats = await ctx.storage.games.seats(row.id)
    name, shown_level = f"Computer {k}", _(level)
    if row.players_wanted and len(seats) >= row.players_wanted:
        started = await _start(ctx, row, seats, user.id)
        begins = _("🤖 {name} ({level}) joins; the game begins.", name=name, level=shown_level)
        return replace(started, reply=Message(begins, ephemeral=True))
    joined = Message(_("🤖 {name} ({level}) joins the lobby.", name=name, level=shown_level), ephemeral=True)
    # Its edit was stored with the computer; a lobby message not known yet is edited by `shown`.
    return Outcome(joined, game=row.id)


async def start(ctx: Context, game_id: int, user: User) -> Outcome:
    """The host starts the game: seats are fixed, a secret seed drawn, the first move asked."""
    async with ctx.game_lock(game_id):
        row = await _lobby_row(ctx, game_id, user.id)
        if user.id != row.host:
            raise NotAllowed(_("Only the host can start the game."))
        seats = await ctx.storage.games.seats(game_id)
        if len(seats) < MIN_PLAYERS:
            raise LobbyError(
                _("At least {count} players are needed; invite someone to press Join.", count=MIN_PLAYERS)
            )
        return await _start(ctx, row, seats, user.id)


async def begin(ctx: Context, game_id: int, host: int) -> Outcome:
    """Start a lobby the bot seated itself (a tournament's table, `bot.service.tournament_rounds`),
    as its host ``host`` would; LobbyError when it is no lobby any more."""
    async with ctx.game_lock(game_id):
        row = await _lobby_row(ctx, game_id, host)
        return await _start(ctx, row, await ctx.storage.games.seats(game_id), host)


async def _start(ctx: Context, row: GameRow, seats: list[SeatRow], user_id: int) -> Outcome:
    """Start the game and store its announcement; the computer players move afterwards
    (`advance`). Another process that changed the lobby first is reported as it is."""
    names = unique_names([s.name for s in seats])
    seed = ctx.seeds()
    game = Game.new(names, seed=seed, setup=row.setup)  # type: ignore[arg-type]
    lit = summary.highlight(game.setup_events)
    humans = [s.user_id for s in seats if not s.computer]
    with i18n.speaking(row.settings.language):  # the start post is public
        order = ", ".join(_("{who} as {name}", who=who(s), name=n) for s, n in zip(seats, names, strict=True))
        text = _("**La Città** game {game} begins ({setup}): {order}.", game=row.id,
                 setup=_(SETUPS[row.setup]), order=order)  # fmt: skip
        setup = summary.summary_line(game.setup_events, words=i18n.current())
        announcement = await announce(ctx, row.id, 0, game, seats, f"{text}\n{setup}", lit, setup)
    announcement = replace(announcement, mentions=tuple(dict.fromkeys([*announcement.mentions, *humans])))
    outcome = Outcome(reply=Message(""), announcement=announcement, game=row.id)
    ids = await ctx.storage.games.start_game(
        row.id, users=[s.user_id for s in seats], seed=seed, record=game.record().model_dump(mode="json"),
        snapshot=game.snapshot(), highlight=lit, now=ctx.now(), clocks=fresh_clocks(ctx, row, game, seats),
        posts=[Post(row.channel, outcome=outcome)], view=view,
    )  # fmt: skip
    if ids is None:
        await _lobby_row(ctx, row.id, user_id)  # it started meanwhile, or was closed: say so
        raise LobbyError(_("The players changed at that moment; look at the lobby again and press Start."))
    return (await _changed(ctx, row, outcome)).stored(ids)


def lobby_text(row: GameRow, seats: list[SeatRow], figures: Mapping[int, Figures] | None = None) -> Message:
    """The lobby message in the current language; an open lobby shows the ``figures`` of each player
    beside them, and the host's minimum to join."""
    if row.players_wanted:
        wanted = _n("{count} player", "{count} players", row.players_wanted)
    else:
        wanted = _("{low}–{high} players", low=MIN_PLAYERS, high=MAX_PLAYERS)
    listing = "\n".join(
        (_("{number}. {who} (host)", number=s.seat + 1, who=who(s)) if s.user_id == row.host
         else f"{s.seat + 1}. {who(s)}")
        + (f" — {line}" if row.status == "lobby" and figures and s.user_id in figures
           and (line := reliability.short(figures[s.user_id])) else "")
        for s in seats
    )  # fmt: skip
    if row.status != "lobby":
        if row.status == "abandoned":
            head = _("**La Città** game {game} — closed.", game=row.id)
        else:
            head = _("**La Città** game {game} — started.", game=row.id)
        return Message(f"{head}\n{listing}")
    text = _(
        "**La Città** — new game ({setup}, {wanted}). Press **Join** to play; the host presses "
        "**Start** (`/citta add-ai` adds a computer player).",
        setup=_(SETUPS.get(row.setup, row.setup)), wanted=wanted,
    )  # fmt: skip
    if (minimum := reliability.minimum_text(row.settings)) is not None:
        text += "\n" + minimum
    buttons = (
        Button(_("Join"), custom_id(row.id, 0, None, "join"), "success"),
        Button(_("Leave"), custom_id(row.id, 0, None, "leave"), "secondary"),
        Button(_("Start"), custom_id(row.id, 0, None, "start"), "primary"),
    )
    return Message(f"{text}\n{listing}", buttons=buttons)
