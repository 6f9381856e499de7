"""The rows the storage returns: games with their settings, seats, moves, clocks, preferences,
the outbox, and the history (placings, ratings, standings, finished games)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from engine.words import Words, told

if TYPE_CHECKING:
    from bot.results import Message

Policy = Literal["wait", "computer", "skip"]
BoardEvery = Literal["move", "round"]
RemindBy = Literal["mention", "dm"]
POLICIES: tuple[Policy, ...] = ("wait", "computer", "skip")
SUMMARY_LIMIT = 1500
"""The longest summary of a move (`bot.service.summary.summary_line` cuts it there too)."""


@dataclass(frozen=True)
class GameSettings:
    """A game's clock and table settings (`/citta settings`)."""

    deadline_hours: int = 24
    """0: no deadline."""
    remind_hours: int = 12
    """0: no reminders."""
    policy: Policy = "wait"
    """At the deadline: wait, let a computer player decide, or skip with the least harmful move."""
    ai_level: str = "basic"
    board_every: BoardEvery = "move"
    vacation_days: int = 14
    """Days of vacation each player may take per year in this game."""
    language: str = "en"
    """The language of the game's channel posts and pictures (`i18n.LANGUAGES`)."""
    min_finished: int = 0
    """The share of their games (percent) a player must have finished to join; 0: none
    (`bot.service.reliability`)."""
    max_pace_hours: int = 0
    """The longest median time to move (hours) a player may have to join; 0: none."""


@dataclass(frozen=True)
class GameRow:
    """One row of ``games``."""

    id: int
    guild: int | None
    channel: int
    host: int
    status: str
    setup: str
    players_wanted: int | None
    seed: int | None
    version: int
    record: dict[str, Any] | None
    snapshot: dict[str, Any] | None
    highlight: list[str]
    created_at: int
    updated_at: int
    settings: GameSettings = field(default_factory=GameSettings)
    paused: str | None = None
    """Why the game cannot go on in its channel (deleted, a locked thread); None: it can."""
    blocked: str | None = None
    """The permissions the bot lacks in the channel, once the table was told; None: none."""
    lobby_message: int | None = None
    """The lobby's message in its channel (the answer to ``/citta new``), which the outbox edits as
    the lobby changes; None: not known (its buttons' presses then edit it)."""
    computer_by: int | None = None
    """Who added the lobby's last computer player (`bot.service.lobby.SAME_REQUEST`) …"""
    computer_at: int | None = None
    """… and when."""


@dataclass(frozen=True)
class SeatRow:
    """A player in a game (or in a lobby, seated in join order)."""

    seat: int
    user_id: int
    """Negative for a computer player."""
    name: str
    resigned: bool = False
    ai_level: str | None = None
    """The level of a computer player; None for a human."""
    away: bool = False
    """After a missed deadline the bot plays for this human until they use a command again."""
    vacation_until: int | None = None
    vacation_used: int = 0
    vacation_year: int | None = None
    vacation_request: int | None = None
    """The request (interaction id) of the last vacation change, so that a copy applies once."""
    held_since: int = 0
    """The game's version when this player took the seat over (0: from the start): they see only
    what was revealed to the seat after it (`bot.service.holders`)."""

    @property
    def computer(self) -> bool:
        return self.ai_level is not None

    @property
    def played_by_bot(self) -> bool:
        """Whether the bot answers this seat's decisions at once."""
        return self.computer or self.resigned or self.away


@dataclass(frozen=True)
class MoveRow:
    """One entry of the move log."""

    number: int
    seat: int
    text: str
    summary: str = ""
    auto: bool = False
    created_at: int = 0
    reveals: bool = False
    batch: int | None = None
    """Moves stored in one commit share a batch (the version they were based on)."""
    events: list[tuple[str, str]] | None = None
    """The public events as (kind, text); None for moves stored before they were kept."""
    messages: list[tuple[str, dict[str, Any]]] | None = None
    """The public events as (message, values), to tell them in a reader's language (`engine.words`;
    an empty message: the event's text is all there is); None for moves stored before they were
    kept."""

    def summary_in(self, words: Words, limit: int = SUMMARY_LIMIT) -> str:
        """The summary in ``words``' language: the public events' texts in one line, cut with …
        past ``limit`` (the stored English ``summary`` for a move stored without its messages)."""
        if self.messages is None or self.events is None or len(self.messages) != len(self.events):
            return self.summary
        pairs = zip(self.messages, self.events, strict=True)
        texts = [told(words, m, v) if m else text for (m, v), (_kind, text) in pairs]
        line = " ".join(t.strip() for t in texts if t.strip())
        return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


@dataclass(frozen=True)
class Secret:
    """A private event for one seat (shown to that seat only)."""

    seat: int
    year: int
    move: int
    kind: str
    text: str
    message: str = ""
    """The English message of ``text``, with ``{placeholders}``; empty for one stored before
    messages were kept (or one without values)."""
    values: dict[str, Any] = field(default_factory=dict)
    """What fills the message's placeholders (see `engine.words`)."""

    def told(self, words: Words) -> str:
        """The text in ``words``' language (the stored English text when there is no message)."""
        return told(words, self.message, self.values) if self.message else self.text


@dataclass(frozen=True)
class Backlog:
    """The outbox's posts waiting to be sent (`OutboxProtocol.backlog`)."""

    posts: int
    oldest: int | None
    """When the oldest of them was stored (epoch seconds; None: none waits)."""


