"""A small seeded generator (SplitMix64) and a Fisher–Yates shuffle on it.

The generator's whole state is one integer kept in the game state, so a seed plus the
move list replays a game exactly, on any Python version.

>>> shuffle(seed_state(7), [1, 2, 3, 4])[1]
[2, 3, 1, 4]
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for a seed (any integer)."""
    return seed & MASK64


def next_u64(state: int) -> tuple[int, int]:
    """Advance the state; return ``(new_state, 64 random bits)``."""
    state = (state + GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """An unbiased integer in ``[0, n)`` by rejection; returns ``(new_state, value)``."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, x = next_u64(state)
        if x < limit:
            return state, x % n


def shuffle(state: int, items: list[T]) -> tuple[int, list[T]]:
    """Fisher–Yates: a shuffled copy of ``items`` and the new state."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, out
