"""The pictures in words: alt text for each posted picture, and the whole position as text.

Everything is built from a `View` and says only what a sighted player learns from the picture
of that view. Face-down voice cards are only ever "face down": the viewer's own peeks are
never written, so a text stays public whichever view it was built from. The facts shared by
every text (the status, a player's numbers, a city's line) are each made in one function
below; all the English is here, in simple f-strings, for a later translation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.components import POLITICS_TITLES
from engine.views import BuildingView, CityView, PlayerView, View

from .cards import COSTS
from .naming import PHASES, decision_text
from .naming import tags as player_tags
from .palette import PLAYER_NAMES
from .scores import score_rows

MAX_ALT = 1024
"""Discord's limit on a picture's description."""
MAX_MESSAGE = 2000
"""Discord's limit on a message."""
BUILDING_NAMES: dict[str, str] = {"bath": "public bath"}


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``n`` and the noun agreeing with it.

    >>> plural(1, "castle"), plural(2, "castle"), plural(0, "city", "cities")
    ('1 castle', '2 castles', '0 cities')
    """
    return f"{n} {noun if n == 1 else nouns or noun + 's'}"


def listing(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def player_name(view: View, seat: int) -> str:
    """A player's name as they chose it (``Player 2`` when blank)."""
    return view.players[seat].name.strip() or f"Player {seat + 1}"


def city_name(view: View, castle: str) -> str:
    """The name of the city whose castle is on ``castle`` (the hex itself if none)."""
    return next((c.name for p in view.players for c in p.cities if c.castle == castle), castle)


# --- Shared facts ----------------------------------------------------------------------------


def status(view: View) -> str:
    """Where the game is and who must act on what, e.g. ``Year 3 of 6, political round 2 of 5.
    Start player: Ann. Waiting for Bob to play.``"""
    if view.phase == "over":
        win = [player_name(view, s) for s in view.winners or []]
        who = f"{listing(win)} {'wins' if len(win) == 1 else 'share the win'}."
        return f"Game over. {who}"
    if view.phase == "setup":
        head = f"{PHASES['setup']}."
    else:
        phase = PHASES[view.phase].lower()
        if view.phase == "politics":
            phase += f" {view.round} of 5"
        head = f"Year {view.year} of 6, {phase}. Start player: {player_name(view, view.start_player)}."
    waits = [f"{player_name(view, seat)} {what}" for seat, what in decision_text(view)]
    return f"{head} Waiting for {listing(waits)}." if waits else head


def player_intro(view: View, p: PlayerView) -> str:
    """The player, their colour and their pieces' letter: ``Ann (orange, A)``."""
    tag = player_tags(view.players)[p.seat]
    return f"{player_name(view, p.seat)} ({PLAYER_NAMES[p.seat % len(PLAYER_NAMES)]}, {tag})"


def player_numbers(view: View, p: PlayerView, full: bool = True) -> str:
    """A player's numbers: gold, food against citizens, and (``full``) cards, notables, castles."""
    food = f"{p.food} food for {plural(p.citizens, 'citizen')}"
    if p.citizens > p.food:
        food += f" ({p.citizens - p.food} short)"
    out = [f"{p.gold} gold", food]
    if full:
        out += [
            f"{p.action_cards} of 3 action cards left",
            f"{plural(p.notables, 'notable')} left",
            f"{plural(p.castles_left, 'castle')} left",
        ]
    if p.hunger_vp:
        out.append(f"lost {p.hunger_vp} VP to hunger")
    elif p.hunger:
        out.append("hungry: loses the first turn")
    if view.scores is not None:
        out.append(f"score {view.scores[p.seat]}")
    return f"{player_intro(view, p)}: {', '.join(out)}"


def player_cities(p: PlayerView, hexes: bool = True) -> str:
    """``cities Firenze J3 and Siena E5`` (only the names without ``hexes``)."""
    if not p.cities:
        return "no city"
    names = [f"{c.name} {c.castle}" if hexes else c.name for c in p.cities]
    return f"{'city' if len(names) == 1 else 'cities'} {listing(names)}"


def building_text(b: BuildingView) -> str:
    """``school K3 with 1 education notable`` or ``farm J4 with Rich Harvest``."""
    out = f"{BUILDING_NAMES.get(b.kind, b.kind)} {b.hex}"
    notables = [plural(n, f"{s} notable") for s, n in b.notables.items() if n]
    if b.harvest:
        notables.append("Rich Harvest")
    return f"{out} with {listing(notables)}" if notables else out


def city_line(view: View, c: CityView, detail: int = 2) -> str:
    """A city: owner, citizens against its limit, food, arches and (by ``detail``) buildings.

    ``detail`` 2 names each building with its notables, 1 only the buildings, 0 counts them."""
    limit = "no limit" if c.limit is None else f"limit {c.limit}"
    head = f"{c.name} ({c.castle}, {player_name(view, c.owner)}): {plural(c.population, 'citizen')}, {limit}"
    arches = f"culture {c.culture}, education {c.education}, health {c.health}"
    if c.complete:
        arches += ", complete"
    out = f"{head}, food {c.food}; {arches}"
    if not c.buildings:
        return f"{out}; no buildings"
    if detail == 0:
        return f"{out}; {plural(len(c.buildings), 'building')}"
    if detail == 1:
        return f"{out}; {', '.join(BUILDING_NAMES.get(b.kind, b.kind) for b in c.buildings)}"
    return f"{out}; {', '.join(building_text(b) for b in c.buildings)}"


