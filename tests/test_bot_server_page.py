"""The server page's command (`bot.service.server_page.switch`), on each backend: a switch that is none
of on, off, renew is refused saying which are, changing nothing; a bot without web pages says so; on,
renew and off answer privately with what they did."""

from __future__ import annotations

import pytest

from bot.errors import CittaError
from bot.service import server_page
from bot.service.context import Context

GUILD = 42
URL = "https://citta.example.org"


async def test_a_switch_that_is_none_of_on_off_renew_is_refused_saying_which_are(svc: Context) -> None:
    svc.web_url = URL
    with pytest.raises(CittaError) as refused:
        await server_page.switch(svc, GUILD, "sideways")
    text = str(refused.value)
    assert all(f"`{w}`" in text for w in ("on", "off", "renew", "sideways")), text
    assert await svc.storage.server_pages.token(GUILD) is None, "nothing changed"


async def test_without_web_pages_the_command_says_the_operator_has_not_set_them(svc: Context) -> None:
    svc.web_url = None
    with pytest.raises(CittaError, match="CITTA_WEB_URL"):
        await server_page.switch(svc, GUILD, "on")
    assert await svc.storage.server_pages.token(GUILD) is None


async def test_on_renew_and_off_answer_privately_with_the_address(svc: Context) -> None:
    svc.web_url = URL
    on = await server_page.switch(svc, GUILD, "on")
    token = await svc.storage.server_pages.token(GUILD)
    assert on.ephemeral and token is not None and f"{URL}/s/{token}" in on.text, on.text
    renewed = await server_page.switch(svc, GUILD, "renew")
    fresh = await svc.storage.server_pages.token(GUILD)
    assert renewed.ephemeral and fresh not in (None, token) and f"{URL}/s/{fresh}" in renewed.text
    off = await server_page.switch(svc, GUILD, "off")
    assert off.ephemeral and "off" in off.text and await svc.storage.server_pages.token(GUILD) is None
    again = await server_page.switch(svc, GUILD, "off")
    assert "already" in again.text
