"""A server's history through the service layer: a finished game is rated in the transaction of
its final move with a scoring post; its replay follows once; the commands read it back."""

from __future__ import annotations

import io
import random

import pytest
from PIL import GifImagePlugin, Image
from test_bot_support import (
    CHANNEL,
    GUILD,
    OUTSIDER,
    PLAYERS,
    Table,
    Transcript,
    answer_all,
    query,
    start_game,
)

from bot.errors import NoGame, NotAllowed
from bot.ids import parse_custom_id
from bot.results import User
from bot.service import advance as svc_advance
from bot.service import archive as svc_archive
from bot.service import leaving as svc_leaving
from bot.service import lobby as svc_lobby
from bot.service import settings as svc_settings
from bot.service import tick as svc_tick
from bot.service.context import Context
from bot.service.history import number, signed
from bot.service.pictures import default_renderer
from bot.service.visible import Viewer
from bot.storage.envelope import load
from bot.storage.queries import WITH_FILE
from bot.storage.rows import FORMER
from i18n import percent, speaking

SEES = Viewer.of(OUTSIDER.id, {CHANNEL})
"""A member who plays in no game and can view the games' channel."""


async def finish(table: Table, humans: int, levels: tuple[str, ...] = (), channel: int = CHANNEL) -> int:
    """A game of ``humans`` of `PLAYERS` and computer players of ``levels``, finished by letting the
    deadline pass for every human (the computer policy then plays their seats to the end)."""
    svc = table.svc
    host = PLAYERS[0]
    await svc_lobby.new_game(svc, host, channel=channel, guild=GUILD)
    row = await svc.storage.games.open_game(channel)
    assert row is not None
    for user in PLAYERS[1:humans]:
        await svc_lobby.join(svc, row.id, user)
    for level in levels:
        svc.clock.now += svc_lobby.SAME_REQUEST + 1  # type: ignore[attr-defined]  # one request each
        await svc_lobby.add_ai(svc, host, channel=channel, level=level)
    await svc_lobby.start(svc, row.id, host)
    await svc_advance.advance(svc, row.id)
    await svc_settings.settings(svc, host.id, channel=channel, deadline=1, policy="computer", level="random")
    await run_out(table, row.id)
    return row.id


async def run_out(table: Table, game_id: int) -> None:
    """Let the deadlines pass until the bot has played every late seat to the end of the game."""
    for _ in range(6):
        table.clock.advance(2)
        await svc_tick.tick(table.svc)
        row = await table.svc.storage.games.game(game_id)
        assert row is not None
        if row.status == "over":
            return
    raise AssertionError("the game does not end")


async def test_the_final_move_stores_placings_ratings_and_the_scoring_post_together(table: Table) -> None:
    game_id = await finish(table, 2, ("basic",))
    svc = table.svc
    row = await svc.storage.games.game(game_id)
    assert row is not None
    places = await svc.storage.history.game_results(game_id)
    assert [p.player for p in places] == ["user:101", "user:102", "computer:basic"]
    assert sorted(p.rank for p in places)[0] == 1
    rows = await query(svc.storage, f"{WITH_FILE} WHERE o.game = ? AND o.version = ? ORDER BY o.id",
                       game_id, row.version)  # fmt: skip
    assert len(rows) == 2, "the final move's post, then the scoring post, stored with the move"
    scoring = load(rows[1]["channel"], rows[1]["payload"], rows[1]["image"]).message_for()
    assert scoring is not None and not scoring.ephemeral
    text = scoring.text
    assert text.startswith(f"🏁 **Game {game_id} — final scoring**")
    for p in places:
        shown = "🤖 Computer 1 (basic)" if p.player == "computer:basic" else p.name
        assert f"**{shown}**" in text and f"= **{number(p.score)}**" in text and "rating" in text
    board = await svc.storage.history.leaderboard(GUILD)
    assert {s.player for s in board} == {"user:101", "user:102", "computer:basic"}
    assert all(s.games == 1 for s in board)


async def test_a_resigned_player_is_ranked_below_those_who_played_on(table: Table) -> None:
    svc = table.svc
    await start_game(svc, 3)
    await svc_leaving.resign(svc, PLAYERS[0].id, channel=CHANNEL)
    await svc_settings.settings(
        svc, PLAYERS[0].id, channel=CHANNEL, deadline=1, policy="computer", level="random"
    )
    row = await svc.storage.games.latest_game(CHANNEL)
    assert row is not None
    await run_out(table, row.id)
    places = {p.seat: p for p in await svc.storage.history.game_results(row.id)}
    assert places[0].resigned and places[0].rank == 3
    assert {places[1].rank, places[2].rank} <= {1, 2}


