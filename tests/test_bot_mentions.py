"""Commands named in messages: every `` `/citta …` `` the bot can say — each message of the source,
as the template holds it, and each of its translations — names a command the bot has (so a
renamed command cannot leave a message behind), and each is said as a mention a player taps, once
Discord knows the commands."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po
from discord import app_commands

from bot.client.commands import GROUPS
from bot.client.mentions import Mentions, unlink

ROOT = Path(__file__).resolve().parents[1]
NAMED = re.compile(r"`/(citta[a-z-]*(?: [a-z][a-z-]*)*)")


def _paths() -> set[str]:
    """Every command path the bot offers (``citta play``, ``citta me quiet``), and its groups
    (``citta``, ``citta me``: a message may name a group as a whole)."""
    found: set[str] = set()

    def walk(item: app_commands.Group | app_commands.Command[Any, ..., Any], prefix: str) -> None:
        path = f"{prefix} {item.name}".strip()
        found.add(path)
        if isinstance(item, app_commands.Group):
            for child in item.commands:
                walk(child, path)

    for group in GROUPS:
        walk(group, "")
    return found


def _named(text: str) -> list[str]:
    """The commands ``text`` names, each as the longest run of its words (arguments may follow)."""
    return [m for m in NAMED.findall(text)]


def _known(named: str, paths: set[str]) -> bool:
    words = named.split()
    return any(" ".join(words[:k]) in paths for k in range(len(words), 0, -1))


def test_every_command_a_message_names_is_one_the_bot_has() -> None:
    paths = _paths()
    assert {"citta new", "citta play", "citta me quiet", "citta status"} <= paths
    texts: list[tuple[str, str]] = []
    for catalog in [ROOT / "i18n" / "citta.pot", *sorted((ROOT / "i18n" / "locales").rglob("*.po"))]:
        for message in read_po(catalog.open("rb")):
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            texts += [(f"{catalog.name} {ids[0]!r}", s) for s in (*ids, *strings) if s]
    unknown = [(where, named) for where, text in texts for named in _named(text) if not _known(named, paths)]
    assert not unknown, unknown
    assert sum(len(_named(t)) for _, t in texts) > 100, "the check reads the messages"


def test_a_command_named_alone_becomes_a_mention_and_back() -> None:
    registry = Mentions()
    registry.learn({"citta": (77, sorted(_paths()))})
    said = registry.link("Start one with `/citta new`, or `/citta me quiet 22-08 UTC+1`.")
    assert said == "Start one with </citta new:77>, or `/citta me quiet 22-08 UTC+1`."
    assert unlink(said) == "Start one with `/citta new`, or `/citta me quiet 22-08 UTC+1`."
    assert Mentions().link("`/citta new`") == "`/citta new`", "named as typed while Discord is not asked yet"
