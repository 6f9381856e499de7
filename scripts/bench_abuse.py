"""Abuse benchmark: what one member's flood of requests does to everyone else.

Usage: python scripts/bench_abuse.py [--rounds N] [--workers W]

The real bot runs in its own process (``python -m bot``, with its worker processes and the real
renderer) against the fake Discord of the tests (`tests/fakediscord`), on an SQLite file made
for the run. Three games are on the server: Alice and Bob play in the main channel; the flooder,
Mallory, plays a game in a channel of her own and has a finished game in a third.

For each flood — autocomplete (6,000 typed characters at every key), replay, hint, describe, the
full board, the panel — Mallory sends it as fast as a client lets one member send: a request
every `TAP` seconds (autocomplete: one at every key, `KEY`). Meanwhile, in the main channel, the
player to move plays a move (timed from ``/citta play`` to its post with its pictures in the
channel), then a spectator asks ``/citta status`` and ``/citta board`` (the board of the new
position: drawn, not kept), `--rounds` times, a round every `ROUND` seconds (or as soon as
the last one is done). The same rounds run first without a flood (the baseline).

The table gives p50 and p95 of each in ms, with the flood and without, and the flood's p95 over
the baseline's (the target: at most 2× for each); then what Mallory's requests got back.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fakediscord import FakeChannel, FakeDiscord, FakeUser  # noqa: E402
from fakediscord.fixtures import serve  # noqa: E402

from bot.results import User  # noqa: E402
from bot.service import lobby as svc_lobby  # noqa: E402
from bot.service import moves as svc_moves  # noqa: E402
from bot.service.context import Context  # noqa: E402
from bot.service.host import usable_cpus  # noqa: E402
from engine import Game  # noqa: E402

TAP = 0.2
"""Seconds between two requests of one member's flood (5 a second: a tap every 200 ms)."""
KEY = 0.1
"""Seconds between two autocomplete requests (one at every key typed, 10 keys a second)."""
TYPED = "c " * 2999 + "q"
"""What the autocomplete flood types: the 6,000 characters Discord lets a client send."""
SPECTATORS = tuple(f"spectator{k}" for k in range(24))
"""Members who look at the main game, one after the other."""
ROUND = 0.5
"""Seconds from the start of one round of probes to the next (at least): a flood lasts as long
as its rounds, `--rounds` × this."""
WARM_UP = 3
"""Rounds of probes run first and not counted (the workers' first pictures are slower)."""
WAIT = 60.0
"""Seconds a probe waits for its answer before it counts as lost."""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- the server, as it is before the bot starts ------------------------------------------------------


async def seed(db: Path, fake: FakeDiscord, main: FakeChannel, own: FakeChannel, done: FakeChannel) -> None:
    """Alice and Bob's game in ``main``, Mallory and Erin's in ``own`` (Mallory to move), and their
    finished game in ``done``, stored through the service as the bot stores them."""
    ctx = await Context.open(db, renderer=None)
    alice, bob, mallory, erin = (user_of(fake, n) for n in ("alice", "bob", "mallory", "erin"))
    try:
        await started(ctx, fake, main, alice, bob)
        await started(ctx, fake, own, mallory, erin)
        game_id = await started(ctx, fake, done, mallory, erin)
        rnd = random.Random(1)
        while (row := await ctx.storage.games.game(game_id)) is not None and row.status == "active":
            assert row.snapshot is not None and row.record is not None
            game = Game.restore(row.snapshot, row.record)
            seat = rnd.choice(game.pending_seats())
            user = next(s.user_id for s in await ctx.storage.games.seats(game_id) if s.seat == seat)
            move = str(rnd.choice(game.legal_moves(seat)))
            await svc_moves.play(ctx, user, move, game_id=game_id, confirmed=True)
    finally:
        await ctx.close()


def user_of(fake: FakeDiscord, name: str) -> User:
    return User(fake.user(name).id, name.capitalize())


