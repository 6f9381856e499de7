"""End-to-end: bad input gets a private, useful answer and changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, FakeUser, InteractionRecord
from fakediscord.fixtures import fake_discord
from test_e2e_support import Table, announcement, citta_bot, refusal

__all__ = ["fake_discord"]

SEED = 41
NO_GAME = "There is no game in this channel. Start one with {new}."
"""The refusal, ``{new}`` the mention of ``/citta new`` (a player taps it to run the command)."""


async def lobby_refusal(fake: FakeDiscord, rec: InteractionRecord) -> str:
    """A lobby button acknowledges the click, then answers a refusal privately."""
    [note] = await rec.wait_followups(1)
    assert rec.response_type == 6 and note.ephemeral and note.recipient is rec.user
    assert note.text.startswith("⚠️"), note.text
    return note.text


async def test_commands_without_a_game_in_the_channel_say_how_to_start_one(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    async with citta_bot(fake, database, seed=SEED):
        assert await fake.autocomplete(alice, "citta play", focused="move", value="") == []
        no_game = NO_GAME.format(new=f"</citta new:{fake.commands['citta'].id}>")
        commands: list[tuple[str, dict[str, Any]]] = [
            ("citta play", {"move": "gold"}),
            ("citta board", {}),
            ("citta status", {}),
            ("citta log", {}),
            ("citta score", {}),
            ("citta secrets", {}),
            ("citta resign", {}),
            ("citta abandon", {}),
        ]
        for command, options in commands:
            text = await refusal(fake, await fake.slash(alice, command, **options))
            assert text == f"⚠️ {no_game}", (command, text)
    assert fake.messages() == []
    fake.check()


async def test_bad_moves_and_wrong_players_are_refused_privately_and_change_nothing(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot)
        lobby = await (await fake.slash(alice, "citta new")).wait_message()
        join, start = (next(c for c in lobby.custom_ids if c.endswith(a)) for a in (":join", ":start"))
        table.game_id = int(join.split(":")[1])

        # In the lobby: only the host starts, nobody joins twice, and there is no board yet.
        assert "Only the host" in await lobby_refusal(fake, await fake.click(lobby, start, bob))
        assert "At least 2 players" in await lobby_refusal(fake, await fake.click(lobby, start, alice))
        assert "already in this game" in await lobby_refusal(fake, await fake.click(lobby, join, alice))
        assert "not started yet" in await refusal(fake, await fake.slash(alice, "citta play", move="gold"))
        assert "not started yet" in await refusal(fake, await fake.slash(alice, "citta board"))
        await fake.click(lobby, join, bob)
        await fake.wait_for(lambda: bob.mention in lobby.text, 20)  # an outbox edit: slow under load
        started = await fake.click(lobby, start, alice)
        first = await table.begin(await announcement(fake, started))
        [user] = table.pending()
        other = bob if user is alice else alice
        name = table.game.view(None).players[table.seat(user)].name
        assert "already has a game" in await refusal(fake, await fake.slash(carol, "citta new"))

        before = (await table.stored()).snapshot(), await table.version(), len(fake.messages())
        cases: list[tuple[FakeUser, str, str]] = [
            (user, "fly to the moon", "Unknown move `fly`. Moves start with one of: `castle`, `gold`"),
            (user, "build farm Z99", "`Z99` is not a hex of the board"),
            (user, "build farm", "Write it as `build B HEX`"),
            (user, "poll 1 1", "Poll two different face-down cards"),
            (user, "pass", "pass only when all are used"),
            (other, "gold", f"It is not your turn. Waiting for {name} to play a turn"),
            (carol, "gold", "You are not playing in this game (the players are Alice, Bob)."),
        ]
        for who, move, expected in cases:
            text = await refusal(fake, await fake.slash(who, "citta play", move=move))
            assert expected in text, (who, move, text)
            assert ((await table.stored()).snapshot(), await table.version(), len(fake.messages())) == before

        # Another player's button; the lobby has no buttons left.
        gold = table.buttons(user, first)[0]
        text = await refusal(fake, await fake.click(first, gold, other))
        assert text == f"⚠️ This button is for {name}.", text
        assert lobby.custom_ids == []
        assert ((await table.stored()).snapshot(), await table.version(), len(fake.messages())) == before

        # Nobody but the player whose turn it is gets a list of moves.
        for who in (other, carol):
            assert await table.choices(who) == []

        # And the game goes on: the right player's move still works.
        await table.press(user, gold, first)
        assert await table.version() == 1
    assert fake.unknown_routes == []
    fake.check()
