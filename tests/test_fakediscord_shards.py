"""The fake Discord's sharded gateway, proved with real discord.py ``AutoShardedClient``s: ``GET
/gateway/bot`` recommends a shard count, IDENTIFY carries ``shard: [id, count]``, and each shard's
session hears of the guilds on its shard only, ``(guild_id >> 22) % count``; DMs go to shard 0."""

from __future__ import annotations

import json

import aiohttp
import discord
import pytest
from discord import app_commands
from fakediscord import FakeDiscord, running
from fakediscord.fixtures import fake_discord
from fakediscord.payloads import shard_of, snowflake_on_shard

__all__ = ["fake_discord"]


class ShardedClient(discord.AutoShardedClient):
    """Answers ``/where`` with its name and the shard the guild is on (as discord.py computes it)."""

    def __init__(self, name: str, **options: object) -> None:
        super().__init__(intents=discord.Intents.default(), **options)  # type: ignore[arg-type]
        self.name = name
        self.tree = app_commands.CommandTree(self)
        self.heard: list[int | None] = []  # the guild of each interaction it got

        @self.tree.command(description="Which process answers")
        async def where(interaction: discord.Interaction) -> None:
            self.heard.append(interaction.guild_id)
            shard = interaction.guild.shard_id if interaction.guild is not None else "dm"
            await interaction.response.send_message(f"{self.name} shard {shard}", ephemeral=True)

    async def setup_hook(self) -> None:
        await self.tree.sync()


@pytest.mark.parametrize("count", [1, 2, 3, 5])
def test_a_guild_id_can_be_made_for_any_shard(count: int) -> None:
    for shard in range(count):
        ids = {snowflake_on_shard(shard, count) for _ in range(20)}
        assert len(ids) == 20 and {shard_of(i, count) for i in ids} == {shard}
    with pytest.raises(ValueError, match="not one of"):
        snowflake_on_shard(count, count)


async def test_an_auto_sharded_client_runs_the_shards_the_gateway_recommends(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    fake.recommended_shards = 2
    one = await fake.add_guild("on shard one", shard=1, shards=2)
    zero = await fake.add_guild("on shard zero", shard=0, shards=2)
    async with running(ShardedClient("auto"), fake) as client:
        assert client.shard_count == 2 and sorted(client.shards) == [0, 1]
        assert sorted(s.shard for s in fake.connected) == [(0, 2), (1, 2)]
        seen = {g.id: g.shard_id for g in client.guilds}
        assert seen[one.id] == 1 and seen[zero.id] == 0 and fake.guild_id in seen
    assert ("GET", "/api/v10/gateway/bot") in fake.requests


async def test_each_shard_hears_only_of_its_guilds_and_dms_go_to_shard_zero(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    zero = await fake.add_guild("zero", shard=0, shards=2)
    one = await fake.add_guild("one", shard=1, shards=2)
    alice = fake.user("alice")
    first, second = (
        ShardedClient("first", shard_count=2, shard_ids=[0]),
        ShardedClient("second", shard_count=2, shard_ids=[1]),
    )
    async with running(first, fake), running(second, fake):
        by_shard = {s.shard: s for s in fake.connected}
        assert sorted(by_shard) == [(0, 2), (1, 2)]
        on = {c.name: {g.id for g in c.guilds} for c in (first, second)}
        assert zero.id in on["first"] and one.id in on["second"] and not on["first"] & on["second"]
        assert {g.id for c in (first, second) for g in c.guilds} == set(fake.store.guilds)
        for guild, answer in ((zero, "first shard 0"), (one, "second shard 1")):
            rec = await fake.slash(alice, "where", channel=guild.channel)
            assert (await rec.wait_message()).text == answer
        rec = await fake.slash(alice, "where", channel=fake.dm_channel(alice))
        assert (await rec.wait_message()).text == "first shard dm", "a DM interaction goes to shard 0"
        assert (first.heard, second.heard) == ([zero.id, None], [one.id])
        await fake.user_says(alice, fake.dm_channel(alice), "hello")
        await fake.user_says(alice, one.channel, "hi there")

        def created(shard: tuple[int, int]) -> list[str | None]:
            events = [json.loads(text) for _, text in by_shard[shard].log]
            return [e["d"].get("guild_id") for e in events if e["t"] == "MESSAGE_CREATE"]

        await fake.wait_for(lambda: created((0, 2)) and created((1, 2)))
        assert created((0, 2)) == [None] and created((1, 2)) == [str(one.id)]
        late = await fake.add_guild("late", shard=1, shards=2)
        await fake.wait_for(lambda: second.get_guild(late.id) is not None)
        assert first.get_guild(late.id) is None, "a guild added later reaches its shard only"


async def test_an_identify_with_a_shard_outside_its_count_is_closed_with_4010(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    async with aiohttp.ClientSession() as http, http.ws_connect(fake.gateway_url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10
        await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "shard": [2, 2]}})
        closed = await ws.receive()
        assert closed.type is aiohttp.WSMsgType.CLOSE and ws.close_code == 4010
    assert fake.sessions == {}
