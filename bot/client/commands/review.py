"""``/citta-review [game] [move]``: a game move by move, privately (`bot.service.review`). A top-level
command of its own: it runs in servers and in a direct message with the bot (there, a game one
played in, by its number). Its steps (⏮ ◀ ▶ ⏭, the menu) are components of their own kinds
(`bot.ids.REVIEW`), whose ids carry the position: the review goes on after a restart."""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str as _

from bot.client.commands.base import Interaction, ctx, thinking, viewer
from bot.client.replies import answer
from bot.ids import MAX_GAME, MAX_NUMBER
from bot.service import review as svc_review


@app_commands.command(name="citta-review", description=_("Step through a game move by move, privately"))
@app_commands.describe(
    game=_("the game's number (default: this channel's latest game)"),
    move=_("the move to open it at (default: the latest; 0: before the first move)"),
)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
async def review(
    interaction: Interaction,
    game: app_commands.Range[int, 1, MAX_GAME] | None = None,
    move: app_commands.Range[int, 0, MAX_NUMBER] | None = None,
) -> None:
    await thinking(interaction)
    shown = await svc_review.review(
        ctx(interaction), viewer(interaction), guild=interaction.guild_id,
        channel=interaction.channel_id or 0, game_id=game, move=move,
    )  # fmt: skip
    await answer(interaction, shown)
