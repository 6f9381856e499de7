"""End-to-end, in a real browser: a server's web page (`bot.web.server_page`), switched on by an admin
with ``/citta-server page`` while the fake Discord plays — it lists a running game and a finished one,
each linking a game page that opens, and the leaderboard; a game in a private channel is not listed;
``renew`` ends the old address; ``off`` answers 404; the command is not offered to a member without
Manage Server. Opened in Debian's chromium (headless, driven by Playwright), as the game page's test
(`test_e2e_webpage`)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import aiohttp
import pytest
from fakediscord import FakeDiscord, FakeDiscordError, FakeUser
from fakediscord.fixtures import fake_discord
from test_e2e_history import _finished_game
from test_e2e_privacy import PRIVATE, poll, polled_cards
from test_e2e_support import Table, citta_bot
from test_e2e_web import web_server
from test_e2e_webpage import CHROMIUM, PUBLIC, playwright, pytestmark

from bot.web.guard import SERVER_CSP

__all__ = ["fake_discord", "pytestmark"]

SEED = 19


async def page_command(fake: FakeDiscord, user: FakeUser, switch: str) -> str:
    """``/citta-server page switch:…``'s answer, which is private."""
    rec = await fake.slash(user, "citta-server page", switch=switch)
    msg = await rec.wait_message()
    assert rec.ephemeral and msg.recipient is user, rec
    return msg.text


async def status_of(url: str) -> int:
    async with aiohttp.ClientSession() as session, session.get(url) as r:
        return r.status


async def test_a_server_s_page_lists_its_public_games_and_leaderboard_and_renewed_or_off_ends_it(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    private = await fake.add_private_channel("back-room", alice, bob)
    second = await fake.add_text_channel("second")
    async with (
        web_server(url=PUBLIC, rate=100_000) as web,
        citta_bot(fake, database, seed=SEED, web=web) as bot,
        playwright.async_playwright() as pw,
    ):
        with pytest.raises(FakeDiscordError, match="not offered to a member without permissions"):
            await fake.slash(carol, "citta-server page", switch="on")
        finished, _, _ = await _finished_game(fake, bot, alice, [bob], "random", second)
        hidden, _, _ = await _finished_game(fake, bot, alice, [bob], "random", private)
        bot.service.clock = time.time
        table = Table(fake, bot, exact_boards=False)
        await table.open(alice, [bob])
        await poll(table, alice)
        hidden_cards = polled_cards(table, alice)
        assert hidden_cards, "alice looked at voice cards"

        fake.grant(alice, "manage_guild")
        on = await page_command(fake, alice, "on")
        found = re.search(rf"{re.escape(PUBLIC)}/s/([A-Za-z0-9_-]+)", on)
        assert found and len(found.group(1)) >= 32, on  # 24 random bytes, as a game page's
        token = found.group(1)
        assert token in await page_command(fake, alice, "on"), "on again: the same address"
        assert all(token not in m.text for m in fake.messages()), "the address is never posted"
        base = f"http://127.0.0.1:{web.port}/s/{token}"

        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        shown = await page.goto(base)
        assert shown is not None and shown.status == 200
        assert shown.headers["content-security-policy"] == SERVER_CSP
        running = await page.locator("#running li").evaluate_all("(l) => l.map((e) => e.dataset.game)")
        over = await page.locator("#finished li").evaluate_all("(l) => l.map((e) => e.dataset.game)")
        assert running == [str(table.game_id)], running
        assert over == [str(finished)], f"the game in the private channel ({hidden}) is not listed: {over}"
        text = await page.content()
        assert f"Game {hidden}" not in text
        assert not PRIVATE.search(text) and all(card not in text for card in hidden_cards), "nothing hidden"
        running_text = await page.locator("#running li").inner_text()
        assert "Alice, Bob" in running_text and re.search(r"\n(Alice|Bob) to \w", running_text), running_text
        assert "Winner:" in await page.locator("#finished li").inner_text()
        ranked = await page.locator("#leaderboard tbody th").all_inner_texts()
        assert {"Alice", "Bob"} <= set(ranked), ranked

        for kind, game in (("running", table.game_id), ("finished", finished)):
            await page.goto(base)
            await page.click(f"#{kind} li[data-game='{game}'] a")
            await page.wait_for_selector("#page[data-move]")
            assert f"Game {game}" in await page.title(), kind
            assert re.search(r"/g/[A-Za-z0-9_-]{32}\?lang=en$", page.url), page.url
        await page.goto(f"{base}?lang=fr")
        assert await page.get_attribute("html", "lang") == "fr"
        await browser.close()

        renewed = await page_command(fake, alice, "renew")
        fresh = re.search(rf"{re.escape(PUBLIC)}/s/([A-Za-z0-9_-]+)", renewed)
        assert fresh and fresh.group(1) != token, renewed
        assert await status_of(base) == 404, "renewed: the old address opens nothing"
        new = f"http://127.0.0.1:{web.port}/s/{fresh.group(1)}"
        assert await status_of(new) == 200
        assert "off" in await page_command(fake, alice, "off")
        assert await status_of(new) == 404, "off: the page is gone"
    fake.check()


async def test_only_channels_and_public_threads_everyone_may_view_count_as_public(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """`CittaBot.public`, which the server's page asks (from discord.py's cache) for each game's channel."""
    fake = fake_discord
    alice, carol = fake.user("alice"), fake.user("carol")
    async with citta_bot(fake, tmp_path / "citta.db", seed=SEED) as bot:
        private = await fake.add_private_channel("back-room", alice)
        thread = await fake.add_thread("open-thread")
        secret = await fake.add_thread("secret-thread", private=True, owner=alice)
        inside = await fake.add_thread("in-the-back-room", private, owner=alice)
        everywhere = (private, thread, secret, inside)
        await fake.wait_for(lambda: all(bot.get_channel(c.id) is not None for c in everywhere))
        assert fake.permissions(secret, carol) == 0 and fake.permissions(secret, alice) != 0, "as Discord"
        assert bot.public(fake.channel.id) and bot.public(thread.id)
        assert not bot.public(private.id), "a channel @everyone may not view"
        assert not bot.public(secret.id), "a private thread, even of a public channel"
        assert not bot.public(inside.id), "a thread of a private channel"
        assert not bot.public(12345), "a channel the bot does not know"
    fake.check()
