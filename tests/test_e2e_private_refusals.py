"""End-to-end: every command's refusal is private (only the asker sees it), in every state a
channel can be in: no game, a lobby, a running game; and what a command does in public
(``/citta add-ai`` filling a seat) is posted apart from its private answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, FakeUser
from fakediscord.fixtures import fake_discord
from test_e2e_support import announcement, citta_bot, posts_after, refusal

__all__ = ["fake_discord"]

SEED = 5
NEVER_REFUSED = {"rules", "me reminders", "me language", "me next"}
"""Commands that have no wrong input or state (their options are choices): they only answer."""

Calls = list[tuple[FakeUser, str, dict[str, Any]]]


def _leaves(data: dict[str, Any], prefix: str = "") -> set[str]:
    """The names of a synced command's subcommands, ``me quiet`` for those in a group."""
    found = set()
    for option in data.get("options", []):
        if option["type"] == 1:
            found.add(prefix + option["name"])
        elif option["type"] == 2:
            found |= _leaves(option, f"{prefix}{option['name']} ")
    return found


async def _refused(fake: FakeDiscord, calls: Calls) -> set[str]:
    """Run each call; each must be refused privately with nothing posted in public."""
    seen = set()
    for user, command, options in calls:
        before = max((m.id for m in fake.all_messages()), default=0)
        rec = await fake.slash(user, command, **options)
        text = await refusal(fake, rec)
        assert text.startswith("⚠️"), (command, text)
        assert not posts_after(fake, before), f"/{command} posted in public while refusing"
        seen.add(command.removeprefix("citta "))
    return seen


async def test_no_command_refuses_in_public(fake_discord: FakeDiscord, database: Path | str) -> None:
    fake = fake_discord
    alice, bob, erin = fake.user("alice"), fake.user("bob"), fake.user("erin")
    async with citta_bot(fake, database, seed=SEED):
        leaves = _leaves(fake.commands["citta"].data)
        # No game in the channel.
        seen = await _refused(fake, [
            (alice, "citta play", {"move": "gold"}), (alice, "citta board", {}), (alice, "citta status", {}),
            (alice, "citta panel", {}), (alice, "citta hint", {}), (alice, "citta describe", {}),
            (alice, "citta board", {"full": True}),
            (alice, "citta log", {}), (alice, "citta score", {}), (alice, "citta secrets", {}),
            (alice, "citta resign", {}), (alice, "citta abandon", {}), (alice, "citta undo", {}),
            (alice, "citta recap", {}), (alice, "citta export", {}), (alice, "citta add-ai", {}),
            (alice, "citta settings", {"deadline": 4}), (alice, "citta vacation", {"days": 2}),
            (alice, "citta replace", {"old": bob, "new": erin}), (alice, "citta me quiet", {"hours": "soon"}),
            (alice, "citta leaderboard", {}), (alice, "citta stats", {}), (alice, "citta games", {}),
            (alice, "citta stats", {"player": bob}), (alice, "citta replay", {}),
            (alice, "citta replay", {"game": 9}), (alice, "citta me forget", {}),
            (alice, "citta me ahead", {"kind": "starve", "answer": "health"}),
            (alice, "citta me digest", {"time": "late"}),
        ])  # fmt: skip
        # A lobby: bob is in it, erin is not, alice is the host.
        lobby = await (await fake.slash(alice, "citta new")).wait_message()
        join = next(c for c in lobby.custom_ids if c.endswith(":join"))
        await fake.click(lobby, join, bob)
        await fake.wait_for(lambda: bob.mention in lobby.text)
        seen |= await _refused(fake, [
            (bob, "citta new", {}), (bob, "citta add-ai", {"level": "random"}),
            (bob, "citta settings", {"deadline": 4}), (erin, "citta abandon", {}),
        ])  # fmt: skip
        # A running game: erin is not playing.
        start = next(c for c in lobby.custom_ids if c.endswith(":start"))
        await announcement(fake, await fake.click(lobby, start, alice))
        await fake.wait_for(lambda: "— started" in lobby.text)
        seen |= await _refused(fake, [
            (erin, "citta play", {"move": "gold"}), (erin, "citta secrets", {}), (erin, "citta resign", {}),
            (erin, "citta panel", {}), (erin, "citta hint", {}),
            (erin, "citta undo", {}), (erin, "citta vacation", {"days": 1}), (erin, "citta recap", {}),
            (alice, "citta add-ai", {}), (bob, "citta replace", {"old": alice, "new": erin}),
            (erin, "citta replay", {}), (alice, "citta replay", {"game": 1}),
        ])  # fmt: skip
        assert leaves - NEVER_REFUSED <= seen, f"commands never tried: {leaves - NEVER_REFUSED - seen}"
    fake.check()


async def test_add_ai_answers_the_host_privately_and_edits_the_lobby_message(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    async with citta_bot(fake, database, seed=SEED) as bot:
        lobby = await (await fake.slash(alice, "citta new")).wait_message()
        rec = await fake.slash(alice, "citta add-ai", level="random")
        answer = await rec.wait_message()
        assert answer.ephemeral, answer.text
        assert answer.text == "🤖 Computer 1 (random) joins the lobby.", answer.text
        await fake.wait_for(lambda: "2. 🤖 Computer 1 (random)" in lobby.text)
        assert lobby.custom_ids, "the lobby keeps its buttons"
        await bot.deliverer.settle()
        assert not posts_after(fake, rec.id), "the lobby's own message is edited: no new post"
    fake.check()
