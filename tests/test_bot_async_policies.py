"""The deadline policies (wait, computer, skip), getting the seat back, the settings command,
the board once a round, and handing a seat to someone else — across restarts."""

from __future__ import annotations

import random

import pytest
from test_bot_support import CHANNEL, OUTSIDER, PLAYERS, Table, answered, current, query, start_game

from bot.errors import MoveRefused, NotAllowed, NotSeated
from bot.results import User
from bot.service import absence as svc_absence
from bot.service import moves as svc_moves
from bot.service import questions as svc_questions
from bot.service import settings as svc_settings
from bot.service.context import Context
from bot.service.settings import SettingsError
from bot.storage.rows import SeatRow
from engine import Game

ANN, BOB = PLAYERS[:2]


async def _seats(svc: Context) -> list[SeatRow]:
    row = await svc.storage.games.latest_game(CHANNEL)
    assert row is not None
    return await svc.storage.games.seats(row.id)


async def _moves(svc: Context) -> list[tuple[int, str, bool]]:
    row = await svc.storage.games.latest_game(CHANNEL)
    assert row is not None
    return [(m.seat, m.text, m.auto) for m in await svc.storage.moves.moves(row.id)]


async def test_policy_wait_plays_nothing_at_the_deadline(table: Table) -> None:
    await start_game(table.svc, 2)
    before = await current(table.svc)
    for hours in (24, 25, 30, 100):
        for post in await table.at(hours):
            assert post.outcome is None, "no move is made for the player"
    assert (await current(table.svc)).snapshot() == before.snapshot()


async def test_policy_skip_makes_the_least_harmful_move_and_says_so(table: Table) -> None:
    await start_game(table.svc, 2)
    await svc_settings.settings(table.svc, ANN.id, channel=CHANNEL, policy="skip")
    game = await current(table.svc)
    late = game.pending_seats()[0]
    expected = str(game.default_move(late))
    await table.restart()
    assert all(p.outcome is None for p in await table.at(23.9))
    [post] = await table.at(24)
    assert post.channel == CHANNEL and post.outcome is not None and post.outcome.announcement is not None
    text = post.outcome.announcement.text
    assert "Time is up for" in text and "least harmful move" in text
    assert (await _moves(table.svc))[-1] == (late, expected, True)


async def _to_turn_of(svc: Context, seat: int, rnd: random.Random) -> None:
    """Play random moves for the others until ``seat`` must act."""
    while seat not in (game := await current(svc)).pending_seats():
        other = game.pending_seats()[0]
        move = str(rnd.choice(game.legal_moves(other)))
        await answered(
            svc, await svc_moves.play(svc, PLAYERS[other].id, move, channel=CHANNEL, confirmed=True)
        )


async def test_policy_computer_plays_for_the_absent_player_until_their_next_command(table: Table) -> None:
    await start_game(table.svc, 2)
    await svc_settings.settings(table.svc, ANN.id, channel=CHANNEL, policy="computer", level="random")
    late = (await current(table.svc)).pending_seats()[0]
    [post] = await table.at(24)
    assert post.outcome is not None and post.outcome.announcement is not None
    assert "a computer player (random) plays for them" in post.outcome.announcement.text
    await table.restart()
    rnd = random.Random(4)
    for _ in range(3):  # the other player moves; the absent seat answers at once
        other = 1 - late
        await _to_turn_of(table.svc, other, rnd)
        move = str(rnd.choice((await current(table.svc)).legal_moves(other)))
        played = await svc_moves.play(table.svc, PLAYERS[other].id, move, channel=CHANNEL, confirmed=True)
        *_, outcome = await answered(table.svc, played)
        assert late not in (await current(table.svc)).pending_seats()
    assert outcome.announcement is not None and "who is away: a computer player" in outcome.announcement.text
    autos = [m for m in await _moves(table.svc) if m[0] == late]
    assert len(autos) >= 3 and all(auto for _, _, auto in autos)
    note = await svc_absence.come_back(table.svc, PLAYERS[late].id, channel=CHANNEL)  # any command does this
    assert note is not None and "is back" in note.text
    assert await svc_absence.come_back(table.svc, PLAYERS[late].id, channel=CHANNEL) is None
    await _to_turn_of(table.svc, late, rnd)
    assert late in (await current(table.svc)).pending_seats(), "their decisions wait for them again"


async def test_playing_a_move_also_gives_the_seat_back(table: Table) -> None:
    await start_game(table.svc, 2)
    await svc_settings.settings(table.svc, ANN.id, channel=CHANNEL, policy="skip")
    late = (await current(table.svc)).pending_seats()[0]
    await table.at(24)
    assert (await _seats(table.svc))[late].away
    with pytest.raises(MoveRefused, match="not your turn"):  # the bot has already played for them
        await svc_moves.play(table.svc, PLAYERS[late].id, "gold", channel=CHANNEL)
    assert not (await _seats(table.svc))[late].away
    told = [
        r for r in await query(table.svc.storage, "SELECT payload FROM outbox") if "is back" in r["payload"]
    ]
    assert len(told) == 1, "the table is told once that the player is back"


