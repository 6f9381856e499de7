"""The command line of ``python -m bot.local`` / ``citta`` and the commands typed in a game:
the options, the help of both, and which language a run speaks (``--lang``, else the
terminal's: the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is one of ours)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

import i18n
from bot.service.rules_help import NAMES as TOPIC_NAMES
from bot.service.rules_help import TOPICS
from engine.ai import LEVELS
from i18n import N_, _

MAX_WIDTH = 4000
LOG_LINES = 20
RULE_TOPICS = tuple(t for t in TOPICS if t not in ("bot", "async"))
"""The rule topics of ``/citta rules`` that are about the game, not about Discord."""
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("", N_("MOVE"), N_("a move in the notation: {examples}")),
    ("?", N_("[TEXT]"),
     N_("your legal moves with what each does (only those starting with TEXT: {example})")),
    ("hint", "", N_("the move the strong computer player would make for you, and why")),
    ("status", "", N_("the table: every player's gold, food, cards and cities")),
    ("score", "", N_("the score if the game ended now")),
    ("log", N_("[N]"), N_("the last N things that happened (default {count})")),
    ("board", "", N_("where the latest picture of the board is")),
    ("rules", N_("[TOPIC]"), N_("the rules in short; topics: {topics}")),
    ("review", "", N_("the game move by move from here, its pictures written to files (then keys: "
                      "Enter the next move, p the previous one, q back to the game)")),
    ("undo", "", N_("take back your last move (and the computers' moves since) if nothing hidden was "
                    "revealed since")),
    ("help", "", N_("this list")),
    ("quit", "", N_("save and stop (so does Ctrl-D); --resume goes on later")),
)  # fmt: skip
"""The commands of a game: the command (typed as it is in every language), its argument and
what it does (messages)."""
EXAMPLES = ("gold", "found I9 from L11", "build farm I9", "golden 2 F5", "poll 1 2", "pass")
ENV_LANGUAGE = ("LC_ALL", "LC_MESSAGES", "LANG")
"""Where the terminal's language is read, in the order POSIX gives them."""


def commands_text() -> str:
    """What can be typed in a game, in the current language."""
    lines = []
    for command, arg, what in COMMANDS:
        name = " ".join(part for part in (command, _(arg) if arg else "") if part)
        text = _(
            what,
            examples=", ".join(f"`{m}`" for m in EXAMPLES),
            example="`? build farm`",
            count=LOG_LINES,
            topics=", ".join(topic_names()),
        )
        lines.append(f"  {name:<14} {text}")
    return "\n".join(lines)


def help_text() -> str:
    """The ``help`` of a game, in the current language."""
    return _("Commands:") + "\n" + commands_text()


def topic_names() -> list[str]:
    """The rule topics as they are typed (with each one's name in the reader's language when
    it differs)."""
    out = []
    for key in RULE_TOPICS:
        name = _(TOPIC_NAMES[key])
        out.append(key if name.lower() == key else f"{key} ({name})")
    return out


with i18n.speaking("en"):
    HELP = help_text()
"""The ``help`` in English."""


def terminal_language(env: dict[str, str] | None = None) -> str:
    """The language of the terminal: the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is
    set decides (``de_DE.UTF-8`` is German); English when it is not one of ours (``C``…)."""
    env = dict(os.environ) if env is None else env
    for name in ENV_LANGUAGE:
        if env.get(name):
            return i18n.choose(env[name])
    return i18n.DEFAULT


def language_of(argv: list[str] | None, env: dict[str, str] | None = None) -> str:
    """The language of a run: ``--lang`` when it is one of ours, else the terminal's (a wrong
    ``--lang`` is then refused by `parse_args`, in that language)."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--lang", default=None)
    known, _rest = pre.parse_known_args(sys.argv[1:] if argv is None else argv)
    code = i18n.supported(known.lang)
    return code if code is not None else terminal_language(env)


# --- the command line -------------------------------------------------------------------


def _width(text: str) -> int:
    from render.compose import MIN_WIDTH  # Pillow is loaded only when a width is given

    try:
        width = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text} is not a number of pixels", text=repr(text))) from None
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise argparse.ArgumentTypeError(
            _(
                "{width} is out of range: the board is drawn {low} to {high} px wide",
                width=width,
                low=MIN_WIDTH,
                high=MAX_WIDTH,
            )
        )
    return width


def _language(text: str) -> str:
    code = i18n.supported(text)
    if code is None:
        raise argparse.ArgumentTypeError(
            _(
                "{text} is not one of our languages: {languages}",
                text=repr(text),
                languages=", ".join(i18n.LANGUAGES),
            )
        )
    return code


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's help with its own words in the current language."""

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, prefix if prefix is not None else _("usage: "))


