"""End-to-end: a whole game through the fake Discord with German (then French, then Dutch)
clients on a server of that language — by taps, with the commands a player reads around it —
shows no English word outside the notation (in backticks) and the names (players, cities), in
any message, any version of a message, label, option, placeholder, autocomplete choice or alt
text. The same run in the pseudo-language ``qps`` (every translated text comes back ⟦marked⟧)
finds no text that skipped translation at all.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord, FakeMessage
from fakediscord import components as comps
from fakediscord.fixtures import fake_discord
from leftover_english import leftover_english, without_moves
from test_e2e_support import citta_bot
from test_e2e_taps import Tapper, open_game

from engine.components import CITY_NAMES

__all__ = ["fake_discord"]

COMMANDS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("citta status", {}), ("citta log", {}), ("citta rules", {}), ("citta rules", {"topic": "voice"}),
    ("citta hint", {}), ("citta describe", {}), ("citta board", {}), ("citta settings", {}),
    ("citta me quiet", {}), ("citta secrets", {}), ("citta score", {}), ("citta panel", {}),
    ("citta play", {"move": "build farm Z99"}), ("citta play", {"move": "gold please"}),
    ("citta undo", {}), ("citta recap", {}),
)  # fmt: skip
"""What a player may ask during the game (two of them refused moves), each answered privately
or in the channel."""
AFTER: tuple[tuple[str, dict[str, Any]], ...] = (
    ("citta score", {}), ("citta leaderboard", {}), ("citta stats", {}), ("citta games", {}),
    ("citta log", {}), ("citta export", {}),
)  # fmt: skip


def _component_texts(components: list[dict[str, Any]]) -> Iterator[str]:
    for _, comp in comps.walk(components):
        for key in ("content", "label", "placeholder", "description"):
            if isinstance(comp.get(key), str):
                yield comp[key]
        for option in comp.get("options", []):
            yield option.get("label", "")
            yield option.get("description") or ""
        for item in comp.get("items", []):
            yield item.get("description") or ""


def everything_read(fake: FakeDiscord) -> Iterator[tuple[FakeMessage, str]]:
    """Every text of every message the bot sent, in every version it was ever shown."""
    for msg in fake.store.messages.values():
        if not msg.author.bot:
            continue
        now = {"content": msg.content, "embeds": msg.embeds, "components": msg.components,
               "descriptions": [a.description for a in msg.attachments]}  # fmt: skip
        for version in [*msg.versions, now]:
            yield msg, version.get("content") or ""
            for embed in version.get("embeds") or []:
                yield msg, " ".join(str(embed.get(k) or "") for k in ("title", "description"))
                for f in embed.get("fields", []):
                    yield msg, f"{f.get('name', '')} {f.get('value', '')}"
            for text in _component_texts(version.get("components") or []):
                yield msg, text
            for description in version.get("descriptions") or []:
                yield msg, description or ""


async def _play_a_game(fake: FakeDiscord, tmp_path: Path, code: str) -> tuple[list[str], list[str]]:
    """A 3-player game (two humans, one computer) in ``code``: the texts of the autocomplete
    choices, and the names that may stay as they are."""
    fake.store.guild_locale = code
    alice, bob = fake.user("alice"), fake.user("bob")
    alice.locale = bob.locale = code
    choices: list[str] = []
    async with citta_bot(fake, tmp_path / "citta.db", seed=23) as bot:
        game_id = await open_game(fake, alice, [bob], computers=1)
        for user in (alice, bob):
            offered = await fake.autocomplete(user, "citta play", focused="move", value="")
            choices += [c["name"] for c in offered]
        for command, options in COMMANDS:
            await (await fake.slash(alice, command, **options)).wait_message()
        tapper = Tapper(fake, bot, game_id, random.Random(7), played="✅")
        await tapper.play_out()
        await bot.deliverer.settle()
        for command, options in AFTER:
            await (await fake.slash(bob, command, **options)).wait_message()
        seats = await bot.service.storage.games.seats(game_id)
    names = [*CITY_NAMES, *(s.name for s in seats), *(u.name for u in fake.store.members)]
    return choices, names


@pytest.mark.parametrize("code", ["de", "fr", "nl"])
async def test_a_game_in_the_readers_language_shows_no_english(
    fake_discord: FakeDiscord, tmp_path: Path, code: str
) -> None:
    choices, names = await _play_a_game(fake_discord, tmp_path, code)
    found: dict[str, list[str]] = {}
    for where, text in [*(("autocomplete", c) for c in choices),
                        *((repr(m), t) for m, t in everything_read(fake_discord))]:  # fmt: skip
        words = leftover_english(text, code, names)
        if words:
            found.setdefault(" ".join(words), []).append(f"{where}: {text[:160]!r}")
    assert not found, "\n".join(f"{w} ← {places[0]} (+{len(places) - 1})" for w, places in found.items())


_MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
_CUT = re.compile(r"⟦[^⟧]*$")
"""A mark a text was cut in (at Discord's length limits, with …)."""
_MARKUP = re.compile(r"`[^`]*`|<(?:@[!&]?|#|t:|a?:\w+:)[^>]*>|https?://\S+")
_REST = re.compile(r"\b[A-Q]\d{1,2}\b|[^\w]+|\d+", re.UNICODE)


def unmarked(text: str, names: list[str]) -> str:
    """What is left of ``text`` outside ⟦marks⟧, the notation, markup, names and numbers."""
    rest = text
    while True:  # marks nest (a translated term inside a translated message)
        stripped = _MARKED.sub(" ", rest)
        if stripped == rest:
            break
        rest = stripped
    rest = without_moves(_MARKUP.sub(" ", _CUT.sub(" ", rest)))
    for name in sorted(names, key=len, reverse=True):
        rest = rest.replace(name, " ")
    return " ".join(w for w in _REST.sub(" ", rest).split() if len(w) > 1)


async def test_a_game_in_the_pseudo_language_has_nothing_untranslated(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    choices, names = await _play_a_game(fake_discord, tmp_path, "qps")
    names += ["La Città", "Alice", "Bob"]
    found: dict[str, str] = {}
    for where, text in [*(("autocomplete", c) for c in choices),
                        *((repr(m), t) for m, t in everything_read(fake_discord))]:  # fmt: skip
        rest = unmarked(text, names)
        if rest:
            found.setdefault(rest[:60], f"{where}: {text[:160]!r}")
    assert not found, "\n".join(f"{k!r} ← {v}" for k, v in found.items())
