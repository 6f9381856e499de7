"""The board of `shared/board.md`: path hexes, terrain areas, zones, labels and distances.

Everything here is computed once at import from the definition in board.md and is
immutable. Hexes are named by their label (``"I9"``); ``Board.index`` maps a label to a
dense integer used by the hot paths of the rules.

>>> BOARD.zone("I9"), len(BOARD.labels)
(1, 139)
>>> BOARD.areas_of("I10")
('-1,0,D', '0,0,U')
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

Coord = tuple[int, int]

NEIGHBOUR_STEPS: tuple[Coord, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))

TILE_SLOTS: tuple[str, ...] = (
    "-1,-2,D", "0,-2,D", "0,-2,U", "1,-2,D", "1,-2,U",
    "-2,-1,D", "-1,-1,D", "-1,-1,U", "0,-1,D", "0,-1,U", "1,-1,U",
    "-2,0,D", "-1,0,D", "-1,0,U", "0,0,D", "0,0,U", "1,0,U",
    "-2,1,D", "-2,1,U", "-1,1,D", "-1,1,U", "0,1,U",
)  # fmt: skip

# Edge areas: printed on the board, never shuffled (terrain, wheat).
EDGE_TERRAIN: dict[str, tuple[str, int]] = {
    "0,-3,D": ("farmland", 1),
    "-1,2,U": ("farmland", 1),
    "-2,-1,U": ("farmland", 2),
    "1,0,D": ("farmland", 2),
    "-1,-2,U": ("lake", 0),
    "0,1,D": ("lake", 0),
    "-2,0,U": ("mountain", 0),
    "1,-1,D": ("mountain", 0),
    "1,-3,D": ("wasteland", 0),
    "-2,2,U": ("wasteland", 0),
    "2,-2,U": ("wasteland", 0),
    "-3,1,D": ("wasteland", 0),
}

PLAYABLE_ZONES: dict[int, int] = {2: 1, 3: 2, 4: 3, 5: 3}
"""Highest playable zone for each player count (rules §3.1)."""


def _is_line(q: int, r: int) -> bool:
    return q % 4 == 0 or r % 4 == 0 or (-q - r) % 4 == 0


def _triangle(q: int, r: int) -> str:
    """The small-triangle id ``"i,j,U|D"`` of a non-line hex."""
    a, b = q % 4, r % 4
    return f"{q // 4},{r // 4},{'U' if a + b < 4 else 'D'}"


def _corners(tri: str) -> list[Coord]:
    i, j, side = tri.split(",")
    x, y = 4 * int(i), 4 * int(j)
    if side == "U":
        return [(x, y), (x + 4, y), (x, y + 4)]
    return [(x + 4, y), (x, y + 4), (x + 4, y + 4)]


def _border(tri: str) -> set[Coord]:
    """Every hex on the three edges of a triangle (corners included)."""
    cs = _corners(tri)
    out: set[Coord] = set()
    for k in range(3):
        (q1, r1), (q2, r2) = cs[k], cs[(k + 1) % 3]
        for t in range(5):
            out.add((q1 + (q2 - q1) * t // 4, r1 + (r2 - r1) * t // 4))
    return out


def hex_distance(a: Coord, b: Coord) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def label_of(q: int, r: int) -> str:
    """Board label: column letter ``(2q + r + 16) div 2`` (A = 0) and row ``r + 9``."""
    return f"{chr(ord('A') + (2 * q + r + 16) // 2)}{r + 9}"


class Board:
    """The immutable board geometry shared by every game."""

    def __init__(self) -> None:
        path: set[Coord] = set()
        for tri in TILE_SLOTS:
            path |= _border(tri)
        coords = sorted(path, key=lambda c: (c[1], c[0]))
        self.coords: tuple[Coord, ...] = tuple(coords)
        self.labels: tuple[str, ...] = tuple(label_of(q, r) for q, r in coords)
        self.index: dict[str, int] = {lab: i for i, lab in enumerate(self.labels)}
        self.coord_index: dict[Coord, int] = {c: i for i, c in enumerate(coords)}
        self.junctions: frozenset[int] = frozenset(
            i for i, (q, r) in enumerate(coords) if q % 4 == 0 and r % 4 == 0
        )
        self.neighbour_idx: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                self.coord_index[(q + dq, r + dr)]
                for dq, dr in NEIGHBOUR_STEPS
                if (q + dq, r + dr) in self.coord_index
            )
            for q, r in coords
        )
        self.neighbour_mask: tuple[int, ...] = tuple(sum(1 << n for n in near) for near in self.neighbour_idx)
        """`neighbour_idx` as bit masks (bit ``n`` set: hex ``n`` is a neighbour)."""
        touched: set[str] = set()
        areas: list[tuple[str, ...]] = []
        for q, r in coords:
            tris = sorted(
                {_triangle(q + dq, r + dr) for dq, dr in NEIGHBOUR_STEPS if not _is_line(q + dq, r + dr)}
            )
            areas.append(tuple(tris))
            touched.update(tris)
        self.area_idx: tuple[tuple[str, ...], ...] = tuple(areas)
        self.tile_slots: tuple[str, ...] = TILE_SLOTS
        self.edge_areas: tuple[str, ...] = tuple(a for a in EDGE_TERRAIN if a in touched)
        self.area_ids: tuple[str, ...] = TILE_SLOTS + self.edge_areas
        self.dist: tuple[tuple[int, ...], ...] = tuple(self._bfs(i) for i in range(len(coords)))
        self.zone_idx: tuple[int, ...] = self._zones()
        self.within3: tuple[frozenset[int], ...] = tuple(
            frozenset(j for j, d in enumerate(row) if d <= 3) for row in self.dist
        )
        self.within3_mask: tuple[int, ...] = tuple(sum(1 << j for j in near) for near in self.within3)
        """`within3` as bit masks (bit ``j`` set: hex ``j`` is at most 3 steps away)."""
        self._mask_bytes = (len(coords) + 7) // 8
        self._byte_bits: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(tuple(8 * k + j for j in range(8) if byte >> j & 1) for byte in range(256))
            for k in range(self._mask_bytes)
        )
        """By byte ``k`` of a mask and its value: the indexes of its bits (`indexes`)."""
        self._playable_mask: dict[int, int] = {
            n: sum(1 << i for i, z in enumerate(self.zone_idx) if z <= top)
            for n, top in PLAYABLE_ZONES.items()
        }
        self._playable: dict[int, frozenset[int]] = {
            n: frozenset(i for i, z in enumerate(self.zone_idx) if z <= top)
            for n, top in PLAYABLE_ZONES.items()
        }

    def _bfs(self, start: int) -> tuple[int, ...]:
        dist = [-1] * len(self.coords)
        dist[start] = 0
        queue = deque([start])
        while queue:
            cur = queue.popleft()
            for n in self.neighbour_idx[cur]:
                if dist[n] < 0:
                    dist[n] = dist[cur] + 1
                    queue.append(n)
        return tuple(dist)

    def _zones(self) -> tuple[int, ...]:
        origin = (0, 0)

        def ring(i: int) -> int:
            return hex_distance(self.coords[i], origin) // 4

        def on_spoke(c: Coord) -> bool:
            return c[0] == 0 or c[1] == 0 or c[0] + c[1] == 0

        zone = [0] * len(self.coords)
        for j in self.junctions:
            if ring(j) <= 1 or on_spoke(self.coords[j]):
                zone[j] = 1
        # Segments: the three hexes between two junctions 4 steps apart on one line.
        for j1 in self.junctions:
            for j2 in self.junctions:
                if j1 >= j2 or self.dist[j1][j2] != 4:
                    continue
                (q1, r1), (q2, r2) = self.coords[j1], self.coords[j2]
                seg = [((q1 * (4 - t) + q2 * t) // 4, (r1 * (4 - t) + r2 * t) // 4) for t in (1, 2, 3)]
                if not all(c in self.coord_index for c in seg):
                    continue
                rings = sorted((ring(j1), ring(j2)))
                if rings[1] <= 1 or (rings == [1, 2] and all(on_spoke(c) for c in seg)):
                    z = 1
                elif rings == [1, 2]:
                    z = 2
                else:
                    z = 3
                for c in seg:
                    zone[self.coord_index[c]] = z
                if z == 2:
                    for j in (j1, j2):
                        if zone[j] == 0:
                            zone[j] = 2
        for j in self.junctions:
            if zone[j] == 0:
                zone[j] = 3
        return tuple(zone)

    # --- public, label-based API -------------------------------------------------------

    def normalize(self, label: str) -> str:
        """The canonical label for ``label`` (case-insensitive); KeyError if not a path hex."""
        lab = label.strip().upper()
        if lab not in self.index:
            raise KeyError(label)
        return lab

    def is_hex(self, label: str) -> bool:
        return label.strip().upper() in self.index

    def zone(self, label: str) -> int:
        return self.zone_idx[self.index[self.normalize(label)]]

    def neighbors(self, label: str) -> list[str]:
        """Adjacent path hexes, sorted by board order (row, then column)."""
        return [self.labels[n] for n in sorted(self.neighbour_idx[self.index[self.normalize(label)]])]

    def areas_of(self, label: str) -> tuple[str, ...]:
        """The terrain areas (``"i,j,U"`` ids) a hex touches: two, or none for a junction."""
        return self.area_idx[self.index[self.normalize(label)]]

    def distance(self, a: str, b: str) -> int:
        """Steps along the paths from hex ``a`` to hex ``b``."""
        return self.dist[self.index[self.normalize(a)]][self.index[self.normalize(b)]]

    def coord(self, label: str) -> Coord:
        return self.coords[self.index[self.normalize(label)]]

    def is_junction(self, label: str) -> bool:
        return self.index[self.normalize(label)] in self.junctions

    def playable(self, players: int) -> frozenset[str]:
        top = PLAYABLE_ZONES[players]
        return frozenset(lab for i, lab in enumerate(self.labels) if self.zone_idx[i] <= top)

    def playable_idx(self, players: int) -> frozenset[int]:
        return self._playable[players]

    def playable_mask(self, players: int) -> int:
        """`playable_idx` as a bit mask (bit ``i`` set: hex ``i`` may be used)."""
        return self._playable_mask[players]

    def indexes(self, mask: int) -> list[int]:
        """The board indexes of the bits set in ``mask``, ascending (board order), read a byte at
        a time from a table."""
        table = self._byte_bits
        out: list[int] = []
        for k, byte in enumerate(mask.to_bytes(self._mask_bytes, "little")):
            if byte:
                out += table[k][byte]
        return out

    def sort_key(self, label: str) -> int:
        """Board order: top row first, then left to right (the hex's index)."""
        return self.index[label]

    def hexes_touching(self, area: str) -> list[str]:
        return [lab for i, lab in enumerate(self.labels) if area in self.area_idx[i]]

    def labels_of(self, idxs: Iterable[int]) -> list[str]:
        return [self.labels[i] for i in sorted(idxs)]


BOARD = Board()
