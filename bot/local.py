"""``python -m bot.local`` / ``citta``: play La Città in the terminal against computer players.

No Discord and no token: you are the first seat and type your moves in the notation (``?``
lists your legal moves with what each does, ``help`` the other commands). The game is saved
after every move (``--resume`` goes on with it later) and the board is drawn after every move
as a numbered PNG that rings everything since your last move. ``--auto`` lets computers play
every seat.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bot.service.rules_help import TOPICS
from bot.service.summary import count, standings, when
from engine import Game, IllegalMove, Record
from engine.ai import LEVELS, choose
from engine.ai.hint import hint
from engine.decisions import asked_of
from engine.describe import describe
from engine.events import Event
from engine.views import View

NAMES = ("Ada", "Bruno", "Carla", "Dario", "Elena")
SAVE_FORMAT = "la-citta-local/1"
SAVE_NAME = "game.json"
MAX_WIDTH = 4000
LOG_LINES = 20
RULE_TOPICS = tuple(t for t in TOPICS if t not in ("bot", "async"))
"""The rule topics of ``/citta rules`` that are about the game, not about Discord."""
COMMANDS = (
    ("MOVE", "a move in the notation: gold, found I9 from L11, build farm I9, golden 2 F5, poll 1 2, pass …"),
    ("? [TEXT]", "your legal moves with what each does (only those starting with TEXT: '? build farm')"),
    ("hint", "the move the strong computer player would make for you, and why"),
    ("status", "the table: every player's gold, food, cards and cities"),
    ("score", "the score if the game ended now"),
    ("log [N]", f"the last N things that happened (default {LOG_LINES})"),
    ("board", "where the latest picture of the board is"),
    ("rules [TOPIC]", f"the rules in short; topics: {', '.join(RULE_TOPICS)}"),
    (
        "undo",
        "take back your last move (and the computers' moves since) if nothing hidden was revealed since",
    ),
    ("help", "this list"),
    ("quit", "save and stop (so does Ctrl-D); --resume goes on later"),
)
HELP = "Commands:\n" + "\n".join(f"  {name:<14} {what}" for name, what in COMMANDS)


class Quit(Exception):
    """The player stops: ``quit``, or the end of the input."""


@dataclass
class Mark:
    """One of the player's moves, for ``undo``: where it starts in the record and in the log."""

    moves_before: int
    log_before: int
    revealed: str | None = None
    """The first thing made known since this move (then it cannot be taken back)."""


# --- the command line -------------------------------------------------------------------


def _width(text: str) -> int:
    from render.compose import MIN_WIDTH  # Pillow is loaded only when a width is given

    try:
        width = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of pixels") from None
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise argparse.ArgumentTypeError(
            f"{width} is out of range: the board is drawn {MIN_WIDTH} to {MAX_WIDTH} px wide"
        )
    return width


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="citta",
        description="Play La Città in the terminal against the computer. You are the first player;\n"
        "the game is saved after every move and the board is drawn as a PNG after every move.",
        epilog="In the game, type:\n" + "\n".join(f"  {name:<14} {what}" for name, what in COMMANDS),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--players",
        type=int,
        default=3,
        choices=range(2, 6),
        help="players at the table, you included (default: %(default)s)",
    )
    p.add_argument(
        "--level",
        default=None,
        choices=LEVELS,
        help="the computer players' level (default: basic; with --resume: the saved game's)",
    )
    p.add_argument(
        "--setup",
        default="beginner",
        choices=("beginner", "experienced"),
        help="beginner: the rulebook's fixed terrain and starting castles; experienced: shuffled "
        "terrain, and every player places two castles (default: %(default)s)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="game seed, to play the same game again (default: a random one)",
    )
    p.add_argument("--name", default="Player", help="your name at the table (default: %(default)s)")
    p.add_argument(
        "--out",
        type=Path,
        default=Path("citta-local"),
        help="folder for the saved games and the board pictures (default: %(default)s)",
    )
    p.add_argument(
        "--width",
        type=_width,
        default=1400,
        help=f"width of the board pictures in pixels, 600 to {MAX_WIDTH} (default: %(default)s)",
    )
    p.add_argument("--auto", action="store_true", help="computers play every seat (a demo: no input is read)")
    p.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar="FILE",
        help="go on with a saved game (default FILE: the latest saved game in --out)",
    )
    return p.parse_args(argv)  # fmt: skip


def latest_save(folder: Path) -> Path | None:
    """The most recently saved game under ``folder``."""
    saves = sorted(folder.glob(f"*/{SAVE_NAME}"), key=lambda p: p.stat().st_mtime)
    return saves[-1] if saves else None


