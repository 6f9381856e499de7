"""What a seat knows of the voice of the people, and the odds of each possible voice."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import product

from ..components import SERVICES, VOICE_COPIES, Service
from ..state import GameState

Outcome = tuple[Service, ...]
"""A tallied voice: one service, or the two tied at 2–2."""


def known_voice(state: GameState, seat: int) -> list[Service | None]:
    """This year's four voice cards as ``seat`` knows them (face up, revealed or polled)."""
    if not state.voice:
        return []
    if state.voice_revealed:
        return list(state.voice)
    peek = state.players[seat].peek
    return [s if k == 0 else peek[k] for k, s in enumerate(state.voice)]


def unseen_voice(state: GameState, seat: int) -> Counter[Service]:
    """Voice cards ``seat`` has not seen: the deck less past years' cards and the known ones."""
    left: Counter[Service] = Counter({s: VOICE_COPIES for s in SERVICES})
    left.subtract(state.voice_used)
    left.subtract(s for s in known_voice(state, seat) if s is not None)
    return left


def outcome_of(cards: list[Service]) -> Outcome:
    """The voice of four cards (rules §4.6)."""
    counts = Counter(cards)
    top = max(counts.values())
    return tuple(s for s in SERVICES if counts[s] == top)


def voice_odds(state: GameState, seat: int) -> dict[Outcome, float]:
    """Probability of each voice this year from what ``seat`` knows (exact over the unseen cards)."""
    known = known_voice(state, seat)
    if not known:
        return {}
    if state.voice_result:
        return {tuple(state.voice_result): 1.0}
    left = unseen_voice(state, seat)
    return dict(_odds(tuple(known), tuple(left[s] for s in SERVICES)))


@lru_cache(maxsize=4096)
def _odds(known: tuple[Service | None, ...], unseen: tuple[int, ...]) -> tuple[tuple[Outcome, float], ...]:
    missing = [k for k, s in enumerate(known) if s is None]
    left = Counter(dict(zip(SERVICES, unseen, strict=True)))
    odds: dict[Outcome, float] = {}
    for combo in product(SERVICES, repeat=len(missing)):
        pool = Counter(left)
        total = sum(pool.values())
        p = 1.0
        for s in combo:
            if pool[s] <= 0 or total <= 0:
                p = 0.0
                break
            p *= pool[s] / total
            pool[s] -= 1
            total -= 1
        if p == 0.0:
            continue
        cards = [s for s in known if s is not None] + list(combo)
        out = outcome_of(cards)
        odds[out] = odds.get(out, 0.0) + p
    return tuple(sorted(odds.items()))
