"""The bot's metrics, in Prometheus' text format (prometheus-client): each counted where it happens,
through the one `Metrics` a bot makes and hands to its service (`Context.metrics`), its Discord
side and its web server (``/metrics``, `bot.web`).

- counted as they happen: the moves stored (service, `bot.service.commit`), the posts the outbox
  sent or could not (`bot.service.delivery`), the pictures' drawing time (`bot.service.pictures`),
  the Discord HTTP answers that were errors or 429s (`bot.client.bot`, from discord.py's HTTP
  session), the time an interaction takes (`bot.client.door`, `bot.client.commands`);
- read when ``/metrics`` is asked (`bot.service.health.measure`): the outbox's backlog and its oldest
  post's age, the games by state, the worker queue's length.

Every label is one of a few fixed words (who moved, a post's result, an HTTP status, an
interaction's kind, a game's state): no id, name, channel, move or secret ever becomes a label,
so the metrics say how much, never who or what. One registry per `Metrics` (not the library's
global one): two bots in one process (the tests) count apart.

>>> m = Metrics()
>>> m.moves.labels(by="player").inc()
>>> b"citta_moves_total" in m.exposition()
True
"""

from __future__ import annotations

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The content type of `Metrics.exposition` (Prometheus' text format)."""

QUICK = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Histogram buckets in seconds: an interaction must be answered within 3 s, a post drawn in some 30 ms."""

MOVERS = ("player", "bot")
"""Who made a stored move: a player, or the bot for a seat (a computer player, a deadline passed)."""
POST_RESULTS = ("sent", "retry", "blocked", "held", "failed")
"""What became of a post the outbox tried: sent; tried again later (Discord failed, or a network
fault); waiting for a permission; held (its channel is gone); refused by Discord for good."""
INTERACTIONS = ("command", "autocomplete", "component")


class Metrics:
    """The bot's instruments, on a registry of their own (see the module docstring)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.moves = Counter("citta_moves", "Moves stored, by who made them", ["by"], registry=r)
        self.posts = Counter(
            "citta_posts", "Outbox posts tried, by what became of them", ["result"], registry=r
        )
        self.outbox_backlog = Gauge(
            "citta_outbox_backlog",
            "Posts waiting to be sent (not those waiting for a permission)",
            registry=r,
        )
        self.outbox_oldest = Gauge(
            "citta_outbox_oldest_age_seconds", "Age of the oldest post waiting to be sent (0: none waits)",
            registry=r,
        )  # fmt: skip
        self.discord_errors = Counter(
            "citta_discord_errors", "Discord HTTP requests answered with an error status, or not at all "
            "(status: the HTTP status, or 'network')", ["status"], registry=r,
        )  # fmt: skip
        self.discord_rate_limited = Counter(
            "citta_discord_rate_limited", "Discord HTTP answers 429 (discord.py waits and retries)",
            registry=r,
        )  # fmt: skip
        self.interactions = Histogram(
            "citta_interaction_seconds", "Time to handle an interaction (command, autocomplete, component)",
            ["kind"], buckets=QUICK, registry=r,
        )  # fmt: skip
        self.drawing = Histogram(
            "citta_drawing_seconds", "Time to draw a post's pictures (waiting for a worker included)",
            buckets=QUICK, registry=r,
        )  # fmt: skip
        self.games = Gauge("citta_games", "Games by state", ["state"], registry=r)
        self.worker_queue = Gauge("citta_worker_queue_length", "Jobs waiting for a worker", registry=r)
        for by in MOVERS:  # every series present from the start (a rate over a missing series is nothing)
            self.moves.labels(by=by)
        for result in POST_RESULTS:
            self.posts.labels(result=result)
        for kind in INTERACTIONS:
            self.interactions.labels(kind=kind)

    def discord_answer(self, status: int | None) -> None:
        """A Discord HTTP request ended with ``status`` (None: no answer, a network fault)."""
        if status == 429:
            self.discord_rate_limited.inc()
        if status is None or status >= 400:
            self.discord_errors.labels(status="network" if status is None else str(status)).inc()

    def exposition(self) -> bytes:
        """Every metric in Prometheus' text format (`CONTENT_TYPE`)."""
        return generate_latest(self.registry)
