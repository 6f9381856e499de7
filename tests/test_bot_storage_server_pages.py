"""The storage contract's server pages part (`bot.storage.server_pages_protocol`), on each backend: a
server's page switched on once with its token, found by it, renewed (the old token then finds
nothing) and switched off; the running games of a server it lists, newest first."""

from __future__ import annotations

import asyncio

from test_bot_storage_contract import CHANNEL, running_game

from bot.storage import StorageProtocol

GUILD = 2**55
OTHER = GUILD + 1


async def test_a_server_page_is_switched_on_once_found_by_its_token_renewed_and_switched_off(
    store: StorageProtocol,
) -> None:
    pages = store.server_pages
    assert await pages.token(GUILD) is None and await pages.server_by_page("first") is None
    assert await pages.switch_on(GUILD, "first") == "first"
    assert await pages.switch_on(GUILD, "second") == "first", "on again: the same address"
    assert await pages.switch_on(OTHER, "other") == "other"
    assert await pages.token(GUILD) == "first"
    assert await pages.server_by_page("first") == GUILD and await pages.server_by_page("other") == OTHER
    await pages.renew(GUILD, "renewed")
    assert await pages.server_by_page("first") is None, "the old address finds nothing"
    assert await pages.server_by_page("renewed") == GUILD and await pages.token(GUILD) == "renewed"
    assert await pages.switch_off(GUILD) and not await pages.switch_off(GUILD)
    assert await pages.server_by_page("renewed") is None and await pages.token(GUILD) is None
    assert await pages.server_by_page("other") == OTHER, "another server's page stays"
    await pages.renew(GUILD, "again")
    assert await pages.token(GUILD) == "again", "renewing a page that is off switches it on"


async def test_a_server_page_switched_on_several_times_at_once_has_one_token(store: StorageProtocol) -> None:
    got = await asyncio.gather(*(store.server_pages.switch_on(GUILD, f"t{k}") for k in range(4)))
    assert len(set(got)) == 1 and await store.server_pages.token(GUILD) == got[0]


async def test_a_server_page_lists_the_server_s_running_games_newest_first(store: StorageProtocol) -> None:
    first = await running_game(store, CHANNEL, guild=GUILD)
    second = await running_game(store, CHANNEL + 1, guild=GUILD)
    await running_game(store, CHANNEL + 2, guild=OTHER)
    lobby = await store.games.create_lobby(
        guild=GUILD, channel=CHANNEL + 3, host=1, host_name="Cid", setup="beginner", players_wanted=2, now=0
    )
    assert lobby
    over = await running_game(store, CHANNEL + 4, guild=GUILD)
    assert await store.games.set_status(over, "over", now=5)
    listed = await store.server_pages.running_games(GUILD, 10)
    assert [g.id for g in listed] == [second, first], "running games of this server only, newest first"
    assert [g.id for g in await store.server_pages.running_games(GUILD, 1)] == [second]
