"""What the service layer hands to the Discord layer: plain data, no Discord objects.

A cog turns a `Message` into one Discord call (content, optional PNG, buttons, allowed
mentions, ephemeral or not); buttons carry custom ids that `parse_custom_id` reads back.

>>> cid = custom_id(7, 12, 1, move="prefer F7 culture")
>>> cid
'citta:7:12:1:m.prefer_F7_culture'
>>> parse_custom_id(cid)
ButtonRef(game=7, version=12, seat=1, action='move', move='prefer F7 culture')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

Style = Literal["primary", "secondary", "success", "danger"]
CUSTOM_ID_TEMPLATE = r"citta:(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+|-):(?P<action>[A-Za-z0-9_.]+)"
_CUSTOM_ID = re.compile(CUSTOM_ID_TEMPLATE)
ACTIONS = ("join", "leave", "start", "peek", "abandon")
MAX_CUSTOM_ID = 100


@dataclass(frozen=True)
class ButtonRef:
    """What a button's custom id says: the game, the version it was made at, for whom, what."""

    game: int
    version: int
    seat: int | None
    action: str
    """``move`` or one of `ACTIONS`."""
    move: str | None = None


def custom_id(
    game: int, version: int, seat: int | None, action: str = "move", move: str | None = None
) -> str:
    """The custom id of a button; ValueError when it would not fit Discord's 100 characters."""
    who = "-" if seat is None else str(seat)
    what = "m." + move.replace(" ", "_") if move is not None else action
    if action not in (*ACTIONS, "move"):
        raise ValueError(action)
    cid = f"citta:{game}:{version}:{who}:{what}"
    if len(cid) >= MAX_CUSTOM_ID or not _CUSTOM_ID.fullmatch(cid):
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
    action = groups["action"]
    if action.startswith("m."):
        return ButtonRef(
            int(groups["game"]), int(groups["version"]), seat, "move", action[2:].replace("_", " ")
        )
    if action not in ACTIONS:
        return None
    return ButtonRef(int(groups["game"]), int(groups["version"]), seat, action)


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

    def stored(self, ids: list[int]) -> Outcome:
        """This outcome, its announcement stored in the outbox under ``ids``."""
        return replace(self, outbox=tuple(ids))

    def announcement_for(self, failed: set[int] | frozenset[int] = frozenset()) -> Message | None:
        """The channel message, saying (without revealing anything) whose DMs failed."""
        msg = self.announcement
        if msg is None or not failed:
            return msg
        who = ", ".join(f"<@{u}>" for u in sorted(failed))
        text = (
            f"{msg.text}\n📪 {who}: I could not send you a direct message. Your private information "
            "is waiting: press **Show my peek** or use `/citta secrets`."
        )
        buttons = msg.buttons + ((self.peek_button,) if self.peek_button else ())
        return replace(msg, text=text, mentions=tuple(dict.fromkeys((*msg.mentions, *sorted(failed)))),
                       buttons=buttons)  # fmt: skip


@dataclass(frozen=True)
class Post:
    """Something the bot says on its own (no interaction to answer): in a channel and by DM.

    Either ``outcome`` (a change to the game, posted like a move) or ``message`` with ``dms``;
    a user whose DM fails is mentioned in the channel with ``fallback`` instead.
    """

    channel: int
    message: Message | None = None
    dms: tuple[DirectMessage, ...] = ()
    fallback: str = ""
    outcome: Outcome | None = None

    @property
    def direct(self) -> tuple[DirectMessage, ...]:
        """The DMs to try first."""
        return self.outcome.dms if self.outcome is not None else self.dms

    def message_for(self, failed: set[int] | frozenset[int] = frozenset()) -> Message | None:
        """The channel message once the DMs were tried (``failed``: users not reached)."""
        if self.outcome is not None:
            return self.outcome.announcement_for(failed)
        if not failed:
            return self.message
        who = " ".join(f"<@{u}>" for u in sorted(failed))
        extra = f"{who} {self.fallback}".strip()
        if self.message is None:
            return Message(extra, mentions=tuple(sorted(failed)))
        return replace(self.message, text=f"{self.message.text}\n{extra}",
                       mentions=tuple(dict.fromkeys((*self.message.mentions, *sorted(failed)))))  # fmt: skip
