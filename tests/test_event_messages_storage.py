"""A move's events and a seat's private events are stored with their English messages and values,
so that the move log and a seat's secrets can be read in any language later; rows stored before
keep their English text, on each backend."""

from __future__ import annotations

from test_bot_storage_contract import commit_kw, running_game
from test_bot_support import CHANNEL, PLAYERS, current, start_game
from test_engine_words import QPS, German, fully_marked, unmarked

from bot.service import moves as svc_moves
from bot.service.context import Context
from bot.storage import StorageProtocol
from bot.storage.rows import MoveRow, Secret
from engine import Action
from engine.words import ENGLISH, PHRASE


async def test_a_move_and_a_secret_come_back_with_their_messages_and_read_in_another_language(
    store: StorageProtocol,
) -> None:
    game = await running_game(store)
    gold = ("{name} takes 2 gold (now {gold}).", {"name": "Ann", "gold": 3})
    feed = (
        "{name} cannot feed {citizens} ({parts}) and loses 5 victory points.",
        {"name": "Ann", "citizens": PHRASE.n("{count} citizen", "{count} citizens", 2),
         "parts": [PHRASE.t("{count} from {city}", count=2, city="Pisa")]},
    )  # fmt: skip
    texts = [
        "Ann takes 2 gold (now 3).",
        "Ann cannot feed 2 citizens (2 from Pisa) and loses 5 victory points.",
    ]
    move = MoveRow(1, 0, "gold", " ".join(texts), events=[("gold", texts[0]), ("starve", texts[1])],
                   messages=[gold, feed])  # fmt: skip
    drew = Secret(0, 1, 1, "draw", "You drew Golden Times (no effect).", "You drew {card} (no effect).",
                  {"card": "Golden Times"})  # fmt: skip
    assert (
        await store.moves.commit_moves(game, based_on=0, moves=[move], **commit_kw(secrets=[drew]))
        is not None
    )
    [stored] = await store.moves.moves(game)
    assert stored.messages == [gold, feed] and stored.events == move.events
    assert stored.summary_in(ENGLISH) == stored.summary == " ".join(texts)
    assert stored.summary_in(German()) == (
        "Ann nimmt 2 Gold (jetzt 3). "
        "Ann kann 2 Bürger nicht versorgen (2 aus Pisa) und verliert 5 Siegpunkte."
    )
    assert stored.summary_in(QPS, limit=40).endswith("…") and len(stored.summary_in(QPS, limit=40)) == 40
    [secret] = await store.moves.secrets(game, 0, 1)
    assert secret == drew and secret.told(ENGLISH) == drew.text
    told = secret.told(QPS)
    assert fully_marked(told) and unmarked(told) == drew.text


async def test_a_move_and_a_secret_stored_without_messages_are_read_in_their_english(
    store: StorageProtocol,
) -> None:
    game = await running_game(store)
    old = MoveRow(1, 0, "gold", "Ann takes 2 gold (now 3).", events=[("gold", "Ann takes 2 gold (now 3).")])
    secret = Secret(0, 1, 1, "peek", "You polled the people: card 1 is health.")
    assert (
        await store.moves.commit_moves(game, based_on=0, moves=[old], **commit_kw(secrets=[secret]))
        is not None
    )
    [stored] = await store.moves.moves(game)
    assert stored.messages is None and stored.summary_in(QPS) == "Ann takes 2 gold (now 3)."
    [kept] = await store.moves.secrets(game, 0, 1)
    assert kept.message == "" and kept.told(QPS) == "You polled the people: card 1 is health."


async def test_a_played_move_is_stored_with_its_events_messages_and_a_drawn_card_with_its_own(
    svc: Context,
) -> None:
    await start_game(svc, 2)
    for _ in range(12):  # take gold until a seat has no action card left and passes (drawing a card)
        game = await current(svc)
        seat = game.pending_seats()[0]
        move = "pass" if Action.parse("pass") in game.legal_moves(seat) else "gold"
        outcome = await svc_moves.play(svc, PLAYERS[seat].id, move, channel=CHANNEL)
        assert outcome.announcement is not None, outcome.reply.text
        if move == "pass":
            break
    assert move == "pass"
    row = await svc.storage.games.latest_game(CHANNEL)
    assert row is not None
    moves = await svc.storage.moves.moves(row.id)
    for m in moves:
        assert m.messages is not None and len(m.messages) == len(m.events or [])
        assert m.summary_in(ENGLISH) == m.summary
        assert fully_marked(m.summary_in(QPS)) and unmarked(m.summary_in(QPS)) == m.summary
    [drew] = [s for s in await svc.storage.moves.secrets(row.id, seat, 1) if s.kind == "draw"]
    assert drew.message == "You drew {card} (no effect)." and drew.told(ENGLISH) == drew.text
    assert fully_marked(drew.told(QPS)) and unmarked(drew.told(QPS)) == drew.text
