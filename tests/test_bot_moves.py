"""Moves through the service layer: refusals, double clicks, races, DMs and peeks, resigning."""

from __future__ import annotations

import asyncio
import random

import pytest
from test_bot_support import CHANNEL, OUTSIDER, PLAYERS, answered, current, start_game

from bot.errors import AlreadyMade, MoveRefused, NotAllowed, NotSeated
from bot.ids import parse_custom_id
from bot.service import choices as svc_choices
from bot.service import leaving as svc_leaving
from bot.service import moves as svc_moves
from bot.service import questions as svc_questions
from bot.service.context import Context
from engine import Game, IllegalMove


async def _db_state(svc: Context) -> tuple[int, object, int]:
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    return row.version, row.snapshot, len(await svc.storage.moves.moves(row.id))


async def test_illegal_move_is_refused_with_the_engine_message_and_nothing_changes(svc: Context) -> None:
    await start_game(svc, 2)
    game = await current(svc)
    seat = game.pending_seats()[0]
    with pytest.raises(IllegalMove) as engine_says:
        game.check(seat, "build farm A1")
    before = await _db_state(svc)
    with pytest.raises(MoveRefused) as refused:
        await svc_moves.play(svc, PLAYERS[seat].id, "build farm A1", channel=CHANNEL)
    assert str(refused.value) == str(engine_says.value)
    assert await _db_state(svc) == before


async def test_malformed_move_is_refused_with_the_engine_message_and_nothing_changes(
    svc: Context,
) -> None:
    await start_game(svc, 2)
    seat = (await current(svc)).pending_seats()[0]
    before = await _db_state(svc)
    with pytest.raises(MoveRefused, match="Unknown move `fly`"):
        await svc_moves.play(svc, PLAYERS[seat].id, "fly to the moon", channel=CHANNEL)
    with pytest.raises(MoveRefused, match="not a valid `build` move"):
        await svc_moves.play(svc, PLAYERS[seat].id, "build farm", channel=CHANNEL)
    assert await _db_state(svc) == before


async def test_move_out_of_turn_says_whose_turn_it_is(svc: Context) -> None:
    await start_game(svc, 3)
    game = await current(svc)
    waiting = game.pending_seats()[0]
    other = next(s for s in range(3) if s != waiting)
    with pytest.raises(MoveRefused, match="It is not your turn") as refused:
        await svc_moves.play(svc, PLAYERS[other].id, "gold", channel=CHANNEL)
    assert game.view(None).players[waiting].name in str(refused.value)


async def test_a_user_without_a_seat_cannot_play_or_press_buttons(svc: Context) -> None:
    start = await start_game(svc, 2)
    before = await _db_state(svc)
    with pytest.raises(NotSeated, match="not playing in this game"):
        await svc_moves.play(svc, OUTSIDER.id, "gold", channel=CHANNEL)
    assert start.announcement is not None
    ref = parse_custom_id(start.announcement.buttons[1].custom_id)
    assert ref is not None and ref.move is not None
    with pytest.raises(NotSeated):
        await svc_moves.play(
            svc, OUTSIDER.id, ref.move, game_id=ref.game, based_on=ref.version, seat=ref.seat
        )
    assert await svc_choices.choices(svc, CHANNEL, OUTSIDER.id, "") == []
    assert await _db_state(svc) == before


async def test_a_button_answers_only_the_player_it_was_made_for(svc: Context) -> None:
    start = await start_game(svc, 2)
    assert start.announcement is not None
    ref = parse_custom_id(start.announcement.buttons[1].custom_id)
    assert ref is not None and ref.seat is not None and ref.move is not None
    other = PLAYERS[1 - ref.seat]
    with pytest.raises(NotAllowed, match=f"This button is for {PLAYERS[ref.seat].name}"):
        await svc_moves.play(svc, other.id, ref.move, game_id=ref.game, based_on=ref.version, seat=ref.seat)


async def test_double_click_applies_one_move_and_tells_the_other_it_was_already_made(
    svc: Context,
) -> None:
    start = await start_game(svc, 2)
    assert start.announcement is not None
    ref = parse_custom_id(start.announcement.buttons[1].custom_id)
    assert ref is not None and ref.seat is not None and ref.move == "gold"
    user = PLAYERS[ref.seat].id

    def click() -> asyncio.Future[object]:
        assert ref is not None
        return asyncio.ensure_future(
            svc_moves.play(svc, user, "gold", game_id=ref.game, based_on=ref.version, seat=ref.seat)
        )

    results = await asyncio.gather(click(), click(), return_exceptions=True)
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], AlreadyMade)
    assert str(errors[0]).startswith("That move was already made: your `")
    version, _, moves = await _db_state(svc)
    assert (version, moves) == (1, 1)
    with pytest.raises(AlreadyMade):  # and a late third click
        await svc_moves.play(svc, user, "gold", game_id=ref.game, based_on=ref.version, seat=ref.seat)