async def test_an_abandoned_game_is_not_rated_nor_listed(svc: Context) -> None:
    await start_game(svc, 2)
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    await svc_leaving.abandon(svc, PLAYERS[0].id, game_id=row.id, can_manage=False)
    assert await svc.storage.history.game_results(row.id) == []
    with pytest.raises(NoGame):
        await svc_archive.leaderboard(svc, GUILD, PLAYERS[0].id)
    with pytest.raises(NoGame):
        await svc_archive.games(svc, GUILD, SEES)
    with pytest.raises(NoGame, match="abandoned"):
        await svc_archive.replay(svc, GUILD, CHANNEL, SEES)


async def test_a_replay_interrupted_by_a_stop_is_posted_by_the_next_tick_once(table: Table) -> None:
    svc = table.svc
    await start_game(svc, 2)
    await answer_all(svc, random.Random(3), Transcript(), 400)  # humans play to the end; no advance
    row = await svc.storage.games.latest_game(CHANNEL)
    assert row is not None and row.status == "over"
    assert await svc.storage.history.unreplayed() == [row.id]
    svc = await table.restart()
    svc.renderer = default_renderer
    await svc_tick.tick(svc)
    await svc_tick.tick(svc)
    assert await svc.storage.history.unreplayed() == []
    rows = await query(svc.storage, f"{WITH_FILE} WHERE o.game = ? AND o.payload LIKE '%.gif%'", row.id)
    assert len(rows) == 1, "the replay is stored once"
    post = load(rows[0]["channel"], rows[0]["payload"], rows[0]["image"]).message_for()
    assert post is not None and post.filename == f"citta-game-{row.id}.gif" and post.image is not None
    gif = Image.open(io.BytesIO(post.image))
    assert isinstance(gif, GifImagePlugin.GifImageFile) and gif.n_frames >= 30


async def test_the_commands_read_the_history_of_this_server_only(table: Table) -> None:
    first = await finish(table, 2, ("strong",))
    await finish(table, 1, ("strong", "random"))
    svc = table.svc
    board = await svc_archive.leaderboard(svc, GUILD, PLAYERS[1].id)
    assert board.ephemeral and board.text.startswith("🏆 **Leaderboard**")
    assert "Computer (strong)" in board.text and "Computer (random)" in board.text and "← you" in board.text
    assert "no rated game" in (await svc_archive.leaderboard(svc, GUILD, 999)).text
    stats = await svc_archive.stats(svc, GUILD, PLAYERS[0])
    assert stats.ephemeral and "2 games" in stats.text and "Rating" in stats.text and "Hunger:" in stats.text
    with pytest.raises(NoGame):
        await svc_archive.stats(svc, GUILD, User(999, "Zed"))
    games = await svc_archive.games(svc, GUILD, SEES)
    assert games.text.count("**Game ") == 2 and "final post not sent yet" in games.text
    first_row = await svc.storage.games.game(first)
    assert first_row is not None
    [final, *_] = await query(svc.storage, "SELECT id FROM outbox WHERE game = ? AND version = ? ORDER BY id",
                              first, first_row.version)  # fmt: skip
    await svc.storage.outbox.sent(final["id"], 4242, int(table.clock.now))
    assert (
        f"https://discord.com/channels/{GUILD}/{CHANNEL}/4242"
        in (await svc_archive.games(svc, GUILD, SEES)).text
    )
    with pytest.raises(NoGame):
        await svc_archive.games(svc, GUILD + 1, SEES)
    with pytest.raises(NoGame):
        await svc_archive.replay(svc, GUILD + 1, CHANNEL, SEES, first)


async def test_the_replay_of_a_running_game_is_refused(svc: Context) -> None:
    await start_game(svc, 2)
    with pytest.raises(NotAllowed, match="still running"):
        await svc_archive.replay(svc, GUILD, CHANNEL, SEES)


async def test_forget_takes_a_name_out_of_the_history_and_keeps_the_games(table: Table) -> None:
    game_id = await finish(table, 2, ("basic",))
    svc = table.svc
    prompt = await svc_archive.forget_prompt(svc, GUILD, PLAYERS[1].id)
    assert prompt.ephemeral and "the 1 finished game" in prompt.text and "cannot be undone" in prompt.text
    [button] = prompt.buttons
    ref = parse_custom_id(button.custom_id)
    assert button.style == "danger" and ref is not None and ref.action == "forget"
    assert "Bob" in (await svc_archive.games(svc, GUILD, SEES)).text, "asking changes nothing"
    msg = await svc_archive.forget(svc, GUILD, PLAYERS[1].id)
    assert msg.ephemeral and "1 finished game" in msg.text
    places = await svc.storage.history.game_results(game_id)
    assert [p.name for p in places][1] == FORMER and places[1].user_id is None
    assert "Bob" not in (await svc_archive.leaderboard(svc, GUILD, PLAYERS[0].id)).text
    assert "Bob" not in (await svc_archive.games(svc, GUILD, SEES)).text
    row = await svc.storage.games.game(game_id)
    assert row is not None and row.record is not None and row.snapshot is not None
    assert row.record["players"][1] == FORMER and row.snapshot["players"][1]["name"] == FORMER
    assert [s.name for s in await svc.storage.games.seats(game_id)][1] == FORMER
    with pytest.raises(NoGame):
        await svc_archive.stats(svc, GUILD, PLAYERS[1])
    with pytest.raises(NoGame):
        await svc_archive.forget(svc, GUILD, PLAYERS[1].id)
    with pytest.raises(NoGame, match="nothing of yours"):
        await svc_archive.forget_prompt(svc, GUILD, PLAYERS[1].id)


