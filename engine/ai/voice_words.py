"""What a seat knows of this year's voice, in numbers and words (part of `engine.ai.reasons`): the
cards it has seen — the face-up card, the cards it polled, a revealed voice, never another seat's
polls or a face-down card it has not seen —, the odds that the people want a service, and the
clause that says so."""

from __future__ import annotations

from collections import Counter

from ..components import (
    SERVICES,
    VOICE_COPIES,
    Service,
)
from ..views import View
from ..words import ENGLISH, N_, Words, term
from .knowledge import _odds


def known_cards(view: View) -> list[Service]:
    """This year's voice cards the viewer has seen (face up, revealed or polled)."""
    known = [s if s is not None else view.peek[k] for k, s in enumerate(view.voice)]
    return [s for s in known if s is not None]


def wanted_odds(view: View, service: Service) -> float | None:
    """The chance, by what the viewer knows, that the voice of this year asks for ``service``
    (alone or tied); None before the voice is drawn."""
    if view.voice_result:
        return 1.0 if service in view.voice_result else 0.0
    if not view.voice or view.voice[0] is None:
        return None
    known = tuple(s if s is not None else view.peek[k] for k, s in enumerate(view.voice))
    unseen: Counter[str] = Counter({s: VOICE_COPIES for s in SERVICES})
    unseen.subtract(view.voice_discard)
    unseen.subtract(known_cards(view))
    odds = _odds(known, tuple(max(0, unseen[s]) for s in SERVICES))
    return sum(p for outcome, p in odds if service in outcome)


def voice_reason(view: View, service: Service, words: Words = ENGLISH) -> str:
    """What the viewer knows of ``service`` in this year's voice, e.g. ``education is face up``."""
    term_of = term(words, service)
    if view.voice_result:
        if service in view.voice_result:
            if len(view.voice_result) == 1:
                return words.t("the people want {service}", service=term(words, view.voice_result[0]))
            first, second = view.voice_result[0], view.voice_result[-1]
            return words.t(
                "the people want {service} and {service2}",
                service=term(words, first),
                service2=term(words, second),
            )
        return words.t("{service} lasts for later years", service=term_of)
    if not view.voice or view.voice[0] is None:
        return ""
    polled = [p for k, p in enumerate(view.peek) if k > 0 and view.voice[k] is None and p is not None]
    mine = polled.count(service)
    face = view.voice[0] == service
    odds = wanted_odds(view, service) or 0.0
    if face and mine:
        known = _times(
            words, mine, N_("{service} is face up and you polled another"),
            N_("{service} is face up and you polled two more"),
            N_("{service} is face up and you polled {count}"), service=term_of,
        )  # fmt: skip
    elif face:
        known = words.t("{service} is face up", service=term_of)
    elif mine:
        known = _times(
            words, mine, N_("you polled {service} once"), N_("you polled {service} twice"),
            N_("you polled {service} {count}"), service=term_of,
        )  # fmt: skip
    else:
        up = term(words, view.voice[0])
        if polled:
            seen = words.t(
                "{service} is face up and you polled {services}", service=up, services=term(words, polled)
            )
        else:
            seen = words.t("{service} is face up", service=up)
        if odds < 0.005:
            return words.t("{service} lasts for later years ({seen})", service=term_of, seen=seen)
        return words.t(
            "{seen}: {service} is {odds} likely by what you know",
            seen=seen,
            service=term_of,
            odds=f"{odds:.0%}",
        )
    if odds > 0.995:
        return words.t("{known}, so the people want {service}", known=known, service=term_of)
    return words.t("{known} ({odds} likely by what you know)", known=known, odds=f"{odds:.0%}")


def _times(words: Words, n: int, one: str, two: str, more: str, **values: str) -> str:
    """``one`` for once, ``two`` for twice, else ``more`` with the ``{count}``."""
    return (
        words.t(one, **values)
        if n == 1
        else words.t(two, **values)
        if n == 2
        else words.t(more, count=n, **values)
    )
