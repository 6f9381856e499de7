"""What the service layer hands to the Discord layer: plain data, no Discord objects.

A cog turns a `Message` into one Discord call (content, optional PNG, buttons, allowed
mentions, ephemeral or not); buttons carry custom ids that `parse_custom_id` reads back.

>>> cid = custom_id(7, 12, 1, move="prefer F7 culture")
>>> cid
'citta:7:12:1:m.prefer_F7_culture'
>>> parse_custom_id(cid)
ButtonRef(game=7, version=12, seat=1, action='move', move='prefer F7 culture', path=(), page=0)

The private panel's steps carry the path chosen so far (a select's id starts ``cittas:``):

>>> step_id(7, 12, 1, ("found", "D13"), page=1, select=2)
'cittas:7:12:1:p.1.2.found_D13'
>>> parse_custom_id(step_id(7, 12, 1, ("found", "D13", "from E12")))
ButtonRef(game=7, version=12, seat=1, action='step', move=None, path=('found', 'D13', 'from E12'), page=0)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from i18n import N_, _

Style = Literal["primary", "secondary", "success", "danger"]
CUSTOM_ID_TEMPLATE = r"citta:(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+|-):(?P<action>[A-Za-z0-9_.-]+)"
SELECT_TEMPLATE = "cittas" + CUSTOM_ID_TEMPLATE.removeprefix("citta")
"""The custom ids of select menus (a template of their own: discord.py matches every template)."""
_CUSTOM_ID = re.compile(r"(?P<kind>cittas?)" + CUSTOM_ID_TEMPLATE.removeprefix("citta"))
ACTIONS = ("join", "leave", "start", "peek", "abandon", "panel", "close", "forget", "here")
"""``panel``: open the private panel of one's pending decision; ``close``: close that panel;
``forget``: confirm ``/citta me forget`` (no game: game 0, for the server it is pressed in);
``here``: a paused game goes on in the channel the button is pressed in."""
MAX_CUSTOM_ID = 100
PEEK_LABEL = N_("Show my peek")
"""The label of the button that shows a player their private information."""
UNREACHED = N_(
    "I could not send you a direct message. Your private information is waiting: press **{button}** "
    "or use `/citta secrets`."
)
"""What a channel post tells the players whose direct messages failed."""


@dataclass(frozen=True)
class ButtonRef:
    """What a button's custom id says: the game, the version it was made at, for whom, what."""

    game: int
    version: int
    seat: int | None
    action: str
    """``move`` (a button on a post), ``confirm`` (the panel's Confirm), ``step`` (a panel step)
    or one of `ACTIONS`."""
    move: str | None = None
    path: tuple[str, ...] = ()
    """``step``: the panel's choices so far (the words of a move; see `bot.service.panel`)."""
    page: int = 0


def custom_id(
    game: int, version: int, seat: int | None, action: str = "move", move: str | None = None
) -> str:
    """The custom id of a button; ValueError when it would not fit Discord's 100 characters."""
    who = "-" if seat is None else str(seat)
    if action not in (*ACTIONS, "move", "confirm"):
        raise ValueError(action)
    what = action if move is None else ("c." if action == "confirm" else "m.") + move.replace(" ", "_")
    return _fits(f"citta:{game}:{version}:{who}:{what}")


def step_id(
    game: int, version: int, seat: int, path: tuple[str, ...], *, page: int = 0, select: int | None = None
) -> str:
    """The custom id of a panel step: a button (``select`` None) or the ``select``-th select menu
    of a page (numbered so that ids stay unique within the message)."""
    words = "_".join(w.replace(" ", "-") for w in path)
    kind = "citta" if select is None else "cittas"
    return _fits(f"{kind}:{game}:{version}:{seat}:p.{page}.{select or 0}.{words}")


def _fits(cid: str) -> str:
    if len(cid) > MAX_CUSTOM_ID or not _CUSTOM_ID.fullmatch(cid):
        raise ValueError(f"custom id does not fit: {cid!r}")
    return cid


def parse_custom_id(cid: str) -> ButtonRef | None:
    """The `ButtonRef` of one of our custom ids, or None for anything else."""
    m = _CUSTOM_ID.fullmatch(cid)
    if m is None:
        return None
    return ref_from_match(m.groupdict())


def ref_from_match(groups: dict[str, str]) -> ButtonRef | None:
    """A `ButtonRef` from the named groups of `CUSTOM_ID_TEMPLATE`."""
    seat = None if groups["seat"] == "-" else int(groups["seat"])
    game, version, action = int(groups["game"]), int(groups["version"]), groups["action"]
    if action[:2] in ("m.", "c."):
        kind = "move" if action[0] == "m" else "confirm"
        return ButtonRef(game, version, seat, kind, action[2:].replace("_", " "))
    if action.startswith("p."):
        parts = action[2:].split(".", 2)
        if len(parts) != 3 or not parts[0].isdigit():
            return None
        page, words = parts[0], parts[2]
        path = tuple(w.replace("-", " ") for w in words.split("_") if w)
        return ButtonRef(game, version, seat, "step", path=path, page=int(page))
    if action not in ACTIONS:
        return None
    return ButtonRef(game, version, seat, action)


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
