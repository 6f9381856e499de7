"""Full game states built from one seat's view, with the hidden parts sampled.

A computer player never reads the real state's secrets. It rebuilds a `GameState` from its
`View` and fills in what it cannot see — the face-down voice cards it has not polled, the
voice cards of later years, the politics draw pile and discard, the generator — with a
sample consistent with the view: cards are drawn from those it has not seen. Other seats'
polled cards are unknown to it, so in the sample no one else has polled.
"""

from __future__ import annotations

import random
from collections import Counter

from ..components import POLITICS_COPIES, SERVICES, VOICE_COPIES, Service
from ..state import Area, Building, City, Decision, GameState, PlayerState, no_peek
from ..views import View


def _shuffled(rng: random.Random, counts: Counter[str]) -> list[str]:
    cards = [c for c in sorted(counts) for _ in range(max(0, counts[c]))]
    rng.shuffle(cards)
    return cards


def unseen_politics(view: View) -> Counter[str]:
    """Politics cards not face up in the row (the pile, the discard and this year's played)."""
    left: Counter[str] = Counter(POLITICS_COPIES)
    left.subtract(view.politics_row)
    return left


def unseen_voice_cards(view: View) -> Counter[Service]:
    """Voice cards the viewer has not seen: the deck less past years' and the known ones."""
    left: Counter[Service] = Counter({s: VOICE_COPIES for s in SERVICES})
    left.subtract(view.voice_discard)
    left.subtract(_known_voice(view))
    return left


def _known_voice(view: View) -> list[Service]:
    known = [s if s is not None else view.peek[k] for k, s in enumerate(view.voice)]
    return [s for s in known if s is not None]


def determinize(view: View, rng: random.Random) -> GameState:
    """A full state consistent with ``view``; its hidden parts drawn with ``rng``."""
    seat = view.viewer
    assert seat is not None, "a computer player needs a seat's view"
    n = view.player_count
    players = [
        PlayerState(
            seat=p.seat, name=p.name, gold=p.gold, action_cards=p.action_cards, notables=p.notables,
            hunger=p.hunger, hunger_vp=p.hunger_vp, founded_this_year=p.founded_this_year,
            peek=list(view.peek) if p.seat == seat else no_peek(),
        )
        for p in view.players
    ]  # fmt: skip
    cities = [
        City(
            id=c.id, name=c.name, owner=c.owner, castle=c.castle, population=c.population,
            buildings=[Building(hex=b.hex, kind=b.kind, notables=dict(b.notables), harvest=b.harvest)
                       for b in c.buildings],
        )
        for p in view.players
        for c in p.cities
    ]  # fmt: skip
    cities.sort(key=lambda c: c.id)
    voice = _sample_voice(view, rng)
    politics = _shuffled(rng, unseen_politics(view))
    pile, rest = politics[: view.politics_pile], politics[view.politics_pile :]
    discard, used = rest[: view.politics_discard], rest[view.politics_discard :]
    turn_index = 0 if view.turn is None else (view.turn - view.start_player) % n
    return GameState(
        setup=view.setup,
        seed=0,
        rng=rng.getrandbits(64),
        players=players,
        areas=[Area(id=a.id, terrain=a.terrain, wheat=a.wheat) for a in view.areas],
        cities=cities,
        next_city_id=max((c.id for c in cities), default=0) + 1,
        year=view.year,
        phase=view.phase,
        round=view.round,
        start_player=view.start_player,
        turn_index=turn_index,
        politics_row=list(view.politics_row),
        politics_pile=pile,
        politics_discard=discard,
        politics_used=used,
        voice_pile=voice[1],
        voice=voice[0],
        voice_revealed=bool(view.voice) and all(s is not None for s in view.voice),
        voice_result=list(view.voice_result),
        voice_used=list(view.voice_discard),
        supply_citizens=view.supply.citizens,
        pending=[Decision(**d.model_dump()) for d in view.decisions],
        relocation_queue=[],
    )


def _sample_voice(view: View, rng: random.Random) -> tuple[list[Service], list[Service]]:
    """This year's four cards (known ones kept) and the rest of the voice pile, sampled."""
    unseen = unseen_voice_cards(view)
    cards: list[Service] = [s for s in SERVICES for _ in range(max(0, unseen[s]))]
    rng.shuffle(cards)
    if not view.voice or all(s is None for s in view.voice):
        return [], cards
    this_year: list[Service] = []
    for k, s in enumerate(view.voice):
        known = s if s is not None else view.peek[k]
        this_year.append(known if known is not None else cards.pop())
    return this_year, cards
