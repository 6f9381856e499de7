"""The politics cards: the face-up row of 7, the draw pile and the discard (rules §3.4, §5, §4.9)."""

from __future__ import annotations

from .components import POLITICS_TITLES
from .events import Events
from .rng import shuffle
from .state import GameState, put
from .words import N_

ROW_SIZE = 7


def draw(state: GameState, ev: Events) -> str | None:
    """The top card of the pile; an empty pile is first refilled from the shuffled discard."""
    if not state.politics_pile and state.politics_discard:
        state.rng, state.politics_pile = shuffle(state.rng, state.politics_discard)
        state.politics_discard = []
        ev.add("reshuffle", N_("The politics discard is shuffled into a new draw pile."), {})
    if not state.politics_pile:
        return None
    return state.politics_pile.pop(0)


def take_from_row(state: GameState, card: str, ev: Events) -> None:
    """Play a face-up card: it is set aside for this year and its slot refilled at once."""
    slot = state.politics_row.index(card)
    state.politics_used.append(card)
    new = draw(state, ev)
    if new is None:
        del state.politics_row[slot]
        ev.add("refill", N_("The politics row is not refilled: no card is left."), {})
    else:
        state.politics_row[slot] = new
        ev.add(
            "refill",
            N_("{card} comes into the politics row."),
            {"card": POLITICS_TITLES[new]},
            reveals=True,
            data={"card": new},
        )


def draw_for_pass(state: GameState, seat: int, ev: Events) -> None:
    """Passing: the top card is taken face down as this round's card; it has no effect."""
    name = state.players[seat].name
    card = draw(state, ev)
    if card is None:
        ev.add("pass", N_("{name} passes (no politics card is left to draw)."), {"name": name}, seat=seat)
        return
    state.politics_used.append(card)
    ev.add(
        "pass",
        N_("{name} passes and draws a politics card face down."),
        {"name": name},
        seat=seat,
        reveals=True,
    )
    ev.add(
        "draw",
        N_("You drew {card} (no effect)."),
        {"card": POLITICS_TITLES[card]},
        seat=seat,
        private_to=seat,
        data={"card": card},
    )


def end_of_year(state: GameState) -> None:
    """Cards played or drawn this year go to the discard (§4.9)."""
    state.politics_discard.extend(state.politics_used)
    put(state, "politics_used", [])
