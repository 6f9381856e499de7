"""End-to-end: what a hostile member of a server can put in front of others. A display name is
shown as plain text wherever it appears (no masked link, no link, no formatting, no mention); a
non-player's exports are answered privately, so nobody fills a channel with files; a member asking
for costly answers again and again is told, privately, when to try again."""

from __future__ import annotations

import re
from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.fixtures import fake_discord
from test_e2e_support import Table, answer, citta_bot

__all__ = ["fake_discord"]

SEED = 21
LINK = re.compile(r"\]\(|https?://|<@&|@everyone|\*\*\[", re.IGNORECASE)


async def test_a_name_with_a_masked_link_is_plain_text_in_every_post(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    mallory = fake.add_user("[nitro](https://example.com/x) **free**")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot)
        await table.open(fake.user("alice"), [mallory])
        for _ in range(4):
            [user] = table.pending()
            await table.play(user, str(table.game.legal_moves(table.seat(user))[0]))
        posts = [m for m in fake.messages() if m.author is fake.bot_user]
        named = [m for m in posts if "Nitro" in m.text]
        assert named, "the name is shown"
        linked = [m.text for m in named if LINK.search(m.text)]
        assert not linked, "no link, mention or formatting comes from a name"
        alts = [alt or "" for m in posts for _, alt in m.gallery()]
        assert alts and not [a for a in alts if "](" in a or "://" in a]


async def test_a_non_players_exports_are_answered_privately_and_a_players_posted(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob, erin = fake.user("alice"), fake.user("bob"), fake.user("erin")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot)
        await table.open(alice, [bob])
        before = len(fake.messages())
        for _ in range(20):  # as fast as a client sends them
            rec = await fake.slash(erin, "citta export")
            assert rec.ephemeral and rec.original is not None and rec.original.attachments
        assert len(fake.messages()) == before, "nothing of erin's 20 exports reached the channel"
        posted = await fake.slash(bob, "citta export")
        assert not posted.ephemeral and posted.original in fake.messages(), "a player's export is posted"


async def test_a_member_asking_for_the_board_again_and_again_is_told_privately_when_to_try_again(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    """Each board uploads its pictures: a member gets a few at once, then the wait, privately."""
    fake = fake_discord
    alice, bob, erin = fake.user("alice"), fake.user("bob"), fake.user("erin")
    async with citta_bot(fake, database, seed=SEED) as bot:
        now = bot.service.clock()
        bot.service.clock = lambda: now  # however slow the machine, these requests come at once
        table = Table(fake, bot)
        await table.open(alice, [bob])
        boards = [await answer(fake, await fake.slash(erin, "citta board")) for _ in range(4)]
        assert all(m.attachments and "try again" not in m.text for m in boards)
        before = len(fake.messages())
        refused = await answer(fake, await fake.slash(erin, "citta board"))
        assert refused.text.startswith("⚠️ You asked for the board several times in a few seconds")
        assert refused.text.endswith("try again in 5 s.") and not refused.attachments
        assert len(fake.messages()) == before, "nothing public"
        assert (await answer(fake, await fake.slash(bob, "citta board"))).attachments, "others are not held"
