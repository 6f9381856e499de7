"""The engine's texts reach a reader in their own language: every event, every move description
and every refusal is an English message with named values (`engine.words`), its English text
unchanged, and nothing of it escapes the reader's words.

The pseudo-language ``qps`` marks every text it translates ⟦like this⟧: a text that is one marked
whole (the values inside) went through ``words``; a value that is an English phrase of its own
(rather than a name, a hex, a number, a term or a phrase told in turn) is found by
`_plain_values`.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

import i18n
from engine import Action, Event, Game, IllegalMove
from engine.actions import VERBS
from engine.ai.reasons import _why
from engine.ai.voice_words import voice_reason
from engine.board import BOARD
from engine.components import BUILDINGS, CITY_NAMES, SERVICES
from engine.describe import MAX_LEN, describe
from engine.words import ENGLISH, PHRASE, TERMS, Words, chain, is_term_key, told
from i18n.catalogs import CLOSE, OPEN

QPS = i18n.lang(i18n.PSEUDO)
NAMES = ["Ann", "Bob", "Cyd", "Dee"]
NOTATION = {*VERBS, *BUILDINGS, *SERVICES, "from", "all"}
FREE_KEYS = {"move", "word"}
"""Values a player typed (echoed in a refusal) or a move's notation: anything goes."""


def _games(count: int) -> Iterator[tuple[Game, int, random.Random]]:
    """Positions of seeded random games (2–4 players, both setups), each with the seat to move."""
    for k in range(count):
        rnd = random.Random(k)
        game = Game.new(NAMES[: 2 + k % 3], seed=100 + k, setup="experienced" if k % 2 else "beginner")
        yield game, -1, rnd  # the setup's events, before any move
        while not game.is_over:
            seat = rnd.choice(game.pending_seats())
            yield game, seat, rnd
            game.play(seat, _pick(game, seat, rnd))


def _pick(game: Game, seat: int, rnd: random.Random) -> Action:
    """A random legal move, or now and then the one the engine plays for an absent player."""
    default = game.default_move(seat)
    return default if default is not None and rnd.random() < 0.3 else rnd.choice(game.legal_moves(seat))


def _events(count: int) -> Iterator[Event]:
    for game, seat, rnd in _games(count):
        if seat < 0:
            yield from game.setup_events
            continue
        twin = Game.restore(game.snapshot(), game.record())
        yield from twin.play(seat, _pick(game, seat, random.Random(rnd.random())))


def fully_marked(text: str) -> bool:
    """Whether ``text`` is one or more ⟦marked⟧ wholes with nothing outside them but the commas of
    a list."""
    depth = 0
    for ch in text:
        if ch == OPEN:
            depth += 1
        elif ch == CLOSE:
            depth -= 1
            if depth < 0:
                return False
        elif depth == 0 and ch not in ", ":
            return False
    return depth == 0 and text.startswith(OPEN) and text.endswith(CLOSE)


def unmarked(text: str) -> str:
    return text.replace(OPEN, "").replace(CLOSE, "")


def _plain_values(values: Mapping[str, Any], names: set[str]) -> list[str]:
    """The values that are neither a name, a hex, a number, the notation, a term (under a term
    key) nor a phrase: English that would reach a reader untranslated."""
    wrong: list[str] = []

    def check(key: str, value: Any) -> None:
        if isinstance(value, dict) and "message" in value:
            wrong.extend(_plain_values(value.get("values") or {}, names))
        elif isinstance(value, (list, tuple)):
            for item in value:
                check(key, item)
        elif is_term_key(key):
            if not (isinstance(value, int) or value in TERMS):
                wrong.append(f"{key}={value!r} is not a term")
        elif isinstance(value, str) and key not in FREE_KEYS:
            words = re.findall(r"\w+", value)
            if any(
                not (w.isdigit() or w in names or w in NOTATION or w.upper() in BOARD.index) for w in words
            ):
                wrong.append(f"{key}={value!r}")

    for key, value in values.items():
        check(key, value)
    return wrong


# --- the English stays as it was ---------------------------------------------------------------


def test_every_event_of_random_games_has_a_message_that_its_values_fill_to_its_text() -> None:
    kinds = set()
    for e in _events(12):
        assert e.message, f"{e.kind} event without a message: {e.text}"
        assert told(ENGLISH, e.message, e.values) == e.text == e.told()
        stored = json.loads(json.dumps(e.values))  # as a move's events are stored
        assert told(ENGLISH, e.message, stored) == e.text
        assert Event.model_validate(e.model_dump(mode="json")).told(QPS) == e.told(QPS)
        kinds.add(e.kind)
    assert {"castle", "year", "voice", "gold", "build", "tally", "end_year", "game_over"} <= kinds


