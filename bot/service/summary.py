"""Texts built from a game: the one-line summary of a move, who must act, decision buttons.

Everything here works from public events (``private_to is None``) and spectator views, so
that no hidden information can reach a channel message.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence

import i18n
from bot.ids import custom_id, review_at_id
from bot.results import Button
from engine import Action, Event, Game, View
from engine.cities import area_map, city_at, hex_food
from engine.describe import describe
from engine.words import Words, tell
from i18n import N_, _, _n, either

SUMMARY_LIMIT = 1500
BUTTON_LABEL_LIMIT = 80
BUTTONS_PER_SEAT = 5
MAX_BUTTONS = 25
PANEL_LABEL = N_("🎲 Make my move")
REVIEW_LABEL = N_("🔎 Review")
PHASES = {
    "relocation": N_("Year {year} of 6, relocation"),
    "demolition": N_("Year {year} of 6, demolition"),
    "feeding": N_("Year {year} of 6, feeding"),
}
"""`when` in the phases after the political rounds."""
SETUPS = {"beginner": N_("beginner setup"), "experienced": N_("experienced setup")}


def public(events: Iterable[Event]) -> list[Event]:
    """The events everyone may see."""
    return [e for e in events if e.private_to is None]


def summary_line(events: Iterable[Event], limit: int = SUMMARY_LIMIT, words: Words | None = None) -> str:
    """The public events of a move as one line (cut with … when very long): in ``words``'
    language, or as stored (English) without them."""
    told = [e.text if words is None else e.told(words) for e in public(events)]
    text = " ".join(t.strip() for t in told if t.strip())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def plain(text: str) -> str:
    """``text`` without Discord's markup (bold, code, mentions), for alt text.

    >>> plain("↩️ <@42> took back `gold` (**Ann**).")
    '↩️ took back gold (Ann).'
    """
    return " ".join(re.sub(r"<@!?\d+>|[*`]", "", text).split())


def highlight(events: Iterable[Event]) -> list[str]:
    """The hexes the public events concern, in order, each once."""
    return list(dict.fromkeys(h for e in public(events) for h in e.hexes))


def when(view: View) -> str:
    """Year, phase and round, e.g. ``Year 2 of 6, political round 3 of 5``."""
    return stage_words(view.year, view.phase, view.round)


def stage_words(year: int, phase: str, political_round: int) -> str:
    """`when` of a game's year, phase and political round."""
    if phase == "over":
        return _("The game is over")
    if phase == "setup":
        return _("Setup: castle placement")
    if phase == "politics":
        return _("Year {year} of 6, political round {round} of 5", year=year, round=political_round)
    return _(PHASES[phase], year=year)


def setup_name(setup: str) -> str:
    """``beginner setup`` or ``experienced setup``, in words."""
    return _(SETUPS[setup]) if setup in SETUPS else setup


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def _city_name(game: Game, label: str | None) -> str:
    city = city_at(game.state, label) if label else None
    return city.name if city else (label or "?")


def asked(game: Game, seat: int) -> str:
    """What ``seat`` is asked now, in words."""
    parts: list[str] = []
    for d in game.pending_decisions(seat):
        if d.kind == "turn":
            parts.append(_("play a turn"))
        elif d.kind == "castle":
            parts.append(_("place a starting castle"))
        elif d.kind == "first":
            names = either([_city_name(game, h) for h in d.cities])
            parts.append(_("choose which city takes first in relocation: {cities}", cities=names))
        elif d.kind == "prefer":
            services = either([_(s) for s in d.services])
            parts.append(_("choose {services} for {city}", services=services, city=_city_name(game, d.city)))
        elif d.kind == "demolish":
            city = _city_name(game, d.city)
            parts.append(
                _n(
                    "choose {count} building of {city} to demolish",
                    "choose {count} buildings of {city} to demolish",
                    d.count,
                    city=city,
                )
            )
        else:
            parts.append(_n("choose {count} citizen who leave for hunger",
                            "choose {count} citizens who leave for hunger", d.count))  # fmt: skip
    return ", ".join(dict.fromkeys(parts))


def waited_for(game: Game, users: dict[int, int]) -> tuple[str, tuple[int, ...]]:
    """``@Ann to play a turn`` (each seat asked, joined by ``;``) and the user ids it mentions
    (``users`` maps seats; a computer player, with a negative id, is named, not mentioned)."""
    if game.is_over:
        return "", ()
    seats = game.pending_seats()
    names = [p.name for p in game.state.players]
    who = {s: mention(users[s]) if users[s] > 0 else f"🤖 {names[s]}" for s in seats}
    parts = [_("{who} to {what}", who=who[s], what=asked(game, s)) for s in seats]
    return "; ".join(parts), tuple(users[s] for s in seats if users[s] > 0)


def next_line(game: Game, users: dict[int, int]) -> tuple[str, tuple[int, ...]]:
    """``Next: @Ann to play a turn.`` and the user ids it mentions (see `waited_for`)."""
    who, pinged = waited_for(game, users)
    return (_("Next: {who}.", who=who) if who else ""), pinged


