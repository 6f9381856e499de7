"""The web server's settings, read from the environment with the others (`bot.config`); this
module imports nothing heavy (the settings are read before discord.py and aiohttp are imported).

>>> web_settings({"CITTA_WEB_PORT": "8080", "CITTA_WEB_URL": "https://citta.example.org/"})
WebSettings(port=8080, host='127.0.0.1', url='https://citta.example.org', outbox_age=300, rate=120)
>>> web_settings({}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

NAMES = ("CITTA_WEB_PORT", "CITTA_WEB_HOST", "CITTA_WEB_URL", "CITTA_READY_OUTBOX_AGE", "CITTA_WEB_RATE")


@dataclass(frozen=True)
class WebSettings:
    """How the web server runs (`bot.web.server.WebServer`)."""

    port: int
    """``CITTA_WEB_PORT``; 0: any free port (tests: `WebServer.port` tells which)."""
    host: str = "127.0.0.1"
    """``CITTA_WEB_HOST``: the address it listens on (the Docker image sets ``0.0.0.0``)."""
    url: str | None = None
    """``CITTA_WEB_URL``: the public address a reverse proxy gives it, without a trailing ``/``."""
    outbox_age: int = 300
    """``CITTA_READY_OUTBOX_AGE``: seconds the oldest waiting post may wait and the bot still be ready."""
    rate: int = 120
    """``CITTA_WEB_RATE``: requests a minute per client address."""


def web_settings(values: Mapping[str, Any]) -> WebSettings | None:
    """The web server's settings from ``values`` (None: ``CITTA_WEB_PORT`` unset, the server off);
    ValueError saying what to set when one is wrong."""
    text = {name: str(values.get(name, "") or "").strip() for name in NAMES}
    if not text["CITTA_WEB_PORT"]:
        others = [name for name in NAMES[1:] if text[name]]
        if others:
            raise ValueError(
                f"{', '.join(others)} set, but not CITTA_WEB_PORT: set it to the port the web server "
                "listens on (such as 8080), or leave them all unset (no web server)."
            )
        return None
    port = _whole(text, "CITTA_WEB_PORT", 0, "a port number, 1 to 65535", 1)
    if port > 65535:
        raise ValueError(f"CITTA_WEB_PORT must be a port number, 1 to 65535, not {port}.")
    return WebSettings(
        port=port,
        host=text["CITTA_WEB_HOST"] or "127.0.0.1",
        url=_url(text["CITTA_WEB_URL"]),
        outbox_age=_whole(text, "CITTA_READY_OUTBOX_AGE", 300, "a whole number of seconds, 1 or more", 1),
        rate=_whole(text, "CITTA_WEB_RATE", 120, "a whole number of requests a minute, 1 or more", 1),
    )


def _whole(text: Mapping[str, str], name: str, default: int, what: str, least: int) -> int:
    if not text[name]:
        return default
    if not text[name].isdigit() or int(text[name]) < least:
        raise ValueError(f"{name} must be {what}, not {text[name]!r}.")
    return int(text[name])


def _url(text: str) -> str | None:
    """``CITTA_WEB_URL`` checked: an http(s) address with a host, no query (None: unset)."""
    if not text:
        return None
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(
            f"CITTA_WEB_URL must be the public address of the web server, such as "
            f"https://citta.example.org, not {text!r}."
        )
    return text.rstrip("/")
