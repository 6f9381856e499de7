"""The seeded generator: fixed outputs, so replays never depend on the Python version."""

from __future__ import annotations

from collections import Counter

from engine.rng import below, next_u64, seed_state, shuffle


def test_splitmix64_gives_its_reference_outputs() -> None:
    # Reference values of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
    state = seed_state(0)
    out = []
    for _ in range(3):
        state, x = next_u64(state)
        out.append(x)
    assert out == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_shuffle_is_a_permutation_and_depends_only_on_the_state() -> None:
    items = list(range(32))
    s1, a = shuffle(seed_state(42), items)
    s2, b = shuffle(seed_state(42), items)
    assert a == b and s1 == s2
    assert sorted(a) == items and a != items
    assert shuffle(seed_state(43), items)[1] != a


def test_below_is_uniform_enough() -> None:
    state = seed_state(1)
    counts: Counter[int] = Counter()
    for _ in range(6000):
        state, v = below(state, 6)
        counts[v] += 1
    assert set(counts) == set(range(6))
    assert all(800 < c < 1200 for c in counts.values())
