"""End-to-end: the position in words (`/citta describe`) and the board on request (`/citta board`),
privately, as a player using a screen reader or a large screen gets them."""

from __future__ import annotations

from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.fixtures import fake_discord
from test_e2e_support import PICTURE_WIDTH, Table, citta_bot

__all__ = ["fake_discord"]


async def test_describe_gives_the_whole_position_in_words_privately(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    async with citta_bot(fake, database, seed=21) as bot:
        table = Table(fake, bot)
        await table.open(alice, [bob])
        await table.play(table.pending()[0], "gold")
        rec = await fake.slash(bob, "citta describe")
        first = await rec.wait_message()
        await fake.wait_for(lambda: not first.loading)
        texts = [m.text for m in rec.messages]
    assert all(m.ephemeral and m.recipient is bob for m in rec.messages)
    assert all(0 < len(t) <= 2000 for t in texts)
    words = "\n".join(texts)
    for player in table.game.view(None).players:
        assert player.name in words and all(c.name in words for c in player.cities), player.name
    assert "Year 1 of 6" in words
    fake.check()


async def test_board_shows_the_phone_pictures_or_the_whole_poster(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    async with citta_bot(fake, database, seed=21) as bot:
        table = Table(fake, bot)
        await table.open(alice, [bob])
        phone = await (await fake.slash(alice, "citta board")).wait_message()
        await fake.wait_for(lambda: not phone.loading)
        poster = await (await fake.slash(alice, "citta board", full=True)).wait_message()
        await fake.wait_for(lambda: not poster.loading)
    assert phone.ephemeral and phone.components_v2
    pictures = phone.gallery()
    assert pictures[0][0].filename == "board.png" and all(alt for _, alt in pictures)
    assert all(a.width == PICTURE_WIDTH for a, _ in pictures)
    assert poster.ephemeral and not poster.components_v2
    assert poster.attachment("board.png").width == 1400, "the detailed poster for a large screen"
    fake.check()