def numbers_line(view: View, seats: Sequence[int]) -> str:
    """The numbers that matter to the players asked now: gold, food for citizens, action cards.

    >>> from engine import Game
    >>> numbers_line(Game.new(["Ann", "Bob"], seed=1).view(None), [0])
    'Ann: 1 gold · food 6 for 8 citizens (2 short) · 3 action cards'
    """
    parts = []
    for seat in seats:
        p = view.players[seat]
        short = p.citizens - p.food
        if short > 0:
            food = _n(
                "food {food} for {count} citizen ({short} short)",
                "food {food} for {count} citizens ({short} short)",
                p.citizens, food=p.food, short=short,
            )  # fmt: skip
        else:
            food = _n("food {food} for {count} citizen", "food {food} for {count} citizens", p.citizens,
                      food=p.food)  # fmt: skip
        gold = _n("{count} gold", "{count} gold", p.gold)
        cards = _n("{count} action card", "{count} action cards", p.action_cards)
        parts.append(f"{p.name}: {gold} · {food} · {cards}")
    return "\n".join(parts)


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters (Discord's limit of a label), cut with … when longer.

    >>> cut("build farm D13", 10)
    'build far…'
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _label(text: str, prefix: str) -> str:
    return cut(prefix + text, BUTTON_LABEL_LIMIT)


def _candidates(game: Game, seat: int) -> list[Action]:
    """The moves worth a button for ``seat``: the quick turn moves, or the decision's answers."""
    moves = game.legal_moves(seat)
    kinds = {d.kind for d in game.pending_decisions(seat)}
    if kinds == {"turn"}:
        return [a for a in moves if a.verb in ("gold", "pass")]
    if kinds == {"castle"}:
        food = area_map(game.state)
        return sorted(moves, key=lambda a: -hex_food(food, a.hex or ""))[: BUTTONS_PER_SEAT - 1]
    default = game.default_move(seat)
    first = [default] if default is not None and default in moves else []
    return first + [a for a in moves if a not in first]


def decision_buttons(
    game: Game, game_id: int, version: int, names: dict[int, str], bots: Collection[int] = (),
    links: tuple[Button, ...] = (),
) -> tuple[Button, ...]:  # fmt: skip
    """The 🎲 button that opens a player's private panel (every move by taps), then quick
    buttons for the pending decisions: at most 5 per seat, each for its seat only; none for the seats
    of ``bots`` (computer players, resigned players: the bot answers them). Last, 🔎: the presser's
    review of the game at this position (`bot.service.review`), then ``links`` (the game's web page).
    25 in all at most."""
    review = Button(_(REVIEW_LABEL), review_at_id(game_id, game.moves_played))
    seats = [s for s in game.pending_seats() if s not in bots]
    if game.is_over or not seats:
        return (review, *links)
    buttons: list[Button] = [Button(_(PANEL_LABEL), custom_id(game_id, version, None, "panel"), "success")]
    for seat in seats:
        prefix = f"{names[seat]}: " if len(seats) > 1 else ""
        row: list[Button] = []
        for a in _candidates(game, seat):
            if len(row) >= BUTTONS_PER_SEAT:
                break
            try:
                cid = custom_id(game_id, version, seat, move=str(a))
            except ValueError:
                continue  # too long for a button: type it with /citta play
            if len(buttons) + len(row) >= MAX_BUTTONS - 1 - len(links):  # (and the review's, the links)
                break
            label = _label(describe(game, seat, a, words=i18n.current()), prefix)
            row.append(Button(label, cid, "secondary" if a.verb in ("gold", "pass") else "primary"))
        buttons.extend(row)
    return (*buttons, review, *links)


def peek_text(view: View, drawn: Sequence[str]) -> str:
    """A seat's private information this year: polled voice cards and drawn politics cards
    (``drawn``: the texts of the seat's secrets, in the reader's language)."""
    lines: list[str] = []
    seen = [(k, s) for k, s in enumerate(view.peek) if s is not None]
    if seen:
        cards = ", ".join(_("card {number} is {service}", number=k, service=_(s)) for k, s in seen)
        lines.append(_("Your polled voice cards: {cards}.", cards=cards))
    lines.extend(drawn)
    if not lines:
        return _("You have no private information in year {year}.", year=view.year)
    return _("Year {year}, only for you:", year=view.year) + "\n" + "\n".join(lines)


def count(n: int, one: str, many: str | None = None) -> str:
    """``1 citizen``, ``2 citizens`` (English: a translated text uses ``_n`` with the whole
    phrase instead).

    >>> count(1, "citizen"), count(0, "complete city", "complete cities")
    ('1 citizen', '0 complete cities')
    """
    return f"{n} {one if n == 1 else (many or one + 's')}"


def standings(view: View) -> str:
    """Scores so far (or the final scores), one player a line."""
    lines = []
    final = view.scores
    for p in view.players:
        complete = sum(1 for c in p.cities if c.complete)
        score = final[p.seat] if final else p.score
        crown = " 🏆" if view.winners and p.seat in view.winners else ""
        detail = [
            _n("{count} citizen", "{count} citizens", p.citizens),
            _n("{count} complete city", "{count} complete cities", complete),
        ]
        if p.hunger_vp:
            detail.append(_("−{points} for hunger", points=p.hunger_vp))
        gold = _n("{count} gold", "{count} gold", p.gold)
        lines.append(f"**{p.name}** {score}{crown} ({', '.join(detail)}; {gold})")
    head = _("Final score:") if final else _("Score if the game ended now:")
    return head + "\n" + "\n".join(lines)


def waste_warning(game: Game, seat: int, action: Action) -> str | None:
    """What the legal move ``action`` of ``seat`` wastes (the engine's word: `engine.Game.wastes`) and
    what the player can do, in the current language; None when it wastes nothing."""
    waste = game.wastes(seat, action)
    if waste is None:
        return None
    return _("⚠️ {waste} Press the button to play `{move}` anyway, or choose another move.",
             waste=tell(i18n.current(), waste), move=str(action))  # fmt: skip
