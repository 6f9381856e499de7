"""Database rows to the storage's dataclasses, for both backends: an SQLite row and an asyncpg
record are both read by column name (flags may be 0/1 or booleans; JSON comes as text)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import groupby
from typing import Any, Protocol, cast

from bot.storage.rows import (
    Clock,
    Deed,
    GameRow,
    GameSettings,
    MoveRow,
    OutboxRow,
    Placing,
    Prefs,
    Rating,
    Season,
    SeasonLength,
    SeasonSettings,
    SeatRow,
    Secret,
)
from bot.storage.tournaments_protocol import TournamentRow, TournamentStatus

SETTING_COLUMNS = (
    "deadline_hours", "remind_hours", "policy", "ai_level", "board_every", "vacation_days", "language",
    "min_finished", "max_pace_hours",
)  # fmt: skip


class Row(Protocol):
    """A row read by column name (`sqlite3.Row`, `asyncpg.Record`)."""

    def __getitem__(self, key: str, /) -> Any: ...


def game(row: Row) -> GameRow:
    settings = GameSettings(**{c: row[c] for c in SETTING_COLUMNS})
    return GameRow(
        id=row["id"], guild=row["guild"], channel=row["channel"], host=row["host"],
        status=row["status"], setup=row["setup"], players_wanted=row["players_wanted"],
        seed=row["seed"], version=row["version"],
        record=json.loads(row["record"]) if row["record"] else None,
        snapshot=json.loads(row["snapshot"]) if row["snapshot"] else None,
        highlight=json.loads(row["highlight"]), created_at=row["created_at"],
        updated_at=row["updated_at"], settings=settings, paused=row["paused"], blocked=row["blocked"],
        lobby_message=row["lobby_message"], computer_by=row["computer_by"], computer_at=row["computer_at"],
    )  # fmt: skip


def deed(r: Row) -> Deed:
    return Deed(r["user_id"], r["guild"], r["kind"], r["at"], r["waited"])


def seat(r: Row) -> SeatRow:
    return SeatRow(
        r["seat"], r["user_id"], r["name"], bool(r["resigned"]), r["ai_level"], bool(r["away"]),
        r["vacation_until"], r["vacation_used"], r["vacation_year"], r["vacation_request"], r["held_since"],
    )  # fmt: skip


def move(r: Row) -> MoveRow:
    stored: list[dict[str, Any]] | None = json.loads(r["events"]) if r["events"] else None
    events: list[tuple[str, str]] | None = None
    messages: list[tuple[str, dict[str, Any]]] | None = None
    if stored is not None:
        events = [(e["kind"], e["text"]) for e in stored]
        if all("message" in e for e in stored):  # not in moves stored before the messages were kept
            messages = [(e["message"], e.get("values") or {}) for e in stored]
    return MoveRow(
        r["number"], r["seat"], r["text"], r["summary"], bool(r["auto"]), r["created_at"],
        bool(r["reveals"]), r["batch"], events, messages,
    )  # fmt: skip


def secret(r: Row) -> Secret:
    """A private event; ``told`` holds its message and values as JSON (NULL: stored before they
    were kept)."""
    said = json.loads(r["told"]) if r["told"] else {}
    return Secret(r["seat"], r["year"], r["move"], r["kind"], r["text"],
                  said.get("message", ""), said.get("values") or {})  # fmt: skip


def told_json(s: Secret) -> str | None:
    """A private event's message and values as stored: ``{message, values}``, or None without one."""
    return json.dumps({"message": s.message, "values": s.values}) if s.message else None


def clock(r: Row) -> Clock:
    return Clock(r["game"], r["seat"], r["since"], r["paused"], r["reminders"], r["last_reminded"],
                 bool(r["stalled"]))  # fmt: skip


def prefs(r: Row) -> Prefs:
    ahead = json.loads(r["ahead"]) if r["ahead"] else {}
    return Prefs(
        r["user_id"], r["quiet_start"], r["quiet_end"], r["utc_offset"], r["remind_by"], r["language"], ahead,
        r["digest_at"], r["digest_day"], bool(r["next_ping"]),
    )  # fmt: skip


def ahead_json(ahead: dict[str, str]) -> str | None:
    """A player's standing answers as stored (None: none)."""
    return json.dumps(ahead, sort_keys=True) if ahead else None


def outbox(r: Row, image: bytes | None = None) -> OutboxRow:
    """An outbox row; ``image``: its attached file (in `outbox_files`), when it was read."""
    dms_done = {int(k): v for k, v in json.loads(r["dms_done"]).items()}
    return OutboxRow(
        id=r["id"], game=r["game"], channel=r["channel"], version=r["version"], payload=r["payload"],
        image=image, nonce=r["nonce"], dms_done=dms_done,
        state=r["state"], attempts=r["attempts"], tried_at=r["tried_at"], next_try=r["next_try"],
        message_id=r["message_id"], error=r["error"], created_at=r["created_at"],
        claimed_by=r["claimed_by"], claimed_until=r["claimed_until"], edits=r["edits"],
    )  # fmt: skip


def placing(r: Row) -> Placing:
    return Placing(
        seat=r["seat"], player=r["player"], user_id=r["user_id"], name=r["name"], rank=r["rank"],
        score=r["score"], gold=r["gold"], citizens=r["citizens"], bonus=r["bonus"], hunger_vp=r["hunger_vp"],
        resigned=bool(r["resigned"]), hungry_years=r["hungry_years"], built=json.loads(r["built"]),
        before=Rating(r["mu_before"], r["sigma_before"]), after=Rating(r["mu_after"], r["sigma_after"]),
    )  # fmt: skip


def events_json(m: MoveRow) -> str:
    """A move's public events as stored: a JSON list of ``{kind, text, message, values}`` (the
    message and values, to tell the event in a reader's language, when the move has them)."""
    events: list[dict[str, Any]] = [{"kind": k, "text": t} for k, t in m.events or []]
    if m.messages is not None and len(m.messages) == len(events):
        for e, (message, values) in zip(events, m.messages, strict=True):
            e |= {"message": message, "values": values}
    return json.dumps(events)


def season(r: Row) -> Season:
    return Season(r["guild"], r["number"], r["starts"], r["ends"], r["champion"], r["champion_name"],
                  r["announced"])  # fmt: skip


def settings(r: Row) -> SeasonSettings:
    return SeasonSettings(r["guild"], cast(SeasonLength, r["length"]), r["channel"], r["language"])


def by_game(rows: Sequence[Row]) -> list[list[Placing]]:
    """Result rows (ordered by game end, game, seat) as each game's placings."""
    return [[placing(r) for r in seats] for _, seats in groupby(rows, key=lambda r: r["game"])]


def tournament(r: Row) -> TournamentRow:
    """A stored tournament, its document read back from JSON."""
    return TournamentRow(r["id"], r["guild"], r["channel"], cast(TournamentStatus, r["status"]), r["version"],
                         json.loads(r["state"]), r["created_at"], r["updated_at"])  # fmt: skip
