"""What a finished game leaves in its server's history: each seat's placing (see `bot.service.ratings`
for how places are decided and who is rated), the scoring breakdown, and what the stats count.

Only finished games enter the history (a running game's hidden information never does); an
abandoned game is not rated and not listed. A player who used ``/citta me forget`` stays in
the games they played as `FORMER` (their rating is deleted).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from bot.service.ratings import Standing, ranks, rate
from bot.storage.rows import Placing, Rating, SeatRow
from engine import Action, Game, MalformedMove
from engine.actions import BUILDING_CARDS
from i18n import _, _n, decimal


def player_key(seat: SeatRow) -> str:
    """Whose rating a seat plays with: ``user:<id>`` for a person, ``computer:<level>``."""
    return f"computer:{seat.ai_level}" if seat.computer else f"user:{seat.user_id}"


def computer_name(level: str) -> str:
    """A computer player's name in the history (stored: English; see `shown_name`)."""
    return f"Computer ({level})"


def shown_name(place: Placing) -> str:
    """The name of a placing as shown: a computer player's in the reader's language."""
    if place.user_id is None and place.player.startswith("computer:"):
        return _("Computer ({level})", level=_(place.player.removeprefix("computer:")))
    return place.name


def buildings(moves: list[tuple[int, str]], seat: int) -> Counter[str]:
    """The buildings ``seat`` built, by kind (from the record's moves)."""
    kinds: Counter[str] = Counter()
    for s, text in moves:
        if s != seat:
            continue
        try:
            a = Action.parse(text)
        except MalformedMove:
            continue
        if a.verb in ("build", "master") and a.building:
            kinds[a.building] += 1
        elif a.verb in BUILDING_CARDS:
            kinds[a.verb] += 1
    return kinds


def favourite(kinds: Counter[str] | dict[str, int]) -> str | None:
    """The most built kind; a tie goes to the alphabetically first."""
    return min(kinds, key=lambda k: (-kinds[k], k)) if kinds else None


def placings(game: Game, seats: list[SeatRow], ratings: dict[str, Rating]) -> list[Placing]:
    """The placings of a finished ``game`` played by ``seats`` (``ratings``: the players' ratings
    before it), each with its new rating."""
    view = game.view(None)
    assert game.is_over and view.scores is not None
    moves = game.record().moves
    standings = [
        Standing(player_key(s), view.scores[s.seat], view.players[s.seat].gold, s.resigned) for s in seats
    ]
    new = rate(standings, ratings)
    out = []
    for s, st, rank in zip(seats, standings, ranks(standings), strict=True):
        p = view.players[s.seat]
        kinds = buildings(moves, s.seat)
        out.append(Placing(
            seat=s.seat, player=st.player, user_id=None if s.computer else s.user_id,
            name=computer_name(s.ai_level or "") if s.computer else p.name, rank=rank, score=st.score,
            gold=p.gold, citizens=sum(c.population for c in p.cities), bonus=p.city_bonus,
            hunger_vp=p.hunger_vp, resigned=s.resigned,
            hungry_years=sum(1 for seat, text in moves if seat == s.seat and text.startswith("starve")),
            built=dict(sorted(kinds.items())), before=ratings.get(st.player, Rating()), after=new[st.player],
        ))  # fmt: skip
    return out


def number(x: float) -> str:
    """A rating (or, given an int, a score) as shown in the current language, with a true minus
    sign: ``3.1``, ``−0.4``, ``−2`` (``3,1`` in German, French and Dutch: `i18n.decimal`)."""
    return str(x).replace("-", "−") if isinstance(x, int) else decimal(x)


def signed(x: float) -> str:
    """A rating change as shown in the current language: ``+1.2``, ``−0.4``, ``±0.0``."""
    if round(x, 1) == 0:
        return "±" + decimal(0.0)
    return "+" + decimal(x) if x > 0 else decimal(x)


def final_text(game_id: int, places: list[Placing], names: Mapping[int, str] | None = None) -> str:
    """The end-of-game post: places, the scoring breakdown, and each player's rating change. A
    computer player is named as the game named it (``names``, by seat: ``Computer 1``) and its
    level, which is whose rating changes."""
    lines = [_("🏁 **Game {game} — final scoring** (citizens + complete cities − hunger = score)",
               game=game_id)]  # fmt: skip
    for p in sorted(places, key=lambda p: (p.rank, p.seat)):
        parts = _n(
            "{count} citizen + {bonus} for complete cities − {hunger} hunger = **{score}**",
            "{count} citizens + {bonus} for complete cities − {hunger} hunger = **{score}**",
            p.citizens, bonus=p.bonus, hunger=p.hunger_vp, score=number(p.score),
        )  # fmt: skip
        who = shown_name(p)
        if p.user_id is None and names and p.seat in names:
            who = _("🤖 {name} ({level})", name=names[p.seat], level=_(p.player.removeprefix("computer:")))
        name = _("**{name}** (resigned)", name=who) if p.resigned else f"**{who}**"
        lines.append(
            _("{rank}. {name}: {parts}, {gold} gold — rating {rating} ({change})", rank=p.rank, name=name,
              parts=parts, gold=p.gold, rating=number(p.after.shown), change=signed(p.change))
        )  # fmt: skip
    return "\n".join(lines)