async def started(ctx: Context, fake: FakeDiscord, channel: FakeChannel, host: User, other: User) -> int:
    """A game of ``host`` and ``other`` in ``channel``, opened, joined and started as the bot does: its id."""
    await svc_lobby.new_game(ctx, host, channel=channel.id, guild=fake.guild_id)
    row = await ctx.storage.games.open_game(channel.id)
    assert row is not None
    await svc_lobby.join(ctx, row.id, other)
    await svc_lobby.start(ctx, row.id, host)
    return row.id


# --- the probes in the main channel ------------------------------------------------------------------


async def timed(probe: Awaitable[Any]) -> float:
    """The seconds until ``probe`` (a coroutine not yet started) is done."""
    start = time.perf_counter()
    await probe
    return time.perf_counter() - start


async def to_move(fake: FakeDiscord, players: list[FakeUser]) -> tuple[FakeUser, str]:
    """A player of the main game whom a decision is asked of, and one of their legal moves (a new
    game when the last one has ended: a game is some 55 moves)."""
    for attempt in (1, 2):
        for user in players:
            found = await fake.autocomplete(user, "citta play", focused="move", value="")
            if found:
                return user, random.choice(found)["value"]
        if attempt == 1:
            await new_game(fake, *players)
    raise AssertionError("nobody is asked to move")


async def new_game(fake: FakeDiscord, host: FakeUser, other: FakeUser) -> None:
    """``/citta new`` by ``host``, Join by ``other``, Start: a new game in the main channel."""
    lobby = await (await fake.slash(host, "citta new")).wait_message(WAIT)
    join, start = (next(c for c in lobby.custom_ids if c.endswith(a)) for a in (":join", ":start"))
    await fake.click(lobby, join, other)
    await fake.wait_for(lambda: other.mention in lobby.text, WAIT)
    after = fake.seq
    await fake.click(lobby, start, host)
    await fake.wait_for_message(lambda m: bool(m.attachments), after=after, timeout=WAIT)


async def move_post(fake: FakeDiscord, user: FakeUser, move: str) -> None:
    """``/citta play`` (confirming a warning) until the move's post, with its pictures, is in the channel."""
    after = fake.seq
    rec = await fake.slash(user, "citta play", move=move)
    reply = await rec.wait_message(WAIT)
    if reply.custom_ids and not reply.text.startswith("You played"):  # a warning: play it anyway
        await fake.click(reply, reply.custom_ids[0], user)
    await fake.wait_for_message(
        lambda m: m.text.startswith(f"`{move}`") and bool(m.attachments), after=after, timeout=WAIT
    )


async def answered(fake: FakeDiscord, user: FakeUser, command: str, *, pictures: bool = False) -> None:
    rec = await fake.slash(user, command)
    msg = await rec.wait_message(WAIT)
    if "try again in" in msg.text or (pictures and not msg.attachments):
        raise AssertionError(f"{user.name}'s {command} was not answered as asked: {msg.text!r}")


async def rounds(fake: FakeDiscord, count: int) -> dict[str, list[float]]:
    """``count`` rounds of the probes; each round's status and board asked by another spectator (one
    member asking for the board of every new position, seconds apart, would meet its limit)."""
    alice, bob = fake.user("alice"), fake.user("bob")
    times: dict[str, list[float]] = {"move's post": [], "status": [], "board": []}
    loop = asyncio.get_running_loop()
    start = loop.time()
    for k in range(count):
        await asyncio.sleep(max(0.0, start + k * ROUND - loop.time()))
        viewer = fake.user(SPECTATORS[k % len(SPECTATORS)])
        user, move = await to_move(fake, [alice, bob])
        times["move's post"].append(await timed(move_post(fake, user, move)))
        times["status"].append(await timed(answered(fake, viewer, "citta status")))
        times["board"].append(await timed(answered(fake, viewer, "citta board", pictures=True)))
    return times


# --- the floods ----------------------------------------------------------------------------------------