async def test_storage_refuses_a_move_based_on_an_old_version(svc: Context) -> None:
    await start_game(svc, 2)
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None and row.record is not None and row.snapshot is not None
    kw = dict(
        moves=[], record=row.record, snapshot=row.snapshot, status="active", highlight=[], secrets=[], now=0
    )
    assert await svc.storage.moves.commit_moves(row.id, based_on=0, **kw) == []  # type: ignore[arg-type]
    assert await svc.storage.moves.commit_moves(row.id, based_on=5, **kw) is None  # type: ignore[arg-type]


async def _to_simultaneous_decisions(svc: Context) -> Game:
    """Play seeded random moves until two players must decide at once."""
    rnd = random.Random(11)
    while True:
        game = await current(svc)
        assert not game.is_over, "no simultaneous decision happened in this game"
        if len(game.pending_seats()) > 1:
            return game
        seat = game.pending_seats()[0]
        await svc_moves.play(
            svc, PLAYERS[seat].id, str(rnd.choice(game.legal_moves(seat))), channel=CHANNEL, confirmed=True
        )


async def test_simultaneous_decisions_of_two_players_are_both_applied(svc: Context) -> None:
    await start_game(svc, 5, "experienced")
    game = await _to_simultaneous_decisions(svc)
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    a, b = game.pending_seats()[:2]
    moves = {s: str(game.default_move(s)) for s in (a, b)}
    plays = [
        svc_moves.play(svc, PLAYERS[s].id, moves[s], game_id=row.id, based_on=row.version, seat=s)
        for s in (a, b)
    ]
    await asyncio.gather(*plays)
    after = await svc.storage.moves.moves(row.id)
    assert {(m.seat, m.text) for m in after[-2:]} == {(a, moves[a]), (b, moves[b])}


async def test_a_move_sent_while_the_move_before_it_is_stored_is_accepted_after_it(
    svc: Context,
) -> None:
    """The second move is read before the first is stored (it waits for the game's lock): it is
    checked again on the position the first move made, not refused as out of turn."""
    await start_game(svc, 2)
    game = await current(svc)
    first = game.pending_seats()[0]
    move = game.default_move(first)
    assert move is not None
    game.play(first, move)
    second = game.pending_seats()[0]
    assert second != first, "the other player's turn follows"
    answer = game.default_move(second)
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    lock = svc.game_lock(row.id)
    asked: list[int] = []

    def asking(game_id: int) -> asyncio.Lock:
        asked.append(game_id)
        return lock

    svc.game_lock = asking  # type: ignore[method-assign]
    tasks = []
    # both moves read the game and queue for its lock, in this order, before either is stored
    async with lock:
        for seat, text in ((first, str(move)), (second, str(answer))):
            play = svc_moves.play(svc, PLAYERS[seat].id, text, channel=CHANNEL, confirmed=True)
            tasks.append(asyncio.create_task(play))
            while len(asked) < len(tasks):
                await asyncio.sleep(0.001)
        assert (await svc.storage.games.open_game(CHANNEL)).version == row.version  # type: ignore[union-attr]
    await asyncio.gather(*tasks)
    assert [(m.seat, m.text) for m in await svc.storage.moves.moves(row.id)][-2:] == [
        (first, str(move)), (second, str(answer))
    ]  # fmt: skip


async def _game_with_poll(svc: Context) -> tuple[int, int]:
    """A 3-player game whose first player may poll; (game id, seat of that player)."""
    for seed in range(1, 200):
        g = Game.new([p.name for p in PLAYERS[:3]], seed=seed)
        if "poll" in g.view(None).politics_row:

            def seeds(s: int = seed) -> int:
                return s

            svc.seeds = seeds
            await start_game(svc, 3)
            return (await svc.storage.games.open_game(CHANNEL)).id, g.pending_seats()[0]  # type: ignore[union-attr]
    raise AssertionError("no seed with Polling the People in the first row")


