"""The pictures speak the game's language: every word drawn on them and written in their alt
texts (and in ``/citta describe``) goes through the catalogs, checked in the pseudo-language,
where each translated text comes back marked ⟦like this⟧ (the alt texts with `untranslated`,
which also checks what fills each message; the drawn words, laid out one by one, with
`english_words`); and a German game reads German."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from lru import lru
from PIL import Image
from untranslated import untranslated

from engine import Game
from engine.views import View
from i18n import PSEUDO, lang, speaking
from render import alt, bands, captions, cards, fonts, render_board, render_post
from render.png_palette import palette_image
from render.replay import frames
from render.samples import NAMES, Sample, gallery

MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
HEX = re.compile(r"[A-Q]\d{1,2}")


@pytest.fixture(scope="module")
def samples() -> list[Sample]:
    return gallery()


def allowed(view: View) -> set[str]:
    """What may stand outside the marks: names, tags, cities, and the Rich Harvest ``x2``."""
    cities = {w for p in view.players for c in p.cities for w in re.findall(r"[^\W_]+", c.name)}
    return {*NAMES, *"ABCDE", *cities, "x2"}


def english_words(text: str, ok: set[str]) -> list[str]:
    """The words of ``text`` outside the pseudo-language's marks, but for names, hexes and
    numbers. A mark cut short (a shortened text, a four-letter abbreviation, a word hyphenated
    over two lines) counts as marked to where it is cut."""
    rest = text
    while (inner := MARKED.sub(" ", rest)) != rest:
        rest = inner
    rest = re.sub(r"⟦.*$", " ", re.sub(r"^[^⟦]*⟧", " ", rest))
    words = re.findall(r"[^\W_]+", rest)
    return [w for w in words if not w.isdigit() and w not in ok and not HEX.fullmatch(w)]


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text `fonts.text` draws (the one place text is drawn), in order, the sprites and the
    table's bands with text drawn anew rather than taken from their caches. A text laid out word by
    word is drawn a word at a time: joined in order, the words of a marked text are between its marks."""
    palette_image()  # drawn once, in English, for every picture's colours: not a picture's text
    seen: list[str] = []
    real = fonts.text

    def spy(target: Any, xy: tuple[float, float], s: str, *args: Any, **kw: Any) -> None:
        seen.append(s)
        real(target, xy, s, *args, **kw)

    monkeypatch.setattr(fonts, "text", spy)
    for cached in (lru(captions._caption), cards._card_sprite, cards._card_tile):
        cached.cache_clear()
    bands.forget()  # a table's bands written by an earlier test would be taken, not drawn
    yield seen


def test_the_word_check_finds_english_and_lets_names_hexes_and_marks_pass() -> None:
    ok = {"Ann", "Firenze"}
    assert english_words("⟦Waiting for⟧ Ann ⟦to play⟧ J13 12/5", ok) == []
    assert english_words("⟦Year 3 of 6  -  ⟦Feeding⟧⟧ ⟦CUL", ok) == []
    assert english_words("ool⟧ Firenze", ok) == []
    assert english_words("⟦Start player: {name}⟧ Bob to play", ok) == ["Bob", "to", "play"]


def test_every_word_drawn_on_the_posted_pictures_and_their_alt_texts_is_translated(
    samples: list[Sample], drawn: list[str]
) -> None:
    for s in samples:
        ok = allowed(s.view)
        focus = s.view.pending[0] if s.view.pending else None
        drawn.clear()
        move = lang(PSEUDO).t("{name} takes 2 gold (now {gold}).", name="Ann", gold=3)
        pictures = render_post(s.view, highlight=s.highlight, last_move=move, focus=focus, lang=PSEUDO)
        assert drawn, "the spy saw the texts"
        assert english_words(" ".join(drawn), ok) == [], (s.name, drawn)
        for name, _png, text in pictures:
            assert untranslated(text, ok) == [], (s.name, name, text)
            assert len(text) <= alt.MAX_ALT


def test_every_word_drawn_on_the_poster_is_translated(samples: list[Sample], drawn: list[str]) -> None:
    for s in samples:
        drawn.clear()
        render_board(s.view, highlight=s.highlight, lang=PSEUDO)
        assert english_words(" ".join(drawn), allowed(s.view)) == [], (s.name, drawn)


def test_the_position_in_words_is_translated(samples: list[Sample]) -> None:
    for s in samples:
        for part in alt.describe_position(s.view, lang=PSEUDO):
            assert untranslated(part, allowed(s.view)) == [], (s.name, part)
            assert len(part) <= alt.MAX_MESSAGE


def test_the_replay_captions_are_translated() -> None:
    game = Game.new(NAMES[:2], seed=9)
    while not game.is_over:
        seat = game.pending_seats()[0]
        game.play(seat, game.legal_moves(seat)[0])
    with speaking(PSEUDO):
        captions = [c for c, _ in frames(game.record())]
    assert captions and all(english_words(c, set()) == [] for c in captions), captions


def test_the_renderer_speaks_the_language_it_is_given_not_the_callers(samples: list[Sample]) -> None:
    view = samples[0].view
    with speaking("de"):
        english = render_post(view, highlight=[], last_move="", focus=None)
    assert "The table." in english[-1][2]
    pseudo = render_post(view, highlight=[], last_move="", focus=None, lang=PSEUDO)
    assert pseudo[-1][2].startswith("⟦The table.⟧")
    assert Image.open(io.BytesIO(pseudo[-1][1])).format == "PNG"


def test_a_german_game_gets_german_pictures_alt_texts_and_words(
    samples: list[Sample], drawn: list[str]
) -> None:
    s = next(s for s in samples if s.name == "late-5p")
    focus = s.view.pending[0] if s.view.pending else None
    pictures = render_post(s.view, highlight=s.highlight, last_move="", focus=focus, lang="de")
    table = pictures[-1][2]
    assert table.startswith("Der Tisch. Jahr 6 von 6, Politikrunde 5 von 5.")
    assert "Stimme des Volkes" in table and "Bürger" in table and "citizens" not in table
    assert any("Universität" in t for t in drawn), drawn
    said = " ".join(drawn)
    assert "Voice of the people" not in said and "Stimme des Volkes" in said and "Vorrat" in said
    described = "\n".join(alt.describe_position(s.view, lang="de"))
    assert "Schlusswertung" not in described and "Nahrung für" in described
