"""``/citta me quiet|reminders|language|forget``: a player's own settings, and their name in the
server's history."""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str as _

from bot.client.commands.base import LANGUAGE_CHOICES, Interaction, ctx, guild, me
from bot.client.replies import answer
from bot.service import ahead, archive, digest, next_up, settings, standing


@me.command(description=_("Your quiet hours, when you get no reminders (e.g. 22-08 UTC+1, or off)"))
@app_commands.describe(hours=_("from-to and your UTC offset, e.g. 22-08 UTC+1 or 23:30-07:00 UTC-5; off"))
async def quiet(interaction: Interaction, hours: str | None = None) -> None:
    await answer(interaction, await settings.me(ctx(interaction), interaction.user.id, quiet=hours))


@me.command(description=_("How you are reminded: a mention in the channel, or a direct message"))
@app_commands.describe(how=_("a mention in the channel, or a direct message"))
@app_commands.choices(
    how=[
        app_commands.Choice(name=_("mention"), value="mention"),
        app_commands.Choice(name=_("dm"), value="dm"),
    ]
)
async def reminders(interaction: Interaction, how: str | None = None) -> None:
    await answer(interaction, await settings.me(ctx(interaction), interaction.user.id, remind_by=how))


@me.command(description=_("The language of your private messages and your panel"))
@app_commands.describe(language=_("a language, or your Discord's"))
@app_commands.choices(
    language=[*LANGUAGE_CHOICES, app_commands.Choice(name=_("your Discord's language"), value="auto")]
)
async def language(interaction: Interaction, language: str | None = None) -> None:
    """The answer is in the language chosen (``auto``: the client's)."""
    await answer(
        interaction,
        await settings.me(
            ctx(interaction), interaction.user.id, language=language, client=str(interaction.locale)
        ),
    )


@me.command(
    name="digest",
    description=_("A daily direct message with the games waiting on you, at the time you choose"),
)
@app_commands.describe(time=_("a time of day, e.g. 18, 18:30 or 7 UTC+1; off"))
async def daily_digest(interaction: Interaction, time: str | None = None) -> None:
    await answer(interaction, await digest.set_digest(ctx(interaction), interaction.user.id, time))


@me.command(name="next", description=_("A direct message when the player before you starts a turn"))
@app_commands.describe(messages=_("on or off"))
@app_commands.choices(
    messages=[
        app_commands.Choice(name=_("on: message me"), value="on"),
        app_commands.Choice(name=_("off: no message"), value="off"),
    ]
)
async def you_are_next(interaction: Interaction, messages: str | None = None) -> None:
    on = None if messages is None else messages == "on"
    await answer(interaction, await next_up.set_next(ctx(interaction), interaction.user.id, on))


@me.command(
    name="ahead",
    description=_("Answer ahead the decisions asked outside your turn (prefer, first, starve, demolish)"),
)
@app_commands.rename(given="answer")
@app_commands.describe(
    kind=_("the kind of decision"),
    given=_("computer (the strong computer decides for you), off, or for prefer your order of services"),
)
@app_commands.choices(kind=[app_commands.Choice(name=_(ahead.KIND_NAMES[k]), value=k) for k in ahead.KINDS])
async def answer_ahead(interaction: Interaction, kind: str | None = None, given: str | None = None) -> None:
    await answer(interaction, await standing.set_ahead(ctx(interaction), interaction.user.id, kind, given))


@me.command(description=_("Take your name out of this server's finished games and delete your rating"))
async def forget(interaction: Interaction) -> None:
    await answer(
        interaction, await archive.forget_prompt(ctx(interaction), guild(interaction), interaction.user.id)
    )