def floods(
    fake: FakeDiscord, own: FakeChannel, done: FakeChannel
) -> dict[str, tuple[float, Callable[[], Awaitable[Any]]]]:
    """Each flood: the seconds between two of its requests, and one request."""
    mallory = fake.user("mallory")

    def slash(command: str, channel: FakeChannel, **options: Any) -> Callable[[], Awaitable[Any]]:
        async def send() -> str:
            rec = await fake.slash(mallory, command, channel=channel, **options)
            msg = await rec.wait_message(WAIT)
            return "try again" if "try again in" in msg.text else "answered"

        return send

    async def typed() -> str:
        found = await fake.autocomplete(mallory, "citta play", focused="move", value=TYPED, channel=own)
        return f"{len(found)} choices"

    return {
        "autocomplete": (KEY, typed),
        "replay": (TAP, slash("citta replay", done)),
        "hint": (TAP, slash("citta hint", own)),
        "describe": (TAP, slash("citta describe", own)),
        "full board": (TAP, slash("citta board", own, full=True)),
        "panel": (TAP, slash("citta panel", own)),
    }


async def flooding(
    every: float, send: Callable[[], Awaitable[Any]], stop: asyncio.Event, got: Counter[str]
) -> None:
    """``send`` every ``every`` seconds until ``stop``, whatever the answers; what they were, in ``got``."""
    sent: list[asyncio.Task[Any]] = []
    loop = asyncio.get_running_loop()
    start = loop.time()
    while not stop.is_set():
        sent.append(asyncio.ensure_future(send()))
        start += every
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), max(0.0, start - loop.time()))
    for result in await asyncio.gather(*sent, return_exceptions=True):
        got[result if isinstance(result, str) else type(result).__name__] += 1


# --- the run ---------------------------------------------------------------------------------------------


async def main(args: argparse.Namespace) -> None:
    random.seed(3)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "abuse.db"
        async with serve(members=("alice", "bob", "mallory", "erin", *SPECTATORS)) as fake:
            own = await fake.add_text_channel("mallorys-game")
            done = await fake.add_text_channel("mallorys-old-game")
            await seed(db, fake, fake.channel, own, done)
            bot = await fake.spawn_bot({"CITTA_DB": str(db), "CITTA_WORKERS": str(args.workers)})
            await bot.ready(60)
            await fake.wait_for_message(lambda m: m.text.startswith("🎞️"), channel=done, timeout=120)
            await asyncio.sleep(3)  # the posts of the seeded games are out
            print(f"bot: 1 process, {args.workers} worker processes (+1 for private requests); "
                  f"{args.rounds} rounds of probes per row", flush=True)  # fmt: skip
            await rounds(fake, WARM_UP)
            results: dict[str, dict[str, list[float]]] = {"none (baseline)": await rounds(fake, args.rounds)}
            answers: dict[str, Counter[str]] = {}
            for name, (every, send) in floods(fake, own, done).items():
                stop, got = asyncio.Event(), Counter[str]()
                flood = asyncio.ensure_future(flooding(every, send, stop, got))
                await asyncio.sleep(1.0)
                results[name] = await rounds(fake, args.rounds)
                stop.set()
                await flood
                answers[name] = got
                await asyncio.sleep(2.0)
            report(results, answers)
            print(f"the bot's own log had {bot.output().count('Traceback')} tracebacks", flush=True)


def report(results: dict[str, dict[str, list[float]]], answers: dict[str, Counter[str]]) -> None:
    base = results["none (baseline)"]
    probes = list(base)
    head = "| flood | " + " | ".join(f"{p}: p50 / p95 ms" for p in probes) + " | worst p95 ÷ baseline |"
    lines = [head, "|" + "---|" * (len(probes) + 2)]
    for name, times in results.items():
        cells = [
            f"{percentile(times[p], 0.5) * 1000:.0f} / {percentile(times[p], 0.95) * 1000:.0f}"
            for p in probes
        ]
        worst = max(percentile(times[p], 0.95) / percentile(base[p], 0.95) for p in probes)
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {worst:.2f}× |")
    print("\n".join(lines))
    for name, got in answers.items():
        print(f"{name}: " + ", ".join(f"{n} {what}" for what, n in got.most_common()))


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40, help="probe rounds per flood (default 40)")
    parser.add_argument("--workers", type=int, default=usable_cpus(), help="the bot's worker processes")
    return parser.parse_args(argv)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    asyncio.run(main(parse()))
