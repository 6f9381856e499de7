"""End-to-end: a server's rank roles through the fake Discord. Admins map a role to the season's
champion and one to its first places; games finish, the season rolls over on the fake clock with its
champion announced once, and the roles follow — the old holders lose them, a member an admin gave a
role keeps it — across a restart of the bot, each change made once. A mapping is refused without Manage
Roles or for a role above the bot's; Discord's later refusal (403) does not stop the clock, is told to
the admins once, and the roles are caught up once the permission is back."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fakediscord import FakeDiscord, FakeMessage, FakeRole, FakeUser
from fakediscord.fixtures import fake_discord
from test_e2e_seasons import QUARTER_ENDS, START, _champion_posts, _play_out, _settled
from test_e2e_support import citta_bot, posts_after, private_answer

from bot.client.bot import CittaBot
from bot.service import seasons
from bot.service import tick as svc_tick
from bot.service.rank_sync import RETRY

__all__ = ["fake_discord"]

PLACES = 4
"""The podium's places: Alice, Bob and the two computer levels of the first season all have one."""
REFUSED = "⚠️ Discord refused to change a rank role"


async def _expected(bot: CittaBot, guild: int, starts: int, ends: int) -> tuple[int | None, set[int]]:
    """The season's champion and the members at its first `PLACES` places, from its leaderboard."""
    board = seasons.board(await bot.service.storage.seasons.results(guild, starts, ends))
    best = seasons.champion(board)
    top = {int(s.player[5:]) for s in board[:PLACES] if s.player.startswith("user:")}
    return (int(best.player[5:]) if best else None), top


def _ids(users: set[FakeUser]) -> set[int]:
    return {u.id for u in users}


def _adds(fake: FakeDiscord, role: FakeRole) -> list[int]:
    guild = fake.store.guilds[fake.guild_id]
    return [e.user for e in guild.audit_log if e.role == role.id and e.action == "add"]


async def _roles_settled(bot: CittaBot, guild: int) -> None:
    """A tick of the clock that leaves no grant waiting for a Discord call."""
    await svc_tick.tick(bot.service)
    assert all(g.state == "held" for g in await bot.service.storage.ranks.grants(guild))


