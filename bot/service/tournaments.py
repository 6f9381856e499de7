"""Tournaments, as their organiser and players ask (part of the service layer): ``/citta-organise
tournament`` opens one, Sign up and Withdraw on its post, ``/citta-tournament standings|drop``,
``/citta-organise drop|cancel``; what `/citta stats` says of a member's tournaments. The rounds
themselves are seated, opened and scored by the clock (`bot.service.tournament_rounds`).

Decisions:

- **Who organises**: whoever may use ``/citta-organise`` — members with Manage Server, and whoever the
  admins allow it to in the server's Integrations settings (a role of organisers: Discord's own command
  permissions, docs/commands.md). The organiser is noted; any organiser may drop a player or cancel.
- **Sign-up** is open until the time chosen (in hours from the opening); a player's rating at sign-up
  is their all-time rating in the server (μ − 3σ, `bot.service.ratings`), which seats Swiss round 1
  and breaks the last ties. Withdrawing is possible until sign-up closes; then a player drops out.
- **Dropping out** (the player, or an organiser for them) takes effect at once: in their running
  table the bot plays their seat from then on (their place there counts, but with ``forfeit`` they
  score nothing for it); afterwards they are seated no more (``forfeit``) or a computer of the
  tournament's level plays their seats (``computer``), its results theirs.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import i18n
from bot.errors import CittaError, NoGame
from bot.results import Message, Post
from bot.service import leaving, tournament_posts
from bot.service.computer import levels
from bot.service.context import Context
from bot.service.lobby import MAX_PLAYERS, MIN_PLAYERS, SETUPS, clean_name
from bot.service.tournament_formats import FORMATS
from bot.service.tournament_state import Player, Rules, State, Table
from bot.storage.rows import POLICIES
from bot.storage.tournaments_protocol import TournamentRow, TournamentStatus
from i18n import _

log = logging.getLogger(__name__)
MAX_PLAYERS_IN = 64
"""The most players a tournament takes (tables are seated by the clock, one change per round)."""
MAX_ROUNDS = 10
NAME_LIMIT = 60
ATTEMPTS = 3
"""How often a change is tried when another change of the tournament got in first."""
Edit = Callable[[TournamentRow, State], Awaitable[tuple[TournamentStatus, list[Post]]]]
"""A change of a tournament's document (raising what it refuses): its status after, and its posts."""


@dataclass(frozen=True)
class Opening:
    """What ``/citta-organise tournament`` asks for."""

    name: str
    format: str
    size: int
    rounds: int
    setup: str
    deadline_hours: int
    policy: str
    dropout: str
    signup_hours: int
    language: str
    level: str = "basic"


def _check(o: Opening) -> None:
    """Refuse what cannot be a tournament, saying what would be right."""
    if o.format not in FORMATS:
        raise CittaError(_("A tournament's format is `swiss`, `groups` or `knockout`."))
    if not MIN_PLAYERS <= o.size <= MAX_PLAYERS:
        raise CittaError(_("A table seats {low} to {high} players.", low=MIN_PLAYERS, high=MAX_PLAYERS))
    if not 1 <= o.rounds <= MAX_ROUNDS:
        raise CittaError(_("A tournament plays 1 to {count} rounds.", count=MAX_ROUNDS))
    if not 1 <= o.deadline_hours <= 24 * 14 or not 1 <= o.signup_hours <= 24 * 30:
        raise CittaError(_("The time a move may take is 1 to 336 hours; sign-up lasts 1 to 720 hours."))
    if o.setup not in SETUPS:
        raise CittaError(_("The setup is 'beginner' or 'experienced'."))
    if o.policy not in POLICIES:
        raise CittaError(_("At the deadline: {policies}.", policies=", ".join(POLICIES)))
    if o.level not in levels():
        raise CittaError(_("The computer levels are {levels}.", levels=", ".join(levels())))
    if o.dropout not in ("computer", "forfeit"):
        raise CittaError(_("A player who drops out is replaced by a `computer` or `forfeit`s."))


