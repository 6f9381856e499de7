"""Lobbies: one per channel, join/leave/start, host rules, the player count, and abandoning."""

from __future__ import annotations

import pytest
from test_bot_support import CHANNEL, PLAYERS, PNG, start_game

from bot.errors import LobbyError, NoGame, NotAllowed
from bot.ids import parse_custom_id
from bot.service import leaving as svc_leaving
from bot.service import lobby as svc_lobby
from bot.service import moves as svc_moves
from bot.service import questions as svc_questions
from bot.service import settings as svc_settings
from bot.service.context import Context
from bot.service.lobby import clean_name, unique_names
from bot.storage import envelope

ANN, BOB, CID = PLAYERS[:3]


async def _lobby(svc: Context, **kw: object) -> int:
    msg = await svc_lobby.new_game(svc, ANN, channel=CHANNEL, **kw)  # type: ignore[arg-type]
    refs = [parse_custom_id(b.custom_id) for b in msg.buttons]
    assert [r.action for r in refs if r] == ["join", "leave", "start"]
    return refs[0].game  # type: ignore[union-attr]


async def test_lobby_lists_players_and_the_host_starts_with_two(svc: Context) -> None:
    game = await _lobby(svc)
    with pytest.raises(LobbyError, match="At least 2"):
        await svc_lobby.start(svc, game, ANN)
    joined = await svc_lobby.join(svc, game, BOB)
    assert f"<@{ANN.id}> (host)" in joined.reply.text and f"<@{BOB.id}>" in joined.reply.text
    with pytest.raises(LobbyError, match="already"):
        await svc_lobby.join(svc, game, BOB)
    with pytest.raises(NotAllowed, match="Only the host"):
        await svc_lobby.start(svc, game, BOB)
    started = await svc_lobby.start(svc, game, ANN)
    assert started.announcement is not None and [p.data for p in started.announcement.pictures] == [PNG]
    assert "begins" in started.announcement.text and "Next:" in started.announcement.text
    assert {ANN.id, BOB.id} <= set(started.announcement.mentions)
    with pytest.raises(LobbyError, match="already started without you"):
        await svc_lobby.join(svc, game, CID)
    with pytest.raises(LobbyError, match="already started, and you are in it"):
        await svc_lobby.join(svc, game, BOB)


async def test_a_settings_change_before_the_lobby_message_is_known_edits_it_once_it_is(svc: Context) -> None:
    sent = await svc_lobby.new_game(svc, ANN, channel=CHANNEL)
    await svc_settings.settings(svc, ANN.id, channel=CHANNEL, finished=80)  # its id not noted yet: no edit
    assert await svc.storage.outbox.head(CHANNEL) is not None  # the settings' announcement
    await svc_lobby.shown(svc, CHANNEL, 4242, sent)
    rows = [await svc.storage.outbox.get(i) for i in range(1, 4)]
    [edit] = [envelope.load(r.channel, r.payload, r.image) for r in rows if r is not None and r.edits == 4242]
    assert edit.message is not None and "finished at least 80%" in edit.message.text
    assert "finished at least" not in sent.text


async def test_a_computer_added_before_the_lobby_message_is_known_posts_no_second_lobby(svc: Context) -> None:
    sent = await svc_lobby.new_game(svc, ANN, channel=CHANNEL)
    added = await svc_lobby.add_ai(svc, ANN, channel=CHANNEL, level="random")
    assert added.announcement is None and await svc.storage.outbox.head(CHANNEL) is None
    await svc_lobby.shown(svc, CHANNEL, 4242, sent)
    edit = await svc.storage.outbox.head(CHANNEL)
    assert edit is not None and edit.edits == 4242
    message = envelope.load(edit.channel, edit.payload, edit.image).message
    assert message is not None and "2. 🤖 Computer 1 (random)" in message.text


async def test_a_lobby_message_noted_as_it_was_sent_stores_no_edit(svc: Context) -> None:
    sent = await svc_lobby.new_game(svc, ANN, channel=CHANNEL)
    await svc_lobby.shown(svc, CHANNEL, 4242, sent)
    assert await svc.storage.outbox.head(CHANNEL) is None
    await svc_lobby.join(svc, (await svc.storage.games.open_game(CHANNEL)).id, BOB)  # type: ignore[union-attr]
    assert await svc.storage.outbox.head(CHANNEL) is not None, "changes edit it from now on"


