"""``python -m bot.local`` / ``citta``: play La Città in the terminal against computer players.

No Discord and no token: you are seat 0 and type your moves in the notation
(``?`` lists the legal moves with what they do). After each move the board is written as a
PNG to a file whose path is printed. ``--auto`` lets computers play every seat.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import TextIO

from engine import Game, IllegalMove
from engine.ai import LEVELS, choose
from engine.describe import describe
from engine.events import Event

NAMES = ("Ada", "Bruno", "Carla", "Dario", "Elena")
HELP = (
    "Type a move in the notation (e.g. 'gold', 'build farm I9', 'poll 1 2'), "
    "'?' for every legal move ('? build' for those starting with build), "
    "'status' for the table, 'board' for the picture's path, 'quit' to stop."
)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="citta", description="Play La Città in the terminal against the computer."
    )
    p.add_argument("--players", type=int, default=3, choices=range(2, 6), help="players, you included (2–5)")
    p.add_argument("--level", default="basic", choices=LEVELS, help="the computer players' level")
    p.add_argument("--setup", default="beginner", choices=("beginner", "experienced"))
    p.add_argument("--seed", type=int, default=None, help="game seed (random when omitted)")
    p.add_argument("--name", default="Player", help="your name at the table")
    p.add_argument("--out", type=Path, default=Path("citta-local"), help="folder for the board PNG")
    p.add_argument("--width", type=int, default=1400, help="width of the board PNG in pixels")
    p.add_argument("--auto", action="store_true", help="computers play every seat (a demo; no input read)")
    return p.parse_args(argv)


class LocalGame:
    """One terminal game: the table, who is human, where the board is written."""

    def __init__(self, args: argparse.Namespace, out: TextIO) -> None:
        self.args = args
        self.out = out
        self.seed = args.seed if args.seed is not None else random.randrange(1_000_000)
        names = [args.name, *NAMES[: args.players - 1]] if not args.auto else list(NAMES[: args.players])
        self.human: int | None = None if args.auto else 0
        self.game = Game.new(names, seed=self.seed, setup=args.setup)
        args.out.mkdir(parents=True, exist_ok=True)
        self.board = (args.out / "board.png").resolve()
        self.moves = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def is_computer(self, seat: int) -> bool:
        return seat != self.human

    def show_events(self, events: list[Event]) -> None:
        """Print what the human may see (public events, and their own private ones)."""
        for e in events:
            if e.visible_to(self.human):
                self.say(f"  {e.text}")

    def write_board(self, highlight: list[str]) -> None:
        from render import render_board  # Pillow is loaded only when a picture is drawn

        self.board.write_bytes(
            render_board(self.game.view(self.human), highlight=highlight, width=self.args.width)
        )
        self.say(f"  [board: {self.board}]")

    def after(self, events: list[Event]) -> None:
        """Show a move's events; draw the board (in a demo only at the end of each year)."""
        self.show_events(events)
        self.moves += 1
        year_over = any(e.kind in ("end_year", "game_over") for e in events)
        if not self.args.auto or year_over:
            self.write_board([h for e in events for h in e.hexes])

    def status(self) -> None:
        v = self.game.view(self.human)
        voice = ", ".join(s or "?" for s in v.voice)
        polled = f"  (you polled: {', '.join(s or '?' for s in v.peek)})" if any(v.peek) else ""
        self.say(f"Year {v.year}, round {v.round}, phase {v.phase}. Voice: {voice}{polled}")
        self.say("Politics row: " + ", ".join(v.politics_row))
        for p in v.players:
            cities = ", ".join(f"{c.name} {c.castle} pop {c.population}/{c.limit or '∞'}" for c in p.cities)
            self.say(f"  {p.name}: gold {p.gold}, food {p.food} for {p.citizens} citizens, "
                     f"{p.action_cards} action cards, {p.notables} notables; {cities}")  # fmt: skip

    def brief(self) -> None:
        """One line on the human's own position, shown before each question."""
        assert self.human is not None
        v = self.game.view(self.human)
        me = v.players[self.human]
        voice = " ".join(s or "?" for s in v.voice)
        row = ", ".join(v.politics_row)
        self.say(
            f"[year {v.year}, round {v.round}] gold {me.gold}, food {me.food} for {me.citizens} "
            f"citizens, {me.action_cards} action cards; voice {voice}; row: {row}"
        )

    def list_moves(self, prefix: str) -> None:
        assert self.human is not None
        moves = [m for m in self.game.legal_moves(self.human) if str(m).startswith(prefix)]
        for m in moves:
            self.say(f"  {describe(self.game, self.human, m)}")
        self.say(f"  ({len(moves)} move{'s' if len(moves) != 1 else ''})")

    def human_turn(self, inp: TextIO) -> bool:
        """Read and play one move of the human; False when the player quits or input ends."""
        assert self.human is not None
        self.say(f"\n{self.game.waiting_for()}")
        self.brief()
        while True:
            print("your move> ", end="", file=self.out, flush=True)
            line = inp.readline()
            if not line:
                return False
            text = line.strip()
            if not text:
                continue
            if text in ("quit", "exit"):
                return False
            if text == "help":
                self.say(HELP)
                continue
            if text.startswith("?"):
                self.list_moves(text[1:].strip().lower())
                continue
            if text == "status":
                self.status()
                continue
            if text == "board":
                self.say(f"  [board: {self.board}]")
                continue
            try:
                events = self.game.play(self.human, text)
            except IllegalMove as e:
                self.say(f"  Not allowed: {e}")
                continue
            self.say(f"{self.game.state.players[self.human].name}: {self.game.record().moves[-1][1]}")
            self.after(events)
            return True

    def computer_turn(self, seat: int) -> None:
        move = choose(self.game, seat, self.args.level, seed=self.seed + seat)
        events = self.game.play(seat, move)
        self.say(f"{self.game.state.players[seat].name} (computer, {self.args.level}): {move}")
        self.after(events)

    def run(self, inp: TextIO) -> int:
        g = self.game
        who = "computers play every seat" if self.args.auto else f"you are {g.state.players[0].name}"
        self.say(f"La Città: {self.args.players} players, {self.args.setup} setup, seed {self.seed}; {who}.")
        if not self.args.auto:
            self.say(HELP)
        self.show_events(g.setup_events)
        self.write_board([])
        while not g.is_over:
            seats = g.pending_seats()
            computers = [s for s in seats if self.is_computer(s)]
            if computers:
                self.computer_turn(computers[0])
            elif not self.human_turn(inp):
                self.say(f"Stopped. Replay this game with --seed {self.seed}.")
                return 1
        scores = ", ".join(f"{p.name} {s}" for p, s in zip(g.state.players, g.scores or [], strict=True))
        self.say(f"Game over. Scores: {scores}.")
        self.say(f"Final board: {self.board}")
        return 0


def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run a terminal game; returns the exit code (0 when the game was played to the end)."""
    args = parse_args(argv)
    out = stdout or sys.stdout
    try:
        return LocalGame(args, out).run(stdin or sys.stdin)
    except KeyboardInterrupt:
        print("\nStopped.", file=out)
        return 1


if __name__ == "__main__":
    sys.exit(main())
