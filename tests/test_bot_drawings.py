"""A turn post stores what its pictures are drawn from, not the pictures: the service keeps
them in memory for the delivery task, which draws them again (the same pictures) when they
are not there — after a restart, or in another process; kept pictures are let go once sent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_bot_support import (
    CHANNEL,
    PLAYERS,
    PNG,
    FakeRenderer,
    RecordingClient,
    current,
    open_service,
    query,
    start_game,
)

from bot.client.sender import DiscordSender
from bot.results import Drawing, Picture
from bot.service import moves as svc_moves
from bot.service.delivery import Deliverer
from bot.service.drawings import Drawings
from bot.storage import envelope


def _files(kwargs: dict[str, Any]) -> list[tuple[str, bytes]]:
    out = []
    for f in kwargs.get("files") or []:
        f.fp.seek(0)
        out.append((f.filename, f.fp.read()))
    return out


async def test_a_turn_post_stores_its_drawing_and_no_picture(database: Path | str) -> None:
    svc = await open_service(database)
    await start_game(svc, 2)
    seat = (await current(svc)).pending_seats()[0]
    played = await svc_moves.play(svc, PLAYERS[seat].id, "gold", channel=CHANNEL)
    [oid] = played.outbox
    row = await svc.storage.outbox.get(oid)
    assert row is not None and row.image is None, "the pictures are not in the database"
    assert await query(svc.storage, "SELECT outbox FROM outbox_files") == []
    message = envelope.load(row.channel, row.payload, row.image).message_for()
    assert message is not None and message.pictures == () and message.drawing is not None
    assert message.drawing == played.announcement.drawing  # type: ignore[union-attr]
    assert '"viewer":null' in message.drawing.view, "the spectator's view: nothing hidden is stored"
    assert len(svc.drawings) == 2, "the start post's and the move's pictures, kept for the delivery"
    await svc.close()


async def test_the_delivery_sends_the_kept_pictures_and_lets_them_go(database: Path | str) -> None:
    renderer = FakeRenderer()
    svc = await open_service(database, renderer)
    await start_game(svc, 2)
    seat = (await current(svc)).pending_seats()[0]
    await svc_moves.play(svc, PLAYERS[seat].id, "gold", channel=CHANNEL)
    drawn = len(renderer.calls)
    client = RecordingClient()
    await Deliverer(DiscordSender(client), svc.storage, drawings=svc.drawings).settle()  # type: ignore[arg-type]
    assert [_files(k) for k in client.sent] == [[("board.png", PNG)]] * 2
    assert len(renderer.calls) == drawn and svc.drawings.drawn_again == 0, "nothing drawn twice"
    assert len(svc.drawings) == 0, "sent: let go"
    for r in await query(svc.storage, "SELECT id, state FROM outbox"):
        row = await svc.storage.outbox.get(r["id"])
        assert row is not None and row.state == "sent"
        sent = envelope.load(row.channel, row.payload, None).message_for()
        assert sent is not None and sent.drawing is None, "its drawing is not kept once sent"
        assert sent.text, "the rest of the post is kept"
    await svc.close()


@pytest.mark.parametrize("how", ["another move got in first", "the storage failed"])
async def test_the_pictures_of_a_move_that_was_not_stored_are_let_go(database: Path | str, how: str) -> None:
    svc = await open_service(database)
    await start_game(svc, 2)
    seat = (await current(svc)).pending_seats()[0]
    kept, real, tries = len(svc.drawings), svc.storage.moves.commit_moves, []

    async def first_try_not_stored(game_id: int, **kw: Any) -> list[int] | None:
        tries.append(game_id)
        if len(tries) > 1:
            return await real(game_id, **kw)
        if how == "the storage failed":
            raise ConnectionError("the database went away")
        return None  # as when the game is no longer at that version: the move is tried again

    svc.storage.moves.commit_moves = first_try_not_stored  # type: ignore[method-assign]
    if how == "the storage failed":
        with pytest.raises(ConnectionError):
            await svc_moves.play(svc, PLAYERS[seat].id, "gold", channel=CHANNEL)
        assert len(svc.drawings) == kept, "nothing of the move that failed is kept"
        await svc_moves.play(svc, PLAYERS[seat].id, "gold", channel=CHANNEL)
    else:
        await svc_moves.play(svc, PLAYERS[seat].id, "gold", channel=CHANNEL)
    assert len(tries) == 2
    assert len(svc.drawings) == kept + 1, "only the stored post's pictures are kept"
    await svc.close()


async def test_after_a_restart_the_pictures_are_drawn_again_from_the_stored_drawing(
    database: Path | str,
) -> None:
    first = await open_service(database)
    await start_game(first, 2)
    seat = (await current(first)).pending_seats()[0]
    played = await svc_moves.play(first, PLAYERS[seat].id, "gold", channel=CHANNEL)
    await first.close()  # the process ends before the posts are sent

    renderer = FakeRenderer()
    second = await open_service(database, renderer)
    client = RecordingClient()
    await Deliverer(DiscordSender(client), second.storage, drawings=second.drawings).settle()  # type: ignore[arg-type]
    assert [_files(k) for k in client.sent] == [[("board.png", PNG)]] * 2
    assert second.drawings.drawn_again == 2
    view, lit = renderer.calls[-1]
    assert played.announcement is not None and played.announcement.drawing is not None
    assert view.model_dump_json() == played.announcement.drawing.view
    assert lit == list(played.announcement.drawing.highlight)
    assert len(second.drawings) == 0, "sent: let go"
    await second.close()


async def test_without_a_way_to_draw_a_stored_post_goes_out_without_pictures(database: Path | str) -> None:
    first = await open_service(database)
    await start_game(first, 2)
    await first.close()
    second = await open_service(database)
    client = RecordingClient()
    await Deliverer(DiscordSender(client), second.storage).settle()  # type: ignore[arg-type]
    assert len(client.sent) == 1 and _files(client.sent[0]) == []
    await second.close()


def _pictures(size: int) -> tuple[Picture, ...]:
    return (Picture("board.png", b"x" * size, "the board"),)


def _drawing(key: str) -> Drawing:
    return Drawing(key, "{}", (), "", None, "en")


async def test_kept_pictures_past_the_limit_go_oldest_first_and_are_drawn_again() -> None:
    asked: list[str] = []

    async def draw(d: Drawing) -> tuple[Picture, ...]:
        asked.append(d.key)
        return _pictures(10)

    drawings = Drawings(draw, keep_bytes=25)
    for key in "abc":
        drawings.keep(_drawing(key), _pictures(10))
    assert len(drawings) == 2, "30 bytes > 25: the oldest went"
    assert await drawings.pictures(_drawing("b")) == _pictures(10) and asked == []
    assert await drawings.pictures(_drawing("a")) == _pictures(10) and asked == ["a"]
    drawings.drop(_drawing("a"))
    drawings.drop(_drawing("nothing kept"))
    assert len(drawings) == 1 and drawings.drawn_again == 1