async def open_tournament(
    ctx: Context, organiser: int, *, guild: int, channel: int, opening: Opening
) -> Message:
    """Open a tournament in ``channel``: its sign-up post goes there (through the outbox)."""
    _check(opening)
    o = opening
    name = " ".join(clean_name(o.name).split())[:NAME_LIMIT]
    rules = Rules(name=name, format=o.format, rounds=o.rounds, size=o.size, setup=o.setup,
                  deadline_hours=o.deadline_hours, policy=o.policy, dropout=o.dropout,
                  level=o.level, language=o.language, signup_until=ctx.now() + o.signup_hours * 3600,
                  organiser=organiser)  # fmt: skip
    state = State(rules=rules)

    def posts(made: int) -> list[Post]:
        with i18n.speaking(rules.language):
            return [Post(channel, tournament_posts.signup_post(made, state))]

    made, _ids = await ctx.storage.tournaments.create(
        guild, channel, state.model_dump(mode="json"), ctx.now(), posts
    )
    log.info("Tournament %d opened in server %d", made, guild)
    return Message(_("🏆 Tournament **{name}** is open: its sign-up post is in <#{channel}>.", name=name,
                     channel=channel), ephemeral=True)  # fmt: skip


async def _row(ctx: Context, tournament: int, guild: int) -> tuple[TournamentRow, State]:
    row = await ctx.storage.tournaments.get(tournament)
    if row is None or row.guild != guild:
        raise NoGame(_("There is no such tournament in this server."))
    return row, State.model_validate(row.state)


async def _change(
    ctx: Context, read: Callable[[], Awaitable[tuple[TournamentRow, State]]], edit: Edit, again: str
) -> State:
    """Read the tournament, let ``edit`` change its document (raising what it refuses) and store it at the
    version read, with the posts ``edit`` made; read and edit again when another change got in first
    (``again``: what the member is told when that keeps happening). The document as stored."""
    for _attempt in range(ATTEMPTS):
        row, state = await read()
        status, posts = await edit(row, state)
        stored = await ctx.storage.tournaments.change(
            row, status=status, state=state.document(), posts=posts, now=ctx.now()
        )
        if stored is not None:
            return state
    raise CittaError(again)


async def sign_up(ctx: Context, tournament: int, *, guild: int, user: int, name: str) -> Message:
    """Sign Up: the presser joins the tournament while sign-up is open."""
    rating = (await ctx.storage.history.ratings(guild, [f"user:{user}"])).get(f"user:{user}")

    async def join(row: TournamentRow, state: State) -> tuple[TournamentStatus, list[Post]]:
        if row.status != "signup" or ctx.now() >= state.rules.signup_until:
            raise CittaError(_("Sign-up for **{name}** is closed.", name=state.rules.name))
        if state.player(user) is not None:
            raise CittaError(_("You are signed up for **{name}** already.", name=state.rules.name))
        if len(state.players) >= MAX_PLAYERS_IN:
            raise CittaError(
                _("**{name}** is full ({count} players).", name=state.rules.name, count=MAX_PLAYERS_IN)
            )
        shown = rating.shown if rating is not None else 0.0
        state.players.append(Player(user=user, name=clean_name(name), rating=shown))
        return "signup", []

    state = await _change(ctx, lambda: _row(ctx, tournament, guild), join,
                          _("The tournament changed at that moment; press again."))  # fmt: skip
    return Message(_("You are signed up for **{name}** ({count} players so far); the tables are "
                     "seated <t:{until}:R>.", name=state.rules.name, count=len(state.players),
                     until=state.rules.signup_until), ephemeral=True)  # fmt: skip


async def withdraw(ctx: Context, tournament: int, *, guild: int, user: int) -> Message:
    """Withdraw: the presser's sign-up is taken back while sign-up is open."""

    async def leave(row: TournamentRow, state: State) -> tuple[TournamentStatus, list[Post]]:
        if state.player(user) is None:
            raise CittaError(_("You are not signed up for **{name}**.", name=state.rules.name))
        if row.status != "signup":
            raise CittaError(_("**{name}** has begun: `/citta-tournament drop` drops you out.",
                               name=state.rules.name))  # fmt: skip
        state.players = [p for p in state.players if p.user != user]
        return "signup", []

    state = await _change(ctx, lambda: _row(ctx, tournament, guild), leave,
                          _("The tournament changed at that moment; press again."))  # fmt: skip
    return Message(_("You withdrew from **{name}**.", name=state.rules.name), ephemeral=True)


async def running_here(ctx: Context, guild: int) -> tuple[TournamentRow, State]:
    """The server's newest tournament not over (else its newest): the one the commands mean."""
    rows = await ctx.storage.tournaments.of_guild(guild)
    if not rows:
        raise NoGame(
            _("This server has no tournament: an organiser opens one with `/citta-organise tournament`.")
        )
    row = next((r for r in rows if r.status in ("signup", "running")), rows[0])
    return row, State.model_validate(row.state)


