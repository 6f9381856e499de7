"""What the service layer hands to the Discord layer: plain data, no Discord objects.

The client turns a `Message` into one Discord call (content, pictures or a file, buttons and
select menus, allowed mentions, ephemeral or not); the components carry the custom ids of
`bot.ids`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from i18n import N_, _

Style = Literal["primary", "secondary", "success", "danger"]
PEEK_LABEL = N_("Show my peek")
"""The label of the button that shows a player their private information."""
UNREACHED = N_(
    "I could not send you a direct message. Your private information is waiting: press **{button}** "
    "or use `/citta secrets`."
)
"""What a channel post tells the players whose direct messages failed."""


@dataclass(frozen=True)
class User:
    """A Discord user as the service needs it: id and display name."""

    id: int
    name: str


@dataclass(frozen=True)
class Button:
    label: str
    custom_id: str
    style: Style = "secondary"
    url: str | None = None
    """A link button's address (Discord opens it; no ``custom_id``, nothing reaches the bot)."""


@dataclass(frozen=True)
class Option:
    """One entry of a select menu: ``label`` shown, ``value`` sent back, ``description`` below it."""

    label: str
    value: str
    description: str = ""


@dataclass(frozen=True)
class Select:
    """A select menu (a string select: one value picked of at most 25 options)."""

    custom_id: str
    placeholder: str
    options: tuple[Option, ...]


@dataclass(frozen=True)
class Picture:
    """A picture of a post, with its alt text (what a sighted player learns from it)."""

    filename: str
    data: bytes
    alt: str


@dataclass(frozen=True)
class Drawing:
    """What a turn post's pictures are drawn from, stored with the post instead of the pictures
    (`bot.service.drawings`): the public view (``view``, as JSON: the spectator's, nothing
    hidden), the last move's hexes, the move in words for the alt texts, the seat to act next
    and the language. ``key`` names the pictures drawn from it while they are kept in memory."""

    key: str
    view: str
    highlight: tuple[str, ...]
    last_move: str
    focus: int | None
    lang: str


@dataclass(frozen=True)
class Message:
    """One Discord message (or interaction reply)."""

    text: str
    image: bytes | None = None
    """An attached file: the board PNG, or another file named by ``filename``."""
    filename: str = "board.png"
    mentions: tuple[int, ...] = ()
    """User ids this message may ping (all other mentions are suppressed)."""
    ephemeral: bool = False
    buttons: tuple[Button, ...] = ()
    pictures: tuple[Picture, ...] = ()
    """The pictures of a turn post, shown together in one gallery (``image`` stays for a file)."""
    selects: tuple[Select, ...] = ()
    drawing: Drawing | None = None
    """What ``pictures`` were drawn from: a post stores this, not them (they are drawn again
    when they are not kept in memory)."""
    thread: str | None = None
    """A channel post that opens a public thread of this name on itself once sent (a tournament's
    table): the thread's id is then the message's own, and opening it again changes nothing."""

    def with_text(self, text: str) -> Message:
        return replace(self, text=text)


@dataclass(frozen=True)
class DirectMessage:
    user_id: int
    text: str


@dataclass(frozen=True)
class Choice:
    """An autocomplete entry: ``name`` is shown, ``value`` is what gets submitted."""

    name: str
    value: str


@dataclass(frozen=True)
class Outcome:
    """The result of something that changed a game: an answer to the actor and a channel post.

    Post ``announcement_for(failed)`` after trying ``dms``, with ``failed`` the users whose
    direct messages could not be delivered.
    """

    reply: Message
    announcement: Message | None = None
    dms: tuple[DirectMessage, ...] = ()
    game: int = 0
    peek_button: Button | None = None
    names: dict[int, str] = field(default_factory=dict)
    """Display names by user id, for the fallback text."""
    outbox: tuple[int, ...] = ()
    """The outbox ids of the stored announcement (set once it is stored; the delivery task sends it)."""
    unreached: str = ""
    """What the channel post tells the players whose DMs failed, written in the game's language
    when the outcome is made (`unreached`); empty: in the current language."""
    settled: bool = False
    """True when the game, as this outcome left it, waits for people only: running, and no seat
    the bot plays has a decision to make, so `advance` has nothing to do (False: not known)."""

    def stored(self, ids: list[int], *, settled: bool = False) -> Outcome:
        """This outcome, its announcement stored in the outbox under ``ids``."""
        return replace(self, outbox=tuple(ids), settled=settled)

    def announcement_for(
        self, failed: set[int] | frozenset[int] = frozenset(), note: str = ""
    ) -> Message | None:
        """The channel message, saying (without revealing anything) whose DMs failed: ``note``
        (as stored with the post), else the outcome's own `unreached` text."""
        msg = self.announcement
        if msg is None or not failed:
            return msg
        who = ", ".join(f"<@{u}>" for u in sorted(failed))
        text = f"{msg.text}\n📪 {who}: {note or self.unreached or unreached()}"
        buttons = msg.buttons + ((self.peek_button,) if self.peek_button else ())
        return replace(msg, text=text, mentions=tuple(dict.fromkeys((*msg.mentions, *sorted(failed)))),
                       buttons=buttons)  # fmt: skip


def unreached() -> str:
    """`UNREACHED` in the current language (write it while speaking the game's)."""
    return _(UNREACHED, button=_(PEEK_LABEL))


@dataclass(frozen=True)
class Post:
    """Something the bot says on its own (no interaction to answer): in a channel and by DM.

    Either ``outcome`` (a change to the game, posted like a move) or ``message`` with ``dms``;
    a user whose DM fails is mentioned in the channel with ``fallback`` instead (for an outcome:
    its `Outcome.unreached` text, stored with the post).
    """

    channel: int
    message: Message | None = None
    dms: tuple[DirectMessage, ...] = ()
    fallback: str = ""
    outcome: Outcome | None = None
    edits: int | None = None
    """The bot's message in ``channel`` whose text and buttons this post replaces (an edit, such
    as the lobby's message after a Join: no DMs, no files); None: a new message."""

    def __post_init__(self) -> None:
        if self.outcome is not None and not self.fallback:
            object.__setattr__(self, "fallback", self.outcome.unreached)

    @property
    def direct(self) -> tuple[DirectMessage, ...]:
        """The DMs to try first."""
        return self.outcome.dms if self.outcome is not None else self.dms

    def message_for(self, failed: set[int] | frozenset[int] = frozenset()) -> Message | None:
        """The channel message once the DMs were tried (``failed``: users not reached)."""
        if self.outcome is not None:
            return self.outcome.announcement_for(failed, self.fallback)
        if not failed:
            return self.message
        if self.message is None and not self.fallback:  # DMs only, nothing said in the channel
            return None
        who = " ".join(f"<@{u}>" for u in sorted(failed))
        extra = f"{who} {self.fallback}".strip()
        if self.message is None:
            return Message(extra, mentions=tuple(sorted(failed)))
        return replace(self.message, text=f"{self.message.text}\n{extra}",
                       mentions=tuple(dict.fromkeys((*self.message.mentions, *sorted(failed)))))  # fmt: skip
