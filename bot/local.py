"""``python -m bot.local`` / ``citta``: play La Città in the terminal against computer players.

No Discord and no token: you are the first seat and type your moves in the notation (``?``
lists your legal moves with what each does, ``help`` the other commands). The game is saved
after every move (``--resume`` goes on with it later) and the board is drawn after every move
as a numbered PNG that rings everything since your last move. ``--auto`` lets computers play
every seat.

It speaks English, Deutsch, Français or Nederlands (``--lang``; by default the terminal's
language, from ``LC_ALL``, ``LC_MESSAGES`` or ``LANG``, when it is one of those, else English):
every text, with each rulebook's terms. Moves and commands are typed as they are in every
language (the notation is never translated).

A move that wastes something (Golden Times paying for citizens that do not fit) is played only
when it is typed a second time, after the warning. ``undo`` takes back the player's last move
and the computers' since, unless something hidden became known (`Game.take_back`).

This module is the game loop; what it shows is written in `bot.local_texts`, the saved file is
`bot.local_save`'s, the command line `bot.local_cli`'s, the review `bot.local_review`'s.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import i18n
from bot.local_cli import LOG_LINES, help_text, language_of, parse_args, terminal_language
from bot.local_review import Review, offer, review_saved
from bot.local_save import SAVE_NAME, CannotResume, read_save, save_file, write_save
from bot.local_texts import brief, hint_text, move_lines, opening, resumed, rules, saved_where, status_lines
from bot.service.computer import level_name
from bot.service.summary import setup_name, standings, when
from engine import Game, IllegalMove, IrreversibleMove
from engine.ai import choose
from engine.decisions import asked_of
from engine.events import Event
from engine.words import tell
from i18n import _, _n

NAMES = ("Ada", "Bruno", "Carla", "Dario", "Elena")

__all__ = ["NAMES", "LocalGame", "Quit", "main", "rules"]


class Quit(Exception):
    """The player stops: ``quit``, or the end of the input."""


@dataclass
class Mark:
    """One of the player's moves, for ``undo``: where it starts in the record and in the log."""

    moves_before: int
    log_before: int


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
        local.say(opening(args.players, setup_name(args.setup), seed, None if args.auto else names[0]))
        if not args.auto:
            local.say(help_text())
            local.say(saved_where(local.save_path))
        local.show(game.setup_events)
        return local

    @classmethod
    def resume(cls, args: argparse.Namespace, out: TextIO) -> LocalGame:
        """Go on with a saved game: its moves are played again to rebuild the log and ``undo``;
        CannotResume when the file is not a saved game or a move of it does not apply."""
        path = save_file(args.resume, args.out)
        saved = read_save(path)
        record = saved.record
        game = Game.new(record.players, seed=record.seed, setup=record.setup)
        local = cls(game, saved.human, args.level or saved.level, path.parent, args.width, out)
        try:
            for seat, text in record.moves:
                local.play(seat, text, quiet=True)
        except IllegalMove as e:
            raise CannotResume(
                _(
                    "citta: cannot resume from {path}: a saved move does not apply ({error})",
                    path=path,
                    error=e.told(i18n.current()),
                )
            ) from None
        name = None if local.human is None else record.players[local.human]
        local.say(resumed(path, record.seed, len(record.moves), name, when(game.view(local.human))))
        for line in local.log[-8:]:
            local.say(line)
        local.say(help_text())
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
        words = i18n.current()
        for e in events:
            if not e.visible_to(self.human):
                continue
            if e.seat is not None and e.seat == self.human and e.data.get("auto"):
                made_for_you = True
                self.note("  " + _("▶ yours, with no other choice: {event}", event=e.told(words)), quiet)
            else:
                self.note(f"  {e.told(words)}", quiet)
            self.highlight.extend(h for h in e.hexes if h not in self.highlight)
        return made_for_you

    def write_board(self) -> None:
        from render import render_board  # Pillow is loaded only when a picture is drawn

        path = self.folder / f"board-{len(self.game.record().moves):03d}.png"
        path.write_bytes(render_board(self.game.view(self.human), highlight=self.highlight, width=self.width))
        self.board = path.resolve()
        self.say("  " + _("[board: {path}]", path=self.board))
        if self.human is None:
            self.highlight = []  # a demo rings what happened since the last picture

    def save(self) -> None:
        write_save(self.save_path, self.game, self.human, self.level)

    def pause(self, inp: TextIO) -> None:
        """Let the player read what happened before the game goes on (at a terminal only)."""
        if not self.interactive:
            return
        print("  " + _("(Enter to go on)") + " ", end="", file=self.out, flush=True)
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
        name, move = self.game.state.players[seat].name, self.game.record().moves[-1][1]
        if seat == self.human:
            self.note(_("{name} (you): {move}", name=name, move=move), quiet)
        else:
            self.note(
                _("{name} (computer, {level}): {move}", name=name, level=level_name(self.level), move=move),
                quiet,
            )
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
        self.ask()
        warned: str | None = None  # a move that wastes something, played if typed again at once
        while True:
            print(_("your move") + "> ", end="", file=self.out, flush=True)
            line = inp.readline()
            if not line:
                raise Quit
            text, confirmed, warned = " ".join(line.split()), warned, None
            if not text:
                continue
            if text.startswith("?"):
                self.list_moves(" ".join(text[1:].split()).lower())
                continue
            word, _space, rest = text.partition(" ")
            command = word.lower()
            if command in ("quit", "exit"):
                raise Quit
            if command == "undo":
                if self.undo():
                    return
                continue
            if self.answer(command, rest, inp):
                continue
            try:
                move = str(self.game.check(self.human, text)[0])
                waste = None if move == confirmed else self.game.wastes(self.human, move)
            except IllegalMove as e:
                self.say("  " + _("Not allowed: {reason}", reason=e.told(i18n.current())))
                continue
            if waste is not None:
                self.say("  " + _("⚠ {waste} Type `{move}` again to play it anyway.",
                                  waste=tell(i18n.current(), waste), move=move))  # fmt: skip
                warned = move
                continue
            self.after_move(self.play(self.human, move), inp)
            return

    def ask(self) -> None:
        """The player's position and what is asked of them (before each move, and after a review)."""
        assert self.human is not None
        self.say("")
        self.say(brief(self.game.view(self.human), self.human))
        asked = asked_of(self.game.state, self.human, words=i18n.current())
        self.say(_("Your move: {asked}.", asked=i18n.listing(asked)))

    def answer(self, command: str, rest: str, inp: TextIO) -> bool:
        """Answer a question about the game; False when ``command`` is not one."""
        assert self.human is not None
        view = self.game.view(self.human)
        if command == "help":
            self.say(help_text())
        elif command == "status":
            self.say("\n".join(status_lines(view)))
        elif command == "score":
            self.say(standings(view).replace("**", ""))
        elif command == "log":
            n = int(rest) if rest.isdigit() else LOG_LINES
            self.say("\n".join(self.log[-n:]) or _("Nothing has happened yet."))
        elif command == "board":
            if self.board:
                self.say("  " + _("[board: {path}]", path=self.board))
            else:
                self.say("  " + _("No picture has been drawn yet."))
        elif command == "rules":
            self.say(rules(rest))
        elif command == "hint":
            self.say(hint_text(self.game, self.human, self.ai_seed()))
        elif command == "review":
            Review.of(self.game, self.human, self.folder, self.out).run(inp)
            self.ask()  # the game goes on where it was: the review reads its record only
        else:
            return False
        return True

    def undo(self) -> bool:
        """Take back the player's last move and the computers' since; False when it cannot be."""
        if not self.marks:
            self.say("  " + _("Nothing to take back: you have not moved yet."))
            return False
        mark = self.marks[-1]
        taken = self.game.record().moves[mark.moves_before :]
        try:
            self.game = self.game.take_back(len(taken))
        except IrreversibleMove as e:
            what = e.event.told(i18n.current()) if e.event else e.told(i18n.current())
            self.say(
                "  "
                + _(
                    "Your last move cannot be taken back: something hidden became known since: {what}",
                    what=what,
                )
            )
            return False
        self.marks.pop()
        del self.log[mark.log_before :]
        self.highlight = []
        others = len(taken) - 1
        if others:
            self.note(
                _n(
                    "Taken back: your move {move} and {count} computer move since.",
                    "Taken back: your move {move} and {count} computer moves since.",
                    others,
                    move=taken[0][1],
                )
            )
        else:
            self.note(_("Taken back: your move {move}.", move=taken[0][1]))
        self.save()
        self.write_board()
        return True

    # --- what the player sees -----------------------------------------------------------

    def list_moves(self, prefix: str) -> None:
        assert self.human is not None
        self.say("\n".join(move_lines(self.game, self.human, prefix)))

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
        self.say(_("Game over. Scores: {scores}.", scores=scores))
        self.say(_("Final board: {path}", path=self.board))
        if self.human is not None:
            offer(Review.of(g, self.human, self.folder, self.out), inp)
        return 0


def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run a terminal game; the exit code is 0 when the game ended or the player stopped
    (it is saved), 130 after Ctrl-C (it is saved too, up to the last complete move), 2 when
    ``--resume`` finds no game to go on with (said in one line on stderr)."""
    code = language_of(argv)
    with i18n.speaking(code):
        return _main(argv, code, stdin or sys.stdin, stdout or sys.stdout)


def _main(argv: list[str] | None, code: str, inp: TextIO, out: TextIO) -> int:
    args = parse_args(argv)
    if args.review is not None:
        return review_saved(args, inp, out)
    try:
        local = LocalGame.resume(args, out) if args.resume is not None else LocalGame.start(args, out)
    except CannotResume as e:
        print(e, file=sys.stderr)
        return 2
    again = f"python -m bot.local --resume {local.save_path}"
    if code != terminal_language():
        again += f" --lang {code}"
    try:
        return local.run(inp)
    except Quit:
        print("\n" + _("Stopped; the game is saved. Resume with: {command}", command=again), file=out)
        return 0
    except KeyboardInterrupt:
        print(
            "\n"
            + _("Interrupted; the game is saved up to the last move. Resume with: {command}", command=again),
            file=out,
        )
        return 130


if __name__ == "__main__":
    sys.exit(main())
