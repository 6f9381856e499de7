"""How players and phases are named on the image: short tags, clean names, phase titles."""

from __future__ import annotations

from engine.views import PlayerView, View

from .fonts import clean

PHASES: dict[str, str] = {
    "setup": "Setup: placing castles",
    "politics": "Political round",
    "relocation": "Relocation",
    "demolition": "Demolition",
    "feeding": "Feeding",
    "over": "Game over",
}


def name(p: PlayerView) -> str:
    """The player's name in characters the font has (the seat number if none are left)."""
    s = clean(p.name).strip()
    return s if s.strip("?") else f"Player {p.seat + 1}"


def tags(players: list[PlayerView]) -> list[str]:
    """A distinct short tag per player (the initial, longer only to break a tie)."""
    names = [name(p).replace(" ", "") or "?" for p in players]
    for n in (1, 2):
        out = [s[:n].capitalize() for s in names]
        if len(set(out)) == len(out) and all(o.isalnum() for o in out):
            return out
    return [str(p.seat + 1) for p in players]


def city_names(view: View) -> dict[str, str]:
    """City name by castle hex."""
    return {c.castle: clean(c.name) for p in view.players for c in p.cities}


def decision_text(view: View) -> list[tuple[int, str]]:
    """(seat, what they must do) for every pending decision, one line per seat and kind."""
    cities = city_names(view)
    out: list[tuple[int, str]] = []
    for d in view.decisions:
        city = cities.get(d.city or "", d.city or "")
        if d.kind == "turn":
            s = "to play"
        elif d.kind == "castle":
            s = "to place a castle"
        elif d.kind == "prefer":
            s = f"to choose {' or '.join(d.services)} for {city}"
        elif d.kind == "demolish":
            s = f"to demolish {d.count} in {city}"
        elif d.kind == "first":
            s = "to choose which city takes first in relocation"
        else:
            s = f"to send away {d.count} hungry citizen{'s' if d.count != 1 else ''}"
        if (d.seat, s) not in out:
            out.append((d.seat, s))
    return out
