"""The storage interface: every query the service layer and the delivery make, by part — the
games (`GamesProtocol`), the players (`PlayersProtocol`), the clocks (`ClocksProtocol`), the
outbox (`OutboxProtocol`), the claims (`ClaimsProtocol`), the history (`HistoryProtocol`), the
seasons (`SeasonsProtocol`), the tournaments (`TournamentsProtocol`), the rank roles
(`RanksProtocol`), the server pages (`ServerPagesProtocol`) —
gathered in `StorageProtocol`, which both backends implement (SQLite in `bot.storage.sqlite`,
PostgreSQL in `bot.storage.postgres`); `bot.storage.open_storage` picks one from ``CITTA_DB``.

The contract, common to both:

- **One change at a time per game.** A change to a running game is stored only if the game is
  still at the version it was based on (`moves.commit_moves`, `games.start_game`): of two
  commits based on the same version exactly one is stored, the other changes nothing and gets
  None, also from two processes at once. A lobby's seats change one request at a time.
- **Announcements with their change.** The posts passed with a change are stored in the same
  transaction (the outbox) and get increasing ids; within one channel the ids follow the order
  in which the transactions were committed, so a channel's posts are sent in id order and a
  post is never overtaken by one stored after it (ids may have gaps). Once such a transaction
  is committed, the storage calls `StorageProtocol.on_enqueue`.
- **Shards and claims** (`bot.storage.shards`). The scans a process makes for its background
  work (`clocks.claim`, `outbox.heads`, `games.active_games`, `history.unreplayed`, and
  `outbox.unblock`) take the ``shards`` it runs and touch only the games of servers on them
  (all when None). Work that must be done once is claimed until a time: a game's clock
  (`clocks.claim`: its deadlines, reminders, stall notice) and a channel's next announcement
  (`outbox.claim`). A claim takes what is free, expired or already the claimant's; of two
  claimants at once exactly one gets it, also from two processes. A reminder is stored only if
  the clocks it is based on are unchanged (`clocks.remind`), so it is sent once even if a claim
  expired meanwhile.
- Times are whole seconds since the epoch, given by the caller (``now``); nothing here reads a
  clock.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any, Protocol

from bot.results import Message, Post
from bot.storage.outbox_protocol import ClaimsProtocol, OutboxProtocol
from bot.storage.ranks_protocol import RanksProtocol
from bot.storage.rows import (
    Clock,
    Deed,
    Finished,
    GameRow,
    GameSettings,
    LobbyView,
    MoveRow,
    Placing,
    Prefs,
    Rating,
    Result,
    SeatRow,
    Secret,
    Standing,
)
from bot.storage.seasons_protocol import SeasonsProtocol
from bot.storage.server_pages_protocol import ServerPagesProtocol
from bot.storage.shards import Shards
from bot.storage.tournaments_protocol import TournamentsProtocol

__all__ = [
    "ClaimsProtocol", "OutboxProtocol", "RanksProtocol", "SeasonsProtocol", "ServerPagesProtocol",
    "TournamentsProtocol",
]  # fmt: skip

OPEN = ("lobby", "active")
"""The statuses of a game that holds its channel."""
MISSING = "missing "
"""How the error of a post waiting for a permission begins (`OutboxProtocol.unblock` finds them)."""
PARTS = (
    "games", "moves", "players", "clocks", "outbox", "claims", "history", "seasons", "tournaments", "ranks",
    "server_pages",
)  # fmt: skip
"""The parts of a storage, as `StorageProtocol` names them."""


class ChannelBusy(Exception):
    """The channel already has a lobby or a running game."""


class GamesProtocol(Protocol):
    """Games and their seats: lobbies, starts, statuses, settings, the channel a game is in."""

    async def game(self, game_id: int) -> GameRow | None:
        """One game by id, whatever its status."""

    async def open_game(self, channel: int) -> GameRow | None:
        """The lobby or running game of a channel (at most one: see `create_lobby`)."""

    async def open_game_with_seats(self, channel: int) -> tuple[GameRow, list[SeatRow]] | None:
        """`open_game` and its `seats`, read together (one round trip: autocomplete asks for both
        at every key a player types)."""

    async def latest_game(self, channel: int) -> GameRow | None:
        """The open game of a channel, else the last one that was played there (highest id)."""

    async def paused_games(self, guild: int) -> list[GameRow]:
        """The open games of ``guild`` paused because their channel is gone (deleted, a locked
        thread), oldest first."""

    async def active_games(self, shards: Shards | None = None) -> list[GameRow]:
        """Every lobby and running game (of servers on ``shards``), by id."""

    async def seats(self, game_id: int) -> list[SeatRow]:
        """A game's seats in seat order (in a lobby: join order)."""

    async def games_of(self, user_id: int, limit: int) -> list[tuple[GameRow, list[SeatRow]]]:
        """The lobbies and running games, in every server, in which ``user_id`` holds a seat they
        have not resigned, the most recently changed first (at most ``limit``), each with its seats."""

    async def create_lobby(
        self, *, guild: int | None, channel: int, host: int, host_name: str, setup: str,
        players_wanted: int | None, now: int, limit: int | None = None,
    ) -> int:  # fmt: skip
        """A new lobby with its host in seat 0: its id. Raises (storing nothing) `ChannelBusy` when
        the channel has a lobby or a running game, `TooManyLobbies` when the host has ``limit``
        open lobbies in ``guild`` (None: no cap), also against ones being created at that moment."""

    async def show_lobby(
        self, game_id: int, message_id: int, *, now: int | None = None, view: LobbyView | None = None,
        sent: Message | None = None,
    ) -> None:  # fmt: skip
        """Note the lobby's message in its channel (the one its changes edit from now on); with ``view``,
        store in the same transaction the edit of it to what the lobby now is, unless that is ``sent``
        (what the message shows): a change stored before its id was known is not lost."""

    async def join_lobby(self, game_id: int, user_id: int, name: str, limit: int, now: int,
                         ai_level: str | None = None, view: LobbyView | None = None) -> str:  # fmt: skip
        """Seat a user (or a computer) in a lobby's next seat, with ``view``'s edit: ``joined``,
        ``already``, ``full`` (``limit`` seats taken) or ``closed``. One join at a time per lobby."""

    async def add_computer(self, game_id: int, *, by: int, level: str, limit: int, now: int, since: int,
                           view: LobbyView | None = None) -> tuple[str, int]:  # fmt: skip
        """Seat computer ``k`` (user ``-k``, ``Computer k``: one more than the lobby has) for ``by``, with
        ``view``'s edit: ``joined``, ``recent`` (``by`` added computer ``k`` at ``since`` or later:
        nothing added), ``full`` or ``closed``; and ``k``. One at a time, also from two processes."""

    async def leave_lobby(self, game_id: int, user_id: int, now: int,
                          view: LobbyView | None = None) -> tuple[str, int | None]:  # fmt: skip
        """Unseat a user (with ``view``'s edit): ``left``, ``not_in`` or ``closed``, with the (new)
        host. The seats left are numbered from 0; a lobby with no human left is abandoned."""

    async def start_game(
        self, game_id: int, *, users: list[int], seed: int, record: dict[str, Any],
        snapshot: dict[str, Any], highlight: list[str], now: int, clocks: list[Clock] | None = None,
        posts: Sequence[Post] = (), view: LobbyView | None = None,
    ) -> list[int] | None:  # fmt: skip
        """Turn a lobby into a running game at version 0 with its clocks, ``view``'s edit and the
        announcement ``posts``, in one transaction: their outbox ids. None, changing nothing, when
        it is no longer a lobby or its members are no longer ``users`` (in seat order): of several
        starts at once, exactly one succeeds."""

    async def set_status(self, game_id: int, status: str, *, now: int, only_if: tuple[str, ...] = OPEN,
                         view: LobbyView | None = None) -> bool:  # fmt: skip
        """Change a game's status if it is one of ``only_if`` (with ``view``'s edit of a lobby's
        message); False (and no change) otherwise."""

    async def set_settings(self, game_id: int, settings: GameSettings, *, now: int | None = None,
                           view: LobbyView | None = None) -> None:  # fmt: skip
        """Store a game's settings; with ``now``, in a lobby: its activity, and ``view``'s edit."""

    async def stale_lobbies(self, before: int, shards: Shards | None = None) -> list[int]:
        """The lobbies (of ``shards``) with no join, leave, computer or setting since ``before``."""

    async def close_lobby(self, game_id: int, *, before: int, now: int,
                          view: LobbyView | None = None) -> bool:  # fmt: skip
        """Abandon a lobby still stale since ``before`` (its activity kept), with ``view``'s edit."""

    async def prune_lobbies(self, before: int, shards: Shards | None = None) -> int:
        """Delete the lobbies (of ``shards``) closed without a start, last active before ``before``,
        with nothing left to send (their seats and posts too): how many. Never a started game."""

    async def by_state(self, shards: Shards | None = None) -> dict[str, int]:
        """How many games (of the servers on ``shards``) are in each state: ``lobby``, ``active``,
        ``paused`` (active, but its channel is gone), ``over``, ``abandoned``; a state with none is
        left out."""

    async def set_blocked(self, game_id: int, missing: str | None) -> bool:
        """Remember which permissions the table was told are missing; False if it was told already."""

    async def move_game(self, game_id: int, channel: int, now: int) -> int | None:
        """A paused game goes on in ``channel``, which has no open game: its held and waiting posts go
        there, due at once, each with a new nonce (how many); the game is no longer paused from
        ``now``. None, changing nothing: the game is not paused (any more) or ``channel`` has one."""

    async def page(self, game_id: int, fresh: str) -> str | None:
        """The token of the game's web page: the one it has, else ``fresh`` stored as it (once, also
        when several ask at the same moment: all get the stored one). None: no such game."""

    async def renew_page(self, game_id: int, fresh: str) -> bool:
        """Give the game's web page the token ``fresh`` (the old one then finds nothing); False: no
        such game."""

    async def game_by_page(self, token: str) -> GameRow | None:
        """The game whose web page has the token ``token`` (None: none has)."""


