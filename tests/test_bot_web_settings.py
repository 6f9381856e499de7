"""The web server's settings (``CITTA_WEB_*``, `bot.web.settings`), read with the others by
`bot.config.load_settings`: off unless ``CITTA_WEB_PORT`` is set, and a wrong one says what to set."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, load_settings
from bot.web.settings import WebSettings


def _load(**env: str) -> WebSettings | None:
    return load_settings({"DISCORD_TOKEN": "t", **env}, env_file=None).web


def test_the_web_server_is_off_unless_its_port_is_set() -> None:
    assert _load() is None


def test_the_web_settings_are_read_with_their_defaults() -> None:
    assert _load(CITTA_WEB_PORT="8080") == WebSettings(8080, "127.0.0.1", None, 300, 120)
    assert _load(
        CITTA_WEB_PORT="9000", CITTA_WEB_HOST="0.0.0.0", CITTA_WEB_URL="https://citta.example.org/",
        CITTA_READY_OUTBOX_AGE="60", CITTA_WEB_RATE="30",
    ) == WebSettings(9000, "0.0.0.0", "https://citta.example.org", 60, 30)  # fmt: skip


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"CITTA_WEB_PORT": "http"}, "CITTA_WEB_PORT must be a port number, 1 to 65535, not 'http'"),
        ({"CITTA_WEB_PORT": "70000"}, "CITTA_WEB_PORT must be a port number, 1 to 65535, not 70000"),
        ({"CITTA_WEB_URL": "https://x.org"}, "CITTA_WEB_URL set, but not CITTA_WEB_PORT"),
        ({"CITTA_WEB_PORT": "80", "CITTA_WEB_URL": "citta.example.org"}, "such as https://citta.example.org"),
        ({"CITTA_WEB_PORT": "80", "CITTA_READY_OUTBOX_AGE": "0"}, "CITTA_READY_OUTBOX_AGE must be a whole"),
        ({"CITTA_WEB_PORT": "80", "CITTA_WEB_RATE": "-1"}, "CITTA_WEB_RATE must be a whole number"),
    ],
)
def test_a_wrong_web_setting_says_what_to_set(env: dict[str, str], said: str) -> None:
    with pytest.raises(ConfigError, match=said.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        _load(**env)


def test_the_settings_repr_shows_the_web_settings_but_never_the_token() -> None:
    settings = load_settings({"DISCORD_TOKEN": "sekrit-token", "CITTA_WEB_PORT": "8080"}, env_file=None)
    assert "port=8080" in repr(settings) and "sekrit" not in repr(settings)
