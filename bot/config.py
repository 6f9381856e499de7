"""Settings from the environment and an optional ``.env`` file, and logging that hides the token.

>>> load_settings({"DISCORD_TOKEN": "abc", "CITTA_DEV_GUILD": "42"}, env_file=None).dev_guild
42
>>> parse_dotenv('# comment\\nexport A = "x y"\\nB=1 # note\\n')
{'A': 'x y', 'B': '1'}
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

REDACTED = "[redacted]"
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(Exception):
    """A setting is missing or wrong; the message says what to set."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot is configured with (never read from the environment elsewhere)."""

    token: str = field(repr=False)
    db_path: Path = Path("citta.db")
    dev_guild: int | None = None
    log_level: str = "INFO"


def parse_dotenv(text: str) -> dict[str, str]:
    """``KEY=value`` lines; ``#`` comments, blank lines, ``export`` and quotes are allowed."""
    out: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if value[:1] in ("'", '"') and value[-1:] == value[:1] and len(value) >= 2:
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        if key:
            out[key] = value
    return out


def load_settings(environ: Mapping[str, str], env_file: Path | None = Path(".env")) -> Settings:
    """Settings from ``environ``, falling back to ``env_file``; ConfigError when one is wrong."""
    values: dict[str, str] = {}
    if env_file is not None and env_file.is_file():
        values.update(parse_dotenv(env_file.read_text(encoding="utf-8")))
    values.update({k: v for k, v in environ.items() if v != ""})
    token = values.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set: set it in the environment or in a .env file "
            "(see .env.example) to the bot token of your Discord application."
        )
    guild_text = values.get("CITTA_DEV_GUILD", "").strip()
    dev_guild = None
    if guild_text:
        if not guild_text.isdigit():
            raise ConfigError(f"CITTA_DEV_GUILD must be a server id (digits only), not {guild_text!r}.")
        dev_guild = int(guild_text)
    level = values.get("CITTA_LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in LEVELS:
        raise ConfigError(f"CITTA_LOG_LEVEL must be one of {', '.join(LEVELS)}, not {level!r}.")
    db_path = Path(values.get("CITTA_DB", "").strip() or "citta.db")
    return Settings(token=token, db_path=db_path, dev_guild=dev_guild, log_level=level)


class RedactFilter(logging.Filter):
    """Replaces each secret by ``[redacted]`` in a record's message, traceback and stack."""

    def __init__(self, *secrets: str) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def _clean(self, text: str) -> str:
        for s in self.secrets:
            text = text.replace(s, REDACTED)
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


QUIET_LOGGERS = ("aiosqlite", "discord.http", "discord.gateway", "discord.webhook.async_")
"""Loggers kept at INFO or above whatever the level: at DEBUG they log payloads — aiosqlite
every query with its parameters (game snapshots: hidden cards, the seed), discord.py every
request and event body (DMs and private replies with polled cards)."""


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
