"""End-to-end: the operator's endpoints of the bot's web server (`bot.web`), asked over HTTP with
aiohttp's client while the real bot runs against the fake Discord — ``/readyz`` unready before
login, with a post stuck in the outbox, with its PostgreSQL server stopped, and ready when all is
well; ``/metrics`` parsed by the Prometheus client's parser, its counters moved by a game; only
GET and HEAD; a rate per address; the security headers on every answer; no path in the log."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from fakediscord import FakeDiscord
from fakediscord.fixtures import fake_discord
from pgserver import USER, PgServer
from prometheus_client.parser import text_string_to_metric_families
from test_e2e_support import Table, citta_bot

from bot.web.guard import HEADERS
from bot.web.server import WebServer
from bot.web.settings import WebSettings

__all__ = ["fake_discord"]

SEED = 17
PASSWORD = "s3cret-Pw"
"""A database password in the bot's URL: no answer of the web server may show it."""


@contextlib.asynccontextmanager
async def web_server(**settings: Any) -> AsyncIterator[WebServer]:
    """The web server on a free port of the loopback interface, as `bot.client.startup.run` starts it."""
    web = WebServer(WebSettings(port=0, host="127.0.0.1", **settings))
    await web.start()
    try:
        yield web
    finally:
        await web.stop()


async def ask(web: WebServer, path: str, method: str = "GET") -> tuple[int, dict[str, str], str]:
    """The status, headers and body of one request to ``web``."""
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, f"http://127.0.0.1:{web.port}{path}") as r,
    ):
        return r.status, dict(r.headers), await r.text()


async def readiness(web: WebServer) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{web.port}/readyz") as r:
        return r.status, await r.json()


def failing(body: dict[str, Any]) -> set[str]:
    return {name for name, check in body["checks"].items() if not check["ok"]}


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a ``/metrics`` answer, parsed by the Prometheus client's parser."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_readyz_is_unready_before_login_ready_once_logged_in_and_unready_again_once_closed(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    async with web_server() as web:
        status, body = await readiness(web)
        assert status == 503 and body["ready"] is False
        assert failing(body) == {"discord", "database", "outbox"}, body
        assert (await ask(web, "/healthz"))[0] == 200, "alive while the bot is not logged in"
        async with citta_bot(fake_discord, database, seed=SEED, web=web):
            status, body = await readiness(web)
            assert (status, body["ready"], failing(body)) == (200, True, set()), body
            assert body["checks"]["outbox"]["posts"] == 0
            assert body["checks"]["database"]["detail"] == "answers"
        status, body = await readiness(web)
        assert status == 503 and "discord" in failing(body)


