"""End-to-end: the one door every press passes (`bot.client.door`). A press of any kind of component
from another server, from a direct message, from another channel of the server, or as another seat
is refused privately and changes nothing (a `personal` one — the panel's, ``/citta-my-games``' menu —
is its player's wherever they are, and only theirs); an id that is no longer ours (a number too large for the
database, an unknown action) is answered; whatever goes wrong unexpectedly is answered privately
with an incident id, for a component, a slash command and an autocomplete alike."""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeChannel, FakeDiscord, FakeUser, InteractionRecord
from fakediscord.fixtures import fake_discord
from test_bot_support import query
from test_e2e_support import Table, citta_bot, posts_after

from bot import ids
from bot.client.bot import CittaBot
from bot.ids import custom_id, mine_id, step_id
from bot.service import choices, questions

__all__ = ["fake_discord"]

SEED = 11
INCIDENT = re.compile(r"incident `([0-9a-f]{8})`")


async def _state(bot: CittaBot, game: int) -> tuple[Any, ...]:
    """What a refused press must leave as it was: the game, its seats, its moves, the outbox."""
    storage = bot.service.storage
    row = await storage.games.game(game)
    assert row is not None
    seats = await storage.games.seats(game)
    moves = await storage.moves.moves(game)
    [stored] = await query(storage, "SELECT count(*) AS n FROM outbox")
    return row.version, row.status, row.paused, row.channel, seats, len(moves), stored["n"]


def _ids(game: int, version: int, seat: int) -> dict[ids.Kind, tuple[str, list[str] | None]]:
    """A component of every kind for the game at ``version``, the seat's own ones for ``seat``; with
    the values a select menu is picked with."""
    return {
        ids.JOIN: (custom_id(game, 0, None, "join"), None),
        ids.LEAVE: (custom_id(game, 0, None, "leave"), None),
        ids.START: (custom_id(game, 0, None, "start"), None),
        ids.PEEK: (custom_id(game, 0, None, "peek"), None),
        ids.ABANDON: (custom_id(game, version, None, "abandon"), None),
        ids.PANEL: (custom_id(game, version, None, "panel"), None),
        ids.CLOSE: (custom_id(game, version, seat, "close"), None),
        ids.FORGET: (custom_id(0, 0, None, "forget"), None),
        ids.HERE: (custom_id(game, version, None, "here"), None),
        ids.MOVE: (custom_id(game, version, seat, move="gold"), None),
        ids.CONFIRM: (custom_id(game, version, seat, "confirm", "gold"), None),
        ids.STEP: (step_id(game, version, seat, ("build",)), None),
        ids.CHOOSE: (step_id(game, version, seat, (), select=0), ["gold"]),
        ids.MINE: (mine_id(), [str(game)]),
        ids.REVIEW: (ids.review_id(game, 0, 1), None),
        ids.REVIEW_MENU: (ids.review_id(game, 0, 9, select=True), ["0"]),
        ids.REVIEW_AT: (ids.review_at_id(game, 0), None),
        ids.REVIEW_GAME: (ids.review_game_id(), [str(game)]),
        ids.WHY: (ids.why_id(game, 1), None),
        ids.DECISIVE: (ids.decisive_id(game), None),
        ids.SIGN_UP: (ids.sign_up_id(1), None),
        ids.WITHDRAW: (ids.withdraw_id(1), None),
    }


async def _answered_privately(rec: InteractionRecord, user: FakeUser) -> str:
    """The one private answer to a press: a ⚠️ refusal only ``user`` sees (after "thinking…", if so)."""
    assert not rec.failed and rec.response_type is not None, rec
    if rec.response_type == 5:
        await rec.wait_message()
    [msg] = rec.messages
    assert msg.ephemeral and msg.recipient is user and not msg.loading, rec
    assert msg.text.startswith("⚠️"), msg.text
    return msg.text


async def _refused(
    fake: FakeDiscord, bot: CittaBot, game: int, user: FakeUser, where: FakeChannel, kinds: list[ids.Kind],
    made: dict[ids.Kind, tuple[str, list[str] | None]], why: str,
) -> None:  # fmt: skip
    """Every press of ``kinds`` by ``user`` in ``where`` is refused privately, saying ``why``, and
    changes nothing."""
    for kind in kinds:
        before, after = await _state(bot, game), max(m.id for m in fake.all_messages())
        cid, values = made[kind]
        rec = await fake.forge(user, cid, channel=where, values=values)
        text = await _answered_privately(rec, user)
        assert re.search(why, text), (kind.name, text)
        assert not posts_after(fake, after, fake.channel) and not posts_after(fake, after, where), kind.name
        assert await _state(bot, game) == before, f"a refused {kind.name} changed the game"


@contextlib.asynccontextmanager
async def _game(fake: FakeDiscord, database: Path | str) -> AsyncIterator[tuple[CittaBot, Table]]:
    """The bot, and a game of alice's and bob's started in the fake's channel."""
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot)
        await table.open(fake.user("alice"), [fake.user("bob")])
        yield bot, table