async def test_only_the_host_or_a_manager_changes_settings_and_values_are_checked(table: Table) -> None:
    await start_game(table.svc, 2)
    shown = await svc_settings.settings(table.svc, BOB.id, channel=CHANNEL)
    assert "Move deadline: 24 h" in shown.reply.text and shown.announcement is None
    with pytest.raises(NotAllowed, match="host or a member with Manage Server"):
        await svc_settings.settings(table.svc, BOB.id, channel=CHANNEL, deadline=0)
    changed = await svc_settings.settings(
        table.svc, BOB.id, channel=CHANNEL, can_manage=True, deadline=0, reminders=0
    )
    assert changed.announcement is not None and "Move deadline: off" in changed.announcement.text
    for bad in ({"policy": "panic"}, {"level": "godlike"}, {"board": "never"}, {"deadline": -1}):
        with pytest.raises(SettingsError):
            await svc_settings.settings(table.svc, ANN.id, channel=CHANNEL, **bad)
    await table.restart()
    assert await table.at(500) == [], "no deadline and no reminders: the clock stays silent"
    assert "Reminders: off" in (await svc_settings.settings(table.svc, ANN.id, channel=CHANNEL)).reply.text


async def test_board_once_a_round_is_posted_only_when_the_round_ends(table: Table) -> None:
    await start_game(table.svc, 2)
    await svc_settings.settings(table.svc, ANN.id, channel=CHANNEL, board="round")
    images = []
    for _ in range(4):  # two political rounds of two players
        game = await current(table.svc)
        seat = game.pending_seats()[0]
        outcome = await svc_moves.play(table.svc, PLAYERS[seat].id, "gold", channel=CHANNEL)
        assert outcome.announcement is not None
        images.append(outcome.announcement.pictures != ())
    assert images == [False, True, False, True]


async def test_the_host_hands_a_seat_to_someone_else_who_plays_it_from_then_on(table: Table) -> None:
    await start_game(table.svc, 2)
    seat = (await current(table.svc)).pending_seats()[0]
    old = PLAYERS[seat]
    new = User(777, "Newcomer")
    other = PLAYERS[1 - seat]
    with pytest.raises(NotAllowed, match="Only the host"):
        await svc_absence.replace(table.svc, OUTSIDER.id, channel=CHANNEL, old=old, new=new)
    with pytest.raises(NotAllowed, match="already plays"):
        await svc_absence.replace(table.svc, ANN.id, channel=CHANNEL, old=old, new=other)
    with pytest.raises(NotSeated):
        await svc_absence.replace(table.svc, ANN.id, channel=CHANNEL, old=OUTSIDER, new=new)
    await table.at(12)  # one reminder for the old player
    with pytest.raises(NotAllowed, match=f"only {old.name} can hand it over"):  # a seat's secrets are its own
        await svc_absence.replace(table.svc, other.id, channel=CHANNEL, old=old, new=new, can_manage=True)
    done = await svc_absence.replace(table.svc, old.id, channel=CHANNEL, old=old, new=new)  # their own seat
    assert done.announcement is not None and f"<@{new.id}> takes over" in done.announcement.text
    assert done.announcement.mentions == (new.id,)
    await table.restart()
    with pytest.raises(NotSeated):
        await svc_moves.play(table.svc, old.id, "gold", channel=CHANNEL)
    assert await table.at(23) == [], "the newcomer's clock started when they took over"
    [post] = await table.at(24)
    assert post.message is not None and post.message.mentions == (new.id,)
    played = await svc_moves.play(table.svc, new.id, "gold", channel=CHANNEL)
    assert played.reply.text == "You played `gold`."


async def test_a_player_who_takes_a_seat_over_sees_only_what_is_revealed_to_it_from_then_on(
    table: Table,
) -> None:
    """A seated host may not take another player's seat (to read its polled cards) while its player
    still has time; once it is theirs, only what the seat learns from then on is theirs to see."""
    names = [p.name for p in PLAYERS[:2]]
    table.svc.seeds = lambda: next(s for s in range(500) if _can_poll(Game.new(names, seed=s)))
    await start_game(table.svc, 2)
    seat = (await current(table.svc)).pending_seats()[0]
    old, other, new = PLAYERS[seat], PLAYERS[1 - seat], User(778, "Newcomer")
    await svc_moves.play(table.svc, old.id, "poll 1 2", channel=CHANNEL)
    seen = await svc_questions.secrets(table.svc, old.id, channel=CHANNEL)
    assert "card 1 is" in seen.text and "card 2 is" in seen.text
    game = await current(table.svc)
    assert game.pending_seats() == [1 - seat], "the poll was the poller's turn: the other player is next"
    await svc_moves.play(table.svc, other.id, "gold", channel=CHANNEL)
    assert (await current(table.svc)).pending_seats() == [seat], "the table waits for the poller again"
    with pytest.raises(NotAllowed, match=rf"only {old.name} can hand it over"):  # they still have time
        await svc_absence.replace(table.svc, other.id, channel=CHANNEL, old=old, new=new, can_manage=True)
    await table.at(25)  # past the deadline: now the table may hand the seat on
    await svc_absence.replace(table.svc, other.id, channel=CHANNEL, old=old, new=new, can_manage=True)
    mine = await svc_questions.secrets(table.svc, new.id, channel=CHANNEL)
    assert "card" not in mine.text and "no private information" in mine.text, mine.text


def _can_poll(game: Game) -> bool:
    seat = game.pending_seats()[0]
    return "poll 1 2" in [str(a) for a in game.legal_moves(seat)]
