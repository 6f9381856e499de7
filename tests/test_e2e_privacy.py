"""End-to-end: Polling the People keeps the polled voice cards private (DM, or a private fallback)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from fakediscord import FakeDiscord, FakeMessage, FakeUser
from fakediscord.fixtures import fake_discord
from test_e2e_support import Table, board_of, citta_bot

from render import render_post

__all__ = ["fake_discord"]

SEED = 19  # both players can poll the people in their first turn
PRIVATE = re.compile(r"card \d is|polled the people:|You polled", re.IGNORECASE)


def polled_cards(table: Table, user: FakeUser) -> list[str]:
    """``card K is S`` for each voice card ``user`` has looked at (from the test's own game)."""
    view = table.game.view(table.seat(user))
    return [f"card {k} is {s}" for k, s in enumerate(view.peek) if s is not None]


def public_texts(fake: FakeDiscord) -> list[str]:
    """Everything anyone in the channel can read: texts, button labels, the pictures' alt texts."""
    msgs = fake.messages()
    alts = [a.description or "" for m in msgs for a in m.attachments]
    return [m.text for m in msgs] + [c.get("label", "") for m in msgs for c in m.all_components()] + alts


async def poll(table: Table, user: FakeUser, *, last: bool = False) -> FakeMessage:
    """``user`` polls the people with a move from the autocomplete list (the first, or the last)."""
    offered = await table.choices(user, "poll")
    assert offered and all(m.startswith("poll") for m in offered), offered
    return await table.play(user, offered[-1] if last else offered[0])


async def check_board_hides(table: Table, msg: FakeMessage, user: FakeUser) -> None:
    """The channel's pictures show the spectator's view: the table drawn for ``user`` would differ."""
    row = await table.bot.service.storage.games.game(table.game_id)
    assert row is not None
    board_of(msg)
    seen_by_user = await asyncio.to_thread(
        render_post, table.game.view(table.seat(user)), highlight=row.highlight
    )
    posted = {a.filename: a.data for a, _ in msg.gallery()}
    assert posted["table.png"] != seen_by_user[-1][1], "the polled cards would be visible on the table"


async def test_polled_cards_reach_only_the_poller_by_dm_or_by_the_private_fallback(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    zoe = fake.add_user("zoe", dms_closed=True)
    alice, bob = fake.user("alice"), fake.user("bob")
    async with citta_bot(fake, database, seed=SEED) as bot:
        table = Table(fake, bot)
        await table.open(alice, [zoe])
        assert table.pending() == [alice]

        # Alice (DMs open) polls: the cards arrive by DM, nothing about them in the channel.
        msg = await poll(table, alice)
        alices = polled_cards(table, alice)
        assert len(alices) == 2
        [dm] = fake.dms(alice)
        assert dm.text.startswith(f"La Città (game {table.game_id}): You polled the people")
        assert all(card in dm.text for card in alices), (alices, dm.text)
        assert "📪" not in msg.text and not any(c.endswith(":peek") for c in msg.custom_ids)
        await check_board_hides(table, msg, alice)

        # Zoe (DMs closed) polls other cards: the DM fails, the channel says so without the cards
        # and offers "Show my peek", which shows Zoe hers, privately.
        assert table.pending() == [zoe]
        msg = await poll(table, zoe, last=True)
        zoes = polled_cards(table, zoe)
        assert zoes and set(zoes) != set(alices)
        assert fake.dms(zoe) == []
        assert f"📪 {zoe.mention}: I could not send you a direct message" in msg.text
        assert zoe.id in msg.pinged
        await check_board_hides(table, msg, zoe)
        [peek] = [c for c in msg.all_components() if c.get("label") == "Show my peek"]
        shown = await fake.click(msg, peek["custom_id"], zoe)
        private = await shown.wait_message()
        assert shown.ephemeral and private.recipient is zoe
        assert all(card in private.text for card in zoes), (zoes, private.text)

        # The same button shows anyone else only their own information.
        other = await (await fake.click(msg, peek["custom_id"], alice)).wait_message()
        assert other.ephemeral and other.recipient is alice
        assert all(card in other.text for card in alices)
        assert not any(card in other.text for card in set(zoes) - set(alices))
        outsider = await fake.click(msg, peek["custom_id"], bob)
        assert "not playing" in (await outsider.wait_message()).text

        # /citta secrets tells the same, privately.
        rec = await fake.slash(zoe, "citta secrets")
        assert rec.ephemeral and rec.original is not None
        assert all(card in rec.original.text for card in zoes)

        # Nothing public (texts, button labels) gives the cards away; the voice is still hidden.
        assert table.game.view(None).voice[1:] == [None, None, None]
        for text in public_texts(fake):
            assert not PRIVATE.search(text), text
            for card in {*alices, *zoes}:
                assert card not in text
        assert fake.dms(bob) == []
    fake.check()