def politics(view: View) -> str:
    """The politics cards on offer with their costs, and the pile and discard counts."""
    offer = [f"{POLITICS_TITLES.get(c, c)} ({COSTS.get(c, '')})" for c in view.politics_row]
    row = listing(offer) if offer else "none"
    return f"Politics cards on offer: {row}; draw pile {view.politics_pile}, discard {view.politics_discard}."


def voice(view: View) -> str:
    """The voice of the people as everyone sees it: face-up services, the rest face down."""
    if view.phase == "setup":
        return "Voice of the people: drawn when year 1 begins."
    cards = [s if s is not None else "face down" for s in view.voice]
    out = f"Voice of the people: {', '.join(cards)}."
    if view.voice_result:
        out += f" The voice is {listing(list(view.voice_result))}."
    return out


def supply(view: View) -> str:
    """What is left in the supply."""
    stacks = [f"{label} {n}" for label, n in view.supply.tokens.items()]
    return f"Supply: {view.supply.citizens} citizens, {', '.join(stacks)}."


def final_scores(view: View) -> str:
    """The ranking with each score's breakdown (rules §9)."""
    out = []
    for rank, (seat, cit, bonus, hunger, total, gold) in enumerate(score_rows(view), start=1):
        parts = f"{cit} citizens + {bonus} for complete cities - {hunger} for hunger; {gold} gold"
        out.append(f"{rank}. {player_name(view, seat)} {total} VP ({parts})")
    return f"Final scores: {'; '.join(out)}."


# --- The texts -------------------------------------------------------------------------------


def first_fitting(candidates: Iterable[str], limit: int = MAX_ALT) -> str:
    """The first candidate within ``limit`` characters; else the last one cut at a word."""
    last = ""
    for text in candidates:
        if len(text) <= limit:
            return text
        last = text
    cut = last[: limit - 3]
    return (cut[: cut.rfind(" ")] if " " in cut else cut).rstrip(" ,;") + "..."


def alt_overview(view: View, last_move: str) -> str:
    """The board picture: what is asked, the last move, each player's numbers and cities."""
    move = f"Last move: {last_move.strip()[:300]}." if last_move.strip() else ""
    head = f"The board. {status(view)} {move}".strip()

    def text(hexes: bool, cities: bool) -> str:
        lines = [head]
        for p in view.players:
            where = player_cities(p, hexes) if cities else plural(len(p.cities), "city", "cities")
            lines.append(f"{player_numbers(view, p, full=False)}; {where}.")
        return " ".join(lines)

    return first_fitting([text(True, True), text(False, True), text(False, False)])


def alt_closeup(view: View, title: str, hexes: Sequence[str]) -> str:
    """A close-up picture: each city with a piece in the framed ``hexes``, in full."""
    frame = {h.strip().upper() for h in hexes}
    cities = [
        c
        for p in view.players
        for c in p.cities
        if c.castle in frame or any(b.hex in frame for b in c.buildings)
    ]
    taken = {c.castle for c in cities} | {b.hex for c in cities for b in c.buildings}
    empty = len(frame - taken)
    head = f"Close-up: {title.strip()}."
    tail = f" {plural(empty, 'other hex', 'other hexes')} without a building." if empty else ""
    if not cities:
        return first_fitting([f"{head} No city here.{tail}"])
    return first_fitting(
        f"{head} {' '.join(city_line(view, c, detail) + '.' for c in cities)}{tail}" for detail in (2, 1, 0)
    )


def alt_sheet(view: View) -> str:
    """The table picture: status, every player's numbers and cities, cards or final scores."""

    def text(level: int) -> str:
        lines = [f"The table. {status(view)}"]
        if view.scores is not None:
            lines.append(final_scores(view))
        for p in view.players:
            lines.append(f"{player_numbers(view, p, full=level < 2)}; {player_cities(p, hexes=level < 1)}.")
        if view.scores is None:
            lines += [politics(view), voice(view)]
            if level == 0:
                lines.append(supply(view))
        return " ".join(lines)

    return first_fitting(text(level) for level in range(3))


def describe_position(view: View) -> list[str]:
    """The whole position as text for ``/citta describe``: one or more messages, each within
    Discord's 2000 characters, split between paragraphs (then lines) rather than inside one.

    Paragraphs: status; each player with their cities; politics cards; voice; supply; and the
    final scores once the game is over. Names are not escaped for Markdown."""
    paras = [status(view)]
    if view.scores is not None:
        paras.append(final_scores(view))
    for p in view.players:
        lines = [f"{player_numbers(view, p)}."]
        lines += [f"- {city_line(view, c)}." for c in p.cities] or ["- no city yet."]
        paras.append("\n".join(lines))
    if view.scores is None:
        paras += [politics(view), voice(view)]
    paras.append(supply(view))
    return chunks(paras)


def chunks(paragraphs: Sequence[str], limit: int = MAX_MESSAGE) -> list[str]:
    """``paragraphs`` packed into as few texts of at most ``limit`` characters as they go (a
    paragraph too long for one is split between its lines).

    >>> [len(c) for c in chunks(["a" * 5, "b" * 5, "c" * 5], limit=12)]
    [12, 5]
    """
    pieces: list[tuple[str, str]] = []
    for para in paragraphs:
        if len(para) <= limit:
            pieces.append(("\n\n", para))
            continue
        for k, line in enumerate(para.split("\n")):
            parts = [line[i : i + limit] for i in range(0, len(line), limit)] or [""]
            pieces += [("\n" if k or j else "\n\n", part) for j, part in enumerate(parts)]
    out: list[str] = []
    for sep, piece in pieces:
        if out and len(out[-1]) + len(sep) + len(piece) <= limit:
            out[-1] += sep + piece
        else:
            out.append(piece)
    return out
