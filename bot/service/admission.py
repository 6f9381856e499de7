"""Who may press a component, and where: the policy the door (`bot.client.door`) applies to every
press before any handler runs.

Plain facts in — the component's kind and id (`bot.ids`), who pressed it, in which server and
channel — and out the game it names with its seats (and the presser's seat, for a seat's own
component), or a `CittaError` that says why not, changing nothing:

- a component is pressed in a server, never in a direct message, but a `personal` one;
- a game's component only in that game's server, and in its channel or thread (a kind that may be
  pressed `anywhere` in the server: in any of its channels), but a `personal` one: the panel's
  steps and ``/citta-my-games``' menu, which a player may use wherever they opened them (another
  server, a direct message with the bot);
- a seat's component (a move, the panel's steps) only by that seat's player (`whose`).

Whether the presser may do what the component does (the host's Start, Abandon for the host or a
member with Manage Server) is for the use case that does it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.errors import CittaError, NoGame, NotAllowed, NotSeated
from bot.ids import ButtonRef, Kind
from bot.service.context import Context
from bot.storage.rows import GameRow, SeatRow
from i18n import N_, _

IN_A_DM = N_("La Città is played in a server channel, not in direct messages.")


@dataclass(frozen=True)
class Admitted:
    """A press the door lets in: the game it names and its seats (none for a kind that names no game),
    and the presser's seat when the component is a seat's own."""

    row: GameRow | None = None
    seats: list[SeatRow] = field(default_factory=list)
    seat: SeatRow | None = None


class NotUsed(CittaError):
    """A component id that is none of ours any more (an old or a malformed one)."""


async def admit(ctx: Context, kind: Kind, ref: ButtonRef | None, *, user: int, guild: int | None,
                channel: int) -> Admitted:  # fmt: skip
    """Let a press of a ``kind`` component with id ``ref`` (None: no valid id) by ``user`` in ``guild``
    (None: a direct message) and ``channel`` in, or raise a `CittaError` that says why not."""
    if ref is None:
        raise NotUsed(_("This button is no longer used."))
    if guild is None and not kind.personal:
        raise NotAllowed(_(IN_A_DM))
    if not kind.game:
        return Admitted()
    row = await ctx.storage.games.game(ref.game)
    if row is None:
        raise NoGame(_("There is no such game."))
    if not kind.personal:
        in_its_place(kind, row, guild, channel)
    seats = await ctx.storage.games.seats(row.id)
    return Admitted(row, seats, whose(seats, ref.seat, user) if kind.seat else None)


def in_its_place(kind: Kind, row: GameRow, guild: int | None, channel: int) -> None:
    """Raise unless a press of ``kind`` in ``guild`` and ``channel`` is where the game ``row`` is
    played: its server, and its channel (any channel of it for a kind pressed `anywhere`)."""
    if row.guild is not None and row.guild != guild:
        raise NotAllowed(_("This button belongs to a game of another server."))
    if not kind.anywhere and row.channel != channel:
        raise NotAllowed(
            _("This button belongs to game {game} in <#{channel}>: use it there.", game=row.id,
              channel=row.channel)
        )  # fmt: skip


def whose(seats: list[SeatRow], seat: int | None, user: int) -> SeatRow:
    """The presser's seat, when the component is for ``seat`` (None: for whoever plays in the game):
    the one place that decides whose button it is.

    >>> ann, bob = SeatRow(seat=0, user_id=11, name="Ann"), SeatRow(seat=1, user_id=12, name="Bob")
    >>> whose([ann, bob], 1, 12).name
    'Bob'
    >>> whose([ann, bob], 1, 11)
    Traceback (most recent call last):
    bot.errors.NotAllowed: This button is for Bob.
    >>> whose([ann, bob], 1, 13)
    Traceback (most recent call last):
    bot.errors.NotSeated: You are not playing in this game (the players are Ann, Bob).
    """
    mine = next((s for s in seats if s.user_id == user), None)
    if mine is None:
        players = ", ".join(s.name for s in seats)
        raise NotSeated(_("You are not playing in this game (the players are {players}).", players=players))
    if seat is not None and mine.seat != seat:
        owner = next((s.name for s in seats if s.seat == seat), _("another player"))
        raise NotAllowed(_("This button is for {owner}.", owner=owner))
    return mine
