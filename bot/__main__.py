"""``python -m bot`` / ``citta-bot``: read the settings, set up logging, run the bot."""

from __future__ import annotations

import asyncio
import logging
import os
import sys

from .config import ConfigError, Settings, load_settings, setup_logging

log = logging.getLogger("bot")


async def run(settings: Settings) -> None:
    """Run the bot until it is stopped."""
    from .client import CittaBot  # discord.py is imported only once the settings are fine

    async with CittaBot(db_path=settings.db_path, dev_guild=settings.dev_guild) as bot:
        await bot.start(settings.token)


def main() -> None:
    """Entry point; exits with code 2 and one line on stderr when a setting is missing."""
    try:
        settings = load_settings(os.environ)
    except ConfigError as e:
        print(f"citta-bot: {e}", file=sys.stderr)
        sys.exit(2)
    setup_logging(settings.log_level, settings.token)
    log.info("Starting La Città bot (database %s)", settings.db_path)
    try:
        asyncio.run(run(settings))
    except KeyboardInterrupt:
        log.info("Stopped.")
    except Exception as e:  # logged through the redacting handler, then a non-zero exit
        if type(e).__name__ == "LoginFailure":
            log.error(
                "Discord refused the token: check DISCORD_TOKEN (Developer Portal → Bot → Reset Token)."
            )
        else:
            log.exception("The bot stopped")
        sys.exit(1)


if __name__ == "__main__":
    main()