class MovesProtocol(Protocol):
    """The move log and the private notes: reading them, and storing moves (the version check)."""

    async def moves(self, game_id: int, last: int | None = None) -> list[MoveRow]:
        """The move log in order of move number, undone moves left out (only the ``last`` n
        moves when given)."""

    async def moved_since(
        self, game_id: int, version: int, seat: int, text: str | None = None
    ) -> MoveRow | None:
        """The first move ``seat`` made itself (not one the bot made for it, not undone) after
        the game was at ``version``, and with exactly that ``text`` when given: how a second
        copy of a request learns that its first copy counted."""

    async def moves_after(self, game_id: int, version: int) -> bool:
        """Whether a move (not taken back) was stored after the game was at ``version``."""

    async def last_move_of(self, game_id: int, seat: int) -> MoveRow | None:
        """The seat's last move that was not taken back."""

    async def last_batch_id(self, game_id: int) -> int | None:
        """The batch of the game's last move that was not taken back (None: no move yet)."""

    async def secrets(self, game_id: int, seat: int, year: int) -> list[Secret]:
        """A seat's private events of one game year, by move, then in the order stored."""

    async def commit_moves(
        self, game_id: int, *, based_on: int, moves: list[MoveRow], record: dict[str, Any],
        snapshot: dict[str, Any], status: str, highlight: list[str], secrets: list[Secret],
        now: int, resign: int | None = None, clocks: list[Clock] | None = None,
        restart: Collection[int] = (), away: Collection[int] = (), undo: Collection[int] = (),
        posts: Sequence[Post] = (), batch: int | None = None, guild: int = 0,
        placings: Sequence[Placing] = (),
    ) -> list[int] | None:  # fmt: skip
        """Store moves made on the running game at version ``based_on``, with everything they
        change and the ``posts`` announcing them, in one transaction: the posts' outbox ids.

        The version check: the game's row is updated only where ``version = based_on`` and the status
        is ``active``; the new version is ``based_on + len(moves)`` (or ``based_on + 1`` for an undo,
        so old buttons stay stale). When no row matched (another commit on that version was stored
        first, in this process or another, or the game is no longer running) it returns None and
        stores nothing: never two moves on one version.

        ``moves`` join the batch ``batch`` (default: a batch of their own, ``based_on``);
        ``secrets`` are private events; ``resign`` and ``away`` mark seats (and are noted as the
        players' conduct, a resignation and a missed deadline, as is an answer after its deadline;
        each seat's first answer notes when it was asked, its clock); ``undo`` lists move numbers
        taken back; ``clocks`` are the seats waited for now (others' clocks are dropped, those still
        waited for keep theirs unless in ``restart``); ``placings`` end the game (rated in ``guild``)."""


