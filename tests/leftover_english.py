"""Finding English words left in a text meant for a German, French or Dutch reader.

A word counts as English when it appears in the English messages of the catalogs (the msgids
of ``i18n/citta.pot``) and never in that language's translations: so "gold" or "Statue" (words
of both languages) are never flagged, while "citizens", "turn" or "waiting" are. What is never
translated is left out first: the move notation (in backticks, or a whole move where no markup
can be: an autocomplete choice, an option, alt text), Discord markup (mentions, timestamps,
custom emoji), URLs, single letters, and the names the caller gives (players, cities).

>>> leftover_english("Sie haben `build farm I9` gespielt. Waiting for Bob.", "de", names={"Bob"})
['Waiting', 'for']
>>> leftover_english("Letzter Zug: build farm I9 — Firenze Nahrung +2", "de")
[]
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)
_NEVER_TRANSLATED = re.compile(
    r"`[^`]*`"  # the notation, commands
    r"|<(?:@[!&]?|#|t:|a?:\w+:|/)[^>]*>"  # mentions of users, channels and commands, timestamps, emoji
    r"|https?://\S+"
    r"|\b[A-Q]\d{1,2}\b"  # hex labels
)


def without_moves(text: str) -> str:
    """``text`` with every run of words that is a whole move in the notation blanked out."""
    from engine import Action, MalformedMove

    tokens = text.split(" ")
    keep = [True] * len(tokens)
    for i in range(len(tokens)):
        for j in range(min(len(tokens), i + 8), i, -1):
            candidate = " ".join(tokens[i:j]).strip(".,;:()—")
            try:
                Action.parse(candidate)
            except (MalformedMove, ValueError):
                continue
            keep[i:j] = [False] * (j - i)
            break
    return " ".join(t if k else " " for t, k in zip(tokens, keep, strict=True))


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(_NEVER_TRANSLATED.sub(" ", text))}


@cache
def _vocabulary(lang: str) -> tuple[frozenset[str], frozenset[str]]:
    """The words of the English messages, and those of ``lang``'s translations."""
    with (ROOT / "i18n" / "locales" / lang / "LC_MESSAGES" / "citta.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    english: set[str] = set()
    native: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        for msgid in message.id if isinstance(message.id, (tuple, list)) else (message.id,):
            english |= _words(_placeholders_out(msgid))
        for msgstr in message.string if isinstance(message.string, (tuple, list)) else (message.string,):
            native |= _words(_placeholders_out(msgstr or ""))
    return frozenset(english), frozenset(native)


def _placeholders_out(text: str) -> str:
    return re.sub(r"\{[^{}]*\}", " ", text)


def leftover_english(text: str, lang: str, names: Iterable[str] = ()) -> list[str]:
    """The English words of ``text`` (in their order, once each) that ``lang``'s reader should
    not see; ``names`` (players, cities) are allowed."""
    english, native = _vocabulary(lang)
    allowed = native | {w.lower() for name in names for w in _WORD.findall(name)}
    seen: list[str] = []
    for word in _WORD.findall(_NEVER_TRANSLATED.sub(" ", without_moves(text))):
        low = word.lower()
        if len(low) > 1 and low in english and low not in allowed and word not in seen:
            seen.append(word)
    return seen