def test_a_refusal_is_the_same_english_text_as_its_message_told_in_english() -> None:
    game = Game.new(["Ann", "Bob"], seed=7)
    with pytest.raises(IllegalMove) as refused:
        game.check(0, "gold")
    assert str(refused.value) == refused.value.told() == refused.value.told(ENGLISH)
    assert str(refused.value).startswith("It is not your turn. Waiting for Bob to play a turn (`gold`, ")
    with pytest.raises(IllegalMove) as malformed:
        Action.parse("build castle I9")
    assert str(malformed.value) == (
        "`castle` cannot be built with `build` (the medium and large ones need a politics card). Choose "
        "one of `farm`, `quarry`, `school`, `statue`, `market`, `fountain`: `build B HEX` with B one of "
        "`farm`, `quarry`, `school`, `statue`, `market`, `fountain` (e.g. `build farm I9`)."
    )


# --- nothing escapes the reader's words (the pseudo-language) ----------------------------------


def test_every_event_told_in_the_pseudo_language_is_marked_whole() -> None:
    for e in _events(8):
        text = e.told(QPS)
        assert fully_marked(text) and unmarked(text) == e.text, text
        assert _plain_values(e.values, {*NAMES, *(w for c in CITY_NAMES for w in c.split())}) == [], e.text


def test_every_legal_move_is_described_in_the_pseudo_language() -> None:
    verbs = set()
    for game, seat, _ in _games(3):
        for a in game.legal_moves(seat) if seat >= 0 else ():
            english = describe(game, seat, a, limit=None)
            text = describe(game, seat, a, QPS, limit=None)
            head = f"{a} — "
            assert text.startswith(head) and fully_marked(text[len(head) :]), text
            assert unmarked(text) == english
            cut = describe(game, seat, a, QPS)
            assert cut.startswith(head) and len(cut) <= MAX_LEN
            verbs.add(a.verb)
    assert {
        "castle",
        "gold",
        "build",
        "found",
        "pass",
        "master",
        "golden",
        "bread",
        "demolish",
        "starve",
    } <= verbs


def _probes(game: Game, rnd: random.Random) -> list[str]:
    """Moves to try, most of them refused: random ones, moves on the cities' hexes, malformed ones."""
    hexes = BOARD.labels
    h1, h2 = rnd.choice(hexes), rnd.choice(hexes)
    out = [
        f"{rnd.choice(VERBS)} {h1}", f"build {rnd.choice(BUILDINGS)} {h1}", f"found {h1} from {h2}",
        f"master {rnd.choice(BUILDINGS)} {h2}", f"prefer {h1} {rnd.choice(SERVICES)}", f"starve {h1} {h2}",
        "gold", "pass",
        "poll all", "poll 1 3", "", "frobnicate", "build", "golden 4 I9", "castle Z99", "poll 1 1",
        "demolish I9 I9", "bread 1 I9 wealth", "found I9 to J9", "build castle I9", "master castle I9",
    ]  # fmt: skip
    for city in rnd.sample(game.state.cities, min(4, len(game.state.cities))):
        h = rnd.choice([city.castle, *(b.hex for b in city.buildings)])
        n = rnd.randint(1, 3)
        out += [f"golden {n} {h}", f"bread {n} {h}", f"bread {n} {h} {rnd.choice(SERVICES)}", f"harvest {h}",
                f"first {h}", f"prefer {h} {rnd.choice(SERVICES)}", f"demolish {h}", f"starve {h} {h}",
                f"found {rnd.choice(hexes)} from {h}", f"build farm {BOARD.neighbors(h)[0]}"]  # fmt: skip
    return out


def test_every_refusal_told_in_the_pseudo_language_is_marked_whole() -> None:
    seen: set[str] = set()
    for game, seat, rnd in _games(5):
        if seat < 0:
            continue
        for who in {seat, (seat + 1) % game.state.n_players, 9}:
            for move in _probes(game, rnd):
                try:
                    game.check(who, move)
                except IllegalMove as e:
                    text = e.told(QPS)
                    assert fully_marked(text) and unmarked(text) == str(e), text
                    assert (
                        _plain_values(e.values, {*NAMES, *(w for c in CITY_NAMES for w in c.split()), "HEX"})
                        == []
                    )
                    seen.add(e.message)
    assert len(seen) > 40, sorted(seen)


