"""Where local play keeps a game: one JSON file per game, written after every move, and read
back by ``--resume``, which refuses a file that is not a saved game in one line (exit code 2)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from engine import Game, Record
from engine.ai import LEVELS
from engine.game import MAX_PLAYERS, MIN_PLAYERS
from i18n import _

SAVE_FORMAT = "la-citta-local/1"
SAVE_NAME = "game.json"


class CannotResume(Exception):
    """``--resume`` cannot go on with a game; the message says why, in one line (``why``: what is
    wrong with the file, when it is the file, for ``--review`` to say it its way)."""

    def __init__(self, message: str, why: str | None = None) -> None:
        super().__init__(message)
        self.why = why

    @classmethod
    def from_file(cls, path: Path, why: str) -> CannotResume:
        return cls(_("citta: cannot resume from {path}: {error}", path=path, error=why), why)


@dataclass(frozen=True)
class Saved:
    """A saved game as read back: its record, the human's seat (None: computers play every
    seat) and the computer players' level."""

    record: Record
    human: int | None
    level: str


def latest_save(folder: Path) -> Path | None:
    """The most recently saved game under ``folder``."""
    saves = sorted(folder.glob(f"*/{SAVE_NAME}"), key=lambda p: p.stat().st_mtime)
    return saves[-1] if saves else None


def save_file(resume: str, folder: Path) -> Path:
    """The file ``--resume`` names, or the latest saved game in ``folder`` when it names none."""
    path = Path(resume) if resume else latest_save(folder)
    if path is None:
        raise CannotResume(_("citta: no saved game in {folder}; start one without --resume.", folder=folder))
    return path


def write_save(path: Path, game: Game, human: int | None, level: str) -> None:
    """Save the game at ``path``, replacing the file in one step (a crash leaves the old one)."""
    data = {
        "format": SAVE_FORMAT,
        "human": human,
        "level": level,
        "record": game.record().model_dump(mode="json"),
    }
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data))
    os.replace(tmp, path)


def read_save(path: Path) -> Saved:
    """The game saved at ``path``; CannotResume when it cannot be read or is not a saved game
    (its moves are checked as they are played again, by the caller)."""
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise CannotResume.from_file(path, str(e)) from None
    except ValueError:  # not JSON, or not UTF-8
        data = None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise CannotResume.from_file(path, _("not a {format} file", format=SAVE_FORMAT))
    try:
        record = Record.model_validate(data.get("record"))
    except ValidationError as e:
        where = ".".join(str(part) for part in e.errors()[0]["loc"])
        raise CannotResume.from_file(path, _not_valid(f"record.{where}" if where else "record")) from None
    if not MIN_PLAYERS <= len(record.players) <= MAX_PLAYERS:
        raise CannotResume.from_file(path, _not_valid("record.players"))
    human = data.get("human")
    if human is not None and (type(human) is not int or not 0 <= human < len(record.players)):
        raise CannotResume.from_file(path, _not_valid("human"))
    level = data.get("level", "basic")
    if level not in LEVELS:
        raise CannotResume.from_file(path, _not_valid("level"))
    return Saved(record, human, level)


def _not_valid(field: str) -> str:
    return _("the field {field} is missing or not valid", field=field)
