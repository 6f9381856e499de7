"""The pictures in words: alt text for each posted picture, and the whole position as text.

Everything is built from a `View` and says only what a sighted player learns from the picture
of that view. Face-down voice cards are only ever "face down": the viewer's own peeks are
never written, so a text stays public whichever view it was built from. The facts shared by
every text (the status, a player's numbers, a city's line) are each made in one function
below. Every text is written in the language spoken (`i18n.speaking`: `render_post` and
`describe_position` take the language), its game terms as that language's rulebook names them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.views import BuildingView, CityView, PlayerView, View
from i18n import N_, _, _n, listing, speaking

from .cards import card_title, cost
from .naming import PHASES, decision_text, term
from .naming import tags as player_tags
from .palette import PLAYER_NAMES
from .scores import score_rows

MAX_ALT = 1024
"""Discord's limit on a picture's description."""
MAX_MESSAGE = 2000
"""Discord's limit on a message."""
BUILDING_NAMES: dict[str, str] = {"bath": N_("public bath")}
"""Buildings named otherwise in a sentence than by their game term."""
PHASE_WORDS: dict[str, str] = {
    "relocation": N_("relocation"),
    "demolition": N_("demolition"),
    "feeding": N_("feeding"),
}
"""The phases other than the political rounds, in the middle of a sentence."""


def building_name(kind: str) -> str:
    """A building's name in a sentence (``farm``, ``public bath``)."""
    return _(BUILDING_NAMES.get(kind, kind))


def player_name(view: View, seat: int) -> str:
    """A player's name as they chose it (``Player 2`` when blank)."""
    return view.players[seat].name.strip() or _("Player {number}", number=seat + 1)


def city_name(view: View, castle: str) -> str:
    """The name of the city whose castle is on ``castle`` (the hex itself if none)."""
    return next((c.name for p in view.players for c in p.cities if c.castle == castle), castle)


# --- Shared facts ----------------------------------------------------------------------------


def status(view: View) -> str:
    """Where the game is and who must act on what, e.g. ``Year 3 of 6, political round 2 of 5.
    Start player: Ann. Waiting for Bob to play.``"""
    if view.phase == "over":
        win = [player_name(view, s) for s in view.winners or []]
        if len(win) == 1:
            return _("Game over. {name} wins.", name=win[0])
        return _("Game over. {names} share the win.", names=listing(win))
    if view.phase == "setup":
        head = _(PHASES[view.phase]) + "."
    else:
        start = player_name(view, view.start_player)
        if view.phase == "politics":
            head = _(
                "Year {year} of 6, political round {round} of 5. Start player: {name}.",
                year=view.year,
                round=view.round,
                name=start,
            )
        else:
            phase = _(PHASE_WORDS.get(view.phase, view.phase))
            head = _(
                "Year {year} of 6, {phase}. Start player: {name}.", year=view.year, phase=phase, name=start
            )
    waits = [f"{player_name(view, seat)} {what}" for seat, what in decision_text(view)]
    return head + " " + _("Waiting for {waits}.", waits=listing(waits)) if waits else head


def player_intro(view: View, p: PlayerView) -> str:
    """The player, their colour and their pieces' letter: ``Ann (orange, A)``."""
    tag = player_tags(view.players)[p.seat]
    colour = _(PLAYER_NAMES[p.seat % len(PLAYER_NAMES)])
    return f"{player_name(view, p.seat)} ({colour}, {tag})"


def player_numbers(view: View, p: PlayerView, full: bool = True, scored: bool = True) -> str:
    """A player's numbers: gold, food against citizens, (``full``) cards, notables, castles,
    and (``scored``) what hunger cost them and their score."""
    food = _n("{food} food for {count} citizen", "{food} food for {count} citizens", p.citizens, food=p.food)
    if p.citizens > p.food:
        food += " " + _("({count} short)", count=p.citizens - p.food)
    out = [_n("{count} gold", "{count} gold", p.gold), food]
    if full:
        out += [
            _("{count} of 3 action cards left", count=p.action_cards),
            _n("{count} notable left", "{count} notables left", p.notables),
            _n("{count} castle left", "{count} castles left", p.castles_left),
        ]
    if p.hunger_vp and scored:
        out.append(_("lost {count} VP to hunger", count=p.hunger_vp))
    elif p.hunger:
        out.append(_("hungry: loses the first turn"))
    if view.scores is not None and scored:
        out.append(_("score {score}", score=view.scores[p.seat]))
    return _("{player}: {facts}", player=player_intro(view, p), facts=", ".join(out))


def player_cities(p: PlayerView, hexes: bool = True) -> str:
    """``cities Firenze J3 and Siena E5`` (only the names without ``hexes``)."""
    if not p.cities:
        return _("no city")
    names = [f"{c.name} {c.castle}" if hexes else c.name for c in p.cities]
    return _n("city {names}", "cities {names}", len(names), names=listing(names))


def building_text(b: BuildingView) -> str:
    """``school K3 with 1 education notable`` or ``farm J4 with Rich Harvest``."""
    out = f"{building_name(b.kind)} {b.hex}"
    notables = [
        _n("{count} {service} notable", "{count} {service} notables", n, service=term(s))
        for s, n in b.notables.items()
        if n
    ]
    if b.harvest:
        notables.append(_("Rich Harvest"))
    return _("{building} with {notables}", building=out, notables=listing(notables)) if notables else out


