"""Finding text that skipped translation, in the pseudo-language ``qps``.

In ``qps`` every translated text comes back ⟦marked⟧ (`i18n.catalogs.Pseudo`), so a word outside
the marks never went through the catalogs. A value filled into a message sits inside that
message's marks, though, so an English text given as a value (an event's ``.text`` where its
``.told(words)`` belongs) would hide there. So each marked text is also matched against the
messages of the source (extracted as `docs/translating.md` does), and what fills each of its
placeholders must be translated in turn (marked) or be what is never translated: the notation
(in backticks, a placeholder the message puts in backticks or one of `NOTATION_FIELDS`, or a
text the caller says is notation, as a button's move), names (players, cities), hex labels, numbers,
emoji and Discord markup (``<@id>``, ``<t:…:R>``).

>>> untranslated("⟦You played `{move}`.⟧".replace("{move}", "build farm I9"))
[]
>>> untranslated("Next: ⟦{who} to ⟦play a turn⟧⟧".replace("{who}", "<@1>"))
["'Next' outside the marks"]
>>> untranslated("Bob: gold — ⟦Take 2 gold⟧", ["Bob"], notation=["gold"])
[]
>>> untranslated("⟦La Città (game {game}): {text}⟧".format(game=3, text="Ann takes 2 gold."), ["Ann"])
["'takes gold' inside ⟦La Città (game 3): Ann takes 2 gold.⟧, where no message puts it"]

A text cut to fit a Discord limit may lose the end of its marks: an unclosed mark counts as
marked to the end.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from babel.messages.extract import extract_from_dir

from i18n.catalogs import CLOSE, OPEN

ROOT = Path(__file__).resolve().parents[1]
KEYWORDS = {"t": None, "n": (1, 2), "_": None, "_n": (1, 2), "N_": None}
"""The markers `docs/translating.md` extracts with."""
HOLE = "\x00"
"""Stands for a nested marked text while its parent is matched against the messages."""
ALWAYS_ALLOWED = ("La Città",)
NOTATION_FIELDS = frozenset({"move", "word", "verb", "verbs", "choices"})
"""Placeholders that hold notation, in backticks or not: a move (a button label has no
markup), and in the engine's refusals the word typed, the notation's verbs and its names of
buildings."""
_WORD = re.compile(r"[^\W\d_]{2,}", re.UNICODE)
_NEVER_TRANSLATED = re.compile(
    r"`[^`]*`"  # the notation, commands
    r"|<(?:@[!&]?|#|t:|a?:\w+:)[^>]*>"  # mentions, channels, timestamps, custom emoji
    r"|https?://\S+"
    r"|\b[A-Z]\d{1,2}\b"  # hex labels
)


@dataclass
class Marked:
    """A marked text: its content with each nested marked text as `HOLE`, and those texts."""

    content: str = ""
    inner: list[Marked] = field(default_factory=list)
    closed: bool = False

    def shown(self) -> str:
        """The text as it was read (marks and all)."""
        parts = self.content.split(HOLE)
        out = parts[0]
        for sub, part in zip(self.inner, parts[1:], strict=True):
            out += sub.shown() + part
        return OPEN + out + (CLOSE if self.closed else "")


def parse(text: str) -> Marked:
    """``text`` as a tree of marked texts (the root is the unmarked text around them)."""
    root = Marked(closed=True)
    stack = [root]
    for ch in text:
        if ch == OPEN:
            child = Marked()
            stack[-1].inner.append(child)
            stack[-1].content += HOLE
            stack.append(child)
        elif ch == CLOSE and len(stack) > 1:
            stack.pop().closed = True
        else:
            stack[-1].content += ch
    return root


@dataclass(frozen=True)
class Template:
    """A message of the source as a pattern: its literal start, a regex, and for each
    placeholder whether the message puts it in backticks (notation)."""

    prefix: str
    pattern: re.Pattern[str]
    coded: tuple[bool, ...]


def _template(message: str) -> Template | None:
    try:
        parsed = list(string.Formatter().parse(message))
    except ValueError:
        return None
    regex, coded, ticks = "", [], 0
    for literal, name, _spec, _conv in parsed:
        regex += re.escape(literal)
        ticks += literal.count("`")
        if name is not None:
            regex += "(.*?)"
            coded.append(ticks % 2 == 1 or name in NOTATION_FIELDS)
    prefix = parsed[0][0] if parsed else ""
    return Template(prefix, re.compile(regex, re.DOTALL), tuple(coded))


@cache
def messages() -> tuple[frozenset[str], tuple[Template, ...]]:
    """Every message of the source (each plural form too), and those with placeholders as
    `Template` s."""
    found: set[str] = set()
    for package in ("bot", "render", "engine", "i18n"):
        for _, _, msg, *_ in extract_from_dir(ROOT / package, keywords=KEYWORDS):
            found.update((msg,) if isinstance(msg, str) else msg)
    # sorted: which of several matching messages is reported must not depend on hash order
    templates = [t for m in sorted(found) if "{" in m and (t := _template(m)) is not None and t.coded]
    return frozenset(found), tuple(templates)


def bare(text: str, names: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` that are neither marked, notation, markup, names nor numbers."""
    rest = _NEVER_TRANSLATED.sub(" ", text.replace(HOLE, " "))
    for name in sorted({*names, *ALWAYS_ALLOWED}, key=len, reverse=True):
        if name:
            rest = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", rest)
    return _WORD.findall(rest)


def _problem(node: Marked, names: list[str]) -> str | None:
    """Why a marked text is not a message of the source with every value translated or never
    translated; None when it is (a text cut short passes: its end is lost)."""
    if not node.closed:
        return None
    plain, templates = messages()
    if node.content in plain:
        return None
    worst: list[str] | None = None
    for t in templates:
        if not node.content.startswith(t.prefix):
            continue
        m = t.pattern.fullmatch(node.content)
        if m is None:
            continue
        words = [w for v, coded in zip(m.groups(), t.coded, strict=True) if not coded for w in bare(v, names)]
        if not words:
            return None
        worst = words if worst is None or len(words) < len(worst) else worst
    if worst is None:
        return f"{node.shown()} is no message of the source"
    return f"{' '.join(worst)!r} inside {node.shown()}, where no message puts it"


def untranslated(text: str, names: Iterable[str] = (), notation: Iterable[str] = ()) -> list[str]:
    """What of ``text`` (written in ``qps``) skipped translation, one line for each piece;
    ``names`` (players, cities) and ``notation`` (moves, e.g. that of a button whose label
    starts with it: its first place in ``text``) may stay as they are."""
    allowed = list(names)
    for move in sorted(notation, key=len, reverse=True):
        text = text.replace(move, f"`{move}`", 1)
    found: list[str] = []
    root = parse(text)
    if words := bare(root.content, allowed):
        found.append(f"{' '.join(words)!r} outside the marks")

    def walk(node: Marked) -> None:
        for sub in node.inner:
            if (problem := _problem(sub, allowed)) is not None:
                found.append(problem)
            walk(sub)

    walk(root)
    return found