async def test_every_kind_is_refused_from_another_server_a_dm_another_channel_and_another_seat(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    other = await fake.add_guild("other server")
    fake.grant(bob, "manage_guild", guild=other)  # a moderator there: still no say over this game
    fake.grant(alice, "manage_guild", guild=other)
    side = await fake.add_text_channel("side")
    async with _game(fake, database) as (bot, table):
        mover = table.pending()[0]
        idle = bob if mover is alice else alice
        made = _ids(table.game_id, await table.version(), table.seat(mover))
        everything = list(ids.KINDS)
        placed = [k for k in everything if not k.personal]
        for user in (mover, idle):
            await _refused(fake, bot, table.game_id, user, other.channel, [k for k in placed if k.game],
                           made, "another server")  # fmt: skip
            await _refused(fake, bot, table.game_id, user, fake.dm_channel(user), placed, made,
                           "not in direct messages")  # fmt: skip
            await _refused(
                fake,
                bot,
                table.game_id,
                user,
                side,
                [k for k in placed if not k.anywhere and k.game],
                made,
                f"game {table.game_id} in <#{fake.channel.id}>",
            )
        personal = [k for k in everything if k.personal and k.seat]
        assert {k.name for k in personal} == {"close", "confirm", "step", "choose"}
        for where in (other.channel, fake.dm_channel(idle), side):  # the seat's only, wherever
            await _refused(fake, bot, table.game_id, idle, where, personal, made, "for (Alice|Bob)")
        outsider = fake.user("carol")
        await _refused(fake, bot, table.game_id, outsider, fake.dm_channel(outsider), [ids.MINE], made,
                       "You do not play in game")  # fmt: skip
        reviews = [ids.REVIEW, ids.REVIEW_MENU, ids.REVIEW_GAME, ids.WHY, ids.DECISIVE]  # of a game one sees
        unseated = {k.name for k in everything if k.personal and not k.seat}
        assert unseated == {"mine", *(r.name for r in reviews)}
        await _refused(fake, bot, table.game_id, outsider, fake.dm_channel(outsider), reviews, made,
                       "There is no such game")  # fmt: skip
        for user in (outsider, alice):
            await _refused(fake, bot, table.game_id, user, other.channel, reviews, made, "There is no such")
        # Kinds of no game act on the server they are pressed in, and "Go on here" in any channel of
        # the game's server: there they are let in, and refused by what they would do.
        await _refused(fake, bot, table.game_id, mover, other.channel, [ids.FORGET], made, "nothing of yours")
        tournament = [ids.SIGN_UP, ids.WITHDRAW]  # a tournament is its server's: none is another's
        await _refused(fake, bot, table.game_id, mover, other.channel, tournament, made, "no such tournament")
        await _refused(fake, bot, table.game_id, mover, side, [ids.HERE], made, "is not paused")
        seats_own = [k for k in everything if k.seat]
        assert {k.name for k in seats_own} == {"close", "move", "confirm", "step", "choose"}
        await _refused(fake, bot, table.game_id, idle, fake.channel, seats_own, made, "for (Alice|Bob)")
        # The mover's own press in the game's channel is let in: the door decides nothing else.
        rec = await fake.forge(mover, made[ids.MOVE][0], channel=fake.channel)
        played = await rec.wait_message()
        assert played.ephemeral and played.text.startswith("You played `gold`"), played.text


async def test_ids_that_are_no_longer_ours_are_answered(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    bob = fake.user("bob")
    async with _game(fake, database) as (_bot, table):
        for cid in ("citta:99999999999999999999:0:-:join", f"citta:{table.game_id}:0:-:teleport",
                    f"citta:{table.game_id}:99999999999:1:m.gold", "cittas:1:2:-:p.0.0.x"):  # fmt: skip
            rec = await fake.forge(
                bob, cid, channel=fake.channel, values=["x"] if cid.startswith("cittas") else None
            )
            assert "no longer used" in await _answered_privately(rec, bob), cid


async def test_whatever_goes_wrong_is_answered_privately_with_an_incident_id(
    fake_discord: FakeDiscord,
    database: Path | str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")

    async def broken(*args: object, **kwargs: object) -> Any:
        raise RuntimeError("a fault nobody foresaw")

    async with _game(fake, database) as (bot, table):
        before = await _state(bot, table.game_id)
        monkeypatch.setattr(questions, "secrets", broken)
        monkeypatch.setattr(questions, "score", broken)
        monkeypatch.setattr(choices, "choices", broken)
        with caplog.at_level(logging.ERROR, logger="bot.client.door"):
            press = await fake.forge(alice, custom_id(table.game_id, 0, None, "peek"), channel=fake.channel)
            command = await fake.slash(bob, "citta score")
            typed = await fake.autocomplete(alice, "citta play", focused="move", value="go")
        assert typed == [], "an autocomplete that fails offers nothing, and is answered"
        for rec, user in ((press, alice), (command, bob)):
            await rec.wait_message()
            text = await _answered_privately(rec, user)
            logged = " ".join(r.getMessage() for r in caplog.records)  # (logged before it was answered)
            found = INCIDENT.search(text)
            assert found is not None, text
            assert f"Incident {found[1]}" in logged, "the log names the incident the player was told"
            assert "a fault nobody foresaw" not in text, "the player is not shown the fault itself"
        assert await _state(bot, table.game_id) == before
