"""A tournament's rounds, as the clock plays them (part of the service layer; step 7 of the tick,
`bot.service.tick`). Every step decides from what is stored and stores what it decided with what it
says, at the tournament's version (`bot.storage.tournaments_protocol`), so a restart or a second
process loses and doubles nothing:

1. **Sign-up closes** at its time: round 1 is seated (`bot.service.tournament_formats`), its tables'
   posts stored with it — each opens its thread once posted (`bot.results.Message.thread`); fewer than
   two players cancel the tournament.
2. **A table's post was sent**: its thread is the post's message; the table's game is opened there,
   seated in the table's order, with the tournament's setup, deadline, policy and language, and
   started (`open_table`; a lobby left half-seated by a stop is seated on by the next tick). The
   table's first member hosts it.
3. **A table's game ended**: its places and victory points are stored with the standings post; the
   last table of a round seats the next round (with its posts) or ends the tournament with the
   winner's post. A table's game abandoned scores every player of it alike (a shared place, no
   victory points: so only a member with Manage Server may abandon it, `leaving`, not its host);
   a table with no member left (all played by computers) is not played and scores
   alike too.
"""

from __future__ import annotations

import logging
from dataclasses import replace

import i18n
from bot.errors import LobbyError, StorageUnavailable
from bot.results import Message, Post
from bot.service import lobby, tournament_formats, tournament_posts
from bot.service.context import Context
from bot.service.tournament_state import State, Table
from bot.storage.protocol import ChannelBusy
from bot.storage.rows import SeatRow
from bot.storage.tournaments_protocol import TournamentRow, TournamentStatus

log = logging.getLogger(__name__)


async def play_due(ctx: Context) -> list[Post]:
    """The clock's step over the active tournaments of this process's shards; the posts of the games it
    started (their computer players then move: the caller lets them)."""
    started: list[Post] = []
    for row in await ctx.storage.tournaments.active(ctx.shards):
        try:
            started += await _step(ctx, row)
        except StorageUnavailable:
            raise
        except Exception:  # one broken tournament must not stop the others
            log.exception("Tournament %s: the clock's step failed", row.id)
    return started


async def _step(ctx: Context, row: TournamentRow) -> list[Post]:
    state = State.model_validate(row.state)
    if row.status == "signup":
        if ctx.now() >= state.rules.signup_until:
            await _seat(ctx, row, state, 1)
        return []
    started: list[Post] = []
    changed = False
    for table in state.of_round(state.round):
        if table.thread is None and table.post is not None:
            table.thread = await _thread_of(ctx, table.post)
            changed |= table.thread is not None
        if table.thread is not None and table.game is None and not table.done:
            if (post := await open_table(ctx, row, state, table)) is not None:
                started.append(post)
            changed = True
    stored = await _store(ctx, row, state, "running") if changed else row
    if stored is None:  # another process changed it: the next tick looks again
        return started
    for table in state.of_round(state.round):
        if not table.done and await _finished(ctx, state, table):
            await _scored(ctx, stored, state, table)
            return started  # one table a step: its post, then the next table's, in order
    return started


async def _thread_of(ctx: Context, post: int) -> int | None:
    """The thread of a table's post once it was sent: the post's own message (None: not sent yet)."""
    sent = await ctx.storage.outbox.get(post)
    return sent.message_id if sent is not None and sent.state == "sent" and sent.message_id else None


async def _store(ctx: Context, row: TournamentRow, state: State, status: TournamentStatus,
                 posts: list[Post] | None = None) -> TournamentRow | None:  # fmt: skip
    """Store ``state`` at ``row``'s version: the row as stored (None: it changed meanwhile)."""
    doc = state.model_dump(mode="json")
    stored = await ctx.storage.tournaments.change(
        row, status=status, state=lambda _ids: doc, posts=posts or [], now=ctx.now()
    )
    if stored is None:
        return None
    return replace(row, status=status, state=doc, version=row.version + 1, updated_at=ctx.now())


async def _seat(ctx: Context, row: TournamentRow, state: State, round: int) -> None:
    """Seat round ``round`` (1: the first), or end the tournament, with the posts saying so."""
    r = state.rules
    with i18n.speaking(r.language):
        if round == 1 and len(state.players) < tournament_formats.MIN_TABLE:
            post = Post(row.channel, Message(tournament_posts.cancelled(state, len(state.players))))
            await _store(ctx, row, state, "cancelled", [post])
            return
        results = state.results()
        last = [t.result() for t in state.of_round(round - 1)]
        seating = tournament_formats.next_tables(r.format, state.seeded(), results, last, round=round,
                                                 rounds=r.rounds, size=r.size)  # fmt: skip
        if seating is None:
            state.winner = tournament_formats.winner(r.format, state.seeded(), results, last)
            post = Post(row.channel, Message(tournament_posts.over(state, state.winner)))
            await _store(ctx, row, state, "over", [post])
            log.info("Tournament %d is over", row.id)
            return
        tables = [Table(round=round, number=k, players=p) for k, p in enumerate(seating, start=1)]
        posts = [Post(row.channel, Message(tournament_posts.round_begins(state, round, len(tables))))]
        posts += [Post(row.channel, tournament_posts.table_post(state, t)) for t in tables]
    state.round = round

    def seated(ids: list[int]) -> dict[str, object]:
        for t, post in zip(tables, ids[1:], strict=True):
            t.post = post
        state.tables.extend(tables)
        return state.model_dump(mode="json")

    if await ctx.storage.tournaments.change(row, status="running", state=seated, posts=posts, now=ctx.now()):
        log.info("Tournament %d: round %d seated at %d table(s)", row.id, round, len(tables))


