"""Answering an interaction on Discord's current paths, and telling the actor what became of the
announcement their change made.

An interaction gets one response: a message, a "thinking" defer, or (for a component) a deferred
update of the message it is on. The first answer after a "thinking" defer edits that response
(Discord's Edit Original Interaction Response: the followup endpoint still does it, deprecated, and
there ignores the ephemeral flag); every later answer is a followup of its own.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

import discord

from bot.client.layout import edit_kwargs, message_kwargs
from bot.results import Message, Outcome
from i18n import _

ANSWERED = "citta.answered"
"""Set in an interaction's ``extras`` once its deferred response was completed."""


class Announcer(Protocol):
    async def announce(self, outcome: Outcome) -> str | None: ...


async def answer(interaction: discord.Interaction[Any], msg: Message) -> int | None:
    """Answer ``interaction`` with ``msg``: its response, or the completion of its "thinking" defer,
    or a followup once that is done. The message's id, when Discord said it (None for a followup)."""
    made: int | None = None
    if not interaction.response.is_done():
        sent = await interaction.response.send_message(ephemeral=msg.ephemeral, **message_kwargs(msg))
        made = sent.message_id
    elif thinking(interaction):
        made = (await interaction.edit_original_response(**edit_kwargs(msg))).id
    else:
        await interaction.followup.send(ephemeral=msg.ephemeral, **message_kwargs(msg))
    interaction.extras[ANSWERED] = True
    return made


def thinking(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction's response is a "thinking" defer not completed yet."""
    deferred = interaction.response.type is discord.InteractionResponseType.deferred_channel_message
    return deferred and not interaction.extras.get(ANSWERED)


async def deliver(interaction: discord.Interaction[Any], outcome: Outcome) -> None:
    """The actor's private reply (a plain "done" when the outcome has none, so that a "thinking"
    defer never stays open); the announcement was stored with the change and goes out through the
    outbox: the actor is told privately when it cannot be posted."""
    if outcome.reply.text or outcome.reply.buttons:
        await answer(interaction, outcome.reply)
    elif thinking(interaction) or not interaction.response.is_done():
        await answer(interaction, Message(_("Done."), ephemeral=True))
    await announce(interaction, outcome)


async def announce(interaction: discord.Interaction[Any], outcome: Outcome) -> None:
    """Have the outcome's stored announcement sent; a private note when it cannot be."""
    problem = await cast(Announcer, interaction.client).announce(outcome)
    if problem is not None:
        await answer(interaction, Message(problem, ephemeral=True))