def test_who_is_waiting_and_for_what_is_told_in_the_readers_words() -> None:
    game = Game.new(["Ann", "Bob"], seed=7)
    assert game.waiting_for() == (
        "Waiting for Bob to play a turn (`gold`, `found HEX from HEX2`, `build B HEX`, a politics card, "
        "or `pass`)."
    )
    text = game.waiting_for(QPS)
    assert fully_marked(text) and unmarked(text) == game.waiting_for()


# --- another language: terms, counts and phrases within a message ---------------------------------

GERMAN = {
    "{name} takes 2 gold (now {gold}).": "{name} nimmt 2 Gold (jetzt {gold}).",
    "{name} cannot feed {citizens} ({parts}) and loses 5 victory points.":
        "{name} kann {citizens} nicht versorgen ({parts}) und verliert 5 Siegpunkte.",
    "{count} from {city}": "{count} aus {city}",
    "{name}'s {city} demolishes {buildings}.": "{city} von {name} reißt {buildings} ab.",
    "{building} {hex}": "{building} {hex}",
    "farm": "Bauernhof",
    "quarry": "Steinbruch",
    "{first} and {second}": "{first} und {second}",
}  # fmt: skip


class German:
    """A few German messages (the catalogs are tested in test_i18n); the rest stays English."""

    def t(self, message: str, /, **values: Any) -> str:
        text = GERMAN.get(message, message)
        return text.format(**values) if values else text

    def n(self, singular: str, plural: str, count: int, /, **values: Any) -> str:
        return ("{count} Bürger" if "citizen" in singular else singular).format(count=count, **values)


def test_a_german_reader_gets_the_terms_counts_and_phrases_of_an_event_in_german() -> None:
    de: Words = German()
    message = "{name} cannot feed {citizens} ({parts}) and loses 5 victory points."
    values = {
        "name": "Ann",
        "citizens": PHRASE.n("{count} citizen", "{count} citizens", 3),
        "parts": [PHRASE.t("{count} from {city}", count=n, city=c) for n, c in ((2, "Pisa"), (1, "Siena"))],
    }
    assert (
        told(ENGLISH, message, values)
        == "Ann cannot feed 3 citizens (2 from Pisa, 1 from Siena) and loses 5 victory points."
    )
    assert (
        told(de, message, values)
        == "Ann kann 3 Bürger nicht versorgen (2 aus Pisa, 1 aus Siena) und verliert 5 Siegpunkte."
    )
    kinds = [PHRASE.t("{building} {hex}", building=k, hex=h) for k, h in (("farm", "I9"), ("quarry", "J9"))]
    demolished = {"name": "Bob", "city": "Lucca", "buildings": kinds}
    assert (
        told(de, "{name}'s {city} demolishes {buildings}.", demolished)
        == "Lucca von Bob reißt Bauernhof I9, Steinbruch J9 ab."
    )


def test_a_chain_joins_two_by_two_and_numbered_term_keys_hold_terms() -> None:
    both = chain("{first} and {second}", ["Ann", "Bob", "Cyd"])
    assert told(ENGLISH, "{names} win!", {"names": both}) == "Ann and Bob and Cyd win!"
    assert told(German(), "{names} win!", {"names": both}) == "Ann und Bob und Cyd win!"
    assert chain("{first} and {second}", ["Ann"]) == "Ann"
    assert is_term_key("service2") and is_term_key("building") and not is_term_key("city")
    assert told(German(), "{building} or {building2}", {"building": "farm", "building2": "quarry"}) == (
        "Bauernhof or Steinbruch"
    )


def test_every_reason_a_hint_can_give_is_told_in_the_pseudo_language() -> None:
    kinds = set()
    for game, seat, _ in _games(2):
        if seat < 0:
            continue
        view = game.view(seat)
        for s in SERVICES:
            english, text = voice_reason(view, s), voice_reason(view, s, QPS)
            assert unmarked(text) == english and (not english or fully_marked(text)), text
        for a in game.legal_moves(seat):
            english, text = _why(game.state, view, seat, a), _why(game.state, view, seat, a, QPS)
            assert unmarked(text) == english and (not english or fully_marked(text)), text
            kinds.add(a.verb)
    assert {"castle", "gold", "build", "found", "golden", "bread", "starve"} <= kinds
