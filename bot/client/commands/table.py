"""``/citta new|play|panel|hint|undo|resign|abandon|add-ai``: opening a game and playing it."""

from __future__ import annotations

import logging

from discord import app_commands
from discord.app_commands import locale_str as _

from bot.client.commands.base import (
    LANGUAGE_CHOICES,
    Interaction,
    channel,
    channel_language,
    citta,
    ctx,
    manager,
    thinking,
    user,
)
from bot.client.replies import answer, deliver
from bot.service import choices, leaving, lobby, moves
from bot.service import hint as hints
from bot.service import panel as panels
from bot.service import undo as undos
from bot.service.computer import levels

log = logging.getLogger(__name__)
LEVEL_NAMES = {"random": _("random"), "basic": _("basic"), "strong": _("strong")}
LEVEL_CHOICES = [app_commands.Choice(name=LEVEL_NAMES[level], value=level) for level in levels()]
SETUP_CHOICES = [
    app_commands.Choice(name=_("beginner"), value="beginner"),
    app_commands.Choice(name=_("experienced"), value="experienced"),
]


@citta.command(description=_("Open a new game of La Città in this channel"))
@app_commands.describe(
    setup=_("beginner: fixed board and castles; experienced: shuffled board, you place castles"),
    players=_("start automatically when this many players have joined (2–5)"),
    language=_("the language of the game's posts and pictures (default: the server's)"),
)
@app_commands.choices(language=LANGUAGE_CHOICES, setup=SETUP_CHOICES)
async def new(
    interaction: Interaction,
    setup: str = "beginner",
    players: app_commands.Range[int, 2, 5] | None = None,
    language: str | None = None,
) -> None:
    chosen = channel_language(interaction, language)
    opened = await lobby.new_game(
        ctx(interaction),
        user(interaction),
        channel=channel(interaction),
        guild=interaction.guild_id,
        setup=setup,
        players=players,
        language=chosen,
    )
    message_id = await answer(interaction, opened)
    if message_id is not None:  # the lobby's changes edit it from now on
        await lobby.shown(ctx(interaction), channel(interaction), message_id, opened)


@citta.command(description=_("Make your move (the list shows your legal moves; type to narrow it)"))
@app_commands.describe(move=_("a move such as: gold, build farm I9, golden 2 F5, poll 1 3, starve F6"))
async def play(interaction: Interaction, move: str) -> None:
    await thinking(interaction)
    await deliver(
        interaction,
        await moves.play(ctx(interaction), interaction.user.id, move, channel=channel(interaction)),
    )


@play.autocomplete("move")
async def play_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The user's legal moves fitting what they typed (none when anything goes wrong: an
    autocomplete has no other answer)."""
    try:
        found = await choices.choices(ctx(interaction), channel(interaction), interaction.user.id, current)
    except Exception:
        log.exception("Autocomplete of /citta play failed")
        return []
    return [app_commands.Choice(name=c.name, value=c.value) for c in found]


@citta.command(description=_("Make your move by taps: a private panel of your pending decision"))
async def panel(interaction: Interaction) -> None:
    await thinking(interaction)
    await answer(
        interaction, await panels.my_panel(ctx(interaction), interaction.user.id, channel(interaction))
    )


@citta.command(description=_("The move the strong computer player would make for you, and why"))
async def hint(interaction: Interaction) -> None:
    await thinking(interaction)
    await answer(
        interaction, await hints.hint(ctx(interaction), interaction.user.id, channel=channel(interaction))
    )


@citta.command(description=_("Resign (the bot then makes your moves), or leave the lobby"))
async def resign(interaction: Interaction) -> None:
    await thinking(interaction)
    await deliver(
        interaction, await leaving.resign(ctx(interaction), interaction.user.id, channel=channel(interaction))
    )


@citta.command(description=_("Abandon this channel's game (host or Manage Server; asks to confirm)"))
async def abandon(interaction: Interaction) -> None:
    await answer(
        interaction,
        await leaving.abandon_prompt(
            ctx(interaction),
            interaction.user.id,
            channel=channel(interaction),
            can_manage=manager(interaction),
        ),
    )


@citta.command(name="add-ai", description=_("Fill a lobby seat with a computer player (host)"))
@app_commands.describe(level=_("how well it plays"))
@app_commands.choices(level=LEVEL_CHOICES)
async def add_ai(interaction: Interaction, level: str = "basic") -> None:
    await thinking(interaction)
    await deliver(
        interaction,
        await lobby.add_ai(ctx(interaction), user(interaction), channel=channel(interaction), level=level),
    )


@citta.command(description=_("Take back your last move (if nobody moved since and it revealed nothing)"))
async def undo(interaction: Interaction) -> None:
    await thinking(interaction)
    await deliver(
        interaction,
        await undos.undo(
            ctx(interaction),
            interaction.user.id,
            channel=channel(interaction),
            can_manage=manager(interaction),
        ),
    )
