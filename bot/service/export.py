"""``/citta export``: the game record as a JSON file (part of the service layer).

While the game runs the file holds the setup and the moves but not the seed, which would give away
the hidden cards: it replays once the seed is filled in, and the seed is added when the game ends
(or is abandoned) — then the file is the engine's `Record` and ``Game.replay(json.load(f))``
rebuilds the game.
"""

from __future__ import annotations

import json
from typing import Any

import i18n
from bot.errors import NoGame
from bot.results import Message
from bot.service.context import Context
from bot.service.lookup import game_row
from i18n import N_, _, _n

EXPORT_FORMAT = "la-citta-record/1"
FULL_RECORD = N_("The full record: `Game.replay(json.load(file))` rebuilds the game.")
SECRET_SEED = N_(
    "The seed stays secret while the game runs (it would give away the hidden cards); it is added when "
    "the game ends. Until then the file replays once the seed is filled in."
)


async def export(ctx: Context, *, channel: int, user_id: int | None = None) -> Message:
    """The game record as a JSON file (the seed only once the game has ended): posted in the channel
    when one of its players asks (its text in the game's language; the file's note stays English),
    privately to anyone else (``user_id``: who asks; None: posted), so that nobody can fill a
    channel with files."""
    row = await game_row(ctx, channel, None, active=False)
    seats = await ctx.storage.games.seats(row.id) if user_id is not None else []
    public = user_id is None or any(s.user_id == user_id for s in seats)
    if row.record is None:
        raise NoGame(_("The game has not started yet: there is nothing to export."))
    ended = row.status in ("over", "abandoned")
    moves = await ctx.storage.moves.moves(row.id)
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
    with i18n.speaking(row.settings.language if public else i18n.current().code):
        note = _(SECRET_SEED) if not ended else _(FULL_RECORD)
        text = _n(
            "📄 Record of game {game} ({count} move). {note}",
            "📄 Record of game {game} ({count} moves). {note}",
            len(row.record["moves"]),
            game=row.id,
            note=note,
        )
    return Message(text, image=blob, filename=f"la-citta-game-{row.id}.json", ephemeral=not public)
