"""A player's games at a glance (``/citta-my-games``, part of the service layer): every lobby and
running game they hold a seat in, in every server — first the games waiting on them (what they are
asked, when their time is up, a link to the post that asks), the soonest deadline first; then the
others (who is asked, the year and round); then the open lobbies — and a menu that opens the panel
of a running game wherever the player is (a server, a direct message with the bot).

The list is private (what a seat is asked is public in its channel, and nothing else is shown), and
it names channels as mentions, which Discord shows to members who can see them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot import ids
from bot.errors import NotSeated
from bot.results import Message, Option, Select
from bot.service import clock, panel, summary
from bot.service.context import Context
from bot.storage.rows import GameRow, SeatRow
from i18n import _, _n

LIMIT = 50
"""The most games listed (the most recently changed): more than anyone plays at once."""
MENU = 25
"""The most games the menu offers (Discord's limit of a select menu's options)."""
OPTION_TEXT = 100
"""The longest label or description of a menu's option (Discord's limit)."""
ServerName = Callable[[int], "str | None"]
"""A server's name by its id (None: the bot does not know it)."""


TEXT = 1900
"""The most characters of the list (a message's text holds 2,000): the games that do not fit are
counted at its end, and still offered by the menu."""
MAX_ID_DIGITS = 18
"""The most digits of a game id read from the menu (every id fits the database's 64 bits)."""
NO_DEADLINE = 2**62
"""The deadline of a game without one, so that it comes after every game with one."""


@dataclass(frozen=True)
class Entry:
    """One game of the list: its lines, whether it waits on the player and when their time is up
    there, and its menu option (a running game's)."""

    text: str
    waiting: bool = False
    due: int = NO_DEADLINE
    option: Option | None = None


def jump_link(guild: int | None, channel: int, message: int) -> str:
    """The address of a message, which Discord opens at that message when tapped."""
    return f"https://discord.com/channels/{guild or '@me'}/{channel}/{message}"


def _head(row: GameRow, server_name: ServerName) -> str:
    """``**Game 12** · #channel · Server``."""
    server = server_name(row.guild) if row.guild else None
    head = _("**Game {game}** · <#{channel}>", game=row.id, channel=row.channel)
    return f"{head} · {server}" if server else head


def _lobby(row: GameRow, seats: list[SeatRow], user_id: int, head: str) -> Entry:
    names, count, wanted = ", ".join(s.name for s in seats), len(seats), row.players_wanted
    if wanted:
        line = _n("lobby: {count} of {wanted} player ({names})",
                  "lobby: {count} of {wanted} players ({names})",
                  count, wanted=wanted, names=names)  # fmt: skip
    else:
        line = _n("lobby: {count} player ({names})", "lobby: {count} players ({names})", count, names=names)
    if row.host == user_id:
        line += " · " + _("you host it")
    return Entry(f"{head}\n{line}")


async def _running(ctx: Context, row: GameRow, seats: list[SeatRow], me: SeatRow, head: str,
                   link: tuple[int, int] | None) -> Entry:  # fmt: skip
    game = ctx.positions.look(row)
    when = summary.when(game.view(None))
    pending = game.pending_seats()
    tail = []
    if link is not None:
        tail.append("[{}]({})".format(_("go to the post"), jump_link(row.guild, *link)))
    paused = "\n⏸ " + _("paused: {why}", why=row.paused) if row.paused else ""
    if me.seat in pending and not me.played_by_bot:
        asked = summary.asked(game, me.seat)
        clocks = [c for c in await ctx.storage.clocks.get(row.id) if c.seat == me.seat]
        due = clock.deadline(clocks[0], row.settings) if clocks else None
        if due is not None:
            tail.insert(0, "⏰ " + _("time is up {when}", when=f"<t:{due}:R>"))
        line = " · ".join(["👉 " + _("you to {what}", what=asked), *tail])
        label = _("Game {game}: you to {what}", game=row.id, what=asked)
        return Entry(
            f"{head}\n{line}{paused}\n{when}",
            True,
            due or NO_DEADLINE,
            _option(row, label, when),
        )
    names = {s.seat: s.name for s in seats}
    who = "; ".join(_("{who} to {what}", who=names[s], what=summary.asked(game, s)) for s in pending)
    line = " · ".join([who, *tail])
    label = _("Game {game}: {who}", game=row.id, who=who)
    return Entry(f"{head}\n{line}{paused}\n{when}", option=_option(row, label, when))