def rules(topic: str) -> str:
    """The short rules of ``topic`` (from ``/citta rules``, without what is about Discord)."""
    key = topic.strip().lower() or "overview"
    if key not in RULE_TOPICS:
        return f"No rules on {topic!r}. Topics: {', '.join(RULE_TOPICS)}."
    sentences = re.split(r"(?<=\.) ", TOPICS[key])
    return " ".join(s for s in sentences if "/citta" not in s).replace("**", "").replace("`", "")


def voice_text(view: View) -> str:
    """This year's voice as the viewer knows it: the face-up card, then the face-down ones
    (``?`` unless revealed, or polled by the viewer)."""
    if not view.voice or view.voice[0] is None:
        return "not drawn yet"
    if all(s is not None for s in view.voice):
        return f"{', '.join(s or '' for s in view.voice)}: the people want {' and '.join(view.voice_result)}"
    down = [s or view.peek[k] or "?" for k, s in enumerate(view.voice)][1:]
    polled = [str(k) for k in range(1, 4) if view.voice[k] is None and view.peek[k] is not None]
    note = f" (you polled {' and '.join(polled)})" if polled else ""
    return f"{view.voice[0]}, face down {' '.join(down)}{note}"


# --- one game -----------------------------------------------------------------------------


class LocalGame:
    """One terminal game: the table, who is human, where it is saved and drawn."""

    def __init__(
        self, game: Game, human: int | None, level: str, folder: Path, width: int, out: TextIO
    ) -> None:
        self.game = game
        self.human = human
        self.level = level
        self.folder = folder
        self.width = width
        self.out = out
        self.interactive = False
        self.log: list[str] = []
        self.marks: list[Mark] = []
        self.highlight: list[str] = []
        self.board: Path | None = None
        folder.mkdir(parents=True, exist_ok=True)

    @property
    def seed(self) -> int:
        return self.game.record().seed

    @property
    def save_path(self) -> Path:
        return self.folder / SAVE_NAME

    @classmethod
    def start(cls, args: argparse.Namespace, out: TextIO) -> LocalGame:
        seed = args.seed if args.seed is not None else random.randrange(1_000_000)
        names = list(NAMES[: args.players]) if args.auto else [args.name, *NAMES[: args.players - 1]]
        game = Game.new(names, seed=seed, setup=args.setup)
        local = cls(
            game, None if args.auto else 0, args.level or "basic", args.out / f"game-{seed}", args.width, out
        )
        local.say(f"La Città: {args.players} players, {args.setup} setup, seed {seed}; "
                  + ("computers play every seat." if args.auto else f"you are {names[0]}."))  # fmt: skip
        if not args.auto:
            local.say(HELP)
            again = " (it replaces the game saved there before)" if local.save_path.exists() else ""
            local.say(f"The game is saved after every move in {local.save_path}{again}.")
        local.show(game.setup_events)
        return local

    @classmethod
    def resume(cls, args: argparse.Namespace, out: TextIO) -> LocalGame:
        """Go on with a saved game: its moves are played again to rebuild the log and ``undo``."""
        path = Path(args.resume) if args.resume else latest_save(args.out)
        if path is None:
            raise SystemExit(f"citta: no saved game in {args.out}; start one without --resume.")
        try:
            data: dict[str, Any] = json.loads(path.read_text())
            if data.get("format") != SAVE_FORMAT:
                raise ValueError(f"not a {SAVE_FORMAT} file")
            record = Record.model_validate(data["record"])
        except (OSError, ValueError, KeyError) as e:
            raise SystemExit(f"citta: cannot resume from {path}: {e}") from None
        game = Game.new(record.players, seed=record.seed, setup=record.setup)
        local = cls(
            game, data.get("human"), args.level or data.get("level", "basic"), path.parent, args.width, out
        )
        try:
            for seat, text in record.moves:
                local.play(seat, text, quiet=True)
        except IllegalMove as e:
            raise SystemExit(f"citta: cannot resume from {path}: a saved move does not apply ({e})") from None
        who = "computers play every seat" if local.human is None else f"you are {record.players[local.human]}"
        local.say(f"Resumed {path}: seed {record.seed}, {len(record.moves)} moves made, {who}. "
                  f"{when(game.view(local.human))}. What happened last:")  # fmt: skip
        for line in local.log[-8:]:
            local.say(line)
        local.say(HELP)
        return local

    # --- output -------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def note(self, text: str, quiet: bool = False) -> None:
        """A line of what happened: kept for ``log``, printed unless ``quiet``."""
        self.log.append(text)
        if not quiet:
            self.say(text)

    def show(self, events: list[Event], quiet: bool = False) -> bool:
        """Note the events the human may see; True when a decision of the human was made for them."""
        made_for_you = False
        for e in events:
            if not e.visible_to(self.human):
                continue
            if e.seat is not None and e.seat == self.human and e.data.get("auto"):
                made_for_you = True
                self.note(f"  ▶ yours, with no other choice: {e.text}", quiet)
            else:
                self.note(f"  {e.text}", quiet)
            self.highlight.extend(h for h in e.hexes if h not in self.highlight)
        return made_for_you

    def write_board(self) -> None:
        from render import render_board  # Pillow is loaded only when a picture is drawn

        path = self.folder / f"board-{len(self.game.record().moves):03d}.png"
        path.write_bytes(render_board(self.game.view(self.human), highlight=self.highlight, width=self.width))
        self.board = path.resolve()
        self.say(f"  [board: {self.board}]")
        if self.human is None:
            self.highlight = []  # a demo rings what happened since the last picture

    def save(self) -> None:
        data = {
            "format": SAVE_FORMAT,
            "human": self.human,
            "level": self.level,
            "record": self.game.record().model_dump(mode="json"),
        }
        tmp = self.save_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data))
        os.replace(tmp, self.save_path)

    def pause(self, inp: TextIO) -> None:
        """Let the player read what happened before the game goes on (at a terminal only)."""
        if not self.interactive:
            return
        print("  (Enter to go on) ", end="", file=self.out, flush=True)
        line = inp.readline()
        if not line or line.strip().lower() in ("quit", "exit"):
            raise Quit

    # --- moves --------------------------------------------------------------------------

    def play(self, seat: int, move: str, quiet: bool = False) -> bool:
        """Play a move and note what happened; True when the player should read it before going on."""
        before = len(self.game.record().moves)
        log_before = len(self.log)
        events = self.game.play(seat, move)
        if seat == self.human:
            self.marks.append(Mark(before, log_before))
            self.highlight = []
        revealed = next((e.text for e in events if e.reveals), None)
        if revealed and self.marks and self.marks[-1].revealed is None:
            self.marks[-1].revealed = revealed
        name = self.game.state.players[seat].name
        who = "you" if seat == self.human else f"computer, {self.level}"
        self.note(f"{name} ({who}): {self.game.record().moves[-1][1]}", quiet)
        made_for_you = self.show(events, quiet)
        return made_for_you or any(e.kind == "end_year" for e in events)

    def after_move(self, read: bool, inp: TextIO) -> None:
        self.save()
        if self.human is not None or self.game.is_over or read:
            self.write_board()
        if read and self.human is not None and not self.game.is_over:
            self.pause(inp)

    def ai_seed(self) -> int:
        """The computer players' seed: the number of moves made (public, unlike the game's seed,
        which would make their decisions depend on the hidden cards it deals)."""
        return len(self.game.record().moves)

    def computer_turn(self, seat: int, inp: TextIO) -> None:
        move = choose(self.game, seat, self.level, seed=self.ai_seed())
        self.after_move(self.play(seat, str(move)), inp)

    def human_turn(self, inp: TextIO) -> None:
        """Read commands until the player moves (or takes a move back); Quit when they stop."""
        assert self.human is not None
        self.say("")
        self.say(self.brief())
        self.say(f"Your move: {' and '.join(asked_of(self.game.state, self.human))}.")
        while True:
            print("your move> ", end="", file=self.out, flush=True)
            line = inp.readline()
            if not line:
                raise Quit
            text = " ".join(line.split())
            if not text:
                continue
            if text.startswith("?"):
                self.list_moves(" ".join(text[1:].split()).lower())
                continue
            word, _, rest = text.partition(" ")
            command = word.lower()
            if command in ("quit", "exit"):
                raise Quit
            if command == "undo":
                if self.undo():
                    return
                continue
            if self.answer(command, rest):
                continue
            try:
                read = self.play(self.human, text)
            except IllegalMove as e:
                self.say(f"  Not allowed: {e}")
                continue
            self.after_move(read, inp)
            return

    def answer(self, command: str, rest: str) -> bool:
        """Answer a question about the game; False when ``command`` is not one."""
        view = self.game.view(self.human)
        if command == "help":
            self.say(HELP)
        elif command == "status":
            self.status(view)
        elif command == "score":
            self.say(standings(view).replace("**", ""))
        elif command == "log":
            n = int(rest) if rest.isdigit() else LOG_LINES
            self.say("\n".join(self.log[-n:]) or "Nothing has happened yet.")
        elif command == "board":
            self.say(f"  [board: {self.board}]" if self.board else "  No picture has been drawn yet.")
        elif command == "rules":
            self.say(rules(rest))
        elif command == "hint":
            self.hint()
        else:
            return False
        return True

    def undo(self) -> bool:
        """Take back the player's last move and the computers' since; False when it cannot be."""
        if not self.marks:
            self.say("  Nothing to take back: you have not moved yet.")
            return False
        mark = self.marks[-1]
        if mark.revealed:
            self.say(
                f"  Your last move cannot be taken back: something hidden became known since: {mark.revealed}"
            )
            return False
        record = self.game.record()
        taken = record.moves[mark.moves_before :]
        self.game = Game.replay(record.model_copy(update={"moves": record.moves[: mark.moves_before]}))
        self.marks.pop()
        del self.log[mark.log_before :]
        self.highlight = []
        others = f" and {count(len(taken) - 1, 'computer move')} since" if len(taken) > 1 else ""
        self.note(f"Taken back: your move {taken[0][1]}{others}.")
        self.save()
        self.write_board()
        return True

    # --- what the player sees -----------------------------------------------------------

    def status(self, v: View) -> None:
        self.say(f"{when(v)}. Voice: {voice_text(v)}")
        self.say("Politics row: " + ", ".join(v.politics_row))
        for p in v.players:
            cities = ", ".join(f"{c.name} {c.castle} pop {c.population}/{c.limit or '∞'}" for c in p.cities)
            food = f"food {p.food} for {count(p.citizens, 'citizen')}"
            cards = f"{count(p.action_cards, 'action card')}, {count(p.notables, 'notable')}"
            self.say(f"  {p.name}: gold {p.gold}, {food}, {cards}; {cities}")

    def brief(self) -> str:
        """One line on the player's own position, shown before each question."""
        assert self.human is not None
        v = self.game.view(self.human)
        me = v.players[self.human]
        short = " ⚠ short" if me.citizens > me.food else ""
        food = f"food {me.food} for {count(me.citizens, 'citizen')}{short}"
        cards = count(me.action_cards, "action card")
        row = ", ".join(v.politics_row)
        return f"[{when(v)}] gold {me.gold}, {food}, {cards}; voice {voice_text(v)}; row: {row}"

    def hint(self) -> None:
        """The move the strong computer player would make for the player, and why (from their view)."""
        assert self.human is not None
        if not self.game.legal_moves(self.human):
            self.say("  Nothing is asked of you now.")
            return
        found = hint(self.game, self.human, seed=self.ai_seed())
        for line in found.text().splitlines():
            self.say(f"  {line}")

    def list_moves(self, prefix: str) -> None:
        assert self.human is not None
        moves = [m for m in self.game.legal_moves(self.human) if str(m).startswith(prefix)]
        for m in moves:
            self.say(f"  {describe(self.game, self.human, m)}")
        self.say(f"  ({count(len(moves), 'move')})")

    # --- the whole game -----------------------------------------------------------------

    def run(self, inp: TextIO) -> int:
        """Play until the game ends (0) or the player stops (Quit, handled by `main`)."""
        self.interactive = self.human is not None and inp.isatty()
        self.save()
        self.write_board()
        while not self.game.is_over:
            seats = self.game.pending_seats()
            computers = [s for s in seats if s != self.human]
            if computers:
                self.computer_turn(computers[0], inp)
            else:
                self.human_turn(inp)
        g = self.game
        scores = ", ".join(f"{p.name} {s}" for p, s in zip(g.state.players, g.scores or [], strict=True))
        self.say(f"Game over. Scores: {scores}.")
        self.say(f"Final board: {self.board}")
        return 0


def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run a terminal game; the exit code is 0 when the game ended or the player stopped
    (it is saved), 130 after Ctrl-C (it is saved too, up to the last complete move)."""
    args = parse_args(argv)
    out = stdout or sys.stdout
    local = LocalGame.resume(args, out) if args.resume is not None else LocalGame.start(args, out)
    resume = f"Resume with: python -m bot.local --resume {local.save_path}"
    try:
        return local.run(stdin or sys.stdin)
    except Quit:
        print(f"\nStopped; the game is saved. {resume}", file=out)
        return 0
    except KeyboardInterrupt:
        print(f"\nInterrupted; the game is saved up to the last move. {resume}", file=out)
        return 130


if __name__ == "__main__":
    sys.exit(main())
