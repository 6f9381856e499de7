"""``python -m bot.web.check [/healthz|/readyz]``: the Docker image's ``HEALTHCHECK`` — asks the
bot's own web server (this container's ``CITTA_WEB_PORT``) and exits 0 when it answers 200, 1
otherwise (with one line saying what it got). It imports nothing of the bot nor aiohttp: a check
runs every 30 s and should cost a few milliseconds of CPU.

``/healthz`` (the default) says the process is alive: its event loop answers. ``/readyz`` would
also fail while Discord or the database is away, which a restart does not cure; monitoring and
orchestrators that route work may ask it (see docs/deploy.md). With ``CITTA_WEB_PORT`` unset the
web server is off and there is nothing to ask: the check passes, saying so.

>>> target({"CITTA_WEB_PORT": "8080", "CITTA_WEB_HOST": "0.0.0.0"}, "/healthz")
'http://127.0.0.1:8080/healthz'
>>> target({"CITTA_WEB_PORT": "8080", "CITTA_WEB_HOST": "::"}, "/readyz")
'http://[::1]:8080/readyz'
>>> target({}, "/healthz") is None
True
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request
from collections.abc import Mapping

TIMEOUT = 4.0
"""Seconds to wait for the answer (the image's HEALTHCHECK gives the command 5)."""
EVERYWHERE = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}
"""Where to ask a server listening on every interface: this machine's loopback."""


def target(environ: Mapping[str, str], path: str) -> str | None:
    """The URL to ask (None: the web server is off)."""
    port = environ.get("CITTA_WEB_PORT", "").strip()
    if not port:
        return None
    host = environ.get("CITTA_WEB_HOST", "").strip()
    host = EVERYWHERE.get(host, host)
    return f"http://{f'[{host}]' if ':' in host else host}:{port}{path}"


def main(argv: list[str]) -> int:
    path = argv[0] if argv else "/healthz"
    if path not in ("/healthz", "/readyz"):
        print(f"citta health check: ask /healthz or /readyz, not {path!r}", file=sys.stderr)
        return 2
    url = target(os.environ, path)
    if url is None:
        print("citta health check: CITTA_WEB_PORT is not set: the web server is off, nothing to check")
        return 0
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as answer:
            print(f"citta health check: {path} answered {answer.status}")
            return 0 if answer.status == 200 else 1
    except urllib.error.HTTPError as e:
        print(f"citta health check: {path} answered {e.code}: {e.read(500).decode(errors='replace')}")
    except OSError as e:
        print(f"citta health check: {path} did not answer ({e})")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
