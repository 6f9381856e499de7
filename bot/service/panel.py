"""The private panel: every legal move by taps — what to do, then which, then where, then confirm.

A move's notation is read as a path of words (``build`` → ``farm`` → ``D13``; ``found`` →
``D13`` → ``from E12``). The panel of a path offers the next words of every legal move that
starts with it, so every legal move — every kind, building, tier and hex — is reachable, and
nothing illegal is ever offered. A step with one possible word is taken at once. A complete
move is shown with what it does and a Confirm button (its custom id carries the game version,
so a stale or repeated Confirm is answered, never played twice).

Discord's limits shape the page: at most 25 options a select, 5 rows a message, so a page
holds up to `SELECTS_PER_PAGE` selects (100 options) and a row of buttons (back, pages, close).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import i18n
from bot.errors import CittaError
from bot.ids import custom_id, step_id
from bot.results import Button, Message, Option, Select
from bot.service import summary
from bot.service.admission import whose
from bot.service.context import Context
from bot.service.lookup import game_row
from engine import Action, Game
from engine.cities import city_at
from engine.describe import describe
from i18n import N_, _, _n

OPTIONS_PER_SELECT = 25
SELECTS_PER_PAGE = 4
PER_PAGE = OPTIONS_PER_SELECT * SELECTS_PER_PAGE
LABEL_LIMIT = 100
VERBS = {
    "castle": N_("Place a starting castle"),
    "gold": N_("Take 2 gold"),
    "found": N_("Found a city"),
    "build": N_("Build a small building"),
    "palace": N_("Palace (politics card)"),
    "university": N_("University (politics card)"),
    "hospital": N_("Hospital (politics card)"),
    "bath": N_("Public Bath (politics card)"),
    "cathedral": N_("Cathedral (politics card)"),
    "master": N_("Master Builder (politics card)"),
    "golden": N_("Golden Times (politics card)"),
    "bread": N_("Bread and Games (politics card)"),
    "harvest": N_("Rich Harvest (politics card)"),
    "poll": N_("Polling the People"),
    "pass": N_("Pass: draw a politics card"),
    "first": N_("Which city takes first"),
    "prefer": N_("Choose a service"),
    "demolish": N_("Choose buildings to demolish"),
    "starve": N_("Choose citizens who leave"),
}


def words(action: Action) -> tuple[str, ...]:
    """The path of a move: its notation's words, ``from`` kept with the hex it names.

    >>> words(Action.parse("found I9 from L11")), words(Action.parse("build farm D13"))
    (('found', 'I9', 'from L11'), ('build', 'farm', 'D13'))
    """
    out: list[str] = []
    for w in str(action).split():
        if out and out[-1] == "from":
            out[-1] = f"from {w}"
        else:
            out.append(w)
    return tuple(out)


@dataclass(frozen=True)
class Step:
    """Where a panel stands: the path (after the steps taken at once), what comes next."""

    path: tuple[str, ...]
    nexts: dict[str, list[Action]]
    """The next words, in the engine's order, each with the legal moves it leads to."""
    move: Action | None
    """The move the path spells, when it is complete."""


def step(moves: Sequence[Action], path: Sequence[str]) -> Step:
    """The step at ``path`` (taking at once any step with a single possible word)."""
    paths = [(a, words(a)) for a in moves]
    here = tuple(path)
    while True:
        nexts: dict[str, list[Action]] = {}
        move = None
        for a, w in paths:
            if w[: len(here)] == here:
                if len(w) == len(here):
                    move = a
                else:
                    nexts.setdefault(w[len(here)], []).append(a)
        if move is None and len(nexts) == 1:
            here = (*here, next(iter(nexts)))
            continue
        return Step(here, nexts, move)


def back_of(moves: Sequence[Action], path: tuple[str, ...]) -> tuple[str, ...] | None:
    """The path one real choice back (skipping steps that had one word), None at the top."""
    if not path:
        return None
    back = path[:-1]
    while (
        back
        and len({w[len(back)] for w in map(words, moves) if w[: len(back)] == back and len(w) > len(back)})
        < 2
    ):
        back = back[:-1]
    return back


def _place(game: Game, hex_label: str) -> str:
    city = city_at(game.state, hex_label)
    return f"{hex_label} · {city.name}" if city is not None else hex_label


def option_label(game: Game, path: tuple[str, ...], word: str) -> str:
    """How the next word ``word`` after ``path`` is shown."""
    if not path:
        return _(VERBS[word]) if word in VERBS else word
    verb = path[0]
    if word.isdigit():
        n = int(word)
        if verb == "poll":
            return _("Card {number}", number=word)
        if verb == "golden":
            return _n("{count} citizen", "{count} citizens", n)
        if verb == "bread":
            return _n("{count} notable", "{count} notables", n)
        return word
    if word.startswith("from "):
        return _("Citizen from {place}", place=_place(game, word[5:]))
    if word[0].isupper():
        return _place(game, word)
    if word == "all":
        return _("All cards")
    term = _(word)  # a building or a service
    return term[:1].upper() + term[1:]


def option_description(game: Game, seat: int, leads_to: list[Action]) -> str:
    """What picking an option does: the move's effect when it completes one, else how many
    moves it leads to."""
    if len(leads_to) == 1:
        text = describe(game, seat, leads_to[0], words=i18n.current())
        return summary.cut(text.split(" — ", 1)[1] if " — " in text else text, LABEL_LIMIT)
    return _n("{count} possible move", "{count} possible moves", len(leads_to))


