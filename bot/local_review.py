"""Local play's review (``review`` in a game, ``--review`` for a saved one): the game move by move in
the terminal, as ``/citta-review`` shows it in Discord, one key a line.

It shares the Discord review's parts (`bot.service.review`): the position walked from the record
(`position`), its words (`words_of`, without Discord's markup) and where ⏮ ◀ ▶ ⏭ lead (`targets`:
``[ p n ]``); the pictures are a turn post's (`render.render_post`, the move ringed), written as PNGs
to ``review/`` in the game's folder, beside the boards of the game. What it shows is the Discord
review's **Decision**: everything once the game is over, the player's seat's view while it runs (a
spectator's in a demo of computers only).

The review reads the record and nothing else: it never changes the game or its save, and the game
goes on where it was after ``q``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import i18n
from bot.local_save import CannotResume, latest_save, read_save
from bot.service import summary
from bot.service.review import Position, position, targets, words_of
from engine import Game, IllegalMove
from i18n import _, _n

FOLDER = "review"
"""Where the review's pictures go, in the game's folder."""


def keys_text() -> str:
    """The keys of a review, in the current language (typed as they are in every language)."""
    return _(
        "Review keys (one a line): Enter or n the next move, p the previous one, ] and [ the next "
        "and previous political round or phase, y and Y the next and previous year, a number that "
        "move, 0 the start, q to leave the review."
    )


def year_starts(at: Position) -> list[int]:
    """The start, and the numbers of moves after which a new year has begun (``y``, ``Y``)."""
    return [0, *(k for k in range(1, len(at.stages)) if at.stages[k][0] != at.stages[k - 1][0])]


def target(at: Position, key: str) -> int | None:
    """The position ``key`` leads to from ``at``; None when it is not a key of the review (a number
    past the end is the caller's to refuse)."""
    back, previous, following, on = targets(at)
    years = year_starts(at)
    moves = {
        "": following, "n": following, "p": previous, "[": back, "]": on,
        "y": min((k for k in years if k > at.moved), default=at.count),
        "Y": max((k for k in years if k < at.moved), default=0),
    }  # fmt: skip
    if key in moves or key.lower() in moves:
        return moves[key] if key in moves else moves[key.lower()]
    return int(key) if key.isascii() and key.isdigit() else None


@dataclass
class Review:
    """A review of one game: its record, whose view, where its pictures go."""

    record: dict[str, Any]
    seat: int | None
    """The player's seat (None: a spectator, when computers play every seat)."""
    over: bool
    number: int
    """The game's number as the heading names it: its seed (the folder is ``game-SEED``)."""
    folder: Path
    out: TextIO

    @classmethod
    def of(cls, game: Game, seat: int | None, folder: Path, out: TextIO) -> Review:
        record = game.record()
        return cls(record.model_dump(mode="json"), seat, game.is_over, record.seed, folder, out)

    @property
    def names(self) -> Mapping[int, str]:
        return dict(enumerate(self.record["players"]))

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def run(self, inp: TextIO, moved: int | None = None) -> None:
        """Show the position after ``moved`` moves (None: the latest), then one position a key, until
        ``q`` or the end of the input."""
        self.say(keys_text())
        at = self.show(moved)
        while True:
            print(_("review") + "> ", end="", file=self.out, flush=True)
            line = inp.readline()
            key = line.strip()
            if not line or key.lower() in ("q", "quit", "exit"):
                return
            going = target(at, key)
            if going is None:
                self.say("  " + _("Not a key of the review: {key}.", key=repr(key)) + " " + keys_text())
            elif going > at.count:
                self.say("  " + _n(
                    "There is no move {move}: the game has {count} move so far; type 0 to {count}.",
                    "There is no move {move}: the game has {count} moves so far; type 0 to {count}.",
                    at.count, move=going,
                ))  # fmt: skip
            else:
                at = self.show(going)

    def show(self, moved: int | None) -> Position:
        """Print the position after ``moved`` moves in words and write its pictures."""
        at = position(self.record, moved, seat=self.seat, over=self.over)
        head, said = (summary.plain(t) for t in words_of(at, self.number, self.names))
        self.say("")
        self.say(head)
        if said:
            self.say(said)
        for path in self.draw(at, said or head):
            self.say("  " + _("[picture: {path}]", path=path))
        return at

    def draw(self, at: Position, said: str) -> list[Path]:
        """The turn post's pictures of ``at`` written as ``review/move-NNN-NAME.png`` (those of an
        earlier review of that move replaced); their paths."""
        from render import render_post  # Pillow is loaded only when a picture is drawn

        folder = self.folder / FOLDER
        folder.mkdir(parents=True, exist_ok=True)
        prefix = f"move-{at.moved:03d}-"
        for old in folder.glob(f"{prefix}*.png"):
            old.unlink()
        drawn = render_post(
            at.view,
            highlight=summary.highlight(at.events),
            last_move=said,
            focus=None,
            lang=i18n.current().code,
        )
        paths = []
        for name, data, _alt in drawn:
            path = folder / f"{prefix}{name}"
            path.write_bytes(data)
            paths.append(path.resolve())
        return paths


def offer(review: Review, inp: TextIO) -> None:
    """At the end of a game: the review, if the player types ``review``."""
    review.say(_("Type `review` to go through the game move by move, or Enter to stop."))
    if inp.readline().strip().lower() == "review":
        review.run(inp)


def review_saved(args: argparse.Namespace, inp: TextIO, out: TextIO) -> int:
    """``--review [FILE]``: the review of a saved game (the latest in ``--out`` when no file is
    named), from its start; 0 after ``q``, 2 when there is no game to review (said on stderr)."""
    path = Path(args.review) if args.review else latest_save(args.out)
    try:
        if path is None:
            raise CannotResume(_("citta: no saved game in {folder} to review.", folder=args.out))
        saved = read_save(path)
        game = Game.replay(saved.record)
    except CannotResume as e:
        print(e if e.why is None else _("citta: cannot review {path}: {error}", path=path, error=e.why),
              file=sys.stderr)  # fmt: skip
        return 2
    except IllegalMove as e:
        why = _("a saved move does not apply ({error})", error=e.told(i18n.current()))
        print(_("citta: cannot review {path}: {error}", path=path, error=why), file=sys.stderr)
        return 2
    Review.of(game, saved.human, path.parent, out).run(inp, 0)
    return 0
