"""Catching up (part of the service layer): `/citta recap`, everything since the player's last move,
privately, with the board."""

from __future__ import annotations

import i18n
from bot.errors import NoGame
from bot.results import Message
from bot.service import pictures
from bot.service.context import Context
from bot.service.lookup import game_row, seat_of
from bot.service.positions import restore
from bot.storage.rows import MoveRow, SeatRow
from engine.words import Words, told
from i18n import N_, _, _n

RECAP_LIMIT = 1900
GROUPS = (
    (N_("Income and growth"), ("income", "growth")),
    (N_("Politics row"), ("refill", "reshuffle", "draw")),
    (N_("Voice of the people"), ("voice", "tally")),
    (N_("Relocation"), ("relocate", "prefer")),
    (N_("Demolition and feeding"), ("demolish", "starve", "hunger", "city_lost")),
    (N_("Years"), ("year", "end_year", "game_over")),
)
OTHER = N_("Other")
MOVE_KINDS = {"gold", "found", "build", "castle", "pass", "poll", "golden", "bread", "harvest", "palace",
              "hospital", "bath", "cathedral", "university", "master"}  # fmt: skip


def events_in(move: MoveRow, words: Words) -> list[tuple[str, str]]:
    """The move's public events as (kind, text in ``words``' language; the stored English text
    for an event stored without its message)."""
    events = move.events or []
    if move.messages is None or len(move.messages) != len(events):
        return events
    return [
        (kind, told(words, message, values) if message else text)
        for (kind, text), (message, values) in zip(events, move.messages, strict=True)
    ]


def recap_lines(moves: list[MoveRow], seats: dict[int, SeatRow]) -> list[str]:
    """The moves in one line, then the other changes grouped by kind (one line each), the
    headings in the current language."""
    played = []
    for m in moves:
        name = seats[m.seat].name
        if seats[m.seat].computer:
            played.append(f"{name} `{m.text}` 🤖")
        elif m.auto:
            played.append(_("{name} `{move}` (by the bot)", name=name, move=m.text))
        else:
            played.append(f"{name} `{m.text}`")
    lines = [_("**Moves**: {moves}.", moves="; ".join(played))]
    grouped: dict[str, list[str]] = {title: [] for title, _kinds in GROUPS}
    grouped[OTHER] = []
    kind_to_group = {k: title for title, kinds in GROUPS for k in kinds}
    words = i18n.current()
    for m in moves:
        if m.events is None:  # stored before events were kept: the summary says it all
            grouped[OTHER].append(m.summary_in(words))
            continue
        for kind, text in events_in(m, words):
            if kind in kind_to_group:
                grouped[kind_to_group[kind]].append(text)
            elif kind not in MOVE_KINDS:  # a move's own effect is in its notation
                grouped[OTHER].append(text)
    lines += [
        _("**{title}**: {texts}", title=_(title), texts=" ".join(texts))
        for title, texts in grouped.items()
        if texts
    ]
    return lines


def fit(lines: list[str], limit: int = RECAP_LIMIT) -> str:
    """The lines, each cut so that all fit in ``limit`` characters."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    share = max(80, limit // max(1, len(lines)))
    return "\n".join(ln if len(ln) <= share else ln[: share - 1] + "…" for ln in lines)[:limit]


async def recap(
    ctx: Context, user_id: int, *, channel: int | None = None, game_id: int | None = None
) -> Message:
    """Everything since the user's last move, privately, with the current board."""
    row = await game_row(ctx, channel, game_id, active=False)
    if row.snapshot is None:
        raise NoGame(_("The game has not started yet."))
    me, seats = await seat_of(ctx, row, user_id)
    moves = await ctx.storage.moves.moves(row.id)
    mine = [k for k, m in enumerate(moves) if m.seat == me.seat and not m.auto]
    since = moves[mine[-1] + 1 :] if mine else moves
    view = restore(row).view(None)
    last = f"{moves[-1].text} — {moves[-1].summary_in(i18n.current())}" if moves else ""
    drawn = await pictures.post_pictures(ctx, view, row.highlight, last_move=last, focus=me.seat, game=row.id)
    if not since:
        return Message(_("Nothing has happened since your last move."), pictures=drawn, ephemeral=True)
    if mine:
        head = _n("Since your last move ({count} move):", "Since your last move ({count} moves):", len(since))
    else:
        head = _n("Since the start ({count} move):", "Since the start ({count} moves):", len(since))
    body = fit([head, *recap_lines(since, {s.seat: s for s in seats})])
    return Message(body, pictures=drawn, ephemeral=True)
