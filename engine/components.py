"""The game's components as data: buildings, token stacks, politics cards, services (rules §1, §2, §6)."""

from __future__ import annotations

from typing import Literal

Service = Literal["culture", "education", "health"]
SERVICES: tuple[Service, ...] = ("culture", "education", "health")

Terrain = Literal["farmland", "lake", "mountain", "wasteland"]

SMALL: tuple[str, ...] = ("farm", "quarry", "school", "statue", "market", "fountain")
MEDIUM: tuple[str, ...] = ("palace", "hospital", "bath")
LARGE: tuple[str, ...] = ("cathedral", "university")
BUILDINGS: tuple[str, ...] = SMALL + MEDIUM + LARGE
"""Every kind that can be built (the castle is not built, it is founded)."""

SIZE: dict[str, str] = {
    **{k: "small" for k in SMALL},
    **{k: "medium" for k in MEDIUM},
    **{k: "large" for k in LARGE},
}

ARCHES: dict[str, dict[Service, int]] = {
    "castle": {},
    "farm": {},
    "quarry": {},
    "market": {},
    "school": {"education": 1},
    "statue": {"culture": 1},
    "fountain": {"health": 1},
    "palace": {"culture": 2},
    "hospital": {"education": 1, "health": 1},
    "bath": {"health": 2},
    "cathedral": {"culture": 3},
    "university": {"education": 3},
}

NEEDS_LAKE: frozenset[str] = frozenset({"fountain", "bath"})
WATER: frozenset[str] = frozenset({"fountain", "bath"})
"""Buildings that, with a market, lift the 8-citizen limit (a hospital does not)."""

# Double-sided tokens: both faces share one stack (rules §1).
TOKEN_STACK: dict[str, str] = {
    "farm": "farm/quarry",
    "quarry": "farm/quarry",
    "palace": "palace/hospital",
    "hospital": "palace/hospital",
    "statue": "statue/cathedral",
    "cathedral": "statue/cathedral",
    "school": "school/university",
    "university": "school/university",
    "fountain": "fountain/bath",
    "bath": "fountain/bath",
    "market": "market",
}
STACK_SIZE: dict[str, int] = {
    "farm/quarry": 40,
    "palace/hospital": 20,
    "statue/cathedral": 15,
    "school/university": 15,
    "fountain/bath": 15,
    "market": 16,
}

CITIZENS_TOTAL = 130
CASTLES_PER_PLAYER = 4
NOTABLES_PER_PLAYER = 4
ACTION_CARDS = 3
START_GOLD = 1
START_CITIZENS = 3
YEARS = 6
ROUNDS = 5

# Politics cards (rules §6). Ids are the notation verbs.
POLITICS_COPIES: dict[str, int] = {
    "palace": 4,
    "hospital": 4,
    "bath": 4,
    "cathedral": 2,
    "university": 2,
    "master": 4,
    "golden": 4,
    "bread": 4,
    "harvest": 2,
    "poll": 2,
}
POLITICS_TITLES: dict[str, str] = {
    "palace": "Palace",
    "hospital": "Hospital",
    "bath": "Public Bath",
    "cathedral": "Cathedral",
    "university": "University",
    "master": "Master Builder",
    "golden": "Golden Times",
    "bread": "Bread and Games",
    "harvest": "Rich Harvest",
    "poll": "Polling the People",
}
BUILDING_CARD_COST: dict[str, int] = {
    "palace": 1,
    "hospital": 1,
    "bath": 1,
    "cathedral": 3,
    "university": 3,
}
MASTER_COST: dict[str, int] = {"small": 1, "medium": 2, "large": 4}
GOLDEN_COST: dict[int, int] = {1: 0, 2: 2, 3: 5}
BREAD_COST: dict[int, int] = {1: 0, 2: 2, 3: 5}
POLL_ALL_COST = 2

VOICE_COPIES = 9  # of each service: 27 voice cards


def politics_deck() -> list[str]:
    """The 32 politics cards in a fixed order (shuffled by the game's generator)."""
    return [card for card, n in POLITICS_COPIES.items() for _ in range(n)]


def voice_deck() -> list[Service]:
    return [s for s in SERVICES for _ in range(VOICE_COPIES)]


CITY_NAMES: tuple[str, ...] = (
    "Firenze", "Siena", "Pisa", "Lucca", "Arezzo", "Perugia", "Assisi", "Orvieto",
    "Urbino", "Ferrara", "Mantova", "Verona", "Padova", "Vicenza", "Bergamo", "Cremona",
    "Parma", "Modena", "Bologna", "Ravenna", "Rimini", "Ancona", "Viterbo", "Spoleto",
)  # fmt: skip


def city_name(city_id: int) -> str:
    """A distinct name for the n-th city founded in a game (1-based)."""
    base = CITY_NAMES[(city_id - 1) % len(CITY_NAMES)]
    lap = (city_id - 1) // len(CITY_NAMES)
    return base if lap == 0 else f"{base} {lap + 1}"