def city_line(view: View, c: CityView, detail: int = 2) -> str:
    """A city: owner, citizens against its limit, food, arches and (by ``detail``) buildings.

    ``detail`` 2 names each building with its notables, 1 only the buildings, 0 counts them."""
    limit = _("no limit") if c.limit is None else _("limit {limit}", limit=c.limit)
    head = _n(
        "{city} ({castle}, {owner}): {count} citizen, {limit}",
        "{city} ({castle}, {owner}): {count} citizens, {limit}",
        c.population,
        city=c.name,
        castle=c.castle,
        owner=player_name(view, c.owner),
        limit=limit,
    )
    arches = _(
        "culture {culture}, education {education}, health {health}",
        culture=c.culture,
        education=c.education,
        health=c.health,
    )
    if c.complete:
        arches += ", " + _("complete")
    food = _("food {food}", food=c.food)
    out = f"{head}, {food}; {arches}"
    if not c.buildings:
        return out + "; " + _("no buildings")
    if detail == 0:
        return out + "; " + _n("{count} building", "{count} buildings", len(c.buildings))
    if detail == 1:
        return f"{out}; {', '.join(building_name(b.kind) for b in c.buildings)}"
    return f"{out}; {', '.join(building_text(b) for b in c.buildings)}"


def politics(view: View) -> str:
    """The politics cards on offer with their costs, and the pile and discard counts."""
    offer = [f"{card_title(c)} ({cost(c)})" for c in view.politics_row]
    row = listing(offer) if offer else _("none")
    return _(
        "Politics cards on offer: {cards}; draw pile {pile}, discard {discard}.",
        cards=row,
        pile=view.politics_pile,
        discard=view.politics_discard,
    )


def voice(view: View) -> str:
    """The voice of the people as everyone sees it: face-up services, the rest face down."""
    if view.phase == "setup":
        return _("Voice of the people: drawn when year 1 begins.")
    cards = [term(s) if s is not None else _("face down") for s in view.voice]
    out = _("Voice of the people: {cards}.", cards=", ".join(cards))
    if view.voice_result:
        out += " " + _("The voice is {services}.", services=listing([term(s) for s in view.voice_result]))
    return out


def supply(view: View) -> str:
    """What is left in the supply."""
    stacks = [f"{'/'.join(term(k) for k in label.split('/'))} {n}" for label, n in view.supply.tokens.items()]
    return _n(
        "Supply: {count} citizen, {stacks}.",
        "Supply: {count} citizens, {stacks}.",
        view.supply.citizens,
        stacks=", ".join(stacks),
    )


def final_scores(view: View) -> str:
    """The ranking with each score's breakdown (rules §9)."""
    out = []
    for rank, (seat, cit, bonus, hunger, total, gold) in enumerate(score_rows(view), start=1):
        parts = _n(
            "{count} citizen + {bonus} for complete cities - {hunger} for hunger; {gold} gold",
            "{count} citizens + {bonus} for complete cities - {hunger} for hunger; {gold} gold",
            cit,
            bonus=bonus,
            hunger=hunger,
            gold=gold,
        )
        out.append(
            _(
                "{rank}. {name} {total} VP ({parts})",
                rank=rank,
                name=player_name(view, seat),
                total=total,
                parts=parts,
            )
        )
    return _("Final scores: {ranking}.", ranking="; ".join(out))


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
    move = _("Last move: {move}.", move=last_move.strip()[:300].rstrip(".")) if last_move.strip() else ""
    head = (_("The board.") + f" {status(view)} {move}").strip()

    def text(hexes: bool, cities: bool) -> str:
        lines = [head]
        for p in view.players:
            where = player_cities(p, hexes) if cities else _n("{count} city", "{count} cities", len(p.cities))
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
    head = _("Close-up: {title}.", title=title.strip())
    tail = (
        " " + _n("{count} other hex without a building.", "{count} other hexes without a building.", empty)
        if empty
        else ""
    )
    if not cities:
        return first_fitting([head + " " + _("No city here.") + tail])
    return first_fitting(
        f"{head} {' '.join(city_line(view, c, detail) + '.' for c in cities)}{tail}" for detail in (2, 1, 0)
    )


def alt_sheet(view: View) -> str:
    """The table picture: status, every player's numbers and cities, cards or final scores
    (shorter, level by level, until it fits: no supply, no hexes, fewer numbers, and no score
    said twice)."""

    def text(level: int) -> str:
        lines = [_("The table.") + " " + status(view)]
        if view.scores is not None:
            lines.append(final_scores(view))
        for p in view.players:
            numbers = player_numbers(view, p, full=level < 2, scored=level < 3)
            lines.append(f"{numbers}; {player_cities(p, hexes=level < 1)}.")
        if view.scores is None:
            lines += [politics(view), voice(view)]
            if level == 0:
                lines.append(supply(view))
        return " ".join(lines)

    return first_fitting(text(level) for level in range(4))


def describe_position(view: View, lang: str = "en") -> list[str]:
    """The whole position as text for ``/citta describe``, in language ``lang``: one or more
    messages, each within Discord's 2000 characters, split between paragraphs (then lines)
    rather than inside one.

    Paragraphs: status; each player with their cities; politics cards; voice; supply; and the
    final scores once the game is over. Names are not escaped for Markdown."""
    with speaking(lang):
        paras = [status(view)]
        if view.scores is not None:
            paras.append(final_scores(view))
        for p in view.players:
            lines = [f"{player_numbers(view, p)}."]
            lines += [f"- {city_line(view, c)}." for c in p.cities] or ["- " + _("no city yet.")]
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
