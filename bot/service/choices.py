"""Autocomplete for ``/citta play`` (part of the service layer): the legal moves of a player's
decision, filtered and ranked.

Ranking, best first:

1. nothing typed: a sample of every kind of move (the first of each kind, then the second
   of each …) so the list shows what is possible; typing narrows it;
2. a hex typed alone (``f7``): every move on that hex;
3. otherwise the moves whose text starts with what was typed, then those where every typed
   word starts a word of the move or of its description, then those containing the text.

Within a rank the engine's canonical order is kept. At most 25 choices (Discord's limit).
Descriptions are in the reader's language (the current one: `i18n.current`), so a typed word
of the reader's language finds the moves it describes.

The work is bounded whatever is typed (Discord lets a client send 6,000 characters): what is
typed is cut to `MAX_TYPED` characters and `MAX_WORDS` words before it is matched, and the
descriptions of a position's moves are written once per game version, seat and language
(`Described`), not at every key a player types.

>>> _typed("  Build   FARM " + "c " * 3000), len(_typed("x" * 6000))
('build farm c c c c', 100)
"""

from __future__ import annotations

from collections import OrderedDict

import i18n
from bot.results import Choice
from bot.service.context import Context
from engine import Action, Game
from engine.board import BOARD
from engine.describe import describe

MAX_CHOICES = 25
MAX_TYPED = 100
"""The characters of what is typed that are matched (a move and a word or two fit)."""
MAX_WORDS = 6
"""The words of what is typed that are matched."""
KEPT = 256
"""Positions whose move descriptions are kept (one seat and language each), the least recently
used let go first."""


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def _typed(text: str) -> str:
    """What is typed, as matched: lower case, one space between words, at most `MAX_WORDS` words
    of the first `MAX_TYPED` characters."""
    return " ".join(_norm(text[: MAX_TYPED * 4]).split()[:MAX_WORDS])[:MAX_TYPED]


class Described:
    """The descriptions of the legal moves of one seat at one position in the current language
    (`describe`), each written once, when first asked for."""

    def __init__(self, game: Game, seat: int) -> None:
        self.game, self.seat = game, seat
        self._texts: dict[Action, str] = {}

    def __call__(self, action: Action) -> str:
        if action not in self._texts:
            self._texts[action] = describe(self.game, self.seat, action, words=i18n.current())
        return self._texts[action]


_KEPT: OrderedDict[tuple[int, int, int, str], Described] = OrderedDict()


def described_at(game_id: int, version: int, game: Game, seat: int) -> Described:
    """The kept descriptions of ``seat``'s moves at ``version`` of the game (in the current language);
    kept only while ``game`` is the very position they were written for (`Positions` hands out one
    object per stored version, and another service's game 1 is another game)."""
    key = (game_id, version, seat, i18n.current().code)
    found = _KEPT.get(key)
    if found is None or found.game is not game:
        found = _KEPT[key] = Described(game, seat)
        while len(_KEPT) > KEPT:
            _KEPT.popitem(last=False)
    _KEPT.move_to_end(key)
    return found


def _hexes(a: Action) -> tuple[str, ...]:
    return (a.hex,) if a.hex else a.hexes


def _sample(moves: list[Action], limit: int) -> list[Action]:
    """Round-robin over the kinds of move (verb and building), kept in canonical order."""
    groups: dict[tuple[str, str | None], list[Action]] = {}
    for a in moves:
        groups.setdefault((a.verb, a.building), []).append(a)
    picked: list[Action] = []
    depth = 0
    while len(picked) < min(limit, len(moves)):
        for group in groups.values():
            if depth < len(group) and len(picked) < limit:
                picked.append(group[depth])
        depth += 1
    order = {a: i for i, a in enumerate(moves)}
    return sorted(picked, key=order.__getitem__)


def _words_match(typed: list[str], words: list[str]) -> bool:
    return all(any(w.startswith(t) for w in words) for t in typed)


def rank_moves(
    game: Game, seat: int, typed: str, limit: int = MAX_CHOICES, described: Described | None = None
) -> list[Action]:
    """The legal moves of ``seat`` that fit ``typed``, best first (see the module docstring)."""
    described = described or Described(game, seat)
    moves = game.legal_moves(seat)
    text = _typed(typed)
    if not text:
        return _sample(moves, limit)
    if BOARD.is_hex(text):
        label = BOARD.normalize(text)
        return [a for a in moves if label in _hexes(a)][:limit]
    typed_words = text.split()
    prefix: list[Action] = []
    words: list[Action] = []
    contains: list[Action] = []
    for a in moves:
        move_text = str(a).lower()
        if move_text.startswith(text):
            prefix.append(a)
        elif _words_match(typed_words, move_text.split()):
            words.append(a)
        elif len(prefix) + len(words) < limit:
            desc = described(a).lower()
            if _words_match(typed_words, desc.replace("—", " ").replace(",", " ").split()):
                words.append(a)
            elif text in desc:
                contains.append(a)
    return (prefix + words + contains)[:limit]


def choices_for(
    game: Game, seat: int, typed: str, limit: int = MAX_CHOICES, described: Described | None = None
) -> list[Choice]:
    """Autocomplete choices: the name is the move with its description, the value the move
    (``described``: the position's descriptions kept from an earlier key)."""
    described = described or Described(game, seat)
    return [Choice(name=described(a), value=str(a)) for a in rank_moves(game, seat, typed, limit, described)]


async def choices(ctx: Context, channel: int, user_id: int, typed: str) -> list[Choice]:
    """The user's legal moves in the channel's running game fitting ``typed`` (at most 25); none when
    they have no seat or it has not started."""
    table = await ctx.storage.games.open_game_with_seats(channel)
    if table is None or table[0].status != "active":
        return []
    row, seats = table
    mine = next((s for s in seats if s.user_id == user_id), None)
    if mine is None:
        return []
    game = ctx.positions.look(row)
    return choices_for(game, mine.seat, typed, described=described_at(row.id, row.version, game, mine.seat))