async def test_failed_dm_gives_a_private_fallback_and_the_peek_stays_readable_all_year(
    svc: Context,
) -> None:
    game_id, seat = await _game_with_poll(svc)
    poller = PLAYERS[seat]
    outcome = await svc_moves.play(svc, poller.id, "poll 1 3", channel=CHANNEL)
    view = (await current(svc)).view(seat)
    cards = f"card 1 is {view.peek[1]}, card 3 is {view.peek[3]}"
    assert [dm.user_id for dm in outcome.dms] == [poller.id] and cards in outcome.dms[0].text
    assert cards in outcome.reply.text and outcome.reply.ephemeral

    delivered = outcome.announcement_for(set())
    failed = outcome.announcement_for({poller.id})
    assert delivered is not None and failed is not None
    assert "could not send you a direct message" not in delivered.text
    assert "could not send you a direct message" in failed.text and f"<@{poller.id}>" in failed.text
    assert poller.id in failed.mentions
    assert cards not in failed.text and "card 1 is" not in failed.text
    peek = [b for b in failed.buttons if b.label == "Show my peek"]
    assert len(peek) == 1
    ref = parse_custom_id(peek[0].custom_id)
    assert ref is not None and ref.action == "peek" and ref.game == game_id

    year = view.year
    rnd = random.Random(2)
    while (game := await current(svc)).view(None).year == year and game.view(None).phase == "politics":
        s = game.pending_seats()[0]
        secret = await svc_questions.secrets(
            svc, poller.id, game_id=game_id
        )  # the button's answer, from the database
        assert cards in secret.text and secret.ephemeral
        await svc_moves.play(
            svc, PLAYERS[s].id, str(rnd.choice(game.legal_moves(s))), channel=CHANNEL, confirmed=True
        )
    others = await svc_questions.secrets(svc, PLAYERS[(seat + 1) % 3].id, channel=CHANNEL)
    assert "card" not in others.text
    with pytest.raises(NotSeated):
        await svc_questions.secrets(svc, OUTSIDER.id, channel=CHANNEL)


def _path_to_overfull_golden(names: list[str]) -> tuple[int, list[tuple[int, str]], str]:
    """(seed, moves, golden move): a game where Golden Times would bring more than fits."""
    from engine.cities import city_at, room

    moves: list[tuple[int, str]]
    for seed in range(1, 60):
        game, rnd, moves = Game.new(names, seed=seed), random.Random(seed), []
        while not game.is_over:
            seat = game.pending_seats()[0]
            legal = game.legal_moves(seat)
            for a in legal:
                city = city_at(game.state, a.hex or "") if a.verb == "golden" else None
                if city is not None and a.n is not None and room(city) < a.n:
                    return seed, moves, str(a)
            move = str(rnd.choice(legal))
            game.play(seat, move)
            moves.append((seat, move))
    raise AssertionError("no position with an overfull Golden Times found")


async def test_golden_times_that_does_not_fit_asks_for_confirmation_first(svc: Context) -> None:
    seed, moves, golden = _path_to_overfull_golden([p.name for p in PLAYERS[:2]])
    svc.seeds = lambda: seed
    await start_game(svc, 2)
    for seat, move in moves:
        await svc_moves.play(svc, PLAYERS[seat].id, move, channel=CHANNEL, confirmed=True)
    seat = (await current(svc)).pending_seats()[0]
    before = await _db_state(svc)
    warned = await svc_moves.play(svc, PLAYERS[seat].id, golden, channel=CHANNEL)
    assert warned.announcement is None and "⚠️" in warned.reply.text and warned.reply.ephemeral
    assert await _db_state(svc) == before
    ref = parse_custom_id(warned.reply.buttons[0].custom_id)
    assert ref is not None and ref.move == golden
    done = await svc_moves.play(
        svc, PLAYERS[seat].id, ref.move, game_id=ref.game, based_on=ref.version, seat=ref.seat, confirmed=True
    )
    assert done.announcement is not None and "did not fit" in done.announcement.text


async def test_a_resigned_player_is_played_by_the_bot_until_the_end(svc: Context) -> None:
    await start_game(svc, 2)
    game = await current(svc)
    quitter = game.pending_seats()[0]
    outcome = await svc_leaving.resign(svc, PLAYERS[quitter].id, channel=CHANNEL)
    assert outcome.announcement is not None and "resigns" in outcome.announcement.text
    with pytest.raises(NotAllowed, match="already resigned"):
        await svc_leaving.resign(svc, PLAYERS[quitter].id, channel=CHANNEL)
    rnd = random.Random(8)
    while not (game := await current(svc)).is_over:
        assert game.pending_seats() == [1 - quitter], "the bot answers for the resigned seat"
        seat = 1 - quitter
        move = str(rnd.choice(game.legal_moves(seat)))
        await answered(
            svc, await svc_moves.play(svc, PLAYERS[seat].id, move, channel=CHANNEL, confirmed=True)
        )
    moves = await svc.storage.moves.moves((await svc.storage.games.latest_game(CHANNEL)).id)  # type: ignore[union-attr]
    assert any(m.auto and m.seat == quitter for m in moves)
    assert not any(not m.auto and m.seat == quitter for m in moves[1:])
