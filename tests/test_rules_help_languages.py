"""``/citta rules`` (and ``rules`` in local play) in every language: each topic in the reader's
language with that language's rulebook terms (`i18n/glossary.csv`) and the same notation as the
English, none empty or left English; local play leaves out what is about Discord."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from leftover_english import leftover_english

import i18n
from bot.local import rules as local_rules
from bot.service.rules_help import NAMES, ON_DISCORD, TOPICS, rules_text

TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]
GLOSSARY = {
    row["key"]: row
    for row in csv.DictReader((Path(__file__).parents[1] / "i18n" / "glossary.csv").open(encoding="utf-8"))
}
TERMS = {
    "cards": ["card_master_builder", "card_golden_times", "card_bread_and_games", "card_rich_harvest",
              "card_polling_the_people", "card_palace", "card_cathedral", "card_university"],
    "voice": ["voice_of_the_people"],
    "build": ["castle", "market"],
    "feeding": ["castle_plural", "farm_plural"],
}  # fmt: skip
"""Glossary rows whose term each topic must use in every language (as the rulebook writes it)."""


def notation(text: str) -> list[str]:
    return sorted(re.findall(r"`[^`]*`", text))


@pytest.mark.parametrize("topic", [*TOPICS, None])
@pytest.mark.parametrize("code", TRANSLATED)
def test_each_topic_is_in_the_readers_language_with_the_same_notation(code: str, topic: str | None) -> None:
    english = rules_text(topic)
    with i18n.speaking(code):
        text = rules_text(topic)
    assert text.strip() and text != english
    assert notation(text) == notation(english), "the notation is never translated"
    assert text.count("**") == english.count("**") == 2, "the title stays bold"
    assert leftover_english(text, code, ["La Città"]) == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_topic_and_its_name_has_a_translation(code: str) -> None:
    lang = i18n.lang(code)
    for key, text in [*TOPICS.items(), *ON_DISCORD.items(), *NAMES.items()]:
        assert lang.known(text), (code, key)


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_topics_use_the_rulebooks_terms(code: str) -> None:
    with i18n.speaking(code):
        for topic, keys in TERMS.items():
            text = rules_text(topic)
            for key in keys:
                assert GLOSSARY[key][code].lower() in text.lower(), (topic, GLOSSARY[key][code])


def test_in_the_pseudo_language_every_topic_is_one_marked_text() -> None:
    with i18n.speaking(i18n.PSEUDO):
        for topic in TOPICS:
            text = rules_text(topic)
            assert text.startswith("⟦**") and text.endswith("⟧"), text


@pytest.mark.parametrize("code", i18n.LANGUAGES)
def test_local_play_tells_the_same_rules_without_discord(code: str) -> None:
    with i18n.speaking(code):
        for topic in ON_DISCORD:
            assert "/citta" in rules_text(topic) and "/citta" not in local_rules(topic)
        scoring = rules_text("scoring").replace("**", "")
        assert local_rules("scoring") == local_rules(i18n.current().t(NAMES["scoring"])) == scoring
        refused = local_rules("bot")
    assert "bot" in refused
    if code != i18n.DEFAULT:
        assert refused != local_rules("bot"), "an unknown topic is refused in the reader's language"
