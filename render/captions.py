"""A building's caption: its name on a paper plate below its pictogram, sized to fit between two
hexes of a row and, when a word is too long for one line, broken in two between syllables
(``Kloster-`` ``schule``): the same rule in every language (`breaks`)."""

from __future__ import annotations

import math

from PIL import Image

from . import fonts
from .palette import INK, PAPER
from .sprites import rounded, text_size
from .stash import stashed

CAPTION_ROOM = 1.66
"""The widest a building's caption may be, in hex radii: less than the distance between
two hexes of a row (√3), so that neighbouring captions never touch."""
CAPTION_Y = 0.56
"""Where a caption sits below a hex's centre, in hex radii."""


def caption_size(word: str, radius: float) -> int:
    """The size of a building's caption: the usual size, smaller if the word needs it (down to
    four fifths of it), never below the picture's smallest (the close-up's zoom leaves room at
    that size); a word still too long is written on two lines (`caption_lines`)."""
    least = fonts.smallest()
    size = max(least, round(radius * 0.36))
    room = radius * CAPTION_ROOM - 2 * caption_pad(radius) - 1
    return fonts.fit(word, size, room, bold=True, smallest=max(least, 8, round(size * 0.8)))


def caption_pad(radius: float) -> float:
    return max(2.0, radius * 0.07)


def caption(word: str, radius: float, size: int) -> Image.Image:
    """A building's name at ``size`` px on a paper plate (pasted below its pictogram): on one
    line, or on two, hyphenated, when it is too long for one (``Kloster-`` ``schule``)."""
    return _caption(word, radius, text_size(size, word))


def caption_lines(word: str, radius: float, size: int) -> list[str]:
    """``word`` as the lines of its caption at ``size``: itself if it fits, else broken in two
    where both halves fit (at a space, or between syllables with a hyphen), as even as can be."""
    room = radius * CAPTION_ROOM - 2 * caption_pad(radius) - 1
    if fonts.width(word, size, bold=True) <= room:
        return [word]
    best: list[str] = [word]
    widest = math.inf
    for at in breaks(word):
        head, tail = word[:at].rstrip(), word[at:].lstrip()
        lines = [head if word[at - 1] == " " or head.endswith("-") else head + "-", tail]
        w = max(fonts.width(line, size, bold=True) for line in lines)
        if w <= room and w < widest:
            best, widest = lines, w
    return best


VOWELS = frozenset("aeiouyàáâäæèéêëìíîïòóôöœùúûüÿ")
CLUSTERS = frozenset({"ch", "ck", "ph", "th", "sc", "sh", "qu", "ij", "gn"})
"""Consonant pairs never split by a hyphen."""


def _onset(s: str) -> bool:
    """Whether ``s`` may start a syllable: a consonant before a vowel, one followed by ``l`` or
    ``r`` (``bruch``, ``drale``), or ``sch``, ``st``, ``sp``, ``ch`` before a vowel."""
    s = s.lower()
    if len(s) < 2 or s[0] in VOWELS:
        return False
    if s[1] in VOWELS:
        return True
    for start in ("sch", "ch", "st", "sp", "ph", "th"):
        if s.startswith(start) and len(s) > len(start) and s[len(start)] in VOWELS | {"r", "l"}:
            return True
    return s[0] in "bcdfgkptvw" and s[1] in "lr" and len(s) > 2 and s[2] in VOWELS


def breaks(word: str) -> list[int]:
    """Where ``word`` may be broken over two lines: after a space or a hyphen, or between two
    syllables (before a consonant that starts one), leaving at least three letters each side."""
    out = []
    low = word.lower()
    for at in range(3, len(word) - 2):
        before, after = low[at - 1], low[at]
        if before in " -":
            out.append(at)
        elif before.isalpha() and after.isalpha() and low[at - 2 : at].isalpha():
            if low[at - 1 : at + 1] in CLUSTERS or (low[at - 2 : at] == "sc" and after == "h"):
                continue
            if _onset(low[at:]):
                out.append(at)
    return out


@stashed(maxsize=128)
def _caption(word: str, radius: float, size: int) -> Image.Image:
    lines = caption_lines(word, radius, size)
    w = math.ceil(max(fonts.width(line, size, bold=True) for line in lines) + 2 * caption_pad(radius))
    step = size * 1.1
    h = math.ceil(size * 1.24 + step * (len(lines) - 1))
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    rounded(img, (0, 0, w, h), size * 0.3, PAPER, INK, max(1, round(radius * 0.03)))
    top = h / 2 - step * (len(lines) - 1) / 2
    for k, line in enumerate(lines):
        fonts.text(img, (w / 2, top + k * step), line, size, INK, anchor="mm", bold=True)
    return img
