"""The values of a command's options, checked before the command runs (part of `CittaTree`'s door).

Discord checks an option's type and range for its own clients, but a modified client can send
anything in an interaction, and Discord's documentation tells apps to check what they receive:
discord.py hands a command an option's value as it came (a string for an integer option, a number
of 22 digits). Each value is checked here against the option as the command declares it; a wrong
one is refused with a private message that names the option and what it must be, and the command
does not run.
"""

from __future__ import annotations

from typing import Any

from discord import AppCommandOptionType as Kind
from discord import app_commands

from bot.errors import CittaError
from i18n import _

SUBCOMMANDS = (Kind.subcommand.value, Kind.subcommand_group.value)
TEXT_MAX = 6000
"""The longest text an option may carry (Discord's limit for a client)."""
IDS = (Kind.user, Kind.channel, Kind.role, Kind.mentionable, Kind.attachment)


def given(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The options given to the command itself (below its subcommand and group, if any)."""
    options: list[dict[str, Any]] = list(data.get("options") or [])
    while options and options[0].get("type") in SUBCOMMANDS:
        options = list(options[0].get("options") or [])
    return options


def check(command: app_commands.Command[Any, ..., Any], data: dict[str, Any]) -> None:
    """Refuse (`CittaError`) an option ``command`` does not have, or a value it cannot take."""
    for option in given(data):
        name = str(option.get("name", ""))  # the option's name, as Discord knows it (a renamed one's)
        parameter = next((p for p in command.parameters if p.display_name == name), None)
        if parameter is None:
            raise CittaError(
                _("/{command} has no option “{option}”.", command=command.qualified_name, option=name[:32])
            )
        value = option.get("value")
        if not _fits(parameter, value):
            raise CittaError(_("“{option}” of /{command} must be {what}.", option=parameter.display_name,
                               command=command.qualified_name, what=_what(parameter)))  # fmt: skip


def _fits(parameter: app_commands.Parameter, value: Any) -> bool:
    kind = parameter.type
    if kind is Kind.boolean:
        return isinstance(value, bool)
    if kind in (Kind.integer, Kind.number):
        number = (int,) if kind is Kind.integer else (int, float)
        if isinstance(value, bool) or not isinstance(value, number):
            return False
        low, high = parameter.min_value, parameter.max_value
        return (low is None or value >= low) and (high is None or value <= high) and abs(value) < 2**53
    if kind is Kind.string:
        return isinstance(value, str) and len(value) <= (parameter.max_value or TEXT_MAX)  # its length
    if kind in IDS:
        return isinstance(value, str) and value.isdigit() and len(value) <= 20
    return True


def _what(parameter: app_commands.Parameter) -> str:
    kind, low, high = parameter.type, parameter.min_value, parameter.max_value
    if kind is Kind.boolean:
        return _("True or False")
    if kind is Kind.integer and low is not None and high is not None:
        return _("a whole number from {low} to {high}", low=low, high=high)
    if kind is Kind.integer:
        return _("a whole number")
    if kind is Kind.number:
        return _("a number")
    if kind is Kind.string:
        return _("text of at most {count} characters", count=int(parameter.max_value or TEXT_MAX))
    return _("one of the choices Discord offers")
