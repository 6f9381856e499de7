"""The storage contract's rank roles part (`bot.storage.ranks_protocol`), on each backend: rules set,
replaced and dropped; a plan of who should hold which role stored before any Discord call, taking back
only what the bot gave; when a server is due to be decided again; a refusal stored once with its
notice."""

from __future__ import annotations

import asyncio

from test_bot_storage_contract import ANN, BOB, CHANNEL, CID, commit, move, placing, running_game

from bot.results import Message, Post
from bot.storage import StorageProtocol
from bot.storage.ranks_protocol import Grant, RankRule
from bot.storage.rows import Season, SeasonSettings
from bot.storage.shards import Shards, shard_of

GUILD = 2**55
CHAMP, TOP = 1575893277096280073, 1575893277096280074
"""Roles' ids as Discord gives them (past 32 bits)."""


async def test_rules_are_set_replaced_and_dropped_and_a_rule_change_makes_the_server_due(
    store: StorageProtocol,
) -> None:
    assert await store.ranks.rules(GUILD) == [] and await store.ranks.syncs() == []
    await store.ranks.set_rule(RankRule(GUILD, TOP, "top", 3), CHANNEL, "de")
    await store.ranks.set_rule(RankRule(GUILD, CHAMP, "champion"), CHANNEL, "de")
    await store.ranks.set_rule(RankRule(GUILD, TOP, "rating", 12.5), CHANNEL + 1, "fr")
    assert await store.ranks.rules(GUILD) == [
        RankRule(GUILD, CHAMP, "champion"),
        RankRule(GUILD, TOP, "rating", 12.5),
    ]
    [due] = await store.ranks.syncs()
    assert (due.guild, due.synced_at, due.changed_at, due.pending) == (GUILD, 0, 0, 0)
    assert (due.channel, due.language, due.refused_at) == (CHANNEL + 1, "fr", None), "the last setter's"
    on, off = shard_of(GUILD, 4), (shard_of(GUILD, 4) + 1) % 4
    assert (
        len(await store.ranks.syncs(Shards(4, (on,)))) == 1
        and await store.ranks.syncs(Shards(4, (off,))) == []
    )
    assert await store.ranks.drop_rule(GUILD, TOP) and not await store.ranks.drop_rule(GUILD, TOP)
    assert await store.ranks.rules(GUILD) == [RankRule(GUILD, CHAMP, "champion")]
    assert await store.ranks.rules(GUILD + 1) == []


async def test_a_plan_gives_what_is_wanted_and_takes_back_only_what_the_bot_gave(
    store: StorageProtocol,
) -> None:
    await store.ranks.set_rule(RankRule(GUILD, TOP, "top", 2), CHANNEL, "en")
    pending = await store.ranks.plan(GUILD, {(TOP, ANN), (TOP, BOB)}, now=100)
    assert pending == [Grant(GUILD, TOP, ANN, "wanted"), Grant(GUILD, TOP, BOB, "wanted")]
    [due] = await store.ranks.syncs()
    assert due.synced_at == 100 and due.pending == 2
    await store.ranks.settle(pending[0], "putting")
    await store.ranks.settle(pending[0], "held")
    await store.ranks.settle(pending[1], None)  # Bob held the role already: not the bot's
    assert await store.ranks.grants(GUILD) == [Grant(GUILD, TOP, ANN, "held")]
    assert (await store.ranks.syncs())[0].pending == 0

    pending = await store.ranks.plan(GUILD, {(TOP, CID)}, now=200)
    assert pending == [Grant(GUILD, TOP, ANN, "removing"), Grant(GUILD, TOP, CID, "wanted")]
    again = await store.ranks.plan(GUILD, {(TOP, ANN)}, now=201)
    assert again == [Grant(GUILD, TOP, ANN, "putting")], "wanted back before it was taken: given again"
    assert await store.ranks.grants(GUILD) == [Grant(GUILD, TOP, ANN, "putting")], (
        "Cid's never given: forgotten"
    )
    await store.ranks.settle(again[0], "held")
    assert await store.ranks.plan(GUILD, {(TOP, ANN)}, now=202) == [], "nothing to do twice"

    assert await store.ranks.drop_rule(GUILD, TOP)
    assert await store.ranks.grants(GUILD) == [Grant(GUILD, TOP, ANN, "removing")], (
        "what it gave is taken back"
    )
    [due] = await store.ranks.syncs()
    assert due.synced_at == 0 and due.pending == 1
    await store.ranks.settle(Grant(GUILD, TOP, ANN, "removing"), None)
    assert await store.ranks.grants(GUILD) == []


async def test_a_finished_game_or_an_announced_season_is_when_the_holders_change(
    store: StorageProtocol,
) -> None:
    await store.ranks.set_rule(RankRule(GUILD, CHAMP, "champion"), CHANNEL, "en")
    places = [placing(0, f"user:{ANN}", "Ann", 1, 30.0, ANN), placing(1, f"user:{BOB}", "Bob", 2, 28.0, BOB)]
    game = await running_game(store, channel=CHANNEL, guild=GUILD, now=10)
    assert (
        await commit(store, game, 0, move(1, 0), placings=places, guild=GUILD, status="over", now=150)
        is not None
    )
    [due] = await store.ranks.syncs()
    assert due.changed_at == 150
    assert await store.seasons.configure(
        SeasonSettings(GUILD, "month", CHANNEL, "en"), Season(GUILD, 1, 0, 300)
    )
    await store.seasons.close(Season(GUILD, 1, 0, 300), champion=f"user:{ANN}", name="Ann", posts=[], now=320,
                              following=None)  # fmt: skip
    [due] = await store.ranks.syncs()
    assert due.changed_at == 320


async def test_a_refusal_is_stored_once_with_its_notice_and_forgotten_when_accepted(
    store: StorageProtocol,
) -> None:
    await store.ranks.set_rule(RankRule(GUILD, CHAMP, "champion"), CHANNEL, "en")
    notice = [Post(CHANNEL, Message("⚠️ Manage Roles"))]
    results = await asyncio.gather(*(store.ranks.refuse(GUILD, 50 + k, notice) for k in range(3)))
    stored = [ids for ids in results if ids is not None]
    assert len(stored) == 1 and len(stored[0]) == 1, "of refusals at once, one tells the admins"
    row = await store.outbox.get(stored[0][0])
    assert row is not None and row.channel == CHANNEL
    assert await store.ranks.refuse(GUILD, 99, notice) is None
    assert (await store.ranks.syncs())[0].refused_at == 99, "the last refusal's time"
    assert await store.ranks.refused_since(GUILD) == 99 and await store.ranks.refused_since(GUILD + 1) is None
    await store.ranks.accepted(GUILD)
    assert (await store.ranks.syncs())[0].refused_at is None and await store.ranks.refused_since(
        GUILD
    ) is None
    assert await store.ranks.refuse(GUILD, 120, notice) is not None, (
        "refused again after it worked: told again"
    )
    await store.ranks.set_rule(RankRule(GUILD, CHAMP, "champion"), CHANNEL, "en")
    assert (await store.ranks.syncs())[0].refused_at is None, "the admins set a rule again: checked then"
