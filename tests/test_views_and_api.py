"""The public API contract: views hide secrets, illegal moves change nothing, replays match."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest
from scenario import Scenario

from engine import Action, Game, IllegalMove, MalformedMove
from engine.board import BOARD
from engine.components import Service
from engine.state import Decision

VIEW_KEYS = {
    "year", "phase", "round", "start_player", "pending", "areas", "players", "politics_row",
    "voice", "supply", "scores",
}  # fmt: skip
PLAYER_KEYS = {"seat", "name", "gold", "food", "citizens", "action_cards", "notables", "hunger", "cities"}
CITY_KEYS = {"castle", "population", "buildings", "culture", "education", "health"}


def midgame(seed: int = 3, moves: int = 40, n: int = 3) -> Game:
    rng = random.Random(seed)
    g = Game.new([f"P{i}" for i in range(n)], seed=seed)
    for _ in range(moves):
        seat = g.pending_seats()[0]
        g.play(seat, rng.choice(g.legal_moves(seat)))
    return g


def test_view_has_the_documented_keys() -> None:
    data = midgame().view(None).model_dump(mode="json")
    assert set(data) >= VIEW_KEYS
    assert len(data["areas"]) == 34
    assert {a["terrain"] for a in data["areas"]} <= {"farmland", "lake", "mountain", "wasteland"}
    assert set(data["areas"][0]) >= {"id", "terrain", "wheat"}
    assert len(data["voice"]) == 4
    assert "citizens" in data["supply"]
    for p in data["players"]:
        assert set(p) >= PLAYER_KEYS
        for c in p["cities"]:
            assert set(c) >= CITY_KEYS
            assert all(set(b) >= {"hex", "kind"} for b in c["buildings"])


def test_views_never_contain_the_seed_the_pile_or_face_down_cards() -> None:
    g = midgame()
    for seat in (None, 0, 1, 2):
        text = json.dumps(g.view(seat).model_dump(mode="json"))
        assert "seed" not in text and "rng" not in text and str(g.state.rng) not in text
        assert "politics_pile" in text  # only as a count
        assert isinstance(g.view(seat).politics_pile, int)


def test_two_games_differing_only_in_hidden_cards_look_the_same_to_a_spectator() -> None:
    sc = Scenario()
    sc.city(0, "K9")
    sc.voice("culture", "health", "health", "education")
    a = sc.game()
    sc.voice("culture", "education", "culture", "culture")
    sc.state.politics_pile.reverse()
    b = sc.game()
    assert a.view(None) == b.view(None)
    assert a.view(1) == b.view(1)


def test_every_illegal_move_leaves_the_game_unchanged() -> None:
    g = midgame(moves=25)
    seat = g.pending_seats()[0]
    before = g.snapshot()
    legal = {str(m) for m in g.legal_moves(seat)}
    tried = 0
    for label in BOARD.labels[::3]:
        for text in (f"build farm {label}", f"found {label}", f"palace {label}", f"golden 1 {label}"):
            if text in legal:
                continue
            try:
                action, _ = g.check(seat, text)
            except IllegalMove as err:
                assert str(err)
                tried += 1
            else:
                assert str(action) in legal, f"{text} is an alias of a listed move"
    assert tried > 50
    assert g.snapshot() == before


def test_a_move_out_of_turn_says_whose_turn_it_is() -> None:
    g = Game.new(["Ann", "Bob"], seed=7)
    waiting = g.pending_seats()[0]
    other = 1 - waiting
    with pytest.raises(IllegalMove, match=f"not your turn. Waiting for {g.state.players[waiting].name}"):
        g.play(other, "gold")


def test_malformed_text_through_play_raises_malformed_move() -> None:
    g = Game.new(["Ann", "Bob"], seed=7)
    with pytest.raises(MalformedMove):
        g.play(g.pending_seats()[0], "build a castle please")


def test_a_decision_of_another_kind_is_refused_with_what_is_asked() -> None:
    g = Game.new(["Ann", "Bob"], seed=7)
    with pytest.raises(IllegalMove, match="not what is asked of you now: play a turn"):
        g.play(g.pending_seats()[0], "starve I9")


@pytest.mark.parametrize("n", [2, 5])
def test_every_listed_move_plays_and_unlisted_well_formed_moves_are_refused(n: int) -> None:
    rng = random.Random(n)
    g = Game.new([f"P{i}" for i in range(n)], seed=n, setup="experienced")
    probes = 0
    while not g.is_over:
        seat = g.pending_seats()[0]
        legal = g.legal_moves(seat)
        if probes < 400 and g.state.phase == "politics":
            listed = {str(m) for m in legal}
            for m in rng.sample(legal, min(4, len(legal))):
                Game.restore(g.snapshot(), g.record()).play(seat, m)
            for text in random_texts(rng, 6):
                if text not in listed:
                    probes += 1
                    copy = Game.restore(g.snapshot(), g.record())
                    try:
                        copy.play(seat, text)
                    except IllegalMove:
                        continue
                    # Only an alias of a listed move plays ('found HEX' names no source).
                    assert copy.record().moves[-1][1] in listed, text
        g.play(seat, rng.choice(legal))
    assert probes >= 100


def random_texts(rng: random.Random, k: int) -> list[str]:
    kinds = ["farm", "quarry", "school", "statue", "market", "fountain", "palace", "cathedral"]
    out = []
    for _ in range(k):
        h = rng.choice(BOARD.labels)
        out.append(rng.choice([
            f"build {rng.choice(kinds[:6])} {h}", f"found {h}", f"master {rng.choice(kinds)} {h}",
            f"palace {h}", f"bath {h}", f"bread {rng.randint(1, 3)} {h}",
            f"harvest {h}", "poll all", "pass", "gold",
        ]))  # fmt: skip
    return out


def test_default_move_is_always_legal() -> None:
    rng = random.Random(5)
    for seed in range(6):
        g = Game.new([f"P{i}" for i in range(2 + seed % 4)], seed=seed, setup="experienced")
        while not g.is_over:
            seat = g.pending_seats()[0]
            move = g.default_move(seat)
            assert move in g.legal_moves(seat)
            g.play(seat, move if rng.random() < 0.5 else rng.choice(g.legal_moves(seat)))


def test_snapshot_and_restore_continue_the_same_game() -> None:
    g = midgame(moves=30)
    h = Game.restore(json.loads(json.dumps(g.snapshot())), g.record().model_dump(mode="json"))
    seat = g.pending_seats()[0]
    move = g.legal_moves(seat)[-1]
    assert g.play(seat, move) == h.play(seat, move)
    assert g.state == h.state


def test_legal_moves_are_sorted() -> None:
    g = midgame(moves=12)
    moves = g.legal_moves(g.pending_seats()[0])
    assert moves == sorted(moves, key=Action.sort_key)


IMPURE = {
    "render", "bot", "i18n", "asyncio", "random", "time", "datetime", "os", "sys", "pathlib", "io",
    "socket", "subprocess", "threading", "secrets", "uuid", "logging", "sqlite3", "aiosqlite", "discord",
}  # fmt: skip
"""What the engine may not import: the bot, the pictures and the catalogs, I/O, the clock and the
global random generator (`random` itself is allowed only for generators it seeds: see below)."""
ENGINE_MODULES = sorted(Path("engine").glob("**/*.py"))
UNSEEDED = "random.Random() (seeded by the system)"


def impure_imports(source: str) -> list[str]:
    """The modules of `IMPURE` that ``source`` imports, but `random` when all it takes from it
    is explicitly seeded generators (`unseeded_random`)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        found += [name for name in names if name.split(".")[0] in IMPURE]
    return [name for name in found if name != "random" or unseeded_random(source)]


