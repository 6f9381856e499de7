"""How often one member may ask for what costs them a tap and the bot a worker's second or a large
upload (part of the service layer): a replay, a hint, the board's pictures, the position in words.
A replay or a board is counted at every request (each answer uploads its file, however kept); a
hint or the position in words only when it must be made (at a position not asked about before).

Each member has, for each kind of request, a few requests at once (`Rate.burst`) and one more each
`Rate.every` seconds, up to that many again (a token bucket). A request beyond them is answered
privately with the seconds to wait, and nothing is made. The rates are wide enough that a player
never meets them in play — looking at the board twice, asking for a hint, then the board again —
and narrow enough that a member sending the rate Discord lets a client send gets a few answers
and then the wait. What costs the bot little (status, log, score, export, the panel) and the
moves themselves are never limited.

>>> limits = Limits({"hint": Rate(2, 10.0)})
>>> limits.take(1, "hint", now=0.0), limits.take(1, "hint", now=1.0)
(None, None)
>>> limits.take(1, "hint", now=2.0)
Traceback (most recent call last):
...
bot.errors.TooSoon: You asked for a hint several times in a few seconds: try again in 8 s.
>>> limits.take(2, "hint", now=2.0), limits.take(1, "hint", now=10.0)  # another member; later
(None, None)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.errors import TooSoon
from i18n import N_, _


@dataclass(frozen=True)
class Rate:
    burst: int
    """Requests one member may send at once."""
    every: float
    """Seconds after which one more is allowed."""


RATES = {
    "replay": Rate(2, 30.0),  # a GIF of ~700 KB: drawn once per game (kept), but uploaded each time
    "hint": Rate(3, 10.0),  # the strong computer player thinks for up to a second
    "board": Rate(4, 5.0),
    "describe": Rate(3, 10.0),
    "review": Rate(10, 0.5),  # a step draws a turn post's pictures: stepping on at two a second goes on
    "why": Rate(3, 10.0),  # the strong computer player judges a move: up to a second
    "decisive": Rate(2, 60.0),  # it judges every move of a game: seconds
}
"""The rate of each kind of request (see the module docstring)."""
WHAT = {
    "replay": N_("a replay"),
    "hint": N_("a hint"),
    "board": N_("the board"),
    "describe": N_("the position in words"),
    "review": N_("a review's step"),
    "why": N_("the computer's view of a move"),
    "decisive": N_("the decisive moments"),
}
KEPT = 10_000
"""Members whose recent requests are remembered before those back to a full bucket are let go."""


class Limits:
    """The members' recent requests of each kind, in this process (see the module docstring)."""

    def __init__(self, rates: dict[str, Rate] | None = None) -> None:
        self.rates = RATES if rates is None else rates
        self._left: dict[tuple[int, str], tuple[float, float]] = {}
        """(member, kind) → (requests left, at when)."""

    def take(self, user_id: int, kind: str, *, now: float) -> None:
        """Count a request of ``kind`` by the member; `TooSoon` (counting nothing) when none is left."""
        rate = self.rates[kind]
        left, at = self._left.get((user_id, kind), (float(rate.burst), now))
        left = min(float(rate.burst), left + max(0.0, now - at) / rate.every)
        if left < 1.0:
            wait = math.ceil((1.0 - left) * rate.every)
            raise TooSoon(
                _("You asked for {what} several times in a few seconds: try again in {seconds} s.",
                  what=_(WHAT[kind]), seconds=wait)
            )  # fmt: skip
        self._left[(user_id, kind)] = (left - 1.0, now)
        if len(self._left) > KEPT:
            self._forget_rested(now)

    def _forget_rested(self, now: float) -> None:
        """Let go of the members whose requests are back to a full bucket (they are as if new)."""
        for key, (left, at) in list(self._left.items()):
            rate = self.rates[key[1]]
            if left + (now - at) / rate.every >= rate.burst:
                del self._left[key]
