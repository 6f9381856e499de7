"""Logging that hides the secrets (the token, a database password): one handler on the root
logger with `RedactFilter`, and the loggers that would log payloads kept quiet (`QUIET_LOGGERS`).
(`bot.config` re-exports these names, where they were first.)"""

from __future__ import annotations

import logging
import re
import sys
from typing import TextIO

REDACTED = "[redacted]"


class RedactFilter(logging.Filter):
    """Replaces each secret by ``[redacted]`` in a record's message, traceback and stack."""

    SHORT = 8
    """A secret shorter than this (a database password such as ``x``) is replaced only where it
    stands apart from letters and digits, as in ``user:x@host``: replaced inside words too, it
    would garble every log line and, by the gaps it leaves, give itself away."""

    def __init__(self, *secrets: str) -> None:
        super().__init__()
        self.patterns = [
            re.compile(re.escape(s) if len(s) >= self.SHORT else rf"(?<![^\W_]){re.escape(s)}(?![^\W_])")
            for s in dict.fromkeys(secrets)
            if s
        ]

    def _clean(self, text: str) -> str:
        for pattern in self.patterns:
            text = pattern.sub(REDACTED, text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = self._clean(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._clean(record.exc_text)
        if record.stack_info:
            record.stack_info = self._clean(record.stack_info)
        return True


QUIET_LOGGERS = ("aiosqlite", "asyncpg", "discord.http", "discord.gateway", "discord.webhook.async_")
"""Loggers kept at INFO or above whatever the level: at DEBUG they log payloads — aiosqlite
every query with its parameters (game snapshots: hidden cards, the seed), discord.py every
request and event body (DMs and private replies with polled cards); asyncpg, should it ever."""


def quiet_noisy_loggers() -> None:
    """Keep `QUIET_LOGGERS` from logging their DEBUG records."""
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.INFO)


def setup_logging(level: str, *secrets: str, stream: TextIO | None = None) -> logging.Handler:
    """One stream handler on the root logger, with the secrets redacted from every record."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    handler.addFilter(RedactFilter(*secrets))
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(level)
    quiet_noisy_loggers()
    return handler
