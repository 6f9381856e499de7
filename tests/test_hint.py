"""`/citta hint` and ``hint`` in local play: the strong player's move and why, from the asking
player's view only (issue 16, point 5)."""

from __future__ import annotations

import io
import pickle
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fakediscord import FakeDiscord
from fakediscord.fixtures import fake_discord
from leftover_english import leftover_english
from scenario import Scenario
from test_bot_support import OUTSIDER, PLAYERS, current, start_game
from test_e2e_support import announcement, citta_bot
from twins import positions, twin

import i18n
from bot.errors import NotSeated
from bot.ids import parse_custom_id
from bot.local import LocalGame, Quit
from bot.local_cli import HELP
from bot.service import hint as svc_hint
from bot.service import moves as svc_moves
from bot.service.context import Context
from bot.service.hint import hint_of
from bot.service.workers import ThreadWorkers
from engine import Action, Game
from engine.ai import choose
from engine.ai.hint import hint
from engine.ai.voice_words import voice_reason
from engine.components import CITY_NAMES

__all__ = ["fake_discord"]
T = TypeVar("T")
POSITIONS = positions(per_kind=2, turns=4)


# --- the hint in the engine ----------------------------------------------------------------


def test_the_hint_is_the_strong_players_move_with_what_it_does_and_why() -> None:
    for game, seat, kind in POSITIONS:
        found = hint(game, seat, seed=4)
        assert found.move == choose(game, seat, "strong", seed=4), kind
        first, why, *more = found.text().splitlines()
        assert first == f"💡 {found.what}" and found.what.startswith(str(found.move))
        assert not more and why.endswith(".") and len(why) > 20, (kind, why)
        assert "rates it best" not in why, f"a {kind} has a reason of its own: {why}"


def test_a_hint_is_the_same_whatever_the_player_cannot_see() -> None:
    for game, seat, kind in POSITIONS:
        found = hint(game, seat, seed=2)
        for k in range(2):
            assert hint(twin(game, seat, random.Random(k)), seat, seed=2) == found, kind


def test_a_hint_names_only_the_voice_cards_the_player_has_seen() -> None:
    """Another seat polled all three face-down cards (all education); the player polled
    nothing: the hint knows only the face-up card."""
    sc = Scenario()
    sc.city(0, "K6", 3, [("statue", "L7")])
    sc.city(1, "N9", 3)
    sc.voice("health", "education", "education", "education")
    sc.state.players[1].peek = [None, "education", "education", "education"]
    game = sc.turn(0).game()
    view = game.view(0)
    assert voice_reason(view, "education") == "health is face up: education is 27% likely by what you know"
    assert voice_reason(view, "health").startswith("health is face up (")
    text = hint(game, 0).text()
    assert "polled" not in text
    other = twin(game, 0, random.Random(3))
    assert hint(other, 0) == hint(game, 0)
    # Once the player polls, the hint speaks of what they saw.
    game.state.players[0].peek = [None, "education", "education", None]
    assert voice_reason(game.view(0), "education").startswith("you polled education twice")


def test_a_player_with_nothing_to_decide_gets_no_hint() -> None:
    game = Game.new(["Ann", "Bob"], seed=7)
    waiting = next(s for s in (0, 1) if s not in game.pending_seats())
    with pytest.raises(ValueError, match="nothing to decide"):
        hint(game, waiting)


# --- /citta hint ----------------------------------------------------------------------------


