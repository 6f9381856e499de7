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
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import i18n
from bot.local_cli import (
    LOG_LINES,
    RULE_TOPICS,
    help_text,
    language_of,
    parse_args,
    terminal_language,
    topic_names,
)
from bot.service.computer import level_name
from bot.service.rules_help import NAMES as TOPIC_NAMES
from bot.service.rules_help import topic_text
from bot.service.summary import setup_name, standings, when
from engine import Game, IllegalMove, Record
from engine.ai import choose
from engine.ai.hint import hint
from engine.components import POLITICS_TITLES
from engine.decisions import asked_of
from engine.describe import describe
from engine.events import Event
from engine.views import View
from i18n import N_, _, _n

NAMES = ("Ada", "Bruno", "Carla", "Dario", "Elena")
SAVE_FORMAT = "la-citta-local/1"
SAVE_NAME = "game.json"
CARD_TITLES = (N_("Palace"), N_("Hospital"), N_("Public Bath"), N_("Cathedral"), N_("University"))
"""The politics cards named after their buildings (the others' titles are `engine.words.TERMS`)."""


class Quit(Exception):
    """The player stops: ``quit``, or the end of the input."""


@dataclass
class Mark:
    """One of the player's moves, for ``undo``: where it starts in the record and in the log."""

    moves_before: int
    log_before: int
    revealed: str | None = None
    """The first thing made known since this move (then it cannot be taken back)."""


def latest_save(folder: Path) -> Path | None:
    """The most recently saved game under ``folder``."""
    saves = sorted(folder.glob(f"*/{SAVE_NAME}"), key=lambda p: p.stat().st_mtime)
    return saves[-1] if saves else None


def rules(topic: str) -> str:
    """The short rules of ``topic`` (from ``/citta rules``, without what is about Discord), by
    its key or its name in the current language."""
    typed = " ".join(topic.split()).lower()
    key = typed or "overview"
    if key not in RULE_TOPICS:
        key = next((k for k in RULE_TOPICS if _(TOPIC_NAMES[k]).lower() == typed), "")
    if not key:
        return _("No rules on {topic}. Topics: {topics}.", topic=repr(topic), topics=", ".join(topic_names()))
    return topic_text(key).replace("**", "")


def voice_text(view: View) -> str:
    """This year's voice as the viewer knows it: the face-up card, then the face-down ones
    (``?`` unless revealed, or polled by the viewer)."""
    if not view.voice or view.voice[0] is None:
        return _("not drawn yet")
    if all(s is not None for s in view.voice):
        return _(
            "{cards}: the people want {wanted}",
            cards=", ".join(_(s or "") for s in view.voice),
            wanted=i18n.listing([_(s) for s in view.voice_result]),
        )
    down = " ".join(_(s) if s else "?" for s in [s or view.peek[k] for k, s in enumerate(view.voice)][1:])
    polled = [str(k) for k in range(1, 4) if view.voice[k] is None and view.peek[k] is not None]
    if polled:
        return _(
            "{up}, face down {down} (you polled {polled})",
            up=_(view.voice[0]),
            down=down,
            polled=i18n.listing(polled),
        )
    return _("{up}, face down {down}", up=_(view.voice[0]), down=down)


