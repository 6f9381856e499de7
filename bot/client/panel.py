"""The private panel on Discord: opened from a turn post, stepped through with selects and
buttons (the panel message is edited in place), confirmed, closed. The steps themselves are
`bot.service.panel`'s; these handlers only acknowledge, call the service and show its answer.

Every step acknowledges first (a deferred update), so the 3-second rule holds under load, and
edits the panel through the click's own interaction, so a panel older than an interaction
token's 15 minutes keeps working. A panel made before the game moved on is answered with a
fresh one that says so.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.client.ui import announce, edit_kwargs, message_kwargs, service_of, user_of
from bot.errors import CittaError
from bot.results import ButtonRef, Message
from i18n import N_, _

if TYPE_CHECKING:
    from bot.service.core import CittaService

CLOSED = N_("Panel closed. The 🎲 button on the latest turn post opens it again.")


async def open_panel(interaction: discord.Interaction[Any], ref: ButtonRef) -> None:
    """The 🎲 button of a turn post: a new private panel for the presser's pending decision."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    svc, user = service_of(interaction), user_of(interaction)
    try:
        await svc.come_back(user.id, game_id=ref.game)
        msg = await svc.panel(user.id, ref.game)
    except CittaError as e:
        msg = Message(f"⚠️ {e}", ephemeral=True)
    await interaction.followup.send(ephemeral=True, **message_kwargs(msg))


async def step(interaction: discord.Interaction[Any], ref: ButtonRef) -> None:
    """A panel button: back, another page."""
    await _show(interaction, ref, ref.path, ref.page)


async def choose(interaction: discord.Interaction[Any], ref: ButtonRef, value: str) -> None:
    """A panel select: ``value`` is the next word of the move."""
    await _show(interaction, ref, (*ref.path, value), 0)


async def _show(
    interaction: discord.Interaction[Any], ref: ButtonRef, path: Sequence[str], page: int
) -> None:
    await interaction.response.defer()
    svc, user = service_of(interaction), user_of(interaction)
    try:
        msg = await svc.panel(user.id, ref.game, based_on=ref.version, seat=ref.seat, path=path, page=page)
    except CittaError as e:
        msg = Message(f"⚠️ {e}", ephemeral=True)
    await interaction.edit_original_response(**edit_kwargs(msg))


async def confirm(interaction: discord.Interaction[Any], ref: ButtonRef) -> None:
    """The panel's Confirm: play the move; the panel then shows what happened and the next
    decision, if the player has one."""
    await interaction.response.defer()
    svc, user = service_of(interaction), user_of(interaction)
    try:
        await svc.come_back(user.id, game_id=ref.game)
        outcome = await svc.play(
            user.id, ref.move or "", game_id=ref.game, based_on=ref.version, seat=ref.seat, confirmed=True
        )
    except CittaError as e:
        await interaction.edit_original_response(**edit_kwargs(await _panel_or(svc, user.id, ref, f"⚠️ {e}")))
        return
    done = outcome.reply.text or _("You played `{move}`.", move=ref.move)
    await interaction.edit_original_response(**edit_kwargs(await _panel_or(svc, user.id, ref, f"✅ {done}")))
    await announce(interaction, outcome)


async def _panel_or(svc: CittaService, user_id: int, ref: ButtonRef, note: str) -> Message:
    """A fresh panel headed by ``note``, or ``note`` alone when there is none (game over…)."""
    try:
        return await svc.panel(user_id, ref.game, note=note)
    except CittaError as e:
        return Message(f"{note}\n{e}", ephemeral=True)


async def close(interaction: discord.Interaction[Any], ref: ButtonRef) -> None:
    await interaction.response.edit_message(content=_(CLOSED), view=None)


HANDLERS: dict[str, Callable[[discord.Interaction[Any], ButtonRef], Awaitable[None]]] = {
    "panel": open_panel,
    "step": step,
    "confirm": confirm,
    "close": close,
}
"""The panel's buttons, by the action of their custom id."""
