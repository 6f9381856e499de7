"""Commands named in messages become mentions a player can tap.

Every message names a command as it is typed, in backticks (`` `/citta new` ``): so the catalogs of
every language read the same, and a command is found by its name everywhere. Where Discord knows the
command (once the bot synced or fetched them), the message says it as a command mention
(``</citta new:ID>``), which Discord shows as the command, ready to run with a tap. A name with
arguments (`` `/citta me quiet 22-08 UTC+1` ``) stays as typed: a mention cannot carry them.

`COMMANDS` is the one registry of the commands Discord knows, filled from what it answered.

>>> reg = Mentions()
>>> reg.learn({"citta": (42, ["citta new", "citta me quiet"])})
>>> reg.link("Start one with `/citta new`; `/citta me quiet 22-08 UTC+1`; `/citta nothing`.")
'Start one with </citta new:42>; `/citta me quiet 22-08 UTC+1`; `/citta nothing`.'
>>> unlink(reg.link("`/citta me quiet` or `/citta new`"))
'`/citta me quiet` or `/citta new`'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import discord
from discord import app_commands

_NAMED = re.compile(r"`/([a-z][a-z-]*(?: [a-z][a-z-]*){0,2})`")
_MENTION = re.compile(r"</([a-z][a-z- ]*):\d+>")


class Mentions:
    """The commands Discord knows: each command path (``citta me quiet``) with its top command's id."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}

    def learn(self, known: Mapping[str, tuple[int, Iterable[str]]]) -> None:
        """Remember ``known``: by top command name, its id and every path of it that can be run."""
        for _name, (command_id, paths) in known.items():
            for path in paths:
                self._ids[path] = command_id

    def learn_synced(self, commands: Iterable[app_commands.AppCommand]) -> None:
        """Remember the commands Discord answered a sync (or a fetch) with."""
        self.learn({c.name: (c.id, list(_paths(c.name, c.options))) for c in commands})

    def link(self, text: str) -> str:
        """``text`` with each command it names (without arguments) as a mention, where it is known."""
        if not self._ids:
            return text
        return _NAMED.sub(lambda m: f"</{m[1]}:{self._ids[m[1]]}>" if m[1] in self._ids else m[0], text)

    def __len__(self) -> int:
        return len(self._ids)


def unlink(text: str) -> str:
    """``text`` with every command mention back as the command's name (to compare a message as sent
    with its text before `Mentions.link`, whatever ids were known then)."""
    return _MENTION.sub(lambda m: f"`/{m[1]}`", text)


def _paths(prefix: str, options: Iterable[Any]) -> Iterable[str]:
    """The runnable paths under a command (its subcommands, those of its groups), or itself."""
    subs = [o for o in options if isinstance(o, app_commands.AppCommandGroup)]
    if not subs:
        yield prefix
        return
    for sub in subs:
        if sub.type is discord.AppCommandOptionType.subcommand_group:
            yield from _paths(f"{prefix} {sub.name}", sub.options)
        else:
            yield f"{prefix} {sub.name}"


COMMANDS = Mentions()
"""The bot's registry (one application: every bot of the process has the same commands)."""
