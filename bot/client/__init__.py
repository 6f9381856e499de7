"""The Discord side: the discord.py client (`CittaBot`), the slash commands (``cogs``), the
buttons and replies (`ui`), the delivery of the outbox (`delivery`) and running the bot
(`startup`). It only translates interactions into service calls and results into messages."""

from __future__ import annotations

from bot.client.bot import CittaBot, intents

__all__ = ["CittaBot", "intents"]
