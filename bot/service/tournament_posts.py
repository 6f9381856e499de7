"""What a tournament says (part of the service layer): its sign-up post, each table's post (which opens
the table's thread), the standings after a table, the winner — in the language chosen when it was
opened, written to be read on a phone (short lines, the standings' first places only)."""

from __future__ import annotations

from bot.ids import sign_up_id, withdraw_id
from bot.results import Button, Message
from bot.service.history import number
from bot.service.lobby import SETUPS
from bot.service.settings import policy_text
from bot.service.tournament_formats import FORMATS, Line, tie_breaks
from bot.service.tournament_state import State, Table
from bot.storage.rows import GameSettings
from i18n import _, _n

SHOWN = 10
"""The lines of the standings a post shows (and the reader's own, when further down)."""


def rules_text(state: State) -> str:
    """The tournament's format in one line: format, tables, rounds, setup, time per move."""
    r = state.rules
    rounds = "" if r.format == "knockout" else _n(", {count} round", ", {count} rounds", r.rounds)
    policy = policy_text(GameSettings(deadline_hours=r.deadline_hours, policy=r.policy))
    return _(
        "{format}, tables of {size}{rounds}, {setup}; {hours} h a move, then {policy}",
        format=_(FORMATS[r.format]), size=r.size, rounds=rounds, setup=_(SETUPS[r.setup]),
        hours=r.deadline_hours, policy=policy,
    )  # fmt: skip


def dropout_text(state: State) -> str:
    if state.rules.dropout == "computer":
        return _("A player who drops out is replaced by a computer.")
    return _("A player who drops out forfeits their games.")


def signup_post(tournament: int, state: State) -> Message:
    """The post players sign up with (Sign up, Withdraw)."""
    r = state.rules
    text = "\n".join([
        _("🏆 **{name}** — a La Città tournament", name=r.name),
        rules_text(state) + ".",
        dropout_text(state),
        _("Sign up until <t:{until}:f> (<t:{until}:R>); organiser <@{organiser}>.", until=r.signup_until,
          organiser=r.organiser),
    ])  # fmt: skip
    buttons = (
        Button(_("Sign up"), sign_up_id(tournament), "success"),
        Button(_("Withdraw"), withdraw_id(tournament), "secondary"),
    )
    return Message(text, buttons=buttons)


def table_post(state: State, table: Table) -> Message:
    """A table's post: its players, pinged; its thread (named after the tournament, round and table)
    holds its game."""
    players = ", ".join(_who(state, u) for u in table.players)
    text = _("🏆 **{name}**, round {round}, table {table}: {players}. Your game is in this post's thread.",
             name=state.rules.name, round=table.round, table=table.number, players=players)  # fmt: skip
    humans = tuple(u for u in table.players if not state.played_by_computer(u))
    thread = _("{name} · round {round} · table {table}", name=state.rules.name, round=table.round,
               table=table.number)  # fmt: skip
    return Message(text, mentions=humans, thread=thread[:100])


def _who(state: State, user: int) -> str:
    if state.played_by_computer(user):
        return _("{name} (a computer plays for them)", name=state.name(user))
    return f"<@{user}>"


def standings_lines(state: State, lines: list[Line], reader: int | None = None) -> list[str]:
    """The first `SHOWN` lines of the standings (and ``reader``'s own further down)."""
    out = []
    for k, x in enumerate(lines, start=1):
        if k > SHOWN and x.user != reader:
            continue
        p = state.player(x.user)
        gone = p is not None and p.dropped is not None and state.rules.dropout == "forfeit"
        line = _n(
            "{place}. {name} — {points} pts ({count} table won, {score} VP)",
            "{place}. {name} — {points} pts ({count} tables won, {score} VP)", x.won,
            place=k, name=state.name(x.user), points=number(x.points), score=x.score,
        )  # fmt: skip
        if gone:
            line += " " + _("(dropped out)")
        out.append(("…\n" if k > SHOWN else "") + line)
    return out


def table_done(state: State, table: Table) -> str:
    """The post after a finished table: its places, then the standings."""
    assert table.places is not None
    order = sorted(table.players, key=lambda u: table.places[str(u)] if table.places else 0)
    places = ", ".join(f"{table.places[str(u)]}. {state.name(u)}" for u in order)
    lines = [
        _("🏆 **{name}**, round {round}, table {table} is over: {places}.", name=state.rules.name,
          round=table.round, table=table.number, places=places),
        _("**Standings** ({tie_breaks}):", tie_breaks=_(tie_breaks(state.rules.format))),
        *standings_lines(state, state.ranked()),
    ]  # fmt: skip
    return "\n".join(lines)


def over(state: State, winner: int) -> str:
    """The post that ends the tournament: its winner and the first places."""
    return "\n".join([
        _("🏆 **{name}** is over. The winner: **{winner}**! Congratulations.", name=state.rules.name,
          winner=state.name(winner)),
        *standings_lines(state, state.ranked())[:3],
    ])  # fmt: skip


def round_begins(state: State, round: int, tables: int) -> str:
    return _n(
        "🏆 **{name}**: round {round} begins, at {count} table; each table's game is in its post's thread.",
        "🏆 **{name}**: round {round} begins, at {count} tables; each table's game is in its post's thread.",
        tables, name=state.rules.name, round=round,
    )  # fmt: skip


def cancelled(state: State, count: int) -> str:
    return _n(
        "🏆 **{name}** is cancelled: {count} player signed up, and a tournament needs 2 at least.",
        "🏆 **{name}** is cancelled: {count} players signed up, and a tournament needs 2 at least.",
        count, name=state.rules.name,
    )  # fmt: skip


def dropped(state: State, user: int) -> str:
    if state.rules.dropout == "computer":
        return _("🏳️ {name} drops out of **{tournament}**: a computer takes their place.",
                 name=state.name(user), tournament=state.rules.name)  # fmt: skip
    return _("🏳️ {name} drops out of **{tournament}** and forfeits their games.", name=state.name(user),
             tournament=state.rules.name)  # fmt: skip
