"""Catching up and the record (part of the service layer): `/citta recap` and `/citta export`.

The export while a game runs holds the setup and the moves but not the seed, which would
give away the hidden cards: it replays once the seed is filled in, and the seed is added when
the game ends (or is abandoned) — then the file is the engine's `Record` and
``Game.replay(json.load(f))`` rebuilds the game.
"""

from __future__ import annotations

import json
from typing import Any

import i18n
from bot.errors import NoGame
from bot.results import Message
from bot.service.commit import CommitMixin
from bot.storage.rows import MoveRow, SeatRow
from engine.words import Words, told
from i18n import N_, _, _n

EXPORT_FORMAT = "la-citta-record/1"
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
FULL_RECORD = N_("The full record: `Game.replay(json.load(file))` rebuilds the game.")
SECRET_SEED = N_(
    "The seed stays secret while the game runs (it would give away the hidden cards); it is added when "
    "the game ends. Until then the file replays once the seed is filled in."
)
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


class RecapMixin(CommitMixin):
    """`/citta recap` and `/citta export`."""

    async def recap(self, user_id: int, *, channel: int | None = None, game_id: int | None = None) -> Message:
        """Everything since the user's last move, privately, with the current board."""
        row = await self._game_row(channel, game_id, active=False)
        if row.snapshot is None:
            raise NoGame(_("The game has not started yet."))
        me, seats = await self._seat_of(row, user_id)
        moves = await self.storage.moves(row.id)
        mine = [k for k, m in enumerate(moves) if m.seat == me.seat and not m.auto]
        since = moves[mine[-1] + 1 :] if mine else moves
        view = self._restore(row).view(None)
        last = f"{moves[-1].text} — {moves[-1].summary_in(i18n.current())}" if moves else ""
        pictures = await self.pictures(view, row.highlight, last_move=last, focus=me.seat, game=row.id)
        if not since:
            return Message(_("Nothing has happened since your last move."), pictures=pictures, ephemeral=True)
        if mine:
            head = _n(
                "Since your last move ({count} move):", "Since your last move ({count} moves):", len(since)
            )
        else:
            head = _n("Since the start ({count} move):", "Since the start ({count} moves):", len(since))
        body = fit([head, *recap_lines(since, {s.seat: s for s in seats})])
        return Message(body, pictures=pictures, ephemeral=True)

    async def export(self, *, channel: int) -> Message:
        """The game record as a JSON file (the seed only once the game has ended), posted in the
        channel (its text in the game's language; the file's note stays English)."""
        row = await self._game_row(channel, None, active=False)
        if row.record is None:
            raise NoGame(_("The game has not started yet: there is nothing to export."))
        ended = row.status in ("over", "abandoned")
        moves = await self.storage.moves(row.id)
        data: dict[str, Any] = {
            "format": EXPORT_FORMAT,
            "game": row.id,
            "status": row.status,
            "players": row.record["players"],
            "setup": row.record["setup"],
            "seed": row.record["seed"] if ended else None,
            "moves": row.record["moves"],
            "legacy_moves": row.record.get("legacy_moves"),  # None: made before `first HEX` was asked
            "log": [
                {
                    "n": m.number,
                    "seat": m.seat,
                    "move": m.text,
                    "by_bot": m.auto,
                    "at": m.created_at,
                    "summary": m.summary,
                }
                for m in moves
            ],
        }
        if not ended:
            data["note"] = SECRET_SEED
        blob = json.dumps(data, indent=1).encode()
        with i18n.speaking(row.settings.language):  # posted in the channel
            note = _(SECRET_SEED) if not ended else _(FULL_RECORD)
            text = _n("📄 Record of game {game} ({count} move). {note}",
                      "📄 Record of game {game} ({count} moves). {note}",
                      len(row.record["moves"]), game=row.id, note=note)  # fmt: skip
        return Message(text, image=blob, filename=f"la-citta-game-{row.id}.json")