async def test_one_game_per_channel_while_other_channels_have_their_own(svc: Context) -> None:
    await _lobby(svc)
    with pytest.raises(LobbyError, match="already has a game"):
        await svc_lobby.new_game(svc, BOB, channel=CHANNEL)
    other = await svc_lobby.new_game(svc, BOB, channel=CHANNEL + 1)
    assert other.buttons


async def test_a_lobby_with_a_player_count_starts_when_full(svc: Context) -> None:
    game = await _lobby(svc, players=3)
    assert (await svc_lobby.join(svc, game, BOB)).announcement is None
    full = await svc_lobby.join(svc, game, CID)
    assert full.announcement is not None and "begins" in full.announcement.text
    row = await svc.storage.games.game(game)
    assert row is not None and row.status == "active" and row.record is not None
    assert row.record["players"] == ["Ann", "Bob", "Cid"]


async def test_a_leaving_host_hands_over_and_an_empty_lobby_closes(svc: Context) -> None:
    game = await _lobby(svc)
    await svc_lobby.join(svc, game, BOB)
    await svc_lobby.leave(svc, game, ANN)
    row = await svc.storage.games.game(game)
    assert row is not None and row.host == BOB.id
    with pytest.raises(LobbyError, match="not in this game"):
        await svc_lobby.leave(svc, game, ANN)
    await svc_lobby.leave(svc, game, BOB)
    row = await svc.storage.games.game(game)
    assert row is not None and row.status == "abandoned"
    await svc_lobby.new_game(svc, CID, channel=CHANNEL)  # the channel is free again


async def test_only_the_host_or_a_manager_may_abandon(svc: Context) -> None:
    await start_game(svc, 2)
    with pytest.raises(NotAllowed, match="host or a member with Manage Server"):
        await svc_leaving.abandon_prompt(svc, BOB.id, channel=CHANNEL, can_manage=False)
    prompt = await svc_leaving.abandon_prompt(svc, BOB.id, channel=CHANNEL, can_manage=True)
    ref = parse_custom_id(prompt.buttons[0].custom_id)
    assert prompt.ephemeral and ref is not None and ref.action == "abandon"
    with pytest.raises(NotAllowed):
        await svc_leaving.abandon(svc, BOB.id, game_id=ref.game, can_manage=False)
    done = await svc_leaving.abandon(svc, ANN.id, game_id=ref.game, can_manage=False)
    assert done.announcement is not None and "abandoned" in done.announcement.text
    with pytest.raises(NoGame):
        await svc_moves.play(svc, ANN.id, "gold", channel=CHANNEL)
    with pytest.raises(NoGame):
        await svc_leaving.abandon(svc, ANN.id, game_id=ref.game, can_manage=True)


async def test_status_log_and_score_of_a_running_game(svc: Context) -> None:
    await start_game(svc, 2)
    status = await svc_questions.status(svc, CHANNEL)
    assert "Year 1 of 6, political round 1 of 5" in status.text and "waiting since <t:" in status.text
    assert (await svc_questions.log(svc, CHANNEL)).text == "No move has been made yet."
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None and row.snapshot is not None
    from engine import Game

    seat = Game.restore(row.snapshot, row.record or {}).pending_seats()[0]
    await svc_moves.play(svc, PLAYERS[seat].id, "gold", channel=CHANNEL)
    assert (
        "1. **" in (await svc_questions.log(svc, CHANNEL)).text
        and "takes 2 gold" in (await svc_questions.log(svc, CHANNEL)).text
    )
    assert (await svc_questions.score(svc, CHANNEL)).text.startswith("Score if the game ended now")
    board = await svc_questions.board(svc, CHANNEL)
    assert [p.data for p in board.pictures] == [PNG] and board.ephemeral


def test_display_names_cannot_ping_or_format_and_repeats_are_numbered() -> None:
    assert clean_name("@everyone **bold**") == "everyone bold"
    assert clean_name("<@123>") == "123"
    assert unique_names(["Ann", "Ann", "Bob", "Ann"]) == ["Ann", "Ann 2", "Bob", "Ann 3"]