class Recording(ThreadWorkers):
    """Workers that note which functions were sent to them."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        self.sent.append(getattr(fn, "__name__", repr(fn)))
        return await super().call(fn, *args, **kwargs)


async def test_the_hint_comes_privately_from_a_worker_with_a_button_that_plays_it(svc: Context) -> None:
    await start_game(svc, 2)
    workers = Recording()
    svc.workers = workers
    game = await current(svc)
    seat = game.pending_seats()[0]
    msg = await svc_hint.hint(svc, PLAYERS[seat].id, channel=1000)
    assert msg.ephemeral and msg.text.startswith("💡 ")
    assert workers.sent == ["hint_of"], "the strong player thinks in a worker"
    row = await svc.storage.games.open_game(1000)
    assert row is not None
    expected = hint(game, seat, seed=row.version)
    assert msg.text.startswith(expected.text())
    assert f"`/citta play {expected.move}`" in msg.text
    ref = parse_custom_id(msg.buttons[0].custom_id)
    assert ref is not None and ref.seat == seat and Action.parse(ref.move or "") == expected.move
    again = await svc_hint.hint(svc, PLAYERS[seat].id, channel=1000)
    assert again == msg, "the same position gives the same hint"
    outcome = await svc_moves.play(
        svc,
        PLAYERS[seat].id,
        ref.move or "",
        game_id=ref.game,
        based_on=ref.version,
        seat=ref.seat,
        confirmed=True,
    )
    assert outcome.announcement is not None
    assert (await current(svc)).record().moves[-1] == (seat, str(expected.move))


async def test_a_player_who_waits_or_does_not_play_is_told_so(svc: Context) -> None:
    await start_game(svc, 2)
    game = await current(svc)
    waiting = next(s for s in (0, 1) if s not in game.pending_seats())
    msg = await svc_hint.hint(svc, PLAYERS[waiting].id, channel=1000)
    assert msg.ephemeral and msg.text.startswith("Nothing is asked of you now")
    assert f"<@{PLAYERS[1 - waiting].id}>" in msg.text and not msg.buttons
    with pytest.raises(NotSeated):
        await svc_hint.hint(svc, OUTSIDER.id, channel=1000)


def test_what_the_worker_gets_and_gives_back_pickles() -> None:
    game, seat, _ = POSITIONS[0]
    found = hint_of(game.snapshot(), game.record().model_dump(mode="json"), seat, 5)
    assert pickle.loads(pickle.dumps(found)) == found
    assert pickle.loads(pickle.dumps(hint_of)) is hint_of


# --- local play ---------------------------------------------------------------------------


@pytest.fixture
def no_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("render.render_board", lambda view, **kw: b"\x89PNG fake")


def test_hint_in_local_play(tmp_path: Path, no_pictures: None) -> None:
    game = Game.new(["Player", "Ada"], seed=3)
    out = io.StringIO()
    local = LocalGame(game, 1, "basic", tmp_path, 600, out)
    with pytest.raises(Quit):
        local.run(io.StringIO("hint\nquit\n"))
    expected = hint(Game.new(["Player", "Ada"], seed=3), 1, seed=0)
    text = out.getvalue()
    assert f"  💡 {expected.what}\n  {expected.why[0].upper()}" in text
    assert "  hint " in HELP


def test_local_computer_players_do_not_use_the_secret_seed(tmp_path: Path, no_pictures: None) -> None:
    game, seat, _ = next(p for p in POSITIONS if p[2] == "turn" and p[1] != 0)
    moves = []
    mine = Game.restore(game.snapshot(), game.record())  # (the local game plays on it: not POSITIONS')
    for k, g in enumerate((mine, twin(game, seat, random.Random(8)))):
        local = LocalGame(g, None, "basic", tmp_path / str(k), 600, io.StringIO())
        local.computer_turn(seat, io.StringIO())
        moves.append(local.game.record().moves[-1])
    assert moves[0] == moves[1]
    assert re.match(r"\w+", moves[0][1])


# --- through Discord ----------------------------------------------------------------------


async def test_citta_hint_through_discord_answers_privately_and_its_button_plays(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    async with citta_bot(fake, tmp_path / "citta.db", seed=5) as bot:
        lobby = await (await fake.slash(alice, "citta new")).wait_message()
        join, start = (next(c for c in lobby.custom_ids if c.endswith(end)) for end in (":join", ":start"))
        await fake.click(lobby, join, bob)
        await fake.wait_for(lambda: bob.mention in lobby.text)
        await announcement(fake, await fake.click(lobby, start, alice))
        row = await bot.service.storage.games.open_game(fake.channel.id)
        assert row is not None and row.snapshot is not None and row.record is not None
        game = Game.restore(row.snapshot, row.record)
        seats = {s.user_id: s.seat for s in await bot.service.storage.games.seats(row.id)}
        asker = next(u for u in (alice, bob) if seats[u.id] in game.pending_seats())
        rec = await fake.slash(asker, "citta hint")
        msg = await rec.wait_message()
        assert msg.ephemeral and msg.recipient is asker and msg.text.startswith("💡 ")
        expected = hint(game, seats[asker.id], seed=row.version)
        assert msg.text.startswith(expected.text())
        [play] = [c for c in msg.custom_ids if parse_custom_id(c) is not None]
        await announcement(fake, await fake.click(msg, play, asker), str(expected.move))
    fake.check()


# --- in the reader's language ------------------------------------------------------------------


async def test_a_german_reader_gets_the_hint_its_reason_and_its_button_in_german(svc: Context) -> None:
    await start_game(svc, 2)
    game = await current(svc)
    seat = game.pending_seats()[0]
    with i18n.speaking("de"):
        msg = await svc_hint.hint(svc, PLAYERS[seat].id, channel=1000)
    row = await svc.storage.games.open_game(1000)
    assert row is not None
    expected = hint(game, seat, seed=row.version, words=i18n.lang("de"))
    assert expected.text() != hint(game, seat, seed=row.version).text()
    assert msg.text.startswith(expected.text())
    assert (
        f"Nur Sie sehen diesen Tipp. Spielen Sie ihn mit der Schaltfläche oder `/citta play {expected.move}`."
        in msg.text
    )
    assert msg.buttons[0].label == f"{expected.move} spielen"
    names = [*(p.name for p in game.state.players), *CITY_NAMES]
    assert leftover_english(msg.text.replace(str(expected.move), " "), "de", names) == []


async def test_a_german_reader_with_nothing_to_decide_is_told_so_in_german(svc: Context) -> None:
    await start_game(svc, 2)
    game = await current(svc)
    waiting = next(s for s in (0, 1) if s not in game.pending_seats())
    with i18n.speaking("de"):
        msg = await svc_hint.hint(svc, PLAYERS[waiting].id, channel=1000)
    assert msg.text.startswith("Im Moment ist nichts von Ihnen gefragt, also gibt es keinen Tipp.")
    assert leftover_english(msg.text, "de", [p.name for p in game.state.players]) == []


def test_the_worker_thinks_in_the_language_it_is_given() -> None:
    game = Game.new(["Ann", "Bob", "Cid"], seed=11)
    seat = game.pending_seats()[0]
    snapshot, record = game.snapshot(), game.record().model_dump(mode="json")
    found = hint_of(snapshot, record, seat, 5, "fr")
    assert found == hint(Game.restore(snapshot, record), seat, seed=5, words=i18n.lang("fr"))
    assert found != hint_of(snapshot, record, seat, 5)


def test_hint_in_local_play_in_german(tmp_path: Path, no_pictures: None) -> None:
    out = io.StringIO()
    local = LocalGame(Game.new(["Spieler", "Ada"], seed=3), 1, "basic", tmp_path, 600, out)
    with i18n.speaking("de"), pytest.raises(Quit):
        local.run(io.StringIO("hint\nquit\n"))
    expected = hint(Game.new(["Spieler", "Ada"], seed=3), 1, seed=0, words=i18n.lang("de"))
    first, why = expected.text().splitlines()
    assert f"  {first}\n  {why}\n" in out.getvalue()
    assert leftover_english(why, "de", [*CITY_NAMES, "Ada", "Spieler"]) == []
