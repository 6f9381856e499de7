"""How players and phases are named on the image: short tags, clean names, phase titles, and
the words shared by the pictures and their alt texts (lists, terms, what a player must do).

Every text is written in the language being spoken (`i18n.speaking`, set by the entry points
`render_post` and `render_board`)."""

from __future__ import annotations

from engine.views import PlayerView, View
from i18n import N_, _, _n, either

from .fonts import clean

PHASES: dict[str, str] = {
    "setup": N_("Setup: placing castles"),
    "politics": N_("Political round"),
    "relocation": N_("Relocation"),
    "demolition": N_("Demolition"),
    "feeding": N_("Feeding"),
    "over": N_("Game over"),
}
"""Each phase's title (translate with ``_``)."""


def term(word: str) -> str:
    """A game term (a building, a service, a terrain: `engine.words.TERMS`) in the language spoken."""
    return _(word)


def capital(text: str) -> str:
    """``text`` with its first letter in upper case (``farm``: ``Farm``)."""
    return text[:1].upper() + text[1:]


def name(p: PlayerView) -> str:
    """The player's name in characters the font has (the seat number if none are left)."""
    s = clean(p.name).strip()
    return s if s.strip("?") else _("Player {number}", number=p.seat + 1)


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
    """(seat, what they must do) for every pending decision, one line per seat and kind: what
    follows the player's name after "Waiting for" (``Ann`` ``to play``)."""
    cities = city_names(view)
    out: list[tuple[int, str]] = []
    for d in view.decisions:
        city = cities.get(d.city or "", d.city or "")
        if d.kind == "turn":
            s = _("to play")
        elif d.kind == "castle":
            s = _("to place a castle")
        elif d.kind == "prefer":
            s = _(
                "to choose {services} for {city}", services=either([term(v) for v in d.services]), city=city
            )
        elif d.kind == "demolish":
            s = _("to demolish {count} in {city}", count=d.count, city=city)
        elif d.kind == "first":
            s = _("to choose which city takes first in relocation")
        else:
            s = _n("to send away {count} hungry citizen", "to send away {count} hungry citizens", d.count)
        if (d.seat, s) not in out:
            out.append((d.seat, s))
    return out