async def open_table(ctx: Context, row: TournamentRow, state: State, table: Table) -> Post | None:
    """Open and start the table's game in its thread (see the module); its start post (None: there is no
    member to seat, and the table scores alike)."""
    assert table.thread is not None
    r = state.rules
    humans = [u for u in table.players if not state.played_by_computer(u)]
    if not humans:
        table.places = {str(u): 1 for u in table.players}
        return None
    host = humans[0]
    try:
        game_id = await ctx.storage.games.create_lobby(
            guild=row.guild, channel=table.thread, host=host, host_name=state.name(host), setup=r.setup,
            players_wanted=len(table.players), now=ctx.now(), limit=None,
        )  # fmt: skip
    except ChannelBusy:  # a stop left it half-seated: seat on
        found = await ctx.storage.games.open_game(table.thread)
        if found is None:
            latest = await ctx.storage.games.latest_game(table.thread)
            table.game = latest.id if latest is not None else None
            return None
        game_id = found.id
    table.game = game_id
    game = await ctx.storage.games.game(game_id)
    assert game is not None
    if game.status != "lobby":
        return None
    settings = replace(game.settings, deadline_hours=r.deadline_hours, policy=r.policy, language=r.language,
                       ai_level=r.level)  # fmt: skip
    if settings != game.settings:
        await ctx.storage.games.set_settings(game_id, settings)
    seats = await ctx.storage.games.seats(game_id)
    now, limit = ctx.now(), len(table.players)
    for u in humans[1:]:
        if all(s.user_id != u for s in seats):
            await ctx.storage.games.join_lobby(game_id, u, state.name(u), limit, now)
    computers = len(table.players) - len(humans) - sum(s.computer for s in seats)
    for _k in range(computers):
        await ctx.storage.games.add_computer(
            game_id, by=host, level=r.level, limit=limit, now=now, since=now + 1
        )
    try:
        outcome = await lobby.begin(ctx, game_id, host)
    except LobbyError as e:
        log.warning("Tournament %d: table %d.%d did not start (%s)", row.id, table.round, table.number, e)
        return None
    return Post(table.thread, outcome=outcome)


async def _finished(ctx: Context, state: State, table: Table) -> bool:
    """Whether the table's game is over (then its places and victory points are noted on ``table``)."""
    if table.game is None:
        return table.done
    game = await ctx.storage.games.game(table.game)
    if game is None or game.status in ("lobby", "active"):
        return False
    if game.status == "abandoned":
        table.places = {str(u): 1 for u in table.players}
        return True
    placings = await ctx.storage.history.game_results(table.game)
    if not placings:
        return False
    by_seat = seat_users(state, table, await ctx.storage.games.seats(table.game))
    table.places = {str(by_seat[p.seat]): p.rank for p in placings if p.seat in by_seat}
    table.scores = {str(by_seat[p.seat]): p.score for p in placings if p.seat in by_seat}
    return True


def seat_users(state: State, table: Table, seats: list[SeatRow]) -> dict[int, int]:
    """Which entrant each seat of a table's game is: a member's seat is theirs (also when it was handed
    on: a seat keeps the entrant it was opened for, in seat order), the computers' are the entrants a
    computer plays for, in the table's order."""
    members = [u for u in table.players if not state.played_by_computer(u)]
    computers = iter(u for u in table.players if state.played_by_computer(u))
    out = {}
    for s in sorted(seats, key=lambda s: s.seat):
        if s.computer:
            out[s.seat] = next(computers, s.user_id)
        elif s.user_id in members:
            out[s.seat] = s.user_id
    left = iter(u for u in members if u not in out.values())
    for s in seats:
        if s.seat not in out:
            out[s.seat] = next(left, s.user_id)
    return out


async def _scored(ctx: Context, row: TournamentRow, state: State, table: Table) -> None:
    """Store a finished table's result with its standings post; the round's last seats the next."""
    with i18n.speaking(state.rules.language):
        post = Post(row.channel, Message(tournament_posts.table_done(state, table)))
    stored = await _store(ctx, row, state, "running", [post])
    if stored is not None and all(t.done for t in state.of_round(state.round)):
        await _seat(ctx, stored, state, state.round + 1)
