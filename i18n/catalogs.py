"""Loading the gettext catalogs with Babel, and `Lang`: translate, then format.

The ``.po`` files are the source (translators edit them; `docs/translating.md` says how they
are extracted and updated); each is compiled in memory when first used, with Babel's own
reader and writer, so there is no build step and no compiled file to drift from its source.
Fuzzy entries are not used: their message stays English until a translator confirms it.
"""

from __future__ import annotations

import gettext
import io
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_percent, get_decimal_symbol
from babel.support import Translations

DOMAIN = "citta"
LOCALES = Path(__file__).parent / "locales"
OPEN, CLOSE = "⟦", "⟧"
"""How the pseudo-language marks a translated text."""


def po_path(code: str) -> Path:
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def compiled(code: str) -> tuple[gettext.NullTranslations, frozenset[str]]:
    """The catalog of ``code`` and the messages it translates (none for English: the message
    ids are English)."""
    path = po_path(code)
    if code == "en" or not path.exists():
        return gettext.NullTranslations(), frozenset()
    with path.open("rb") as f:
        catalog = read_po(f, locale=code, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    ids = frozenset(
        m.id if isinstance(m.id, str) else m.id[0]
        for m in catalog
        if m.id and m.string and "fuzzy" not in m.flags
    )
    return Translations(buf, DOMAIN), ids


class Lang:
    """One language: ``t`` translates a message, ``n`` one with a count (its plural forms)."""

    def __init__(
        self, code: str, catalog: gettext.NullTranslations, ids: frozenset[str] = frozenset()
    ) -> None:
        self.code = code
        self.catalog = catalog
        self.ids = ids

    def t(self, message: str, /, **values: Any) -> str:
        """``message`` in this language, its ``{placeholders}`` filled from ``values`` (without
        values it is not formatted: braces stay as they are)."""
        if not message:  # gettext's "" is the catalog's header
            return message
        text = self._mark(self.catalog.gettext(message))
        return text.format(**values) if values else text

    def n(self, singular: str, plural: str, count: int, /, **values: Any) -> str:
        """The form of ``singular``/``plural`` for ``count`` in this language (``{count}`` is
        filled in too)."""
        return self._mark(self.catalog.ngettext(singular, plural, count)).format(count=count, **values)

    def decimal(self, x: float) -> str:
        """``x`` with one decimal as this language writes it (``3.1`` in English, ``3,1`` in German,
        French and Dutch), a true minus sign before a negative one (``−0.4``); rounded as Python's
        ``f"{x:.1f}"`` rounds it, whatever the language."""
        return f"{x:.1f}".replace(".", get_decimal_symbol(self._numbers)).replace("-", "−")

    def percent(self, share: float) -> str:
        """``share`` (0.45) as a whole percentage as this language writes it (``45%``, ``45 %``),
        rounded as ``f"{share:.0%}"`` rounds it."""
        return format_percent(int(f"{share:.0%}"[:-1]) / 100, locale=self._numbers)

    @property
    def _numbers(self) -> str:
        """The locale whose numbers this language writes (the pseudo-language's: English)."""
        return "en" if self.code == "qps" else self.code

    def known(self, message: str) -> str | None:
        """``message`` translated, or None when this language's catalog lacks it."""
        if self.code == "en":
            return message
        return self._mark(self.catalog.gettext(message)) if message in self.ids else None

    def _mark(self, text: str) -> str:
        return text

    def __repr__(self) -> str:
        return f"Lang({self.code!r})"


class Pseudo(Lang):
    """The pseudo-language: English, every translated text marked ⟦like this⟧."""

    def _mark(self, text: str) -> str:
        return f"{OPEN}{text}{CLOSE}"

    def known(self, message: str) -> str | None:
        return self._mark(message)


def load(code: str) -> Lang:
    if code == "qps":
        return Pseudo(code, gettext.NullTranslations())
    return Lang(code, *compiled(code))
