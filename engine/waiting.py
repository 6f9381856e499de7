"""Whom a game waits for, in a sentence: "Waiting for Ann to play a turn (…)." (`Game.waiting_for`,
and the refusal of a move made out of turn)."""

from __future__ import annotations

from .decisions import asked
from .placement import PHRASE_AND
from .state import GameState
from .words import N_, PHRASE, Phrase, chain

PHRASE_THEN = N_("{first}; {second}")


def waiting(state: GameState) -> Phrase:
    """Who must act and for what (each seat once, in the order of its first pending decision)."""
    if state.phase == "over":
        return PHRASE.t("The game is over.")
    seats = dict.fromkeys(d.seat for d in state.pending)
    parts = [
        PHRASE.t("{name} to {asked}", name=state.players[s].name, asked=chain(PHRASE_AND, asked(state, s)))
        for s in seats
    ]
    return PHRASE.t("Waiting for {seats}.", seats=chain(PHRASE_THEN, parts))
