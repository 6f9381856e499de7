"""How the engine's texts reach a reader in their own language, while the engine stays pure.

Every text the engine gives a player (move descriptions, event texts, why a move is refused)
is an English *message* with named ``{placeholders}`` and its *values*. A caller who wants
another language passes a `Words` (``i18n.Lang`` is one: it reads gettext catalogs, which is
I/O the engine never does); without one the text is English:

>>> told(ENGLISH, "{name} builds a {building} at {hex}.", {"name": "Ann", "building": "farm", "hex": "C4"})
'Ann builds a farm at C4.'

Values under the keys of `TERM_KEYS` are game terms (a building, a service, a politics card),
translated too, one by one when the value is a list. ``N_`` only marks a message for the
catalogs' extraction (``pybabel extract -k N_``, see docs/translating.md); it returns it as is.
The move notation is never translated: a value holding a move stays as it is.

A value may itself be a message with its values (a `Phrase`, made with `PHRASE`): it is told in
the same language, a counted one (``PHRASE.n``) in the plural form of its count; a list is told
item by item and joined with commas:

>>> told(ENGLISH, "{name} cannot feed {citizens} ({parts}).", {"name": "Ann",
...      "citizens": PHRASE.n("{count} citizen", "{count} citizens", 2),
...      "parts": [PHRASE.t("{count} from {city}", count=1, city=c) for c in ("Pisa", "Siena")]})
'Ann cannot feed 2 citizens (1 from Pisa, 1 from Siena).'

A key that is a term key followed by digits (``service2``) holds a term too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Protocol

TERM_KEYS = frozenset({"building", "buildings", "service", "services", "card", "cards", "kind", "kinds"})
"""Value keys whose values are game terms (`TERMS`), translated as such."""


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is defined; it is translated where it is used."""
    return message


TERMS = (
    # buildings (rules §1)
    N_("castle"), N_("farm"), N_("quarry"), N_("school"), N_("statue"), N_("market"),
    N_("fountain"), N_("palace"), N_("hospital"), N_("bath"), N_("cathedral"), N_("university"),
    # services and the voice of the people
    N_("culture"), N_("education"), N_("health"),
    # terrain
    N_("farmland"), N_("lake"), N_("mountain"), N_("wasteland"),
    # sizes
    N_("small"), N_("medium"), N_("large"),
    # politics cards (notation verbs, by their names in the rulebook)
    N_("Golden Times"), N_("Bread and Games"), N_("Master Builder"), N_("Rich Harvest"),
    N_("Polling the People"),
    # the building cards' titles, and the services as a sentence starts with them
    N_("Palace"), N_("Hospital"), N_("Public Bath"), N_("Cathedral"), N_("University"),
    N_("Culture"), N_("Education"), N_("Health"),
)  # fmt: skip
"""The game's terms, so that every catalog has them (each language's rulebook names them:
``i18n/glossary.csv``)."""


class Words(Protocol):
    """Translate-then-format, as ``i18n.Lang`` does (a message without values is not formatted,
    so it may hold braces)."""

    def t(self, message: str, /, **values: Any) -> str: ...

    def n(self, singular: str, plural: str, count: int, /, **values: Any) -> str: ...


class English:
    """The messages as they are written: English."""

    def t(self, message: str, /, **values: Any) -> str:
        return message.format(**values) if values else message

    def n(self, singular: str, plural: str, count: int, /, **values: Any) -> str:
        return (singular if count == 1 else plural).format(count=count, **values)


ENGLISH: Words = English()


Phrase = dict[str, Any]
"""A message with its values, to be told as the value of another message: JSON-ready
``{"message": …, "values": {…}}``, with ``"plural"`` and ``"count"`` when it is counted."""


class Later:
    """Words that tell nothing yet: `t` and `n` give the `Phrase` to tell later, in the reader's
    language (marked for the catalogs like any ``t`` and ``n``)."""

    def t(self, message: str, /, **values: Any) -> Phrase:
        return {"message": message, "values": values}

    def n(self, singular: str, plural: str, count: int, /, **values: Any) -> Phrase:
        return {"message": singular, "plural": plural, "count": count, "values": values}


PHRASE = Later()


def chain(message: str, items: Sequence[Any]) -> Any:
    """``items`` joined two by two with ``message`` (``"{first} and {second}"``): ``a and b and c``;
    a single item as it is."""
    out = items[0]
    for item in items[1:]:
        out = PHRASE.t(message, first=out, second=item)
    return out


@lru_cache(maxsize=256)
def is_term_key(key: str) -> bool:
    """Whether values under ``key`` are terms: a key of `TERM_KEYS`, maybe numbered (``service2``)."""
    return key in TERM_KEYS or key.rstrip("0123456789") in TERM_KEYS


def term(words: Words, value: Any) -> Any:
    """A term (or each term of a list, joined with commas) in ``words``' language."""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(term(words, v)) for v in value)
    return words.t(value) if isinstance(value, str) and value else value


def _value(words: Words, key: str, value: Any) -> Any:
    if type(value) is int:  # the most common values first: a number, a name or a term
        return value
    if type(value) is str:
        return words.t(value) if value and is_term_key(key) else value
    if isinstance(value, dict) and "message" in value:
        inner = value.get("values") or {}
        if "plural" in value:  # (the catalogs have the forms from where the phrase was made)
            given = {k: _value(words, k, v) for k, v in inner.items()}
            singular, plural, count = value["message"], value["plural"], value["count"]
            return words.n(singular, plural, count, **given)
        return told(words, value["message"], inner)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_value(words, key, v)) for v in value)
    return term(words, value) if is_term_key(key) else value


def told(words: Words, message: str, values: Mapping[str, Any] | None = None) -> str:
    """``message`` in ``words``' language with its ``values`` filled in (terms translated, phrases
    told).

    In English, numbers and words (terms too) fill a message as they are: the common case, an
    event's text made on every move, is formatted at once."""
    if not values:
        return words.t(message)
    if words is ENGLISH:
        for v in values.values():
            kind = type(v)
            if kind is not int and kind is not str:  # a phrase, a list: told in English first
                return message.format(**{k: _english(v) for k, v in values.items()})
        return message.format(**values)
    return words.t(message, **{k: _value(words, k, v) for k, v in values.items()})


def _english(value: Any) -> Any:
    """`_value` in English, where every term is itself: told without asking `English` (a move's
    event texts are told so)."""
    kind = type(value)
    if kind is int or kind is str:
        return value
    if isinstance(value, dict) and "message" in value:
        inner = value.get("values") or {}
        if "plural" in value:
            count = value["count"]
            form = value["message"] if count == 1 else value["plural"]
            return form.format(count=count, **{k: _english(v) for k, v in inner.items()})
        if not inner:
            return value["message"]
        return value["message"].format(**{k: _english(v) for k, v in inner.items()})
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_english(v)) for v in value)
    return value


def tell(words: Words, phrase: Phrase) -> str:
    """A `Phrase` in ``words``' language, a counted one in the plural form of its count.

    >>> tell(ENGLISH, PHRASE.n("{count} citizen in {city}", "{count} citizens in {city}", 2, city="Pisa"))
    '2 citizens in Pisa'
    """
    return str(_value(words, "", phrase))