def card_name(verb: str) -> str:
    """A politics card of the row: its title in the current language, with the verb that plays
    it when they differ (``Master Builder (master)``)."""
    title = _(POLITICS_TITLES.get(verb, verb))
    return title if title.lower() == verb else f"{title} ({verb})"


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
        setup = setup_name(args.setup)
        if args.auto:
            local.say(
                _n(
                    "La Città: {count} player, {setup}, seed {seed}; computers play every seat.",
                    "La Città: {count} players, {setup}, seed {seed}; computers play every seat.",
                    args.players,
                    setup=setup,
                    seed=seed,
                )
            )
        else:
            local.say(
                _n(
                    "La Città: {count} player, {setup}, seed {seed}; you are {name}.",
                    "La Città: {count} players, {setup}, seed {seed}; you are {name}.",
                    args.players,
                    setup=setup,
                    seed=seed,
                    name=names[0],
                )
            )
            local.say(help_text())
            if local.save_path.exists():
                local.say(
                    _(
                        "The game is saved after every move in {path} (it replaces the game saved there "
                        "before).",
                        path=local.save_path,
                    )
                )
            else:
                local.say(_("The game is saved after every move in {path}.", path=local.save_path))
        local.show(game.setup_events)
        return local

    @classmethod
    def resume(cls, args: argparse.Namespace, out: TextIO) -> LocalGame:
        """Go on with a saved game: its moves are played again to rebuild the log and ``undo``."""
        path = Path(args.resume) if args.resume else latest_save(args.out)
        if path is None:
            raise SystemExit(
                _("citta: no saved game in {folder}; start one without --resume.", folder=args.out)
            )
        try:
            data: dict[str, Any] = json.loads(path.read_text())
            if data.get("format") != SAVE_FORMAT:
                raise ValueError(_("not a {format} file", format=SAVE_FORMAT))
            record = Record.model_validate(data["record"])
        except (OSError, ValueError, KeyError) as e:
            raise SystemExit(_("citta: cannot resume from {path}: {error}", path=path, error=e)) from None
        game = Game.new(record.players, seed=record.seed, setup=record.setup)
        local = cls(
            game, data.get("human"), args.level or data.get("level", "basic"), path.parent, args.width, out
        )
        try:
            for seat, text in record.moves:
                local.play(seat, text, quiet=True)
        except IllegalMove as e:
            raise SystemExit(
                _(
                    "citta: cannot resume from {path}: a saved move does not apply ({error})",
                    path=path,
                    error=e.told(i18n.current()),
                )
            ) from None
        made, now = len(record.moves), when(game.view(local.human))
        if local.human is None:
            local.say(
                _n(
                    "Resumed {path}: seed {seed}, {count} move made, computers play every seat. {when}. "
                    "What happened last:",
                    "Resumed {path}: seed {seed}, {count} moves made, computers play every seat. {when}. "
                    "What happened last:",
                    made,
                    path=path,
                    seed=record.seed,
                    when=now,
                )
            )
        else:
            local.say(
                _n(
                    "Resumed {path}: seed {seed}, {count} move made, you are {name}. {when}. "
                    "What happened last:",
                    "Resumed {path}: seed {seed}, {count} moves made, you are {name}. {when}. "
                    "What happened last:",
                    made,
                    path=path,
                    seed=record.seed,
                    name=record.players[local.human],
                    when=now,
                )
            )
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
        revealed = next((e.told(i18n.current()) for e in events if e.reveals), None)
        if revealed and self.marks and self.marks[-1].revealed is None:
            self.marks[-1].revealed = revealed
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
        self.say("")
        self.say(self.brief())
        asked = asked_of(self.game.state, self.human, words=i18n.current())
        self.say(_("Your move: {asked}.", asked=i18n.listing(asked)))
        while True:
            print(_("your move") + "> ", end="", file=self.out, flush=True)
            line = inp.readline()
            if not line:
                raise Quit
            text = " ".join(line.split())
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
            if self.answer(command, rest):
                continue
            try:
                read = self.play(self.human, text)
            except IllegalMove as e:
                self.say("  " + _("Not allowed: {reason}", reason=e.told(i18n.current())))
                continue
            self.after_move(read, inp)
            return

    def answer(self, command: str, rest: str) -> bool:
        """Answer a question about the game; False when ``command`` is not one."""
        view = self.game.view(self.human)
        if command == "help":
            self.say(help_text())
        elif command == "status":
            self.status(view)
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
            self.hint()
        else:
            return False
        return True

    def undo(self) -> bool:
        """Take back the player's last move and the computers' since; False when it cannot be."""
        if not self.marks:
            self.say("  " + _("Nothing to take back: you have not moved yet."))
            return False
        mark = self.marks[-1]
        if mark.revealed:
            self.say(
                "  "
                + _(
                    "Your last move cannot be taken back: something hidden became known since: {what}",
                    what=mark.revealed,
                )
            )
            return False
        record = self.game.record()
        taken = record.moves[mark.moves_before :]
        self.game = Game.replay(record.model_copy(update={"moves": record.moves[: mark.moves_before]}))
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

    def status(self, v: View) -> None:
        self.say(_("{when}. Voice: {voice}", when=when(v), voice=voice_text(v)))
        self.say(_("Politics row: {cards}", cards=", ".join(card_name(c) for c in v.politics_row)))
        for p in v.players:
            cities = ", ".join(
                _(
                    "{city} {castle} pop {population}/{limit}",
                    city=c.name,
                    castle=c.castle,
                    population=c.population,
                    limit=c.limit or "∞",
                )
                for c in p.cities
            )
            self.say(
                "  "
                + _(
                    "{name}: gold {gold}, {food}, {cards}, {notables}; {cities}",
                    name=p.name,
                    gold=p.gold,
                    food=food_text(p.food, p.citizens),
                    cards=_n("{count} action card", "{count} action cards", p.action_cards),
                    notables=_n("{count} notable", "{count} notables", p.notables),
                    cities=cities,
                )
            )

    def brief(self) -> str:
        """One line on the player's own position, shown before each question."""
        assert self.human is not None
        v = self.game.view(self.human)
        me = v.players[self.human]
        return _(
            "[{when}] gold {gold}, {food}, {cards}; voice {voice}; row: {row}",
            when=when(v),
            gold=me.gold,
            food=food_text(me.food, me.citizens, warn=True),
            cards=_n("{count} action card", "{count} action cards", me.action_cards),
            voice=voice_text(v),
            row=", ".join(v.politics_row),
        )

    def hint(self) -> None:
        """The move the strong computer player would make for the player, and why (from their view)."""
        assert self.human is not None
        if not self.game.legal_moves(self.human):
            self.say("  " + _("Nothing is asked of you now."))
            return
        found = hint(self.game, self.human, seed=self.ai_seed(), words=i18n.current())
        for line in found.text().splitlines():
            self.say(f"  {line}")

    def list_moves(self, prefix: str) -> None:
        assert self.human is not None
        words = i18n.current()
        moves = [m for m in self.game.legal_moves(self.human) if str(m).startswith(prefix)]
        for m in moves:
            self.say(f"  {describe(self.game, self.human, m, words=words)}")
        self.say("  " + _n("({count} move)", "({count} moves)", len(moves)))

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
        return 0


def food_text(food: int, citizens: int, warn: bool = False) -> str:
    """``food 6 for 8 citizens`` (with ``⚠ short`` when ``warn`` and they are more than the food)."""
    if warn and citizens > food:
        return _n(
            "food {food} for {count} citizen ⚠ short",
            "food {food} for {count} citizens ⚠ short",
            citizens,
            food=food,
        )
    return _n("food {food} for {count} citizen", "food {food} for {count} citizens", citizens, food=food)


def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run a terminal game; the exit code is 0 when the game ended or the player stopped
    (it is saved), 130 after Ctrl-C (it is saved too, up to the last complete move)."""
    code = language_of(argv)
    with i18n.speaking(code):
        return _main(argv, code, stdin or sys.stdin, stdout or sys.stdout)


def _main(argv: list[str] | None, code: str, inp: TextIO, out: TextIO) -> int:
    args = parse_args(argv)
    local = LocalGame.resume(args, out) if args.resume is not None else LocalGame.start(args, out)
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
