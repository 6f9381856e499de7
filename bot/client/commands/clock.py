"""``/citta settings|replace|vacation``: a game's clock and table, and absent players."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.client.commands.base import LANGUAGE_CHOICES, Interaction, channel, citta, ctx, manager
from bot.client.commands.table import LEVEL_CHOICES
from bot.client.replies import answer, deliver
from bot.results import User
from bot.service import absence, webpage
from bot.service import settings as game_settings

POLICY_CHOICES = [
    app_commands.Choice(name=_("wait"), value="wait"),
    app_commands.Choice(name=_("computer"), value="computer"),
    app_commands.Choice(name=_("skip"), value="skip"),
]
PAGE_CHOICES = [app_commands.Choice(name=_("renew"), value="renew")]
BOARD_CHOICES = [
    app_commands.Choice(name=_("every move"), value="move"),
    app_commands.Choice(name=_("end of each round"), value="round"),
]


@citta.command(description=_("Show or change this game's deadline, reminders and board (host)"))
@app_commands.describe(
    deadline=_("hours to make a move (0: no deadline)"),
    reminders=_("remind every this many hours (0: off)"),
    policy=_("at the deadline: wait, let a computer decide, or skip with the least harmful move"),
    level=_("the computer player's level for policy computer"),
    board=_("post the board after every move or at the end of each round"),
    vacation=_("vacation days each player may take per year"),
    language=_("the language of the game's posts and pictures"),
    finished=_("to join: the least share (%) of their games a player finished in 90 days (0: none)"),
    pace=_("to join: the most hours a player took to move, at the median over 90 days (0: none)"),
    page=_("renew: a new address for the game's web page, ending the old one"),
)
@app_commands.choices(
    language=LANGUAGE_CHOICES, policy=POLICY_CHOICES, level=LEVEL_CHOICES, board=BOARD_CHOICES,
    page=PAGE_CHOICES,
)  # fmt: skip
async def settings(
    interaction: discord.Interaction,
    deadline: app_commands.Range[int, 0, 336] | None = None,
    reminders: app_commands.Range[int, 0, 336] | None = None,
    policy: str | None = None,
    level: str | None = None,
    board: str | None = None,
    vacation: app_commands.Range[int, 0, 60] | None = None,
    language: str | None = None,
    finished: app_commands.Range[int, 0, 100] | None = None,
    pace: app_commands.Range[int, 0, 336] | None = None,
    page: str | None = None,
) -> None:
    if page is not None:  # the new address is answered privately, never announced with the settings
        others = (deadline, reminders, policy, level, board, vacation, language, finished, pace)
        renewed = await webpage.renew(
            ctx(interaction), interaction.user.id, channel=channel(interaction),
            can_manage=manager(interaction), alone=all(o is None for o in others),
        )  # fmt: skip
        await answer(interaction, renewed)
        return
    await deliver(
        interaction,
        await game_settings.settings(
            ctx(interaction),
            interaction.user.id,
            channel=channel(interaction),
            can_manage=manager(interaction),
            deadline=deadline,
            reminders=reminders,
            policy=policy,
            level=level,
            board=board,
            vacation=vacation,
            language=language,
            finished=finished,
            pace=pace,
        ),
    )


@citta.command(description=_("Hand a seat to someone else (its player, the host or Manage Server)"))
@app_commands.describe(old=_("the player who leaves"), new=_("who plays the seat from now on"))
async def replace(interaction: Interaction, old: discord.User, new: discord.User) -> None:
    await deliver(
        interaction,
        await absence.replace(
            ctx(interaction),
            interaction.user.id,
            channel=channel(interaction),
            old=User(old.id, old.display_name),
            new=User(new.id, new.display_name),
            can_manage=manager(interaction),
        ),
    )


@citta.command(description=_("Pause your clock for some days (0 ends your vacation)"))
@app_commands.describe(days=_("how many days (within this game's yearly allowance)"))
async def vacation(interaction: Interaction, days: app_commands.Range[int, 0, 60]) -> None:
    await deliver(
        interaction,
        await absence.vacation(
            ctx(interaction),
            interaction.user.id,
            channel=channel(interaction),
            days=days,
            request=interaction.id,
        ),
    )
