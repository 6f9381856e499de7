"""The one door every press of a component passes, and the one error path of every interaction.

Every component is a `Component`: one class per kind of custom id (`bot.ids`), registered once at
start-up, so that a component works on any message, also after a restart (discord.py's
``DynamicItem``, as its ``dynamic_counter`` example). Before any handler runs, the door

1. reads the custom id (a number out of range is no id of ours: answered as no longer used);
2. answers in the presser's language (`speak_to`);
3. lets the press in by the service's policy (`bot.service.admission`): the same server, never a
   direct message, the game's channel (or any channel, for a kind that may be pressed anywhere),
   and the presser's own seat for a seat's component — only then are the presser's permissions read;
4. runs the kind's `Component.act`, which turns the press into a service call and its result into
   a reply.

Whatever goes wrong is answered (`fail`): a `CittaError` as the private ⚠️ reply in the reader's
language; the database out of reach (`StorageUnavailable`) or full (`StorageFull`) as a private
word that nothing was done and what to do (try again in a moment; tell the bot's host), the fault
logged as a warning; anything else is logged with a short incident id, and the user gets a private
apology that names it. Slash commands and autocomplete go through the same `fail`. No interaction is ever
left unanswered: discord.py only logs what a component's callback raises.
"""

from __future__ import annotations

import logging
import re
import secrets
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import discord

import i18n
from bot.client import layout
from bot.client.measure import timed
from bot.client.replies import answer
from bot.errors import CittaError, StorageFull, StorageUnavailable
from bot.ids import ANY_OTHER, UNKNOWN, ButtonRef, Kind, ref_from
from bot.results import Message, User
from bot.service import admission, settings
from bot.service.admission import Admitted
from bot.service.context import Context
from i18n import _

log = logging.getLogger(__name__)


def context_of(interaction: discord.Interaction[Any]) -> Context:
    """The service context of the bot that received the interaction."""
    return cast(Context, interaction.client.service)


def user_of(interaction: discord.Interaction[Any]) -> User:
    return User(interaction.user.id, interaction.user.display_name)


async def speak_to(interaction: discord.Interaction[Any]) -> None:
    """Answer this interaction in the user's language: their own choice, else their client's. The
    client's is set first: when their choice cannot be read (the database is out of reach), what
    they are told of that is in the language of their Discord."""
    ctx = context_of(interaction)
    i18n.read_by(i18n.choose(None, str(interaction.locale)))
    i18n.read_by(await settings.language_of(ctx, interaction.user.id, str(interaction.locale)))


async def fail(
    interaction: discord.Interaction[Any], error: BaseException, what: str, detail: str = ""
) -> None:
    """The one error path: a `CittaError` is the private ⚠️ reply; a storage fault the private word
    that nothing was done (`storage_fault`); anything else is logged with an incident id, and the
    user privately told it went wrong, by that id (``what``: for the log; ``detail``, such as a
    custom id, which may name a move not made: only with an incident)."""
    if isinstance(error, CittaError):
        text = f"⚠️ {error}"
    elif isinstance(error, StorageUnavailable):
        log.warning("%s was not done: the database failed (%s)", what, error)
        text = storage_fault(error)
    else:
        incident = secrets.token_hex(4)
        log.error(
            "Incident %s: %s failed%s", incident, what, f" ({detail})" if detail else "", exc_info=error
        )
        text = _(
            "⚠️ Something went wrong on my side (incident `{incident}`). Please try again; "
            "`/citta status` shows the game as it is.",
            incident=incident,
        )
    try:
        await answer(interaction, Message(text, ephemeral=True))
    except discord.HTTPException:
        log.warning("Could not send the error reply to interaction %s", interaction.id, exc_info=True)


def storage_fault(error: StorageUnavailable) -> str:
    """What the user whose request met a storage fault is told (in the current language). Each
    change is one transaction, stored whole or not at all, so the request can simply be asked again:
    in a moment when the database was out of reach; after the bot's host made room when it is full
    (the user cannot do that, the host may not know). A full storage refuses the change itself; the
    database may also go out of reach just after a move was stored (while the answer is read), so
    that word does not say the move was not made: asked again, a move made is refused as made."""
    if isinstance(error, StorageFull):
        return _(
            "⚠️ That could not be saved: the bot's storage is full. Nothing was done and nothing "
            "changed (no move was made). Please tell whoever hosts this bot."
        )
    return _(
        "⚠️ I cannot reach my database at the moment, so I could not finish that. Nothing is stored "
        "half-way: please try again in a moment (a move already made is never made twice)."
    )


@dataclass(frozen=True)
class Press:
    """A press the door let in: the interaction, what its custom id says, who pressed it, the game
    it names (`admission.Admitted`), and whether the presser may manage the server there."""

    interaction: discord.Interaction[Any]
    ref: ButtonRef
    user: User
    ctx: Context
    admitted: Admitted
    can_manage: bool

    @property
    def guild(self) -> int:
        return self.interaction.guild_id or 0

    @property
    def channel(self) -> int:
        return self.interaction.channel_id or 0

    async def thinking(self) -> None:
        """Acknowledge with a private "thinking…"; the first answer then completes it."""
        await self.interaction.response.defer(ephemeral=True, thinking=True)

    async def update(self) -> None:
        """Acknowledge without a word: the message the component is on is edited next (`edit`)."""
        await self.interaction.response.defer()

    async def edit(self, msg: Message) -> None:
        """Replace the message the component is on (after `update`) by ``msg``."""
        await self.interaction.edit_original_response(**layout.edit_kwargs(msg))


class Component(discord.ui.DynamicItem[discord.ui.Item[Any]], template=ANY_OTHER):
    """A component of the bot, and the door its presses pass. This class itself answers the ids of
    ours that no kind has any more (old or malformed); each kind is a subclass (``kind=`` a
    `bot.ids.Kind`) that says what its press does in `act`."""

    kind: ClassVar[Kind] = UNKNOWN

    def __init_subclass__(cls, *, kind: Kind) -> None:
        super().__init_subclass__(template=kind.template)
        cls.kind = kind
        layout.ITEMS[kind.name] = cls

    def __init__(self, item: discord.ui.Item[Any], ref: ButtonRef | None = None) -> None:
        super().__init__(item)
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Component:
        """The component pressed (never raises: an id that does not read is answered by the door)."""
        return cls(item, None if cls.kind is UNKNOWN else ref_from(cls.kind, match.groupdict()))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return True  # the door is `callback`: what it refuses, it answers

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """The door (see the module docstring); never raises."""
        with timed(interaction, "component"):
            await self._enter(interaction)

    async def _enter(self, interaction: discord.Interaction[Any]) -> None:
        try:
            ctx = context_of(interaction)
            await speak_to(interaction)
            admitted = await admission.admit(
                ctx, self.kind, self.ref, user=interaction.user.id, guild=interaction.guild_id,
                channel=interaction.channel_id or 0,
            )  # fmt: skip
            assert self.ref is not None  # admit refuses a press without one
            press = Press(interaction, self.ref, user_of(interaction), ctx, admitted,
                          bool(interaction.permissions.manage_guild))  # fmt: skip
            await self.act(press)
        except Exception as e:
            await fail(interaction, e, f"the {self.kind.name} component", repr(self.custom_id))

    async def act(self, press: Press) -> None:
        """What a press of this kind does, once let in (the base: nothing, it is never let in)."""
        raise AssertionError(f"no handler for {self.kind.name}")

    @property
    def values(self) -> list[str]:
        """What was picked in a select menu (empty for a button)."""
        return list(getattr(self.item, "values", []))
