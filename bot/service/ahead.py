"""Answers ahead (part of the service layer): a player's standing answers to the decisions asked
outside their turn — which service a city with a tied voice uses (``prefer``), which of their cities
takes first in relocation (``first``), who leaves for hunger (``starve``), what is demolished
(``demolish``) — applied by the bot the moment such a decision arises, announced in the channel as
that player's move, so that a game never waits on them for it (``/citta me ahead``). This module
holds what an answer is and what it plays (also in a worker); `bot.service.standing` the use case.

An answer is ``computer``: the strong computer player decides for them from their seat's own view
(`engine.ai.choose` reads only ``game.view(seat)``: nothing is decided from what the player could
not see), as at a deadline under the policy ``computer``; or, for ``prefer`` only, an order of the
services: the first of them that the decision offers. Turns and starting castles are never
answered ahead. A player answers ahead only in the games where they still play their own seat (a
resigned or away seat is the bot's anyway).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import Action, Game
from engine.ai import choose
from engine.components import SERVICES
from engine.decisions import answers
from i18n import N_

KINDS = ("prefer", "first", "starve", "demolish")
"""The decisions asked outside one's turn, which may be answered ahead."""
COMPUTER = "computer"
"""The answer "let the strong computer decide for me"."""
LEVEL = "strong"
KIND_NAMES = {
    "prefer": N_("which service a city with a tied voice uses"),
    "first": N_("which of your cities takes first in relocation"),
    "starve": N_("who leaves for hunger"),
    "demolish": N_("what is demolished"),
}
"""Each kind, in words."""


def services_order(text: str) -> tuple[str, ...] | None:
    """The services named in ``text`` (separated by spaces, commas or ``>``), in that order, each
    once; None when it names something else or none.

    >>> services_order("health, education > culture")
    ('health', 'education', 'culture')
    >>> services_order("health gold") is None
    True
    """
    words = text.lower().replace(",", " ").replace(">", " ").split()
    if not words or any(w not in SERVICES for w in words):
        return None
    return tuple(dict.fromkeys(words))


def covered(game: Game, seat: int, ahead: Mapping[str, str]) -> bool:
    """Whether everything ``seat`` is asked now has a standing answer in ``ahead``."""
    decisions = game.pending_decisions(seat)
    return bool(decisions) and all(d.kind in KINDS and d.kind in ahead for d in decisions)


def answer(game: Game, seat: int, ahead: Mapping[str, str], seed: int) -> Action:
    """The move ``seat``'s standing answer makes now (`covered` must hold): for its first decision,
    the first service of its order that the decision offers, else the strong computer's choice."""
    decision = game.pending_decisions(seat)[0]
    rule = ahead[decision.kind]
    order = services_order(rule) if decision.kind == "prefer" and rule != COMPUTER else None
    if order:
        moves = [a for a in game.legal_moves(seat) if answers(game.state, decision, a)]
        for service in order:
            picked = next((a for a in moves if a.service == service), None)
            if picked is not None:
                return picked
    return choose(game, seat, LEVEL, seed=seed)


def answer_stored(snapshot: dict[str, Any], record: dict[str, Any], seat: int, ahead: dict[str, str],
                  seed: int) -> Action:  # fmt: skip
    """`answer` on a stored position (runs in a worker)."""
    return answer(Game.restore(snapshot, record), seat, ahead, seed)
