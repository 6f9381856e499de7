"""The owner colours stay apart for the common colour-vision deficiencies.

Simulation: Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for
Simulation of Color Vision Deficiency" (IEEE TVCG 15(6)), their published matrices for
protanopia and deuteranopia (and tritanopia) at severity 1.0, applied to linear RGB (sRGB
decoded, multiplied, clipped, encoded back). Difference: CIEDE2000 (Sharma, Wu & Dalal 2005,
checked below against their published test pairs), from CIELAB under D65.

Why 12: a ΔE00 of about 1 is a just-noticeable difference between large patches side by
side, and colour tolerancing treats differences of about 5 as plainly different colours. The
owner colours are seen on small pieces, apart from each other and on varied terrain, so we
ask for more than twice that. (The pieces also carry a pattern and a letter: colour is the
quick cue, not the only one.) The Okabe-Ito colours in use pass with a closest pair of 14.0
(sky blue and reddish purple, protanopia).
"""

from __future__ import annotations

import itertools
import math

import pytest

from render import palette

Matrix = tuple[tuple[float, float, float], ...]

NORMAL: Matrix = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
PROTANOPIA: Matrix = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)
DEUTERANOPIA: Matrix = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
TRITANOPIA: Matrix = (
    (1.255528, -0.076749, -0.178779),
    (-0.078411, 0.930809, 0.147602),
    (0.004733, 0.691367, 0.303900),
)
VISIONS = {"normal": NORMAL, "protanopia": PROTANOPIA, "deuteranopia": DEUTERANOPIA, "tritanopia": TRITANOPIA}
MIN_DELTA_E = 12.0

Lab = tuple[float, float, float]


def linear(c: int) -> float:
    """An sRGB channel (0-255) as linear light (0-1)."""
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def simulate(rgb: tuple[int, int, int], m: Matrix) -> tuple[float, float, float]:
    """The colour as seen with the deficiency of matrix ``m``, in linear RGB (clipped)."""
    lin = [linear(c) for c in rgb]
    return tuple(min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3))  # type: ignore[return-value]


def lab(lin: tuple[float, float, float]) -> Lab:
    """Linear sRGB to CIELAB (D65 white)."""
    r, g, b = lin
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e_2000(c1: Lab, c2: Lab) -> float:
    """CIEDE2000 colour difference (kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = c1, c2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        dh -= 360 if dh > 180 else 0
        dh += 360 if dh < -180 else 0
    d_l, d_c = l2 - l1, c2p - c1p
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if not c1p * c2p:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + (360 if h1p + h2p < 360 else -360)) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_bar - 30))
        + 0.24 * math.cos(math.radians(2 * h_bar))
        + 0.32 * math.cos(math.radians(3 * h_bar + 6))
        - 0.20 * math.cos(math.radians(4 * h_bar - 63))
    )
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_bar**7 / (cp_bar**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h))


@pytest.mark.parametrize(
    ("c1", "c2", "expected"),
    [  # Sharma, Wu & Dalal (2005), table 1, pairs 1, 7, 17 and 25.
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ],
)
def test_colour_difference_matches_the_published_ciede2000_test_pairs(
    c1: Lab, c2: Lab, expected: float
) -> None:
    assert delta_e_2000(c1, c2) == pytest.approx(expected, abs=1e-4)


def test_the_simulation_keeps_white_and_black_and_merges_red_and_green_for_deuteranopia() -> None:
    for vision in (PROTANOPIA, DEUTERANOPIA):
        assert delta_e_2000(lab(simulate((255, 255, 255), vision)), (100.0, 0.0, 0.0)) < 1
        assert lab(simulate((0, 0, 0), vision)) == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)
    red, green = (200, 60, 40), (80, 130, 40)
    normal = delta_e_2000(lab(simulate(red, NORMAL)), lab(simulate(green, NORMAL)))
    deutan = delta_e_2000(lab(simulate(red, DEUTERANOPIA)), lab(simulate(green, DEUTERANOPIA)))
    assert deutan < normal / 3


@pytest.mark.parametrize("vision", list(VISIONS))
def test_every_two_owner_colours_stay_apart(vision: str) -> None:
    seen = [lab(simulate(c, VISIONS[vision])) for c in palette.PLAYER]
    for i, j in itertools.combinations(range(len(seen)), 2):
        d = delta_e_2000(seen[i], seen[j])
        names = f"{palette.PLAYER_NAMES[i]} and {palette.PLAYER_NAMES[j]}"
        assert d >= MIN_DELTA_E, f"{names} are {d:.1f} apart with {vision}"


def test_no_owner_colour_is_the_last_move_ring_colour_for_normal_vision() -> None:
    ring = lab(simulate(palette.HIGHLIGHT, NORMAL))
    for c in palette.PLAYER:
        assert delta_e_2000(lab(simulate(c, NORMAL)), ring) >= MIN_DELTA_E
