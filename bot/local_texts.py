"""What local play shows, in the current language: the greeting of a game started or resumed,
the table (the voice, the politics row, every player's position), the player's own line before
each question, the legal moves, the rules in short."""

from __future__ import annotations

from pathlib import Path

import i18n
from bot.local_cli import RULE_TOPICS, topic_names
from bot.service.rules_help import NAMES as TOPIC_NAMES
from bot.service.rules_help import topic_text
from bot.service.summary import when
from engine import Game
from engine.ai.hint import hint
from engine.components import POLITICS_TITLES
from engine.describe import describe
from engine.views import View
from i18n import N_, _, _n

CARD_TITLES = (N_("Palace"), N_("Hospital"), N_("Public Bath"), N_("Cathedral"), N_("University"))
"""The politics cards named after their buildings (the others' titles are `engine.words.TERMS`)."""


def opening(players: int, setup: str, seed: int, name: str | None) -> str:
    """The first line of a new game: the table, and who the player is (``name``; None: computers
    play every seat)."""
    if name is None:
        return _n(
            "La Città: {count} player, {setup}, seed {seed}; computers play every seat.",
            "La Città: {count} players, {setup}, seed {seed}; computers play every seat.",
            players,
            setup=setup,
            seed=seed,
        )
    return _n(
        "La Città: {count} player, {setup}, seed {seed}; you are {name}.",
        "La Città: {count} players, {setup}, seed {seed}; you are {name}.",
        players,
        setup=setup,
        seed=seed,
        name=name,
    )


def saved_where(path: Path) -> str:
    """Where a new game is saved (and that it replaces the game saved there, if any)."""
    if path.exists():
        return _(
            "The game is saved after every move in {path} (it replaces the game saved there before).",
            path=path,
        )
    return _("The game is saved after every move in {path}.", path=path)


def resumed(path: Path, seed: int, made: int, name: str | None, now: str) -> str:
    """The first line of a resumed game: which, how far it is (``now``), who the player is."""
    if name is None:
        return _n(
            "Resumed {path}: seed {seed}, {count} move made, computers play every seat. {when}. "
            "What happened last:",
            "Resumed {path}: seed {seed}, {count} moves made, computers play every seat. {when}. "
            "What happened last:",
            made, path=path, seed=seed, when=now,
        )  # fmt: skip
    return _n(
        "Resumed {path}: seed {seed}, {count} move made, you are {name}. {when}. What happened last:",
        "Resumed {path}: seed {seed}, {count} moves made, you are {name}. {when}. What happened last:",
        made, path=path, seed=seed, name=name, when=now,
    )  # fmt: skip


def rules(topic: str) -> str:
    """The short rules of ``topic`` (from ``/citta rules``, without what is about Discord), by
    its key or its name in the current language."""
    typed = " ".join(topic.split()).lower()
    key = typed or "overview"
    if key not in RULE_TOPICS:
        key = next((k for k in RULE_TOPICS if _(TOPIC_NAMES[k]).lower() == typed), "")
    if not key:
        return _("No rules on {topic}. Topics: {topics}.", topic=repr(topic), topics=", ".join(topic_names()))
    return topic_text(key).replace("**", "")


def voice_text(view: View) -> str:
    """This year's voice as the viewer knows it: the face-up card, then the face-down ones
    (``?`` unless revealed, or polled by the viewer)."""
    if not view.voice or view.voice[0] is None:
        return _("not drawn yet")
    if all(s is not None for s in view.voice):
        return _(
            "{cards}: the people want {wanted}",
            cards=", ".join(_(s or "") for s in view.voice),
            wanted=i18n.listing([_(s) for s in view.voice_result]),
        )
    down = " ".join(_(s) if s else "?" for s in [s or view.peek[k] for k, s in enumerate(view.voice)][1:])
    polled = [str(k) for k in range(1, 4) if view.voice[k] is None and view.peek[k] is not None]
    if polled:
        return _(
            "{up}, face down {down} (you polled {polled})",
            up=_(view.voice[0]),
            down=down,
            polled=i18n.listing(polled),
        )
    return _("{up}, face down {down}", up=_(view.voice[0]), down=down)


def card_name(verb: str) -> str:
    """A politics card of the row: its title in the current language, with the verb that plays
    it when they differ (``Master Builder (master)``)."""
    title = _(POLITICS_TITLES.get(verb, verb))
    return title if title.lower() == verb else f"{title} ({verb})"


def food_text(food: int, citizens: int, warn: bool = False) -> str:
    """``food 6 for 8 citizens`` (with ``⚠ short`` when ``warn`` and they are more than the food)."""
    if warn and citizens > food:
        return _n(
            "food {food} for {count} citizen ⚠ short",
            "food {food} for {count} citizens ⚠ short",
            citizens,
            food=food,
        )
    return _n("food {food} for {count} citizen", "food {food} for {count} citizens", citizens, food=food)


def status_lines(v: View) -> list[str]:
    """The table (``status``): the year and the voice, the politics row, then each player."""
    lines = [
        _("{when}. Voice: {voice}", when=when(v), voice=voice_text(v)),
        _("Politics row: {cards}", cards=", ".join(card_name(c) for c in v.politics_row)),
    ]
    for p in v.players:
        cities = ", ".join(
            _(
                "{city} {castle} pop {population}/{limit}",
                city=c.name,
                castle=c.castle,
                population=c.population,
                limit=c.limit or "∞",
            )
            for c in p.cities
        )
        lines.append(
            "  "
            + _(
                "{name}: gold {gold}, {food}, {cards}, {notables}; {cities}",
                name=p.name,
                gold=p.gold,
                food=food_text(p.food, p.citizens),
                cards=_n("{count} action card", "{count} action cards", p.action_cards),
                notables=_n("{count} notable", "{count} notables", p.notables),
                cities=cities,
            )
        )
    return lines


def brief(v: View, seat: int) -> str:
    """One line on ``seat``'s own position, shown before each question."""
    me = v.players[seat]
    return _(
        "[{when}] gold {gold}, {food}, {cards}; voice {voice}; row: {row}",
        when=when(v),
        gold=me.gold,
        food=food_text(me.food, me.citizens, warn=True),
        cards=_n("{count} action card", "{count} action cards", me.action_cards),
        voice=voice_text(v),
        row=", ".join(v.politics_row),
    )


def move_lines(game: Game, seat: int, prefix: str) -> list[str]:
    """``?``: the legal moves of ``seat`` that start with ``prefix``, each with what it does, and
    how many they are."""
    words = i18n.current()
    moves = [m for m in game.legal_moves(seat) if str(m).startswith(prefix)]
    lines = [f"  {describe(game, seat, m, words=words)}" for m in moves]
    return [*lines, "  " + _n("({count} move)", "({count} moves)", len(moves))]


def hint_text(game: Game, seat: int, seed: int) -> str:
    """``hint``: the move the strong computer player would make for ``seat``, and why (from their
    view; ``seed``: the computer players'), or that nothing is asked of them now."""
    if not game.legal_moves(seat):
        return "  " + _("Nothing is asked of you now.")
    found = hint(game, seat, seed=seed, words=i18n.current())
    return "\n".join(f"  {line}" for line in found.text().splitlines())