PRIVATE = CHANNEL + 1
"""A channel that `SEES` cannot view."""
NO_SUCH_GAME = "There is no such game on this server."


async def test_a_game_in_a_channel_the_asker_cannot_view_is_listed_only_for_its_players(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(svc_archive, "GAMES_LISTED", 2)
    monkeypatch.setattr(svc_archive, "PAGE", 1)  # the list is filled page by page past the hidden games
    open_ = await finish(table, 1, ("random",))
    older = await finish(table, 1, ("random",))
    hidden = await finish(table, 2, ("random",), channel=PRIVATE)
    svc = table.svc
    listed = await svc_archive.games(svc, GUILD, SEES)
    assert f"**Game {hidden}**" not in listed.text and f"/{PRIVATE}/" not in listed.text
    assert f"**Game {older}**" in listed.text and f"**Game {open_}**" in listed.text, listed.text
    bob = await svc_archive.games(svc, GUILD, Viewer.of(PLAYERS[1].id, set()))
    assert f"**Game {hidden}**" in bob.text and "**Game " not in bob.text.replace(f"**Game {hidden}**", "")
    member = await svc_archive.games(svc, GUILD, Viewer.of(OUTSIDER.id, {CHANNEL, PRIVATE}))
    assert member.text.index(f"**Game {hidden}**") < member.text.index(f"**Game {older}**")
    assert f"**Game {open_}**" not in member.text, "two games listed: the newest two"
    with pytest.raises(NoGame, match="No game has finished"):
        await svc_archive.games(svc, GUILD, Viewer.of(OUTSIDER.id, set()))


async def test_the_replay_of_a_hidden_game_is_answered_as_that_of_no_game(table: Table) -> None:
    hidden = await finish(table, 2, ("random",), channel=PRIVATE)
    svc = table.svc
    for game in (hidden, hidden + 100):
        with pytest.raises(NoGame) as refused:
            await svc_archive.replay(svc, GUILD, CHANNEL, SEES, game)
        assert str(refused.value) == NO_SUCH_GAME
    await start_game(svc, 2, channel=PRIVATE)
    running = await svc.storage.games.open_game(PRIVATE)
    assert running is not None
    with pytest.raises(NoGame) as refused:
        await svc_archive.replay(svc, GUILD, CHANNEL, SEES, running.id)
    assert str(refused.value) == NO_SUCH_GAME, "not even that it is running"
    with pytest.raises(NotAllowed, match="still running"):
        await svc_archive.replay(svc, GUILD, CHANNEL, Viewer.of(PLAYERS[1].id, set()), running.id)
    table.svc.renderer = None  # what is left to refuse: the drawing
    for allowed in (Viewer.of(PLAYERS[0].id, set()), Viewer.of(OUTSIDER.id, {PRIVATE})):
        with pytest.raises(NoGame, match="draws no pictures"):
            await svc_archive.replay(svc, GUILD, CHANNEL, allowed, hidden)


@pytest.mark.parametrize(
    ("code", "written"),
    [
        ("en", ("3.1", "−0.5", "+1.2", "±0.0", "−2", "46%")),
        ("de", ("3,1", "−0,5", "+1,2", "±0,0", "−2", "46\u00a0%")),
        ("fr", ("3,1", "−0,5", "+1,2", "±0,0", "−2", "46\u00a0%")),
        ("nl", ("3,1", "−0,5", "+1,2", "±0,0", "−2", "46%")),
    ],
)
def test_ratings_their_changes_and_shares_are_written_as_each_language_writes_numbers(
    code: str, written: tuple[str, ...]
) -> None:
    """A decimal comma in German, French and Dutch; rounded alike in every language."""
    with speaking(code):
        assert (
            number(3.14),
            number(-0.45),
            signed(1.24),
            signed(-0.04),
            number(-2),
            percent(0.456),
        ) == written