def panel_message(game: Game, game_id: int, version: int, seat: int, path: Sequence[str], page: int,
                  note: str = "") -> Message:  # fmt: skip
    """The panel of ``seat`` at ``path`` (page ``page``), as a private message."""
    moves = game.legal_moves(seat)
    head = [_("🎲 **Your move** (game {game}) — {when}.", game=game_id, when=summary.when(game.view(seat)))]
    if note:
        head.insert(0, note)
    if not moves:
        return Message("\n".join([*head[:-1], _("Nothing is asked of you right now.")]), ephemeral=True)
    head.append(_("You are asked to {what}.", what=summary.asked(game, seat)))
    at = step(moves, path)
    if at.move is None and not at.nexts:
        at = step(moves, ())  # a path no legal move takes (any more): start again
    back = back_of(moves, at.path)
    close = Button(_("Close"), custom_id(game_id, version, seat, "close"), "secondary")
    back_button = (
        () if back is None else (Button(_("◀ Back"), step_id(game_id, version, seat, back), "secondary"),)
    )
    if at.move is not None and not at.nexts:
        text = describe(game, seat, at.move, words=i18n.current())
        body = [
            *head,
            _("**Play `{move}`?**", move=at.move),
            text.split(" — ", 1)[1] if " — " in text else "",
        ]
        if warning := summary.waste_warning(game, seat, at.move):
            body.append(warning)
        confirm_id = custom_id(game_id, version, seat, "confirm", str(at.move))
        confirm = Button(summary.cut(_("✅ Play {move}", move=at.move), 80), confirm_id, "success")
        return Message(
            "\n".join(b for b in body if b), ephemeral=True, buttons=(confirm, *back_button, close)
        )
    chosen = _("Chosen so far: `{path}`.", path=" ".join(at.path)) if at.path else _("What do you do?")
    options = list(at.nexts.items())
    pages = max(1, -(-len(options) // PER_PAGE))
    page = min(max(0, page), pages - 1)
    shown = options[page * PER_PAGE : (page + 1) * PER_PAGE]
    selects = []
    for k in range(0, len(shown), OPTIONS_PER_SELECT):
        chunk = shown[k : k + OPTIONS_PER_SELECT]
        labels = [option_label(game, at.path, w) for w, _ in chunk]
        placeholder = labels[0] if len(chunk) == 1 else f"{labels[0]} … {labels[-1]}"
        selects.append(
            Select(
                step_id(game_id, version, seat, at.path, page=page, select=k // OPTIONS_PER_SELECT),
                summary.cut(_("Choose: {options}", options=placeholder), 150),
                tuple(
                    Option(summary.cut(label, LABEL_LIMIT), w, option_description(game, seat, leads))
                    for label, (w, leads) in zip(labels, chunk, strict=True)
                ),
            )
        )
    paging = []
    if page > 0:
        paging.append(Button(_("◂ Previous"), step_id(game_id, version, seat, at.path, page=page - 1)))
    if page + 1 < pages:
        more = _("More ({page}/{pages}) ▸", page=page + 2, pages=pages)
        paging.append(Button(more, step_id(game_id, version, seat, at.path, page=page + 1)))
    if pages > 1:
        chosen = _("{chosen} (page {page} of {pages})", chosen=chosen, page=page + 1, pages=pages)
    return Message(
        "\n".join([*head, chosen]),
        ephemeral=True,
        selects=tuple(selects),
        buttons=(*back_button, *paging, close),
    )


async def my_panel(ctx: Context, user_id: int, channel: int) -> Message:
    """``/citta panel``: the user's panel in this channel's game."""
    row = await game_row(ctx, channel, None)
    return await panel(ctx, user_id, row.id)


async def panel(
    ctx: Context,
    user_id: int,
    game_id: int,
    *,
    based_on: int | None = None,
    seat: int | None = None,
    path: Sequence[str] = (),
    page: int = 0,
    note: str = "",
) -> Message:
    """The user's panel at ``path``. A panel made at an older version (``based_on``) is
    replaced by a fresh one that says so."""
    row = await game_row(ctx, None, game_id)
    seats = await ctx.storage.games.seats(row.id)
    me = whose(seats, seat, user_id)
    if based_on is not None and based_on != row.version:
        note = note or _("🔄 The game moved on since this panel was made: here is a fresh one.")
        path, page = (), 0
    game = ctx.positions.look(row)
    msg = panel_message(game, row.id, row.version, me.seat, path, page, note)
    if not game.legal_moves(me.seat):
        users = {s.seat: s.user_id for s in seats}
        waiting = summary.next_line(game, users)[0]
        msg = msg.with_text(f"{msg.text}\n{waiting}".strip())
    return msg


async def panel_or(ctx: Context, user_id: int, game_id: int, note: str) -> Message:
    """A fresh panel headed by ``note`` (what became of the move just confirmed), or ``note`` alone
    when there is none (the game is over…)."""
    try:
        return await panel(ctx, user_id, game_id, note=note)
    except CittaError as e:
        return Message(f"{note}\n{e}", ephemeral=True)