class _Parser(argparse.ArgumentParser):
    """argparse, saying what is wrong in the current language (argparse's own reasons, such as
    an invalid choice, stay as argparse gives them)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        name, colon, why = message.partition(": ")
        if colon and name.startswith("argument "):
            message = _("argument {name}: {reason}", name=name.removeprefix("argument "), reason=why)
        self.exit(2, _("{prog}: error: {message}", prog=self.prog, message=message) + "\n")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line, its help in the current language (`language_of` chooses it)."""
    p = _Parser(
        prog="citta",
        description=_(
            "Play La Città in the terminal against the computer. You are the first player;\n"
            "the game is saved after every move and the board is drawn as a PNG after every move."
        ),
        epilog=_("In the game, type:") + "\n" + commands_text(),
        formatter_class=_Formatter,
        add_help=False,
    )
    p._optionals.title = _("options")
    p.add_argument("-h", "--help", action="help", help=_("show this help and stop"))
    p.add_argument(
        "--players",
        type=int,
        default=3,
        choices=range(2, 6),
        help=_("players at the table, you included (default: {default})", default="%(default)s"),
    )
    p.add_argument(
        "--level",
        default=None,
        choices=LEVELS,
        help=_("the computer players' level (default: basic; with --resume: the saved game's)"),
    )
    p.add_argument(
        "--setup",
        default="beginner",
        choices=("beginner", "experienced"),
        help=_(
            "beginner: the rulebook's fixed terrain and starting castles; experienced: shuffled "
            "terrain, and every player places two castles (default: {default})",
            default="%(default)s",
        ),
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar=_("NUMBER"),
        help=_("game seed, to play the same game again (default: a random one)"),
    )
    p.add_argument(
        "--name",
        default=_("Player"),
        metavar=_("NAME"),
        help=_("your name at the table (default: {default})", default="%(default)s"),
    )
    p.add_argument(
        "--out",
        type=Path,
        default=Path("citta-local"),
        metavar=_("FOLDER"),
        help=_(
            "folder for the saved games and the board pictures (default: {default})", default="%(default)s"
        ),
    )
    p.add_argument(
        "--width",
        type=_width,
        default=1400,
        metavar=_("PIXELS"),
        help=_(
            "width of the board pictures in pixels, 600 to {high} (default: {default})",
            high=MAX_WIDTH,
            default="%(default)s",
        ),
    )
    p.add_argument(
        "--auto", action="store_true", help=_("computers play every seat (a demo: no input is read)")
    )
    saved = p.add_mutually_exclusive_group()
    saved.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar=_("FILE"),
        help=_("go on with a saved game (default {file}: the latest saved game in --out)", file=_("FILE")),
    )
    saved.add_argument(
        "--review",
        nargs="?",
        const="",
        default=None,
        metavar=_("FILE"),
        help=_(
            "go through a saved game move by move from its start, its pictures written to files "
            "(default {file}: the latest saved game in --out)",
            file=_("FILE"),
        ),
    )
    p.add_argument(
        "--lang",
        type=_language,
        default=None,
        metavar="{" + ",".join(i18n.LANGUAGES) + "}",
        help=_(
            "the language of the game: {languages} (default: the terminal's, from LC_ALL, "
            "LC_MESSAGES or LANG, when it is one of them, else English)",
            languages=", ".join(f"{code} ({i18n.NAMES[code]})" for code in i18n.LANGUAGES),
        ),
    )
    return p.parse_args(argv)  # fmt: skip
