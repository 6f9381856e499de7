"""The Discord side of the service results: replies, and the bot's buttons (channel posts and
DMs go out through the outbox: `bot.client.delivery`).

Every button is a `CittaButton` (a ``DynamicItem``) whose custom id says which game, which
version, for whom and what (`bot.results.custom_id`); registered once at start-up, they work
on any message, also after a restart. Callbacks only translate the click into a service call.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Protocol, cast

import discord

import i18n
from bot.client import layout
from bot.errors import CittaError
from bot.results import (
    CUSTOM_ID_TEMPLATE,
    SELECT_TEMPLATE,
    Button,
    ButtonRef,
    Message,
    Outcome,
    Select,
    User,
    parse_custom_id,
)
from i18n import _

if TYPE_CHECKING:
    from bot.service.core import CittaService

log = logging.getLogger(__name__)


def service_of(interaction: discord.Interaction[Any]) -> CittaService:
    """The service of the bot that received the interaction."""
    return cast("CittaService", interaction.client.service)


def user_of(interaction: discord.Interaction[Any]) -> User:
    return User(interaction.user.id, interaction.user.display_name)


def message_kwargs(msg: Message) -> dict[str, Any]:
    """Keyword arguments for ``send`` / ``followup.send`` (`bot.client.layout`), with our items."""
    return layout.message_kwargs(msg, CittaButton, CittaSelect)


def edit_kwargs(msg: Message) -> dict[str, Any]:
    """Keyword arguments to replace a message (a private panel) by ``msg``."""
    kw = message_kwargs(msg)
    kw.setdefault("view", None)
    kw.setdefault("content", None)
    files = [kw.pop("file")] if "file" in kw else kw.pop("files", [])
    kw["attachments"] = files
    return kw


async def speak_to(interaction: discord.Interaction[Any]) -> None:
    """Answer this interaction in the user's language: their own choice, else their client's."""
    i18n.read_by(await service_of(interaction).language_of(interaction.user.id, str(interaction.locale)))


async def reply(interaction: discord.Interaction[Any], msg: Message) -> None:
    """Answer an interaction (or follow up on a deferred one) with ``msg``."""
    kw = message_kwargs(msg)
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=msg.ephemeral, **kw)
    else:
        await interaction.response.send_message(ephemeral=msg.ephemeral, **kw)


async def reply_error(interaction: discord.Interaction[Any], error: CittaError) -> None:
    await reply(interaction, Message(f"⚠️ {error}", ephemeral=True))


class Announcer(Protocol):
    async def announce(self, outcome: Outcome) -> str | None: ...


async def deliver(interaction: discord.Interaction[Any], outcome: Outcome) -> None:
    """The actor's private reply. The announcement was stored with the change and goes out
    through the outbox; the actor is told privately when it cannot be posted."""
    if outcome.reply.text or outcome.reply.buttons:
        await reply(interaction, outcome.reply)
    await announce(interaction, outcome)


async def announce(interaction: discord.Interaction[Any], outcome: Outcome) -> None:
    """Have the outcome's stored announcement sent; a private note when it cannot be."""
    problem = await cast(Announcer, interaction.client).announce(outcome)
    if problem is not None:
        await interaction.followup.send(problem, ephemeral=True)


class CittaButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CUSTOM_ID_TEMPLATE):
    """Every button of the bot: Join/Leave/Start, moves, Show my peek, the abandon and forget
    confirmations."""

    def __init__(self, button: Button) -> None:
        super().__init__(
            discord.ui.Button(
                label=button.label, custom_id=button.custom_id, style=layout.STYLES[button.style]
            )
        )
        self.ref: ButtonRef | None = parse_custom_id(button.custom_id)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CittaButton:
        label = getattr(item, "label", None) or "…"
        return cls(Button(label, match.string))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await speak_to(interaction)
        ref = self.ref
        if ref is None:
            await interaction.response.send_message(_("This button is no longer used."), ephemeral=True)
            return
        try:
            await press(interaction, ref)
        except CittaError as e:
            await reply_error(interaction, e)


class CittaSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """The private panel's select menus: the option picked is the next word of a move."""

    def __init__(self, select: Select) -> None:
        options = [discord.SelectOption(label=o.label, value=o.value, description=o.description or None)
                   for o in select.options]  # fmt: skip
        super().__init__(
            discord.ui.Select(custom_id=select.custom_id, placeholder=select.placeholder, options=options)
        )
        self.ref: ButtonRef | None = parse_custom_id(select.custom_id)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CittaSelect:
        return cls(Select(match.string, "", ()))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await speak_to(interaction)
        values = self.item.values
        if self.ref is None or len(values) != 1:
            await interaction.response.send_message(_("This menu is no longer used."), ephemeral=True)
            return
        from bot.client import panel  # the panel's handlers use this module's replies

        await panel.choose(interaction, self.ref, str(values[0]))


async def press(interaction: discord.Interaction[Any], ref: ButtonRef) -> None:
    """Carry out a button press (each branch defers before any slow work)."""
    from bot.client import panel  # the panel's handlers use this module's replies

    if ref.action in panel.HANDLERS:
        await panel.HANDLERS[ref.action](interaction, ref)
        return
    svc, user = service_of(interaction), user_of(interaction)
    if ref.action in ("join", "leave", "start"):
        await interaction.response.defer()  # acknowledges; we edit the lobby message below
        act = {"join": svc.join, "leave": svc.leave, "start": svc.start}[ref.action]
        try:
            outcome = await act(ref.game, user)
        except CittaError as e:
            await interaction.followup.send(f"⚠️ {e}", ephemeral=True)
            return
        kw = message_kwargs(outcome.reply)
        kw.pop("file", None)
        await interaction.edit_original_response(content=kw["content"], view=kw.get("view"),
                                                 allowed_mentions=discord.AllowedMentions.none())  # fmt: skip
        await announce(interaction, outcome)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    if ref.action == "forget":  # no game: the server's history
        await reply(interaction, await svc.forget(interaction.guild_id or 0, user.id))
        return
    await svc.come_back(user.id, game_id=ref.game)
    if ref.action == "here":  # a paused game moves to this channel
        manager = bool(interaction.permissions.manage_guild)
        await deliver(interaction, await svc.move_here(user.id, guild=interaction.guild_id or 0,
                                                       channel=interaction.channel_id or 0, game_id=ref.game,
                                                       can_manage=manager))  # fmt: skip
    elif ref.action == "peek":
        await reply(interaction, await svc.secrets(user.id, game_id=ref.game))
    elif ref.action == "abandon":
        can_manage = bool(interaction.permissions.manage_guild)
        await deliver(interaction, await svc.abandon(user.id, game_id=ref.game, can_manage=can_manage))
    else:
        outcome = await svc.play(
            user.id, ref.move or "", game_id=ref.game, based_on=ref.version, seat=ref.seat, confirmed=True
        )
        await deliver(interaction, outcome)