async def show_standings(ctx: Context, guild: int, user: int) -> Message:
    """``/citta-tournament standings``: the tournament's format, round and standings (with the asker's
    line)."""
    row, state = await running_here(ctx, guild)
    head = [f"🏆 **{state.rules.name}** — {tournament_posts.rules_text(state)}"]
    if row.status == "signup":
        names = ", ".join(p.name for p in state.players) or _("nobody yet")
        head.append(_("Sign-up until <t:{until}:R>: {names}.", until=state.rules.signup_until, names=names))
        return Message("\n".join(head), ephemeral=True)
    if row.status == "cancelled":
        head.append(_("Cancelled."))
    elif state.winner is not None:
        head.append(_("Over; the winner: **{winner}**.", winner=state.name(state.winner)))
    else:
        head.append(_("Round {round} is being played.", round=state.round))
    lines = tournament_posts.standings_lines(state, state.ranked(), reader=user)
    return Message("\n".join([*head, *lines]), ephemeral=True)


async def drop(ctx: Context, guild: int, *, user: int, by: int) -> Message:
    """``/citta-tournament drop`` (``by`` the player) or ``/citta-organise drop`` (by an organiser): the
    player drops out of the server's running tournament (see the module)."""

    async def out(row: TournamentRow, state: State) -> tuple[TournamentStatus, list[Post]]:
        me = state.player(user)
        if row.status != "running" or me is None or me.dropped is not None:
            raise CittaError(_("{name} is not playing in a running tournament here.",
                               name=me.name if me else f"<@{user}>"))  # fmt: skip
        me.dropped = state.round
        table = _playing(state, user)
        if table is not None and state.rules.dropout == "forfeit":
            table.forfeits.append(user)
        with i18n.speaking(state.rules.language):
            return "running", [Post(row.channel, Message(tournament_posts.dropped(state, user)))]

    state = await _change(ctx, lambda: running_here(ctx, guild), out,
                          _("The tournament changed at that moment; try again."))  # fmt: skip
    table = _playing(state, user)
    if table is not None and table.thread is not None:
        try:
            await leaving.resign(ctx, user, channel=table.thread)
        except CittaError as e:  # the game ended meanwhile, or they had resigned: nothing to play for them
            log.info("Tournament: user %s's table needs no resignation (%s)", user, e)
    log.info("User %s dropped out of a tournament of server %d (by %s)", user, guild, by)
    text = _("{name} dropped out of **{tournament}**.", name=state.name(user), tournament=state.rules.name)
    return Message(text, ephemeral=True)


def _playing(state: State, user: int) -> Table | None:
    """The table of the round being played where ``user`` plays, unfinished (None: none)."""
    return next((t for t in state.of_round(state.round) if user in t.players and not t.done), None)


async def cancel(ctx: Context, guild: int) -> Message:
    """``/citta-organise cancel``: the running tournament ends without a winner (its tables' games go on
    as games of their own)."""

    async def end(row: TournamentRow, state: State) -> tuple[TournamentStatus, list[Post]]:
        if row.status not in ("signup", "running"):
            raise CittaError(_("**{name}** is over already.", name=state.rules.name))
        with i18n.speaking(state.rules.language):
            text = _("🏆 **{name}** was cancelled by an organiser.", name=state.rules.name)
        return "cancelled", [Post(row.channel, Message(text))]

    state = await _change(ctx, lambda: running_here(ctx, guild), end,
                          _("The tournament changed at that moment; try again."))  # fmt: skip
    return Message(_("**{name}** is cancelled.", name=state.rules.name), ephemeral=True)


async def results_line(ctx: Context, guild: int, user: int) -> str | None:
    """The line of ``/citta stats`` with a member's finished tournaments here (None: none)."""
    parts = []
    for row in await ctx.storage.tournaments.of_guild(guild):
        state = State.model_validate(row.state)
        if row.status != "over" or state.player(user) is None:
            continue
        order = [x.user for x in state.ranked()]
        parts.append(_("{place} of {count} in {name}", place=order.index(user) + 1, count=len(order),
                       name=state.rules.name))  # fmt: skip
    return "🏆 " + _("Tournaments: {results}", results="; ".join(parts[:5])) if parts else None
