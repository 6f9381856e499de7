"""The players' languages: English, Deutsch, Français, Nederlands.

Every text a player reads is an English message id translated through a gettext catalog
(`i18n/locales/LANG/LC_MESSAGES/citta.po`, read with Babel) and then formatted with named
placeholders::

    >>> lang("de").n("{count} citizen", "{count} citizens", 2)
    '2 Bürger'
    >>> lang("en").t("Take 2 gold")
    'Take 2 gold'

Which language: what is private to a player (ephemeral replies, DMs, the panel) follows their
own choice (`/citta me language`) or else their Discord client's; what is public (channel posts
and their pictures) follows the game's language, chosen when it is opened (default: the
server's). `choose` takes the first supported language of a list of candidates.

In the bot, the language of what is being written is a context (`speaking`): the Discord
layer sets the reader's at the start of each interaction, and the service switches to the
game's for a public post or to a player's own for a direct message. Texts are written with
``_("…", name=…)`` and ``_n(singular, plural, count)``, which use it::

    >>> with speaking("de"):
    ...     _n("{count} citizen", "{count} citizens", 1)
    '1 Bürger'

The game's terms in each language are those of that language's rulebook
(`i18n/glossary.csv`, with where each was found). The move notation is never translated.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

from .catalogs import Lang, load

LANGUAGES = ("en", "de", "fr", "nl")
NAMES = {"en": "English", "de": "Deutsch", "fr": "Français", "nl": "Nederlands"}
DEFAULT = "en"
PSEUDO = "qps"
"""A pseudo-language for tests: every translated text comes back marked, so that text which
skipped translation stands out."""

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "NAMES",
    "N_",
    "PSEUDO",
    "Lang",
    "_",
    "_n",
    "choose",
    "current",
    "decimal",
    "either",
    "lang",
    "listing",
    "percent",
    "read_by",
    "speaking",
    "supported",
]  # fmt: skip

_speaking: ContextVar[str] = ContextVar("citta_language", default=DEFAULT)


def supported(locale: str | None) -> str | None:
    """Our language for a Discord or CLDR locale (``de``, ``en-GB``, ``fr_CA``, ``nl-BE``), or
    None when we do not speak it.

    >>> supported("en-US"), supported("nl"), supported("pt-BR"), supported(None)
    ('en', 'nl', None, None)
    """
    if not locale:
        return None
    code = locale.replace("_", "-").split("-")[0].lower()
    return code if code in LANGUAGES or code == PSEUDO else None


def choose(*candidates: str | None) -> str:
    """The first supported language among ``candidates`` (an override, the client's, the
    server's…), else English.

    >>> choose(None, "pt-BR", "de"), choose()
    ('de', 'en')
    """
    for candidate in candidates:
        code = supported(candidate)
        if code is not None:
            return code
    return DEFAULT


@lru_cache(maxsize=8)
def lang(code: str | None) -> Lang:
    """The translations of ``code`` (English for anything unsupported)."""
    return load(choose(code))


def current() -> Lang:
    """The language being written in (see `speaking`)."""
    return lang(_speaking.get())


def read_by(code: str | None) -> str:
    """From now on in this context (an interaction's task), write in ``code``'s language;
    returns the language chosen."""
    chosen = choose(code)
    _speaking.set(chosen)
    return chosen


@contextmanager
def speaking(code: str | None) -> Iterator[Lang]:
    """Write in ``code``'s language inside the block (a public post in the game's language, a
    direct message in its reader's), then go back to the language of before."""
    token = _speaking.set(choose(code))
    try:
        yield current()
    finally:
        _speaking.reset(token)


def _(message: str, /, **values: Any) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled from ``values``."""
    return current().t(message, **values)


def decimal(x: float) -> str:
    """``x`` with one decimal in the current language (`Lang.decimal`).

    >>> with speaking("de"):
    ...     decimal(3.14), decimal(-0.4)
    ('3,1', '−0,4')
    """
    return current().decimal(x)


def percent(share: float) -> str:
    """``share`` as a whole percentage in the current language (`Lang.percent`)."""
    return current().percent(share)


def _n(singular: str, plural: str, count: int, /, **values: Any) -> str:
    """The form for ``count`` in the current language (``{count}`` is filled in too)."""
    return current().n(singular, plural, count, **values)


def listing(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` in the current language."""
    if len(items) <= 1:
        return "".join(items)
    return _("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


def either(items: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c`` in the current language."""
    if len(items) <= 1:
        return "".join(items)
    return _("{items} or {last}", items=", ".join(items[:-1]), last=items[-1])


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs where it is defined (a constant); translate it with
    ``_`` where it is used."""
    return message
