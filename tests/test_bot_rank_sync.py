"""Keeping rank roles current (`bot.service.rank_sync`) through a port that stands for Discord, on each
backend: a restart between a role given and its record gives it again and nothing more; a role an admin
gave is never taken; Discord refusing one server's changes does not stop another's; a finished game's
server has its roles updated at once, not at the next tick."""

from __future__ import annotations

from test_bot_storage_contract import ANN, BOB, CHANNEL, commit, move, placing, running_game

from bot.service import advance, rank_sync
from bot.service.context import Context
from bot.service.role_calls import RolesRefused
from bot.storage.ranks_protocol import Grant, RankRule

GUILD, OTHER = 2**55, 2**55 + 1
ROLE = 1575893277096280073


class Roles:
    """Discord's members' roles, in memory: who holds what, the calls made, and the faults to play."""

    def __init__(self) -> None:
        self.held: set[tuple[int, int, int]] = set()  # (guild, member, role)
        self.calls: list[tuple[str, int, int]] = []  # (give|take, guild, member)
        self.crash_after_give = False
        self.refuse: set[int] = set()  # guilds whose changes Discord refuses

    async def holds(self, guild: int, member: int, role: int) -> bool:
        return (guild, member, role) in self.held

    async def give(self, guild: int, member: int, role: int, reason: str) -> None:
        if guild in self.refuse:
            raise RolesRefused("403")
        self.held.add((guild, member, role))
        self.calls.append(("give", guild, member))
        if self.crash_after_give:
            self.crash_after_give = False
            raise ConnectionResetError("the bot stopped before it stored the call's outcome")

    async def take(self, guild: int, member: int, role: int, reason: str) -> None:
        if guild in self.refuse:
            raise RolesRefused("403")
        self.held.discard((guild, member, role))
        self.calls.append(("take", guild, member))


async def _rated_game(svc: Context, guild: int, channel: int) -> int:
    places = [placing(0, f"user:{ANN}", "Ann", 1, 30.0, ANN), placing(1, f"user:{BOB}", "Bob", 2, 28.0, BOB)]
    game = await running_game(svc.storage, channel=channel, guild=guild, now=10)
    done = await commit(
        svc.storage, game, 0, move(1, 0), placings=places, guild=guild, status="over", now=150
    )
    assert done is not None
    return game


async def test_a_role_given_before_a_restart_is_given_again_once_and_an_admins_role_is_never_taken(
    svc: Context,
) -> None:
    roles = Roles()
    svc.roles = roles
    roles.held.add((GUILD, ANN, ROLE))  # an admin gave Ann the role
    await svc.storage.ranks.set_rule(RankRule(GUILD, ROLE, "rating", -100.0), CHANNEL, "en")
    await _rated_game(svc, GUILD, CHANNEL)
    svc.clock = lambda: 200
    roles.crash_after_give = True
    assert await rank_sync.sync_due(svc) == 0, "the server's failure is logged, not raised"
    assert await svc.storage.ranks.grants(GUILD) == [Grant(GUILD, ROLE, BOB, "putting")], (
        "Ann's is not the bot's"
    )
    svc.clock = lambda: 260
    assert await rank_sync.sync_due(svc) == 1
    assert await svc.storage.ranks.grants(GUILD) == [Grant(GUILD, ROLE, BOB, "held")]
    assert roles.calls == [("give", GUILD, BOB), ("give", GUILD, BOB)], "given again after the restart"
    svc.clock = lambda: 320
    assert await rank_sync.sync_due(svc) == 0 and len(roles.calls) == 2, "then nothing more"

    assert await svc.storage.ranks.drop_rule(GUILD, ROLE)
    assert await rank_sync.sync_due(svc) == 1
    assert roles.calls[2:] == [("take", GUILD, BOB)], "only what the bot gave is taken"
    assert roles.held == {(GUILD, ANN, ROLE)}
    assert await svc.storage.ranks.grants(GUILD) == []


async def test_discord_refusing_one_servers_changes_leaves_the_others_and_the_admins_are_told_once(
    svc: Context,
) -> None:
    roles = Roles()
    svc.roles = roles
    roles.refuse.add(GUILD)
    for guild, channel in ((GUILD, CHANNEL), (OTHER, CHANNEL + 1)):
        await svc.storage.ranks.set_rule(RankRule(guild, ROLE, "rating", -100.0), channel, "de")
        await _rated_game(svc, guild, channel + 10)
    svc.clock = lambda: 200
    assert await rank_sync.sync_due(svc) == 1
    assert roles.held == {(OTHER, ANN, ROLE), (OTHER, BOB, ROLE)}
    notices = [h for h in await svc.storage.outbox.heads() if h.channel == CHANNEL]
    assert len(notices) == 1
    row = await svc.storage.outbox.get(notices[0].id)
    assert row is not None and "Discord" in row.payload, "told in the server's channel"
    svc.clock = lambda: 200 + rank_sync.RETRY - 1
    assert await rank_sync.sync_due(svc) == 0, "not tried again before an hour"
    svc.clock = lambda: 200 + rank_sync.RETRY
    assert await rank_sync.sync_due(svc) == 0
    assert [h for h in await svc.storage.outbox.heads() if h.channel == CHANNEL] == notices, "told once"
    roles.refuse.clear()
    svc.clock = lambda: 200 + 2 * rank_sync.RETRY
    assert await rank_sync.sync_due(svc) == 1
    assert {(g, m) for g, m, _ in roles.held} == {(OTHER, ANN), (OTHER, BOB), (GUILD, ANN), (GUILD, BOB)}
    assert (await svc.storage.ranks.syncs())[0].refused_at is None


async def test_a_finished_games_server_has_its_roles_updated_at_once_and_no_other_server(
    svc: Context,
) -> None:
    """`advance`, which the bot runs once a game's final post is stored, updates the game's server's
    rank roles without waiting for the clock's tick; another server's wait for the tick."""
    roles = Roles()
    svc.roles = roles
    games = {}
    for guild, channel in ((GUILD, CHANNEL), (OTHER, CHANNEL + 1)):
        await svc.storage.ranks.set_rule(RankRule(guild, ROLE, "rating", -100.0), channel, "en")
        games[guild] = await _rated_game(svc, guild, channel + 10)
    svc.clock = lambda: 200
    assert await advance.advance(svc, games[GUILD]) == []
    assert roles.held == {(GUILD, ANN, ROLE), (GUILD, BOB, ROLE)}
    assert await rank_sync.sync_due(svc) == 1 and {g for g, _, _ in roles.held} == {GUILD, OTHER}
