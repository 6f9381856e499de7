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

The game's terms in each language are those of that language's rulebook
(`i18n/glossary.csv`, with where each was found). The move notation is never translated.
"""

from __future__ import annotations

from functools import lru_cache

from .catalogs import Lang, load

LANGUAGES = ("en", "de", "fr", "nl")
NAMES = {"en": "English", "de": "Deutsch", "fr": "Français", "nl": "Nederlands"}
DEFAULT = "en"
PSEUDO = "qps"
"""A pseudo-language for tests: every translated text comes back marked, so that text which
skipped translation stands out."""

__all__ = ["DEFAULT", "LANGUAGES", "NAMES", "PSEUDO", "Lang", "choose", "lang", "supported"]


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
