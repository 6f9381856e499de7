"""The bot's cogs (each module ends in ``async def setup(bot)``)."""
