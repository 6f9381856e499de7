"""Colours and per-seat patterns: the renderer's whole colour vocabulary in one place."""

from __future__ import annotations

from i18n import N_

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

BACKGROUND: RGB = (52, 58, 64)
"""The table around the board and behind the panel."""
PANEL: RGB = (244, 238, 225)
PANEL_LINE: RGB = (205, 194, 172)
INK: RGB = (33, 33, 33)
INK_SOFT: RGB = (96, 90, 80)
PAPER: RGB = (255, 252, 244)
WARNING: RGB = (200, 30, 30)

# Terrain: base fill, and a darker shade used for the drawn details.
TERRAIN: dict[str, tuple[RGB, RGB]] = {
    "farmland": ((222, 196, 104), (186, 150, 58)),
    "lake": ((112, 170, 214), (70, 128, 182)),
    "mountain": ((150, 138, 126), (98, 88, 80)),
    "wasteland": ((176, 164, 140), (146, 134, 110)),
}
SNOW: RGB = (246, 246, 242)
WHEAT: RGB = (250, 224, 120)
WHEAT_DARK: RGB = (130, 92, 24)

PATH: RGB = (236, 228, 210)
PATH_EDGE: RGB = (150, 136, 112)
MUTED: RGB = (70, 68, 64)
MUTED_EDGE: RGB = (50, 48, 45)
LABEL: RGB = (92, 84, 70)

# Players: Okabe-Ito colours (distinguishable with the common colour-vision deficiencies:
# tests/test_palette_colour_vision.py keeps every pair apart in simulated protanopia,
# deuteranopia and tritanopia), each paired with a pattern and a letter as the second cue.
PLAYER: tuple[RGB, ...] = (
    (213, 94, 0),  # vermillion
    (86, 180, 233),  # sky blue
    (240, 228, 66),  # yellow
    (0, 158, 115),  # bluish green
    (204, 121, 167),  # reddish purple
)
PLAYER_NAMES: tuple[str, ...] = (N_("orange"), N_("sky blue"), N_("yellow"), N_("green"), N_("purple"))
"""Each seat's colour in words (in the alt texts; translate with ``_``)."""
PATTERN: tuple[str, ...] = ("plain", "stripes", "dots", "checks", "rings")
"""The pattern printed on each seat's pieces (the second cue besides the colour)."""

# Services (rules: culture white, education black, health blue).
SERVICE: dict[str, RGB] = {
    "culture": (255, 255, 255),
    "education": (20, 20, 20),
    "health": (28, 96, 210),
}
SERVICE_TEXT: dict[str, RGB] = {"culture": INK, "education": (255, 255, 255), "health": (255, 255, 255)}
SERVICE_EDGE: dict[str, RGB] = {"culture": INK, "education": (255, 255, 255), "health": (10, 40, 110)}

HIGHLIGHT: RGB = (255, 0, 140)
"""The ring around the hexes of the last move (magenta: no player colour is near it)."""
CITIZEN: RGB = (150, 150, 150)
GOLD: RGB = (240, 190, 40)
GOLD_DARK: RGB = (150, 104, 10)
BUILDING: RGB = (252, 248, 236)
ROOF: RGB = (178, 76, 56)


def player(seat: int) -> RGB:
    """The colour of a seat."""
    return PLAYER[seat % len(PLAYER)]


def shade(c: RGB, f: float) -> RGB:
    """``c`` darkened (``f`` < 1) or lightened towards white (``f`` > 1)."""
    if f <= 1:
        return (int(c[0] * f), int(c[1] * f), int(c[2] * f))
    t = min(f - 1, 1.0)
    return (int(c[0] + (255 - c[0]) * t), int(c[1] + (255 - c[1]) * t), int(c[2] + (255 - c[2]) * t))


def text_on(c: RGB) -> RGB:
    """Black or white, whichever reads better on ``c``."""
    lum = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]
    return INK if lum > 140 else (255, 255, 255)


def premultiplied(c: RGB, alpha: int) -> RGBA:
    """``c`` at opacity ``alpha``, as drawn on an "RGBa" (premultiplied alpha) image."""
    return (round(c[0] * alpha / 255), round(c[1] * alpha / 255), round(c[2] * alpha / 255), alpha)
