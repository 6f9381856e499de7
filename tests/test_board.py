"""The board of shared/board.md: counts, adjacency, zones, labels and distances."""

from __future__ import annotations

from collections import Counter

from engine.board import BOARD, TILE_SLOTS


def test_board_has_139_path_hexes_with_19_junctions() -> None:
    assert len(BOARD.labels) == 139
    assert len(set(BOARD.labels)) == 139
    assert len(BOARD.junctions) == 19


def test_zones_hold_67_42_and_30_hexes() -> None:
    assert Counter(BOARD.zone_idx) == {1: 67, 2: 42, 3: 30}
    assert len(BOARD.playable(2)) == 67
    assert len(BOARD.playable(3)) == 109
    assert len(BOARD.playable(4)) == len(BOARD.playable(5)) == 139


def test_every_non_junction_hex_touches_exactly_two_areas_and_a_junction_none() -> None:
    for label in BOARD.labels:
        expected = 0 if BOARD.is_junction(label) else 2
        assert len(BOARD.areas_of(label)) == expected, label


def test_there_are_22_tile_slots_and_12_edge_areas() -> None:
    assert len(TILE_SLOTS) == 22
    assert len(BOARD.edge_areas) == 12
    touched = {a for label in BOARD.labels for a in BOARD.areas_of(label)}
    assert touched == set(BOARD.area_ids)


def test_a_segment_between_two_junctions_is_three_hexes() -> None:
    for a in BOARD.junctions:
        for b in BOARD.junctions:
            if a < b and BOARD.dist[a][b] < 4:
                raise AssertionError(f"junctions {a} and {b} are closer than 4 steps")
    assert BOARD.distance("I9", "M9") == 4  # (0,0) to (4,0): three hexes between


def test_centre_is_i9_and_labels_are_case_insensitive() -> None:
    assert BOARD.coord("I9") == (0, 0)
    assert BOARD.coord("i9") == (0, 0)
    assert BOARD.zone("i9") == 1
    assert BOARD.is_junction("I9")


def test_labels_follow_the_column_and_row_formula() -> None:
    for (q, r), label in zip(BOARD.coords, BOARD.labels, strict=True):
        assert label == f"{chr(ord('A') + (2 * q + r + 16) // 2)}{r + 9}"


def test_neighbours_are_symmetric_and_distances_are_path_distances() -> None:
    for label in BOARD.labels:
        for n in BOARD.neighbors(label):
            assert label in BOARD.neighbors(n)
            assert BOARD.distance(label, n) == 1
    assert all(BOARD.dist[i][j] == BOARD.dist[j][i] for i in range(139) for j in range(139))
    assert all(d >= 0 for row in BOARD.dist for d in row), "the paths are connected"


def test_zone_1_is_the_centre_star_and_ring() -> None:
    assert BOARD.zone("M9") == 1  # ring-1 junction (4, 0)
    assert BOARD.zone("Q9") == 1  # ring-2 junction at the end of a spoke (8, 0)
