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
"""

from __future__ import annotations

import i18n
from bot.results import Choice
from bot.service.context import Context
from engine import Action, Game
from engine.board import BOARD
from engine.describe import describe

MAX_CHOICES = 25


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


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


def rank_moves(game: Game, seat: int, typed: str, limit: int = MAX_CHOICES) -> list[Action]:
    """The legal moves of ``seat`` that fit ``typed``, best first (see the module docstring)."""
    moves = game.legal_moves(seat)
    text = _norm(typed)
    if not text:
        return _sample(moves, limit)
    if BOARD.is_hex(text):
        label = BOARD.normalize(text)
        return [a for a in moves if label in _hexes(a)][:limit]
    typed_words = text.split()
    prefix: list[Action] = []
    words: list[Action] = []
    contains: list[Action] = []
    described: dict[Action, str] = {}
    for a in moves:
        move_text = str(a).lower()
        if move_text.startswith(text):
            prefix.append(a)
        elif _words_match(typed_words, move_text.split()):
            words.append(a)
        elif len(prefix) + len(words) < limit:
            desc = described.setdefault(a, describe(game, seat, a, words=i18n.current()).lower())
            if _words_match(typed_words, desc.replace("—", " ").replace(",", " ").split()):
                words.append(a)
            elif text in desc:
                contains.append(a)
    return (prefix + words + contains)[:limit]


def choices_for(game: Game, seat: int, typed: str, limit: int = MAX_CHOICES) -> list[Choice]:
    """Autocomplete choices: the name is the move with its description, the value the move."""
    words = i18n.current()
    return [
        Choice(name=describe(game, seat, a, words=words), value=str(a))
        for a in rank_moves(game, seat, typed, limit)
    ]


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
    return choices_for(ctx.positions.look(row), mine.seat, typed)
