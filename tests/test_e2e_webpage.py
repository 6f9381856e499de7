"""End-to-end, in a real browser: a game's web page (`bot.web.page`) opened in Debian's chromium
(headless, driven by Playwright) while the fake Discord plays the game — it follows a move live,
its scrubber walks every move and each matches the engine's replay (`review.position`), a link
with ``?move=K`` opens there, neither the page nor its events show a polled card, and a renewed
address answers 404 at the old one; on each backend (SQLite, PostgreSQL). Screenshots at 360 and
1280 px wide are written to a tmp folder (``CITTA_WEB_SHOTS`` names one to keep them)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import aiohttp
import pytest
from fakediscord import FakeDiscord
from fakediscord.fixtures import fake_discord
from test_e2e_privacy import PRIVATE, poll, polled_cards
from test_e2e_support import Table, citta_bot
from test_e2e_web import web_server

from bot.service import review
from bot.service.describe import position_words
from bot.web.guard import PAGE_CSP

__all__ = ["fake_discord"]

SEED = 19  # alice can poll the people in her first turn
PUBLIC = "https://citta.example.org"
CHROMIUM = "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.async_api")
pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),  # (CI installs it: there it must run)
    reason="Debian's chromium is not installed",
)


async def events_text(url: str, seconds: float = 1.5) -> str:
    """What the page's event stream says within ``seconds``."""
    got = b""
    async with aiohttp.ClientSession() as session, session.get(url) as r:
        assert r.headers["Content-Type"].startswith("text/event-stream")
        end = time.monotonic() + seconds
        while time.monotonic() < end and b"event:" not in got:
            try:
                got += await r.content.readany()
            except TimeoutError:
                break
    return got.decode()


async def test_a_game_s_page_follows_it_live_walks_every_move_shows_no_polled_card_and_renewed_ends_it(
    fake_discord: FakeDiscord, database: Path | str, tmp_path: Path
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    shots = Path(os.environ.get("CITTA_WEB_SHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    async with (
        web_server(url=PUBLIC, rate=100_000) as web,
        citta_bot(fake, database, seed=SEED, web=web) as bot,
        playwright.async_playwright() as pw,
    ):
        table = Table(fake, bot, exact_boards=False)
        await table.open(alice, [bob])
        await poll(table, alice)
        hidden = polled_cards(table, alice)
        assert hidden, "alice looked at voice cards"
        status = await (await fake.slash(alice, "citta status")).wait_message()
        found = re.search(rf"{re.escape(PUBLIC)}/g/([A-Za-z0-9_-]+)", status.text)
        assert found and len(found.group(1)) >= 32, status.text  # 24 random bytes
        token = found.group(1)
        base = f"http://127.0.0.1:{web.port}/g/{token}"

        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        blocked: list[str] = []
        page.on("console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None)
        answer = await page.goto(base)
        assert answer is not None and answer.status == 200
        assert answer.headers["content-security-policy"] == PAGE_CSP
        assert await page.get_attribute("#page", "data-move") == str(len(table.played))
        assert await page.is_visible(".zoom"), "the page's own script ran under its policy"

        # Live: a move stored while the page shows the latest position opens on it within a second or so.
        moved = len(table.played)
        user = table.pending()[0]
        await table.play(user, (await table.choices(user))[0])
        stored = time.monotonic()
        await page.wait_for_selector(f"#page[data-move='{moved + 1}']", timeout=5000)
        assert time.monotonic() - stored < 2.5, "a move appears within about a second of being stored"
        await page.wait_for_function("() => document.getElementById('board').naturalWidth > 0", timeout=20000)
        await page.screenshot(path=str(shots / "page-1280.png"), full_page=True)
        assert table.last is not None
        links = [(c["label"], c["url"]) for c in table.last.all_components() if c.get("style") == 5]
        assert links == [("🌐 Live page", f"{PUBLIC}/g/{token}")], "the turn post links the page"

        # The scrubber: ◀ from the end to the start, every move as the engine replays it.
        row = await bot.service.storage.games.game(table.game_id)
        assert row is not None and row.record is not None
        count = len(row.record["moves"])
        assert count == moved + 1
        texts = [await page.content()]
        for k in range(count, -1, -1):
            if k < count:
                await page.click("nav.scrub a[rel=nofollow]:has-text('◀')")
                await page.wait_for_selector(f"#page[data-move='{k}']")
            at = review.position(row.record, k, seat=None, over=False)
            words = await page.locator("#words li").all_text_contents()
            assert words == position_words(at.view, "en"), k
            assert len(await page.locator("#log li").all_inner_texts()) == k
            texts.append(await page.content())

        # The slider goes to a move; a link with ?move=K opens there, in the language asked.
        await page.eval_on_selector(
            "#move", "(e) => { e.value = '1'; e.dispatchEvent(new Event('change')); }"
        )
        await page.wait_for_selector("#page[data-move='1']")
        await page.goto(f"{base}?move=0&lang=de")
        assert await page.get_attribute("#page", "data-move") == "0"
        assert await page.get_attribute("html", "lang") == "de"

        phone = await browser.new_page(viewport={"width": 360, "height": 780})
        await phone.goto(base)
        await phone.wait_for_function(
            "() => document.getElementById('board').naturalWidth > 0", timeout=20000
        )
        assert await phone.evaluate("document.documentElement.scrollWidth") <= 360, "no sideways scrolling"
        await phone.screenshot(path=str(shots / "page-360.png"), full_page=True)
        texts.append(await phone.content())
        texts.append(await events_text(f"{base}/events"))
        assert f'"count": {count}' in texts[-1], texts[-1]
        await browser.close()
        assert blocked == [], blocked

        # Nothing a spectator may not see: no polled card in a page, its words or its events.
        for text in texts:
            assert not PRIVATE.search(text)
            assert all(card not in text for card in hidden)

        # Renewing: only the host (or Manage Server), privately; the old address then answers 404.
        refused = await (await fake.slash(bob, "citta settings", page="renew")).wait_message()
        assert "Only the host" in refused.text and token not in refused.text
        renewed = await (await fake.slash(alice, "citta settings", page="renew")).wait_message()
        fresh = re.search(rf"{re.escape(PUBLIC)}/g/([A-Za-z0-9_-]+)", renewed.text)
        assert fresh and fresh.group(1) != token, renewed.text
        assert all(token not in m.text and fresh.group(1) not in m.text for m in fake.messages())
        async with aiohttp.ClientSession() as session:
            for path, status_code in (
                (base, 404),
                (f"{base}/events", 404),
                (f"{base[: -len(token)]}{fresh.group(1)}", 200),
            ):
                async with session.get(path) as r:
                    assert r.status == status_code, path
