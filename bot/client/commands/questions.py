"""``/citta board|describe|status|log|score|rules|secrets|recap|export``: what the game looks like,
what happened, and the rules; each answered privately (the record is posted as a file)."""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str as _

from bot.client.commands.base import Interaction, channel, citta, ctx, guild, manager, thinking
from bot.client.replies import answer
from bot.service import describe as describing
from bot.service import export as exporting
from bot.service import questions
from bot.service import recap as recaps
from bot.service.rules_help import TOPICS, rules_message

TOPIC_NAMES = {
    "overview": _("overview"),
    "turn": _("turn"),
    "build": _("build"),
    "cards": _("cards"),
    "voice": _("voice"),
    "feeding": _("feeding"),
    "scoring": _("scoring"),
    "bot": _("bot"),
    "async": _("async"),
}


@citta.command(description=_("Show the board (pictures for a phone, or the full poster)"))
@app_commands.describe(full=_("the whole detailed poster in one picture, for a large screen"))
async def board(interaction: Interaction, full: bool = False) -> None:
    await thinking(interaction)
    await answer(
        interaction,
        await questions.board(ctx(interaction), channel(interaction), full=full, user_id=interaction.user.id),
    )


@citta.command(description=_("The whole position in words (for screen readers)"))
async def describe(interaction: Interaction) -> None:
    await thinking(interaction)
    for msg in await describing.describe(ctx(interaction), channel(interaction), user_id=interaction.user.id):
        await answer(interaction, msg)


@citta.command(description=_("Year, phase and round; who we wait for, and since when"))
async def status(interaction: Interaction) -> None:
    await answer(
        interaction,
        await questions.status(
            ctx(interaction),
            channel(interaction),
            guild=guild(interaction),
            user_id=interaction.user.id,
            can_manage=manager(interaction),
        ),
    )


@citta.command(description=_("The last moves of the game"))
@app_commands.describe(n=_("how many moves (default 10)"))
async def log(interaction: Interaction, n: app_commands.Range[int, 1, 50] = 10) -> None:
    await answer(interaction, await questions.log(ctx(interaction), channel(interaction), n))


@citta.command(description=_("The score (so far, or the final one)"))
async def score(interaction: Interaction) -> None:
    await answer(interaction, await questions.score(ctx(interaction), channel(interaction)))


@citta.command(description=_("Short rule help"))
@app_commands.describe(topic=_("what to explain"))
@app_commands.choices(topic=[app_commands.Choice(name=TOPIC_NAMES[t], value=t) for t in TOPICS])
async def rules(interaction: Interaction, topic: str | None = None) -> None:
    await answer(interaction, rules_message(topic))


@citta.command(description=_("Your private information this year (polled voice cards), only for you"))
async def secrets(interaction: Interaction) -> None:
    await answer(
        interaction,
        await questions.secrets(ctx(interaction), interaction.user.id, channel=channel(interaction)),
    )


@citta.command(description=_("What happened since your last move, only for you, with the board"))
async def recap(interaction: Interaction) -> None:
    await thinking(interaction)
    await answer(
        interaction, await recaps.recap(ctx(interaction), interaction.user.id, channel=channel(interaction))
    )


@citta.command(description=_("The game record as a JSON file (the seed is added when the game ends)"))
async def export(interaction: Interaction) -> None:
    await answer(
        interaction,
        await exporting.export(ctx(interaction), channel=channel(interaction), user_id=interaction.user.id),
    )
