"""Screenshots of the web pages (issue 34): a game's page and a server's page, each at 360 and 1280 px
wide, written to a folder this prints.

Usage: python scripts/screenshot_page.py [FOLDER]

Without Discord: the service plays, on a fresh SQLite database, one game of a member and three
``basic`` computer players to its end and starts a second one (a few moves), both in one server;
the bot's web server (`bot.web.server.WebServer`) serves their pages and the server's page, and
Debian's chromium (headless, driven by Playwright) takes the screenshots, each of the whole page:
``game-running-{360,1280}.png``, ``game-finished-{360,1280}.png``, ``server-{360,1280}.png``. Each
page is also checked for sideways scrolling at 360 px (printed).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bot import human_move, new_game
from playwright.async_api import async_playwright

from bot.metrics import Metrics
from bot.service import advance as svc_advance
from bot.service.context import Context
from bot.service.page_address import fresh_token
from bot.service.workers import ProcessWorkers
from bot.web.server import WebServer
from bot.web.settings import WebSettings

CHROMIUM = "/usr/bin/chromium"
GUILD = 7
WIDTHS = (360, 1280)


@dataclass
class Standalone:
    """The bot as the web server sees it (`bot.web.ops.Source`), without Discord: every channel public."""

    ctx: Context
    metrics: Metrics = field(default_factory=Metrics)

    def logged_in(self) -> bool:
        return True

    def holding(self) -> bool:
        return False

    def opened(self) -> Context:
        return self.ctx

    def public(self, channel: int) -> bool:
        return True


async def started_game(svc: Context, channel: int, players: int = 4) -> int:
    """A game of `HUMAN` and ``players - 1`` basic computer players in ``channel`` of `GUILD`, started."""
    return await new_game(svc, channel, players, level="basic", guild=GUILD)


async def play(svc: Context, game_id: int, rnd: random.Random, moves: int | None = None) -> None:
    """The member's moves (random legal ones), the computers answering: ``moves`` of them, or to the end."""
    played = 0
    while (row := await svc.storage.games.game(game_id)) is not None and row.status == "active":
        if moves is not None and played >= moves:
            return
        await human_move(svc, game_id, rnd)
        await svc_advance.advance(svc, game_id)
        played += 1


@contextlib.asynccontextmanager
async def served(folder: Path) -> AsyncIterator[tuple[Context, WebServer]]:
    """A fresh service on an SQLite file in ``folder``, with its worker processes, and its web server."""
    workers = ProcessWorkers()
    await workers.start()
    svc = await Context.open(folder / "pages.db", workers=workers, web_url="https://citta.example.org")
    web = WebServer(WebSettings(port=0, url="https://citta.example.org", rate=1_000_000))
    web.attach(Standalone(svc))
    await web.start()
    try:
        yield svc, web
    finally:
        await web.stop()
        await svc.close()
        workers.close()


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        async with served(Path(tmp)) as (svc, web):
            rnd = random.Random(4)
            finished = await started_game(svc, 1)
            await play(svc, finished, rnd)
            running = await started_game(svc, 2)
            await play(svc, running, rnd, moves=6)
            root = f"http://127.0.0.1:{web.port}"
            pages = {
                "game-running": f"{root}/g/{await svc.storage.games.page(running, fresh_token())}",
                "game-finished": f"{root}/g/{await svc.storage.games.page(finished, fresh_token())}",
                "server": f"{root}/s/{await svc.storage.server_pages.switch_on(GUILD, fresh_token())}",
            }
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
                )
                for name, url in pages.items():
                    for width in WIDTHS:
                        page = await browser.new_page(viewport={"width": width, "height": 800})
                        await page.goto(url)
                        if name.startswith("game"):
                            await page.wait_for_function(
                                "() => document.getElementById('board').naturalWidth > 0", timeout=60_000
                            )
                        wide = await page.evaluate("document.documentElement.scrollWidth")
                        path = out / f"{name}-{width}.png"
                        await page.screenshot(path=str(path), full_page=True)
                        print(f"{path}: {width} px wide, the page {wide} px wide", flush=True)
                        await page.close()
                await browser.close()
    print(f"screenshots in {out}")


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="citta-shots-"))
    asyncio.run(main(folder))
