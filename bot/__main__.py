"""``python -m bot`` / ``citta-bot``: read the settings, check the database, run the bot.

Exit codes: 0 when stopped (SIGTERM, SIGINT), 2 with one line saying what to fix when a
setting is wrong (no token, a database that cannot be written, a token Discord refuses, a
PostgreSQL server still out of reach after `START_WAIT` seconds), 1 on an unexpected error (logged
with its traceback, the token redacted).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys

from bot.config import ConfigError, check_database, load_settings, setup_logging
from bot.service.workers import ProcessWorkers, bot_workers
from bot.storage.backends import passwords, shown

log = logging.getLogger("bot")
START_WAIT = 60.0
"""Seconds the bot waits at start for a PostgreSQL server that is not up yet (`check_postgres`)."""


def _say(line: str) -> None:
    print(f"citta-bot: {line}", file=sys.stderr, flush=True)


def main() -> None:
    """Entry point; see the module docstring for the exit codes."""
    try:
        settings = load_settings(os.environ)
        check_database(settings.db_path, wait=START_WAIT, say=_say)  # before any network work
    except ConfigError as e:
        _say(str(e))
        sys.exit(2)
    setup_logging(settings.log_level, settings.token, *passwords(settings.db_path))
    workers = bot_workers(settings)
    if isinstance(workers, ProcessWorkers):
        workers.spawn()  # they warm while discord.py is imported and the bot logs in
    from bot.client.startup import fatal_reason, run  # discord.py is imported only once the settings are fine

    log.info("Starting La Città bot (database %s)", shown(settings.db_path))
    try:
        asyncio.run(run(settings, workers))
    except KeyboardInterrupt:  # where the loop cannot handle signals (Windows)
        pass
    except Exception as e:  # logged through the redacting handler, then a non-zero exit
        reason = fatal_reason(e)
        if reason is None:
            log.exception("The bot stopped")
            sys.exit(1)
        log.error(reason)
        sys.exit(2)
    log.info("Stopped.")


if __name__ == "__main__":
    main()
