"""Setting up a game: terrain, decks, players, and the starting castles (rules §3).

The beginner layout below was chosen by a search over layouts so that, for every player
count, each player's two castles produce the same food, all castles keep the founding
distance and stand in the playable zones, and each player has a lake or a mountain near.
`tests/test_setup.py` checks those properties.
"""

from __future__ import annotations

from .board import EDGE_TERRAIN, TILE_SLOTS
from .components import (
    ACTION_CARDS,
    CITIZENS_TOTAL,
    NOTABLES_PER_PLAYER,
    START_GOLD,
    Terrain,
    politics_deck,
    voice_deck,
)
from .rng import below, seed_state, shuffle
from .state import Area, GameState, PlayerState, SetupKind

TILES: tuple[tuple[Terrain, int], ...] = (
    *(("farmland", 1),) * 6,
    *(("farmland", 2),) * 7,
    ("farmland", 3),
    *(("lake", 0),) * 5,
    *(("mountain", 0),) * 3,
)
"""The 22 terrain tiles: 14 farmland (6×1, 7×2, 1×3 wheat), 5 lakes, 3 mountains."""

BEGINNER_TERRAIN: tuple[tuple[Terrain, int], ...] = (
    ("lake", 0), ("farmland", 1), ("farmland", 1), ("mountain", 0), ("farmland", 2),
    ("farmland", 1), ("mountain", 0), ("farmland", 2), ("farmland", 2), ("farmland", 2),
    ("lake", 0), ("farmland", 3), ("lake", 0), ("farmland", 2), ("lake", 0),
    ("farmland", 2), ("lake", 0), ("mountain", 0), ("farmland", 1), ("farmland", 1),
    ("farmland", 2), ("farmland", 1),
)  # fmt: skip
"""The fixed beginner layout, one tile per slot in the order of `board.TILE_SLOTS`."""

BEGINNER_CASTLES: dict[int, tuple[tuple[str, str], ...]] = {
    2: (("F6", "K9"), ("J6", "I13")),
    3: (("L11", "C12"), ("E5", "J4"), ("J9", "E2")),
    4: (("J3", "F5"), ("J9", "D9"), ("F13", "M16"), ("J14", "L2")),
    5: (("A8", "J13"), ("E5", "I2"), ("M16", "F13"), ("D11", "L8"), ("I5", "H10")),
}
"""Beginner starting castles: for each player count, the two castle hexes of each seat."""


def make_areas(tiles: list[tuple[Terrain, int]] | tuple[tuple[Terrain, int], ...]) -> list[Area]:
    areas = [Area(id=slot, terrain=t, wheat=w) for slot, (t, w) in zip(TILE_SLOTS, tiles, strict=True)]
    areas += [Area(id=a, terrain=t, wheat=w) for a, (t, w) in EDGE_TERRAIN.items()]
    return areas


def placement_order(n: int, start: int) -> list[int]:
    """Experienced castle placement (§3.5): first castles counter-clockwise from the start
    player, then the last to place goes again and the others follow clockwise."""
    first = [(start - k) % n for k in range(n)]
    last = first[-1]
    second = [(last + k) % n for k in range(n)]
    return first + second


def new_state(names: list[str], seed: int, setup: SetupKind) -> GameState:
    """Everything of §3 except the castles themselves (placed by `engine.flow`)."""
    n = len(names)
    rng = seed_state(seed)
    if setup == "beginner":
        tiles: list[tuple[Terrain, int]] = list(BEGINNER_TERRAIN)
    else:
        rng, tiles = shuffle(rng, list(TILES))
    rng, politics = shuffle(rng, politics_deck())
    rng, voices = shuffle(rng, voice_deck())
    rng, start = below(rng, n)
    players = [
        PlayerState(
            seat=i, name=name, gold=START_GOLD, action_cards=ACTION_CARDS,
            notables=NOTABLES_PER_PLAYER,
        )
        for i, name in enumerate(names)
    ]  # fmt: skip
    return GameState(
        setup=setup,
        seed=seed,
        rng=rng,
        players=players,
        areas=make_areas(tiles),
        start_player=start,
        politics_row=politics[:7],
        politics_pile=politics[7:],
        voice_pile=voices,
        supply_citizens=CITIZENS_TOTAL,
        placement=placement_order(n, start) if setup == "experienced" else [],
    )


def beginner_castles(n: int) -> list[tuple[int, str]]:
    """(seat, hex) of every beginner castle, first castles first."""
    pairs = BEGINNER_CASTLES[n]
    return [(seat, pairs[seat][k]) for k in (0, 1) for seat in range(n)]
