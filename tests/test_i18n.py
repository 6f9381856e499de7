"""The catalogs: every message in every language, the same placeholders, up to date with the
source; the slash commands localised within Discord's limits; choosing a language."""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import i18n
from bot.client.bot import CittaBot
from bot.client.translator import CittaTranslator
from i18n.catalogs import po_path

ROOT = Path(__file__).parent.parent
TEMPLATE = ROOT / "i18n" / "citta.pot"
KEYWORDS = {"t": None, "n": (1, 2), "_": None, "_n": (1, 2), "N_": None}
"""The markers `docs/translating.md` extracts with
(``pybabel extract -k t -k n:1,2 -k _ -k _n:1,2 -k N_``)."""
TRANSLATED = [code for code in i18n.LANGUAGES if code != "en"]


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _ids(catalog: Catalog) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


def test_the_template_holds_every_message_of_the_source() -> None:
    found = {
        (msg if isinstance(msg, str) else msg[0])
        for package in ("bot", "render", "engine", "i18n")
        for _, _, msg, *_ in extract_from_dir(ROOT / package, keywords=KEYWORDS)
    }
    assert found == _ids(_read(TEMPLATE)), "run the extraction in docs/translating.md"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(code: str) -> None:
    catalog = _read(po_path(code), code)
    assert _ids(catalog) == _ids(_read(TEMPLATE)), f"update {code} from the template"
    for msg in catalog:
        if not msg.id:
            continue
        ids = (msg.id,) if isinstance(msg.id, str) else msg.id
        strings = (msg.string,) if isinstance(msg.string, str) else msg.string
        assert strings is not None and "fuzzy" not in msg.flags and all(strings), (code, msg.id)
        expected = set().union(*map(_fields, ids)) - {"count"}
        for text in strings:
            assert _fields(text) - {"count"} == expected, (code, msg.id, text)


def test_a_language_is_chosen_from_an_override_the_client_and_the_server() -> None:
    assert i18n.choose("nl", "de-DE", "fr") == "nl"
    assert i18n.choose(None, "de", "fr") == "de"
    assert i18n.choose(None, "ja", "fr") == "fr"
    assert i18n.choose(None, "ja", None) == "en"


def test_the_pseudo_language_marks_what_was_translated() -> None:
    assert i18n.lang(i18n.PSEUDO).t("Take 2 gold") == "⟦Take 2 gold⟧"


async def _payloads(tmp_path: Path) -> list[dict[str, Any]]:
    bot = CittaBot(db_path=tmp_path / "bot.db", renderer=None, sync_commands=False)
    try:
        await bot.__aenter__()
        await bot.setup_hook()
        translator = CittaTranslator()
        return [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]
    finally:
        await bot.close()


def _localised(payload: dict[str, Any]) -> list[tuple[str, dict[str, str]]]:
    """Every (English text, its localisations) of a command payload, at any depth."""
    found = [(payload["description"], payload.get("description_localizations") or {})]
    for choice in payload.get("choices", []):
        found.append((choice["name"], choice.get("name_localizations") or {}))
    for option in payload.get("options", []):
        found += _localised(option)
    return found


async def test_every_command_description_and_choice_is_localised_within_discords_limits(
    tmp_path: Path,
) -> None:
    texts = [t for p in await _payloads(tmp_path) for t in _localised(p)]
    assert len(texts) > 60
    for english, localised in texts:
        if english in i18n.NAMES.values():
            assert not localised, "each language is named in its own words, for every reader"
            continue
        assert set(localised) == {"de", "fr", "nl"}, (english, localised)
        assert all(0 < len(text) <= 100 for text in localised.values()), localised