def _option(row: GameRow, label: str, when: str) -> Option:
    """The menu's option for a running game (its value: the game's id)."""
    return Option(summary.cut(label, OPTION_TEXT), str(row.id), summary.cut(when, OPTION_TEXT))


@dataclass(frozen=True)
class Games:
    """A player's games, as listed: those waiting on them (the soonest deadline first), the others
    (the most recently changed first), their lobbies; and where the first waiting one is played."""

    waiting: list[Entry]
    others: list[Entry]
    lobbies: list[Entry]
    first_waiting: GameRow | None = None


async def games_of(ctx: Context, user_id: int, server_name: ServerName) -> Games:
    """The user's open games in every server (see the module docstring)."""
    games = await ctx.storage.games.games_of(user_id, LIMIT)
    links = await ctx.storage.outbox.last_posts([row.id for row, _seats in games]) if games else {}
    waiting: list[tuple[Entry, GameRow]] = []
    others: list[Entry] = []
    lobbies: list[Entry] = []
    for row, seats in games:
        head = _head(row, server_name)
        if row.status == "lobby":
            lobbies.append(_lobby(row, seats, user_id, head))
            continue
        me = next(s for s in seats if s.user_id == user_id)
        entry = await _running(ctx, row, seats, me, head, links.get(row.id))
        if entry.waiting:
            waiting.append((entry, row))
        else:
            others.append(entry)
    waiting.sort(key=lambda pair: pair[0].due)
    return Games([e for e, _row in waiting], others, lobbies, waiting[0][1] if waiting else None)


async def my_games(ctx: Context, user_id: int, server_name: ServerName) -> Message:
    """The user's games at a glance (see the module docstring), privately."""
    games = await games_of(ctx, user_id, server_name)
    if not (games.waiting or games.others or games.lobbies):
        return Message(
            _("You have no open game. `/citta new` opens a lobby in a server's channel."), ephemeral=True
        )
    options = tuple(e.option for e in (*games.waiting, *games.others) if e.option is not None)[:MENU]
    menu = Select(ids.mine_id(), _("Open a game's panel"), options) if options else None
    text = listing(games.waiting, games.others, games.lobbies)
    return Message(text, ephemeral=True, selects=(menu,) if menu else ())


def listing(waiting: list[Entry], others: list[Entry], lobbies: list[Entry]) -> str:
    """The three parts, each with its title, as many games as fit in `TEXT`; the rest counted."""
    parts: list[str] = []
    left = len(waiting) + len(others) + len(lobbies)
    for title, entries in ((_("Waiting on you"), waiting), (_("Your other games"), others),
                           (_("Your lobbies"), lobbies)):  # fmt: skip
        shown = [f"**{title} ({len(entries)})**"] if entries else []
        for entry in entries:
            if sum(map(len, parts)) + sum(map(len, shown)) + len(entry.text) > TEXT - 80:
                break
            shown.append(entry.text)
            left -= 1
        if len(shown) > 1:
            parts.append("\n".join(shown))
    if left:
        parts.append(_n("…and {count} more game.", "…and {count} more games.", left))
    return "\n\n".join(parts)


async def open_panel(ctx: Context, user_id: int, value: str) -> Message:
    """The panel of the game picked in the menu (``value``: its id), for a player seated there; any
    other pick (a game of others, none, a modified client's) is refused alike, naming no player."""
    game_id = int(value) if value.isdigit() and len(value) <= MAX_ID_DIGITS else 0
    row = await ctx.storage.games.game(game_id) if game_id else None
    seats = await ctx.storage.games.seats(game_id) if row is not None else []
    if not any(s.user_id == user_id and not s.resigned for s in seats):
        raise NotSeated(
            _("You do not play in game {game}: `/citta-my-games` lists your games.", game=value[:20])
        )
    return await panel.panel(ctx, user_id, game_id)