def unseeded_random(source: str) -> list[str]:
    """What ``source`` takes from `random` beyond ``random.Random(seed)``: its global generator
    (``random.choice``, ``from random import shuffle``), or a generator seeded by the system
    (``random.Random()``)."""
    tree = ast.parse(source)
    module = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
              if a.name == "random"}  # fmt: skip
    taken = {a.asname or a.name: a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
             and n.module == "random" for a in n.names}  # fmt: skip

    def from_random(node: ast.AST) -> str | None:
        """The name ``node`` takes from `random` (``random.X``, or X imported from it), if any."""
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in module:
            return node.attr
        return taken.get(node.id) if isinstance(node, ast.Name) else None

    found = [f"from random import {name}" for name in taken.values() if name != "Random"]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and from_random(node) not in (None, "Random"):
            found.append(f"random.{node.attr}")
        elif isinstance(node, ast.Call) and from_random(node.func) == "Random" and not node.args:
            found += [] if node.keywords else [UNSEEDED]
    return found


def test_the_engine_imports_nothing_impure() -> None:
    assert Path("engine/ai/__init__.py") in ENGINE_MODULES, "the computer players are part of the engine"
    for path in ENGINE_MODULES:
        assert not impure_imports(path.read_text()), f"{path} imports {impure_imports(path.read_text())}"
        assert "print(" not in path.read_text(), f"{path} prints"