async def test_readyz_is_unready_while_a_post_waits_in_the_outbox_longer_than_the_threshold(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with (
        web_server(outbox_age=600) as web,
        citta_bot(fake, tmp_path / "citta.db", seed=SEED, web=web) as bot,
    ):
        table = Table(fake, bot, exact_boards=False)
        await table.open(fake.user("alice"), [fake.user("bob")])
        await bot.deliverer.settle()
        held = fake.hold("POST", rf"/channels/{fake.channel.id}/messages")
        user = table.pending()[0]
        played = asyncio.create_task(fake.slash(user, "citta play", move=(await table.choices(user))[0]))
        await held.wait_arrived()  # the move is stored; its post hangs on its way to Discord
        status, body = await readiness(web)
        assert status == 200 and body["checks"]["outbox"]["posts"] == 1, "a post waiting a moment is fine"
        real = bot.service.clock
        bot.service.clock = lambda: real() + 601  # ten minutes later, the post still waits
        status, body = await readiness(web)
        assert (status, failing(body)) == (503, {"outbox"}), body
        outbox = body["checks"]["outbox"]
        assert outbox["posts"] == 1 and outbox["oldest_seconds"] > 600 and outbox["limit_seconds"] == 600
        held.release()
        await played
        await bot.deliverer.settle()
        status, body = await readiness(web)
        assert (status, body["checks"]["outbox"]["posts"]) == (200, 0), body
        bot.service.clock = real


@pytest.fixture
def own_postgres() -> Iterator[PgServer]:
    """A PostgreSQL server of this test's own, to stop and start again."""
    server = PgServer.start()
    yield server
    server.stop()


async def test_readyz_turns_unready_when_postgresql_stops_and_ready_again_once_it_is_back(
    fake_discord: FakeDiscord, own_postgres: PgServer
) -> None:
    async with own_postgres.database() as plain:
        url = plain.replace(f"//{USER}@", f"//{USER}:{PASSWORD}@")  # the server trusts local users
        async with web_server() as web, citta_bot(fake_discord, url, seed=SEED, web=web):
            assert (await readiness(web))[0] == 200
            await asyncio.to_thread(own_postgres.halt)
            await _unready_without_its_database(web)
            await asyncio.to_thread(own_postgres.resume)
            for _ in range(50):  # the pool reconnects
                status, body = await readiness(web)
                if status == 200:
                    break
                await asyncio.sleep(0.1)
            assert (status, failing(body)) == (200, set()), body


async def _unready_without_its_database(web: WebServer) -> None:
    started = time.monotonic()
    status, body = await readiness(web)
    assert status == 503 and failing(body) == {"database", "outbox"}, body
    assert time.monotonic() - started < 5, "the two database checks wait side by side, 3 s at most"
    assert (await ask(web, "/healthz"))[0] == 200
    status, _, metrics = await ask(web, "/metrics")
    assert status == 200, "the metrics answer, with their last readings"
    for text in (str(body), metrics):
        assert PASSWORD not in text and "postgresql://" not in text, "no database address in an answer"


async def test_metrics_parse_and_count_a_game_s_moves_posts_drawings_interactions_and_discord_429s(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    async with web_server() as web, citta_bot(fake, database, seed=SEED, web=web) as bot:
        status, headers, text = await ask(web, "/metrics")
        assert status == 200 and headers["Content-Type"].startswith("text/plain; version=")
        before = samples(text)
        assert before[("citta_moves_total", (("by", "player"),))] == 0
        table = Table(fake, bot, exact_boards=False)
        await table.open(fake.user("alice"), [fake.user("bob")])
        fake.fail("POST", rf"/channels/{fake.channel.id}/messages", 429, retry_after=0.1, times=1)
        for _ in range(3):
            user = table.pending()[0]
            await table.play(user, (await table.choices(user))[0])
        await bot.deliverer.settle()
        after = samples((await ask(web, "/metrics"))[2])
        moved = after[("citta_moves_total", (("by", "player"),))]
        assert moved == len(table.played) >= 3
        assert after[("citta_posts_total", (("result", "sent"),))] >= 4, "the start post and each move's"
        assert after[("citta_drawing_seconds_count", ())] >= 4, "each post's pictures drawn"
        assert after[("citta_interaction_seconds_count", (("kind", "command"),))] >= 4
        assert after[("citta_interaction_seconds_count", (("kind", "component"),))] >= 2, "Join, Start"
        assert after[("citta_interaction_seconds_count", (("kind", "autocomplete"),))] >= 3
        assert after[("citta_discord_rate_limited_total", ())] == 1
        assert after[("citta_discord_errors_total", (("status", "429"),))] == 1
        assert after[("citta_games", (("state", "active"),))] == 1
        assert (
            after[("citta_outbox_backlog", ())] == 0 and after[("citta_outbox_oldest_age_seconds", ())] == 0
        )
        assert after[("citta_worker_queue_length", ())] == 0
        labels = {value for (_, pairs) in after for _, value in pairs}
        known = {"player", "bot", "sent", "retry", "blocked", "held", "failed", "command", "autocomplete",
                 "component", "active", "429"}  # fmt: skip
        assert labels - known <= {
            str(b) for b in (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
        } | {"+Inf"}, "no label but the fixed words (and the histograms' bucket bounds): no id, name or move"


async def test_only_get_and_head_are_answered_and_every_answer_has_the_security_headers() -> None:
    async with web_server() as web:
        for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
            status, headers, _ = await ask(web, "/metrics", method)
            assert status == 405, method
            assert set(headers["Allow"].replace(" ", "").split(",")) == {"GET", "HEAD"}
        answers = [await ask(web, path, method) for path, method in
                   [("/healthz", "GET"), ("/healthz", "HEAD"), ("/readyz", "GET"), ("/nothing", "GET"),
                    ("/healthz", "POST")]]  # fmt: skip
        assert [status for status, _, _ in answers] == [200, 200, 503, 404, 405]
        for _, headers, _ in answers:
            for name, value in HEADERS.items():
                assert headers[name] == value
            assert "default-src 'none'" in headers["Content-Security-Policy"]


async def test_a_client_past_the_rate_is_answered_429_with_retry_after() -> None:
    async with web_server(rate=3) as web:
        statuses = [(await ask(web, "/healthz"))[0] for _ in range(3)]
        assert statuses == [200, 200, 200]
        status, headers, _ = await ask(web, "/healthz")
        assert status == 429 and 1 <= int(headers["Retry-After"]) <= 20, headers
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert (await ask(web, "/metrics", "POST"))[0] == 429, "a flood of any method"


async def test_no_request_path_is_logged_at_info(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    async with web_server() as web:
        for path in ("/healthz?k=secret-in-query", "/game/secret-in-path", "/readyz"):
            await ask(web, path)
        await ask(web, "/secret-in-post", "POST")
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "Web server on 127.0.0.1" in logged, "the server itself says where it listens"
    assert "secret" not in logged and "/readyz" not in logged, logged
