"""The fake Discord's roles (`fakediscord.roles`, `fakediscord.world`), checked through discord.py
itself: roles with positions in GUILD_CREATE and GUILD_ROLE_CREATE/UPDATE, a member's roles, giving and
taking a role (204, idempotent, the audit log's reason) and Discord's refusals — 403 without Manage
Roles, 403 for a role not below the bot's highest or a managed one, 404 for an unknown role or member —
and role mentions in a message."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest
from fakediscord import FakeDiscord, running
from fakediscord.fixtures import fake_discord

__all__ = ["fake_discord"]


@pytest.fixture
async def client(fake_discord: FakeDiscord) -> AsyncIterator[discord.Client]:
    fake_discord.grant(fake_discord.bot_user)  # the bot's own role, no permission yet
    async with running(discord.Client(intents=discord.Intents.default()), fake_discord) as c:
        yield c


async def test_a_role_is_given_and_taken_idempotently_with_the_reason_in_the_audit_log(
    fake_discord: FakeDiscord, client: discord.Client
) -> None:
    fake, alice = fake_discord, fake_discord.user("alice")
    role = await fake.add_role("Champion", position=3)
    await fake.give_role(fake.bot_user, "manage_roles")
    guild = client.get_guild(fake.guild_id)
    assert guild is not None and guild.me is not None
    await fake.wait_for(lambda: guild.me.guild_permissions.manage_roles, 5)  # the role update read
    cached = guild.get_role(role.id)
    assert cached is not None and cached.position == 3 and cached < guild.me.top_role
    for _ in range(2):
        await client.http.add_role(fake.guild_id, alice.id, role.id, reason="rank role: champion")
    assert fake.holders(role) == {alice}
    member = await client.http.get_member(fake.guild_id, alice.id)
    assert str(role.id) in member["roles"]
    for _ in range(2):
        await client.http.remove_role(fake.guild_id, alice.id, role.id, reason="rank role: über")
    assert fake.holders(role) == set()
    log = fake.store.guilds[fake.guild_id].audit_log
    assert [(e.action, e.reason) for e in log] == [("add", "rank role: champion")] * 2 + [
        ("remove", "rank role: über")
    ] * 2, "the header's URL-encoding undone"


async def test_discord_refuses_without_manage_roles_above_the_bot_a_managed_or_unknown_role(
    fake_discord: FakeDiscord, client: discord.Client
) -> None:
    fake, alice = fake_discord, fake_discord.user("alice")
    low = await fake.add_role("Low", position=1)
    with pytest.raises(discord.Forbidden) as refused:
        await client.http.add_role(fake.guild_id, alice.id, low.id)
    assert refused.value.code == 50013
    await fake.give_role(fake.bot_user, "manage_roles")
    high = await fake.add_role("High", position=500)
    managed = await fake.add_role("Booster", position=2, managed=True)
    for role in (high, managed):
        with pytest.raises(discord.Forbidden):
            await client.http.add_role(fake.guild_id, alice.id, role.id)
    with pytest.raises(discord.NotFound) as unknown:
        await client.http.add_role(fake.guild_id, alice.id, 12345)
    assert unknown.value.code == 10011
    with pytest.raises(discord.NotFound) as gone:
        await client.http.remove_role(fake.guild_id, 12345, low.id)
    assert gone.value.code == 10007
    await client.http.add_role(fake.guild_id, alice.id, low.id)
    await fake.revoke(fake.bot_user, "manage_roles")
    with pytest.raises(discord.Forbidden):
        await client.http.remove_role(fake.guild_id, alice.id, low.id)
    assert fake.holders(low) == {alice} and fake.holders(high) == set()


async def test_a_role_mention_is_in_the_message_and_pinged_only_when_allowed(
    fake_discord: FakeDiscord, client: discord.Client
) -> None:
    fake = fake_discord
    role = await fake.add_role("Champion", position=1)
    channel = client.get_partial_messageable(fake.channel.id)
    quiet = await channel.send(f"{role.mention} goes to Ann", allowed_mentions=discord.AllowedMentions.none())
    loud = await channel.send(
        f"{role.mention} goes to Ann", allowed_mentions=discord.AllowedMentions(roles=True)
    )
    assert quiet.raw_role_mentions == [role.id]
    assert fake.store.messages[quiet.id].pinged_roles == set()
    assert fake.store.messages[loud.id].pinged_roles == {role.id}