def test_the_engine_draws_chance_only_from_generators_it_seeds() -> None:
    """The computer players may use `random.Random(seed)` (a generator of their own, seeded by
    the seat's view and the caller's seed), never the global one nor one the system seeds."""
    assert unseeded_random("import random\nrng = random.Random(f'{seed}:{seat}')\nrng.shuffle(cards)") == []
    assert unseeded_random("from random import Random\nRandom(7).random()") == []
    assert unseeded_random("import random\nrandom.shuffle(cards)") == ["random.shuffle"]
    assert unseeded_random("import random as r\nr.seed(3)") == ["random.seed"]
    assert unseeded_random("from random import choice") == ["from random import choice"]
    assert unseeded_random("import random\nrandom.Random()") == [UNSEEDED]
    assert unseeded_random("from random import Random as R\nR()") == [UNSEEDED]
    assert impure_imports("import random\nrandom.random()") == ["random"]
    assert impure_imports("import random\nrng: random.Random = random.Random(1)") == []
    for path in ENGINE_MODULES:
        assert not unseeded_random(path.read_text()), f"{path}: {unseeded_random(path.read_text())}"


def test_a_city_named_by_any_of_its_hexes_is_recorded_by_its_castle() -> None:
    sc = Scenario()
    sc.city(0, "K9", 4, [("market", "L9")])
    sc.row("golden")
    g = sc.turn(0).game()
    g.play(0, "golden 1 L9")
    assert g.record().moves == [(0, "golden 1 K9")]


def test_the_waiting_line_names_each_decision_once_with_its_cities() -> None:
    sc = Scenario()
    sc.city(0, "J9", 4)
    sc.city(0, "Q9", 4)
    g = sc.game()
    tied: list[Service] = ["culture", "health"]
    g.state.pending = [Decision(seat=0, kind="prefer", city=h, services=tied) for h in ("J9", "Q9")] + [
        Decision(seat=1, kind="starve", count=1)
    ]
    assert g.waiting_for() == (
        "Waiting for P0 to choose the service for Firenze (J9) and Siena (Q9) (`prefer HEX S`); "
        "P1 to choose which cities lose citizens to hunger (`starve HEX …`)."
    )


def test_a_castle_too_near_says_how_near_once() -> None:
    sc = Scenario()
    sc.city(1, "J9", 3, [("farm", "K9")])
    g = sc.turn(0, year=1).game()
    g.state.phase = "setup"
    g.state.pending = [Decision(seat=0, kind="castle")]
    with pytest.raises(IllegalMove) as err:
        g.play(0, "castle I9")
    assert str(err.value).startswith("I9 is next to P1's city Firenze (J9); a castle needs")
    with pytest.raises(IllegalMove) as err:
        g.play(0, "castle M9")
    expected = "M9 is only 1 empty hex away from P1's city Firenze (J9) (its farm at K9);"
    assert str(err.value).startswith(expected)
