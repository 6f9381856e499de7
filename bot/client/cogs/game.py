"""The ``/citta`` slash commands. Each one defers if needed, calls the service, and replies."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

import i18n
from bot.client.ui import deliver, reply, service_of, speak_to, user_of
from bot.results import User
from bot.service.computer import levels
from bot.service.rules_help import TOPICS

if TYPE_CHECKING:
    from bot.client.bot import CittaBot

Interaction = discord.Interaction["CittaBot"]


def _channel(interaction: Interaction) -> int:
    assert interaction.channel_id is not None
    return interaction.channel_id


def _guild(interaction: Interaction) -> int:
    return interaction.guild_id or 0


def _manager(interaction: Interaction) -> bool:
    return bool(interaction.permissions.manage_guild)


def game_language(chosen: str | None, server: str | None, client: str | None) -> str:
    """The language of a new game's posts: the one chosen, else the server's (when we speak
    it), else the opener's client's, else English."""
    return i18n.choose(chosen, server, client)


TOPIC_NAMES = {
    "overview": _("overview"), "turn": _("turn"), "build": _("build"), "cards": _("cards"),
    "voice": _("voice"), "feeding": _("feeding"), "scoring": _("scoring"), "bot": _("bot"),
    "async": _("async"),
}  # fmt: skip
LANGUAGE_CHOICES = [app_commands.Choice(name=i18n.NAMES[code], value=code) for code in i18n.LANGUAGES]
"""Each language by its own name (the same for every reader)."""
LEVEL_NAMES = {"random": _("random"), "basic": _("basic"), "strong": _("strong")}
LEVEL_CHOICES = [app_commands.Choice(name=LEVEL_NAMES[level], value=level) for level in levels()]


@app_commands.guild_only()
class Citta(commands.GroupCog, group_name="citta", group_description=_("Play La Città in this channel")):
    """``/citta new|play|panel|hint|board|describe|status|log|score|rules|secrets|resign|abandon``,
    the commands of asynchronous play: ``settings|me|replace|vacation|undo|recap|export|add-ai``,
    and the server's history: ``leaderboard|stats|games|replay|me forget``."""

    me = app_commands.Group(name="me", description=_("Your quiet hours and reminders; forget your name"))

    def __init__(self, bot: CittaBot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Any command is answered in the user's language and gives a player the bot played for
        (after a deadline) their seat back."""
        await speak_to(interaction)
        if interaction.channel_id is not None:
            await service_of(interaction).come_back(interaction.user.id, channel=interaction.channel_id)
        return True

    @app_commands.command(description=_("Open a new game of La Città in this channel"))
    @app_commands.describe(
        setup=_("beginner: fixed board and castles; experienced: shuffled board, you place castles"),
        players=_("start automatically when this many players have joined (2–5)"),
        language=_("the language of the game's posts and pictures (default: the server's)"),
    )
    @app_commands.choices(
        language=LANGUAGE_CHOICES,
        setup=[app_commands.Choice(name=_("beginner"), value="beginner"),
               app_commands.Choice(name=_("experienced"), value="experienced")],
    )  # fmt: skip
    async def new(
        self, interaction: Interaction, setup: str = "beginner",
        players: app_commands.Range[int, 2, 5] | None = None, language: str | None = None,
    ) -> None:  # fmt: skip
        svc = service_of(interaction)
        chosen = game_language(language, str(interaction.guild_locale or ""), str(interaction.locale))
        msg = await svc.new_game(user_of(interaction), channel=_channel(interaction),
                                 guild=interaction.guild_id, setup=setup, players=players,
                                 language=chosen)  # fmt: skip
        await reply(interaction, msg)

    @app_commands.command(
        description=_("Make your move (the list shows your legal moves; type to narrow it)")
    )
    @app_commands.describe(move=_("a move such as: gold, build farm I9, golden 2 F5, poll 1 3, starve F6"))
    async def play(self, interaction: Interaction, move: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await service_of(interaction).play(interaction.user.id, move, channel=_channel(interaction))
        await deliver(interaction, outcome)

    @play.autocomplete("move")
    async def play_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        await speak_to(interaction)
        choices = await service_of(interaction).choices(_channel(interaction), interaction.user.id, current)
        return [app_commands.Choice(name=c.name, value=c.value) for c in choices]

    @app_commands.command(description=_("Make your move by taps: a private panel of your pending decision"))
    async def panel(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await reply(
            interaction, await service_of(interaction).my_panel(interaction.user.id, _channel(interaction))
        )

    @app_commands.command(description=_("The move the strong computer player would make for you, and why"))
    async def hint(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await reply(
            interaction,
            await service_of(interaction).hint(interaction.user.id, channel=_channel(interaction)),
        )

    @app_commands.command(description=_("Show the board (pictures for a phone, or the full poster)"))
    @app_commands.describe(full=_("the whole detailed poster in one picture, for a large screen"))
    async def board(self, interaction: Interaction, full: bool = False) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await reply(interaction, await service_of(interaction).board(_channel(interaction), full=full))

    @app_commands.command(description=_("The whole position in words (for screen readers)"))
    async def describe(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        for msg in await service_of(interaction).describe(_channel(interaction)):
            await reply(interaction, msg)

    @app_commands.command(description=_("Year, phase and round; who we wait for, and since when"))
    async def status(self, interaction: Interaction) -> None:
        msg = await service_of(interaction).status(
            _channel(interaction), guild=_guild(interaction), user_id=interaction.user.id,
            can_manage=_manager(interaction),
        )  # fmt: skip
        await reply(interaction, msg)

    @app_commands.command(description=_("The last moves of the game"))
    @app_commands.describe(n=_("how many moves (default 10)"))
    async def log(self, interaction: Interaction, n: app_commands.Range[int, 1, 50] = 10) -> None:
        await reply(interaction, await service_of(interaction).log(_channel(interaction), n))

    @app_commands.command(description=_("The score (so far, or the final one)"))
    async def score(self, interaction: Interaction) -> None:
        await reply(interaction, await service_of(interaction).score(_channel(interaction)))

    @app_commands.command(description=_("Short rule help"))
    @app_commands.describe(topic=_("what to explain"))
    @app_commands.choices(topic=[app_commands.Choice(name=TOPIC_NAMES[t], value=t) for t in TOPICS])
    async def rules(self, interaction: Interaction, topic: str | None = None) -> None:
        await reply(interaction, service_of(interaction).rules(topic))

    @app_commands.command(
        description=_("Your private information this year (polled voice cards), only for you")
    )
    async def secrets(self, interaction: Interaction) -> None:
        msg = await service_of(interaction).secrets(interaction.user.id, channel=_channel(interaction))
        await reply(interaction, msg)

    @app_commands.command(description=_("Resign (the bot then makes your moves), or leave the lobby"))
    async def resign(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await service_of(interaction).resign(interaction.user.id, channel=_channel(interaction))
        await deliver(interaction, outcome)

    @app_commands.command(
        description=_("Abandon this channel's game (host or Manage Server; asks to confirm)")
    )
    async def abandon(self, interaction: Interaction) -> None:
        can_manage = bool(interaction.permissions.manage_guild)
        msg = await service_of(interaction).abandon_prompt(
            interaction.user.id, channel=_channel(interaction), can_manage=can_manage
        )
        await reply(interaction, msg)

    @app_commands.command(name="add-ai", description=_("Fill a lobby seat with a computer player (host)"))
    @app_commands.describe(level=_("how well it plays"))
    @app_commands.choices(level=LEVEL_CHOICES)
    async def add_ai(self, interaction: Interaction, level: str = "basic") -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await service_of(interaction).add_ai(user_of(interaction), channel=_channel(interaction),
                                                       level=level)  # fmt: skip
        await deliver(interaction, outcome)

    @app_commands.command(description=_("Show or change this game's deadline, reminders and board (host)"))
    @app_commands.describe(
        deadline=_("hours to make a move (0: no deadline)"),
        reminders=_("remind every this many hours (0: off)"),
        policy=_("at the deadline: wait, let a computer decide, or skip with the least harmful move"),
        level=_("the computer player's level for policy computer"), board=_("post the board after every move "
        "or at the end of each round"), vacation=_("vacation days each player may take per year"),
        language=_("the language of the game's posts and pictures"),
    )  # fmt: skip
    @app_commands.choices(
        language=LANGUAGE_CHOICES,
        policy=[app_commands.Choice(name=_("wait"), value="wait"),
                app_commands.Choice(name=_("computer"), value="computer"),
                app_commands.Choice(name=_("skip"), value="skip")],
        level=LEVEL_CHOICES,
        board=[app_commands.Choice(name=_("every move"), value="move"),
               app_commands.Choice(name=_("end of each round"), value="round")],
    )  # fmt: skip
    async def settings(
        self, interaction: Interaction, deadline: app_commands.Range[int, 0, 336] | None = None,
        reminders: app_commands.Range[int, 0, 336] | None = None, policy: str | None = None,
        level: str | None = None, board: str | None = None,
        vacation: app_commands.Range[int, 0, 60] | None = None, language: str | None = None,
    ) -> None:  # fmt: skip
        outcome = await service_of(interaction).settings(
            interaction.user.id, channel=_channel(interaction), can_manage=_manager(interaction),
            deadline=deadline, reminders=reminders, policy=policy, level=level, board=board,
            vacation=vacation, language=language,
        )  # fmt: skip
        await deliver(interaction, outcome)

    @me.command(description=_("Your quiet hours, when you get no reminders (e.g. 22-08 UTC+1, or off)"))
    @app_commands.describe(hours=_("from-to and your UTC offset, e.g. 22-08 UTC+1 or 23:30-07:00 UTC-5; off"))
    async def quiet(self, interaction: Interaction, hours: str | None = None) -> None:
        await reply(interaction, await service_of(interaction).me(interaction.user.id, quiet=hours))

    @me.command(description=_("How you are reminded: a mention in the channel, or a direct message"))
    @app_commands.describe(how=_("a mention in the channel, or a direct message"))
    @app_commands.choices(how=[app_commands.Choice(name=_("mention"), value="mention"),
                               app_commands.Choice(name=_("dm"), value="dm")])  # fmt: skip
    async def reminders(self, interaction: Interaction, how: str | None = None) -> None:
        await reply(interaction, await service_of(interaction).me(interaction.user.id, remind_by=how))

    @me.command(description=_("The language of your private messages and your panel"))
    @app_commands.describe(language=_("a language, or your Discord's"))
    @app_commands.choices(
        language=[*LANGUAGE_CHOICES, app_commands.Choice(name=_("your Discord's language"), value="auto")]
    )
    async def language(self, interaction: Interaction, language: str | None = None) -> None:
        msg = await service_of(interaction).me(
            interaction.user.id, language=language, client=str(interaction.locale)
        )  # the answer is in the language chosen (``auto``: the client's)
        await reply(interaction, msg)

    @app_commands.command(description=_("Hand a player's seat to someone else (host or Manage Server)"))
    @app_commands.describe(old=_("the player who leaves"), new=_("who plays the seat from now on"))
    async def replace(self, interaction: Interaction, old: discord.User, new: discord.User) -> None:
        outcome = await service_of(interaction).replace(
            interaction.user.id, channel=_channel(interaction), old=User(old.id, old.display_name),
            new=User(new.id, new.display_name), can_manage=_manager(interaction),
        )  # fmt: skip
        await deliver(interaction, outcome)

    @app_commands.command(description=_("Pause your clock for some days (0 ends your vacation)"))
    @app_commands.describe(days=_("how many days (within this game's yearly allowance)"))
    async def vacation(self, interaction: Interaction, days: app_commands.Range[int, 0, 60]) -> None:
        outcome = await service_of(interaction).vacation(interaction.user.id, channel=_channel(interaction),
                                                         days=days, request=interaction.id)  # fmt: skip
        await deliver(interaction, outcome)

    @app_commands.command(
        description=_("Take back your last move (if nobody moved since and it revealed nothing)")
    )
    async def undo(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await service_of(interaction).undo(
            interaction.user.id, channel=_channel(interaction), can_manage=_manager(interaction)
        )
        await deliver(interaction, outcome)

    @app_commands.command(description=_("What happened since your last move, only for you, with the board"))
    async def recap(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await reply(
            interaction,
            await service_of(interaction).recap(interaction.user.id, channel=_channel(interaction)),
        )

    @app_commands.command(
        description=_("The game record as a JSON file (the seed is added when the game ends)")
    )
    async def export(self, interaction: Interaction) -> None:
        await reply(interaction, await service_of(interaction).export(channel=_channel(interaction)))

    @app_commands.command(description=_("This server's best rated players, and your place"))
    async def leaderboard(self, interaction: Interaction) -> None:
        msg = await service_of(interaction).leaderboard(_guild(interaction), interaction.user.id)
        await reply(interaction, msg)

    @app_commands.command(
        description=_("A player's games, wins, scores, rating and its trend on this server")
    )
    @app_commands.describe(player=_("whose record (default: yours)"))
    async def stats(self, interaction: Interaction, player: discord.User | None = None) -> None:
        who = player or interaction.user
        msg = await service_of(interaction).stats(_guild(interaction), User(who.id, who.display_name))
        await reply(interaction, msg)

    @app_commands.command(
        description=_("This server's finished games: date, players, scores, the final post")
    )
    async def games(self, interaction: Interaction) -> None:
        await reply(interaction, await service_of(interaction).games(_guild(interaction)))

    @app_commands.command(
        description=_("The animated board of a finished game, one frame per round and year")
    )
    @app_commands.describe(game=_("the game's number (default: this channel's latest game)"))
    async def replay(self, interaction: Interaction, game: app_commands.Range[int, 1] | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        msg = await service_of(interaction).replay(_guild(interaction), _channel(interaction), game)
        await reply(interaction, msg)

    @me.command(description=_("Take your name out of this server's finished games and delete your rating"))
    async def forget(self, interaction: Interaction) -> None:
        msg = await service_of(interaction).forget_prompt(_guild(interaction), interaction.user.id)
        await reply(interaction, msg)


async def setup(bot: CittaBot) -> None:
    await bot.add_cog(Citta(bot))