class PlayersProtocol(Protocol):
    """The players: their preferences across games, and their seats' absences and hand-overs."""

    async def prefs(self, user_ids: Collection[int]) -> dict[int, Prefs]:
        """The preferences of these users, by user id (defaults for those who set none)."""

    async def set_prefs(self, prefs: Prefs) -> None:
        """Store (insert or replace) a player's preferences."""

    async def deeds(self, user_ids: Collection[int], since: int) -> list[Deed]:
        """What these users did in their games from ``since`` on, by time: games finished in their seat
        (not resigned), deadlines missed, resignations, seats left (handed to someone else), and the
        moves they answered with the time each took (`MovesProtocol.commit_moves` notes it)."""

    async def digests(self) -> list[Prefs]:
        """The preferences of the players who asked for a daily digest."""

    async def claim_digest(self, user_id: int, day: int) -> bool:
        """Take ``user_id``'s digest of local ``day`` (days since the epoch): True once per day,
        for one caller, also between processes."""

    async def come_back(self, game_id: int, seat: int) -> bool:
        """Give an absent player their seat back; False if they were not away."""

    async def replace_player(self, game_id: int, seat: int, user_id: int, now: int) -> bool:
        """Hand a seat to another user (with the host role if the old player had it, and a fresh clock;
        the old player's leaving noted as their conduct); False if that user already plays there."""

    async def set_vacation(
        self, game_id: int, seat: int, *, until: int | None, used: int, year: int | None, shift: int,
        was: int | None, request: int | None = None,
    ) -> bool:  # fmt: skip
        """Record a seat's vacation and move its clock's deadline by ``shift`` seconds (never below no
        pause), if its vacation still ends at ``was`` and its last change was not ``request`` (a
        request's key, such as the interaction's id, remembered with it); False (no change)
        otherwise, so of two copies of one request only the first applies, whenever the second read."""


