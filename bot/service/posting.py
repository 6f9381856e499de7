"""What the delivery (`bot.service.delivery`) asks of Discord, and what Discord may answer: the
`Sender` contract (`bot.client.sender.DiscordSender` is the bot's) and the refusals it raises; what
became of an announcement (`Delivery`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.results import DirectMessage, Message
from i18n import N_

SEND_OR_ATTACH = N_("Send Messages or Attach Files")
"""The permissions named when the sender cannot tell which one is missing."""


@dataclass(frozen=True)
class Delivery:
    """What became of one announcement so far."""

    state: str
    """``sent``, ``pending`` (waiting or being retried), ``held`` (channel gone) or ``failed``."""
    missing: str | None = None
    """The permissions the bot lacks in the channel, when that is why it waits."""
    error: str | None = None


class Blocked(Exception):
    """The bot may not post (or attach) in the channel: ``missing`` names the permissions, in
    Discord's English words joined by `` and ``."""

    def __init__(self, missing: str) -> None:
        super().__init__(missing)
        self.missing = missing


class Gone(Exception):
    """The channel is gone for good (the reason, in English: it is stored)."""


class Refused(Exception):
    """Discord refused the post for good (a malformed request): passed over."""


class Fault(Exception):
    """A fault worth another try, later (the network, an outage): what happened, as it is logged."""


class Sender(Protocol):
    """What the delivery asks of Discord (`bot.client.sender.DiscordSender`)."""

    async def find(self, channel: int, msg: Message, since: float) -> int | None:
        """The bot's message ``msg`` among the channel's messages since ``since`` (epoch seconds): its id."""
        ...

    async def send(self, channel: int, msg: Message, nonce: str) -> int:
        """Post ``msg`` in the channel with ``nonce``: the message's id. Raises `Blocked`, `Gone`,
        `Refused` or `Fault` (anything else is taken for a fault too)."""
        ...

    async def edit(self, channel: int, message_id: int, msg: Message) -> None:
        """Replace the text and buttons of the bot's message ``message_id`` in the channel by
        ``msg``'s. Raises as `send` does (a message deleted meanwhile: `Refused`)."""
        ...

    async def dm(self, dm: DirectMessage, nonce: str | None, tried: int | None) -> int:
        """Send a direct message (unless a try at ``tried`` got through): its message id, or 0 when it
        cannot be delivered (DMs closed …)."""
        ...