async def test_rank_roles_follow_the_champion_and_the_places_across_a_rollover_and_a_restart(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob, dave = (fake.user(n) for n in ("alice", "bob", "dave"))
    hall = await fake.add_text_channel("hall-of-fame")
    fake.grant(fake.bot_user, "manage_roles")  # as the admins do when they switch rank roles on
    champion_role = await fake.add_role("Champion", position=2)
    top_role = await fake.add_role("Podium", position=1)
    fake.put_role(alice, top_role)  # an admin's gift: the bot never takes it
    async with citta_bot(fake, database, seed=21) as bot:
        fake.grant(alice, "manage_guild")
        bot.service.clock = lambda: START
        await private_answer(fake, alice, "citta-server season", length="quarter", channel=hall)
        champ_on = await private_answer(
            fake, alice, "citta-server rank-role", role=champion_role, rule="champion"
        )
        assert champion_role.mention in champ_on.text and "champion" in champ_on.text, champ_on.text
        top_on = await private_answer(
            fake, alice, "citta-server rank-role", role=top_role, rule="top", value=PLACES
        )
        assert "places 1 to 4 of the running season" in top_on.text, top_on.text
        assert not fake.store.messages[champ_on.id].pinged_roles, "a role is named, never pinged"

        ended = await _play_out(fake, bot, alice, [bob], "strong", START)
        ended = await _play_out(fake, bot, bob, [alice], "basic", ended)
        await _roles_settled(bot, fake.guild_id)
        best, top = await _expected(bot, fake.guild_id, START, QUARTER_ENDS)
        assert best is not None and top == {alice.id, bob.id}, "both played their two games"
        assert _ids(fake.holders(top_role)) == top, "the season's first places, kept current"
        assert not fake.holders(champion_role), "no season has ended yet"

        bot.service.clock = lambda: QUARTER_ENDS + 60
        await svc_tick.tick(bot.service)
        await _roles_settled(bot, fake.guild_id)
        await _settled(bot, hall)
        assert len(_champion_posts(fake, hall)) == 1
        assert _ids(fake.holders(champion_role)) == {best}, "the champion's role goes with the title"
        assert _ids(fake.holders(top_role)) == {alice.id}, "a new season: nobody has a place; Alice's stays"
        listed = await private_answer(fake, alice, "citta-server rank-roles")
        assert "I gave it to 1 member)" in listed.text and "I gave it to 0 members)" in listed.text, (
            listed.text
        )
    calls = len(fake.store.guilds[fake.guild_id].audit_log)
    async with citta_bot(fake, database, seed=21) as bot:
        bot.service.clock = lambda: QUARTER_ENDS + 120
        await _roles_settled(bot, fake.guild_id)
        await _settled(bot, hall)
        assert len(_champion_posts(fake, hall)) == 1, "announced once, whatever restarts"
        assert len(fake.store.guilds[fake.guild_id].audit_log) == calls, "no role changed twice"

        other = dave  # season 2: only he plays, and wins the title
        ended = await _play_out(fake, bot, other, [], "random", QUARTER_ENDS + 180)
        await _roles_settled(bot, fake.guild_id)
        assert other in fake.holders(top_role), "a finished game gives the place's role at once"
        ended = await _play_out(fake, bot, other, [], "random", ended)
        season_two_ends = seasons.period("quarter", QUARTER_ENDS)[1]
        assert ended < season_two_ends
        bot.service.clock = lambda: season_two_ends + 60
        await svc_tick.tick(bot.service)
        await _roles_settled(bot, fake.guild_id)
        assert _ids(fake.holders(champion_role)) == {other.id}, "the role moves to the new champion"
        assert _ids(fake.holders(top_role)) == {alice.id}
        assert _adds(fake, champion_role) == [best, other.id], "each given once"
        guild = fake.store.guilds[fake.guild_id]
        assert all(e.reason and "rank roles" in e.reason for e in guild.audit_log), "the audit log says why"
        assert not [e for e in guild.audit_log if e.user == alice.id and e.role == top_role.id], (
            "not the bot's"
        )
        assert [(e.action, e.user) for e in guild.audit_log if e.role == top_role.id] == [
            ("add", bob.id),
            ("remove", bob.id),
            ("add", dave.id),
            ("remove", dave.id),
        ], "each change made once"
    fake.check()


async def _may_manage_roles(fake: FakeDiscord, bot: CittaBot, may: bool) -> None:
    """Until the bot's cache of the server knows whether its role has Manage Roles."""
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None
    await fake.wait_for(lambda: guild.me is not None and guild.me.guild_permissions.manage_roles == may, 5)


async def _notices(fake: FakeDiscord) -> list[FakeMessage]:
    await asyncio.sleep(0.3)
    return [m for m in posts_after(fake, 0) if m.text.startswith(REFUSED)]


async def test_a_rank_role_is_refused_without_manage_roles_or_above_the_bot_and_a_later_403_stops_nothing(
    fake_discord: FakeDiscord, database: Path | str
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    fake.grant(fake.bot_user)  # the bot's own role, without Manage Roles (the invite link's)
    rated = await fake.add_role("Rated", position=1)
    mods = await fake.add_role("Mods", position=1000)
    boosters = await fake.add_role("Server Booster", position=2, managed=True)
    async with citta_bot(fake, database, seed=5) as bot:
        fake.grant(alice, "manage_guild")
        no_perm = await private_answer(
            fake, alice, "citta-server rank-role", role=rated, rule="rating", value=-50
        )
        assert no_perm.text.startswith("⚠️") and "**Manage Roles**" in no_perm.text, no_perm.text
        await fake.give_role(fake.bot_user, "manage_roles")
        await _may_manage_roles(fake, bot, True)
        above = await private_answer(fake, alice, "citta-server rank-role", role=mods, rule="champion")
        assert "is not below my highest role" in above.text and mods.mention in above.text, above.text
        managed = await private_answer(fake, alice, "citta-server rank-role", role=boosters, rule="champion")
        assert "belongs to an integration" in managed.text, managed.text
        no_value = await private_answer(fake, alice, "citta-server rank-role", role=rated, rule="top")
        assert "needs a `value`" in no_value.text, no_value.text
        bad_top = await private_answer(
            fake, alice, "citta-server rank-role", role=rated, rule="top", value=2.5
        )
        assert "whole number from 1 to 50" in bad_top.text, bad_top.text
        none = await private_answer(fake, alice, "citta-server rank-roles")
        assert "no rank roles" in none.text, "nothing refused was stored"

        await private_answer(fake, alice, "citta-server rank-role", role=rated, rule="rating", value=-50)
        await fake.revoke(fake.bot_user, "manage_roles")  # an admin takes the permission back
        await _may_manage_roles(fake, bot, False)
        bot.service.clock = lambda: START
        ended = await _play_out(fake, bot, alice, [bob], "basic", START)  # ticks on, refused each time
        assert not fake.holders(rated)
        assert any(e[2] == 403 and "/roles/" in e[1] for e in fake.error_responses), "Discord refused"
        fake.error_responses.clear()  # seen: the check below is for the rest
        for k in range(3):  # tried again each hour, refused each time

            def clock(k: int = k) -> float:
                return ended + (RETRY + 60) * (k + 1)

            bot.service.clock = clock
            await svc_tick.tick(bot.service)
        refusals = [e for e in fake.error_responses if e[2] == 403 and "/roles/" in e[1]]
        assert len(refusals) == 3, refusals
        assert len(await _notices(fake)) == 1, "the admins are told once"
        listed = await private_answer(fake, alice, "citta-server rank-roles")
        assert REFUSED in listed.text, listed.text

        await fake.give_role(fake.bot_user, "manage_roles")
        await _may_manage_roles(fake, bot, True)
        bot.service.clock = lambda: ended + 5 * RETRY
        await _roles_settled(bot, fake.guild_id)
        assert fake.holders(rated) == {alice, bob}, "caught up once Discord accepts again"
        listed = await private_answer(fake, alice, "citta-server rank-roles")
        assert REFUSED not in listed.text and "I gave it to 2 members" in listed.text, listed.text
        off = await private_answer(fake, alice, "citta-server rank-role", role=rated, rule="off")
        assert "I take it back" in off.text, off.text
        await _roles_settled(bot, fake.guild_id)
        assert not fake.holders(rated), "unmapped: taken back from those the bot gave it to"
        assert len(await _notices(fake)) == 1