@dataclass(frozen=True)
class Clock:
    """How long we have waited for a seat, and how often it was reminded."""

    game: int
    seat: int
    since: int
    paused: int = 0
    """Seconds of vacation added to the deadline."""
    reminders: int = 0
    last_reminded: int | None = None
    stalled: bool = False


@dataclass(frozen=True)
class Deed:
    """One thing a player did in a game, as their figures count it (`bot.service.reliability`)."""

    user_id: int
    guild: int
    """The game's server (0: none)."""
    kind: Literal["finished", "resigned", "left", "missed", "moved"]
    at: int
    waited: int | None = None
    """For ``moved``: seconds from the decision asked to the answer."""


@dataclass(frozen=True)
class Prefs:
    """A player's preferences across games (`/citta me`)."""

    user_id: int
    quiet_start: int | None = None
    """Minutes after local midnight; None: no quiet hours."""
    quiet_end: int | None = None
    utc_offset: int = 0
    """Minutes east of UTC."""
    remind_by: RemindBy = "mention"
    language: str | None = None
    """The language of what is private to this player; None: their Discord client's."""
    ahead: dict[str, str] = field(default_factory=dict)
    """Standing answers to the decisions asked outside their turn, by kind (`bot.service.ahead`)."""
    digest_at: int | None = None
    """When their daily digest comes, in minutes after local midnight; None: no digest."""
    digest_day: int | None = None
    """The local day (days since the epoch) of their last digest (`bot.service.digest`)."""
    next_ping: bool = False
    """A direct message when the player before them starts a turn (`bot.service.next_up`)."""


@dataclass(frozen=True)
class OutboxRow:
    """An announcement in the outbox (see `bot.storage.envelope`): sent in id order per channel."""

    id: int
    game: int | None
    channel: int
    version: int | None
    payload: str
    image: bytes | None
    nonce: str
    dms_done: dict[int, int]
    """Index of each DM tried: its message id, 0 when it could not be delivered, or minus the
    time it was sent off (a crash may have come before the answer)."""
    state: str
    attempts: int = 0
    tried_at: int | None = None
    next_try: int = 0
    message_id: int | None = None
    error: str | None = None
    created_at: int = 0
    claimed_by: str | None = None
    """The process sending it now (see `bot.storage.shards`), until ``claimed_until``; once it
    is sent, the one that sent it."""
    claimed_until: int = 0
    edits: int | None = None
    """The message this entry edits (its text and buttons replaced by the payload's); None: a
    new post."""

    def free_at(self, owner: str) -> int:
        """When ``owner`` may claim it: once it is due and no other process holds it."""
        held = self.claimed_until if self.claimed_by not in (None, owner) else 0
        return max(self.next_try, held)


FORMER = "a former player"
"""The name a forgotten player has in the history."""
FORMER_KEY = "former"
"""The player key of a forgotten player's results."""
FORMER_SEAT = -100
"""A forgotten player's seat gets the user id ``FORMER_SEAT - seat`` (no one's: computers have -1 … -4)."""
MU, SIGMA = 25.0, 25.0 / 3
"""A new player's rating (OpenSkill's defaults): mean and uncertainty."""


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def shown(self) -> float:
        """The rating we show and rank by: the conservative estimate mu − 3·sigma."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Placing:
    """One seat of a finished game: its place, its score and its parts, and the rating change."""

    seat: int
    player: str
    user_id: int | None
    """None for a computer player."""
    name: str
    rank: int
    score: int
    gold: int
    citizens: int
    bonus: int
    """+3 per city with all three services."""
    hunger_vp: int
    resigned: bool
    hungry_years: int
    """Years in which the seat lost citizens to hunger."""
    built: dict[str, int]
    """The buildings it built, by kind."""
    before: Rating
    after: Rating

    @property
    def change(self) -> float:
        return self.after.shown - self.before.shown


@dataclass(frozen=True)
class Standing:
    """A player's line of the leaderboard."""

    player: str
    name: str
    rating: Rating
    games: int


@dataclass(frozen=True)
class Result:
    """One seat of a finished game, as the history keeps it."""

    game: int
    ended_at: int
    place: Placing


@dataclass(frozen=True)
class Finished:
    """A finished game of a server: when, where its final post is, and its placings by seat."""

    game: int
    ended_at: int
    channel: int
    message_id: int | None
    """The Discord message of the game's final move (None until it is sent)."""
    places: list[Placing]


class TooManyLobbies(Exception):
    """The member hosts as many open lobbies in the server as one may: in ``channels``."""

    def __init__(self, channels: list[int]) -> None:
        super().__init__(channels)
        self.channels = channels


LobbyView = Callable[[GameRow, list[SeatRow]], "Message"]
"""The lobby's message as its game and seats show it (`bot.service.lobby.view`): a lobby change given
one stores with it the edit of the lobby's message (when known: `GameRow.lobby_message`)."""


SeasonLength = Literal["month", "quarter", "off"]


@dataclass(frozen=True)
class SeasonSettings:
    """A server's seasons as its admins set them (`/citta-server season`): their ``length`` (``off``:
    no more seasons), the ``channel`` the champion is announced in, and the ``language`` of it."""

    guild: int
    length: SeasonLength
    channel: int
    language: str


@dataclass(frozen=True)
class Season:
    """One season of a server: its ``number`` (from 1), the games finished from ``starts`` until before
    ``ends`` count; once over, when it was ``announced`` and its ``champion`` (rating key and name;
    None: nobody qualified)."""

    guild: int
    number: int
    starts: int
    ends: int
    champion: str | None = None
    champion_name: str | None = None
    announced: int | None = None