class ClocksProtocol(Protocol):
    """The seats' clocks: deadlines, reminders, and the claims on a game's clock."""

    async def get(self, game_id: int | None = None) -> list[Clock]:
        """The clocks of one running game, or of every running game, by game and seat. A clock is the
        time we began waiting for a seat (plus vacation), and the reminders sent: the deadline and
        the next reminder are computed from it by the service, so they survive a restart."""

    async def reset(self, game_id: int, clocks: list[Clock]) -> None:
        """Start these seats' clocks afresh (``since``, ``paused``; no reminder sent yet)."""

    async def claim(self, owner: str, now: int, until: int, shards: Shards | None = None) -> list[int]:
        """Claim for ``owner`` until ``until`` the clocks of the running, unpaused games with
        clocks (of servers on ``shards``) that no other owner holds after ``now``: their ids."""

    async def release(self, owner: str, games: Collection[int]) -> None:
        """Give up ``owner``'s claims on these games' clocks."""

    async def remind(
        self, game_id: int, *, reminded: Collection[Clock], stalled: Collection[Clock],
        posts: Sequence[Post], now: int,
    ) -> list[int] | None:  # fmt: skip
        """Count a reminder for the ``reminded`` clocks, mark the ``stalled`` ones, and store the
        posts that tell them, in one transaction: the posts' outbox ids. None, storing nothing,
        when one of these clocks is no longer as given (reminded, restarted, paused meanwhile)."""


class HistoryProtocol(Protocol):
    """A server's history: finished games' placings, ratings, replays, forgetting a player."""

    async def ratings(self, guild: int, players: Sequence[str]) -> dict[str, Rating]:
        """The current ratings of ``players`` in ``guild`` (those never rated are left out)."""

    async def leaderboard(self, guild: int) -> list[Standing]:
        """Every rated player of ``guild``, best first (shown rating, games, then player key in
        code-point order)."""

    async def results_of(self, guild: int, player: str) -> list[Result]:
        """A player's results in ``guild``, oldest game first."""

    async def finished_games(self, guild: int, last: int, before: int | None = None) -> list[Finished]:
        """The ``last`` games finished in ``guild``, newest first, with the final post's message;
        with ``before``, only games of smaller ids (the next page after a game id)."""

    async def game_results(self, game_id: int) -> list[Placing]:
        """The placings of a finished game by seat ([] when it has none)."""

    async def unreplayed(self, shards: Shards | None = None) -> list[int]:
        """The finished, rated games (of servers on ``shards``) without their replay stored, by id."""

    async def store_replay(self, game_id: int, posts: Sequence[Post], now: int) -> list[int] | None:
        """Mark the game's replay as made and store its ``posts``, once: None if it was already
        made (by this process or another)."""

    async def games_to_forget(self, guild: int, user_id: int) -> int:
        """How many of ``guild``'s finished (or abandoned) games the user played in (`forget`s)."""

    async def forget(self, guild: int, user_id: int) -> int:
        """Take a player's name out of ``guild``'s finished games and delete their rating: how
        many games they were in (their seats stay, as a former player)."""


class StorageProtocol(Protocol):
    """What the bot asks of its database, by part (see the module docstring for the shared
    contract); each part's methods are its queries, over one connection or pool."""

    games: GamesProtocol
    moves: MovesProtocol
    players: PlayersProtocol
    clocks: ClocksProtocol
    outbox: OutboxProtocol
    claims: ClaimsProtocol
    history: HistoryProtocol
    seasons: SeasonsProtocol
    tournaments: TournamentsProtocol
    ranks: RanksProtocol
    server_pages: ServerPagesProtocol

    on_enqueue: Callable[[], None] | None
    """Called once after each committed transaction that stored announcements (or moved them to
    another channel: `GamesProtocol.move_game`), never for one rolled back or one that stored
    none: the bot wakes its delivery task, which reads again until it finds nothing more."""

    async def close(self) -> None:
        """Close the connection (or the pool); the storage cannot be used afterwards."""

    async def schema_version(self) -> int:
        """The number of the last migration applied."""

    async def migrate(self, folder: Path = ...) -> int:
        """Apply the backend's numbered migrations newer than the database, each in its own
        transaction (once, when several processes start together); the new schema version."""
