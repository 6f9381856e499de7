"""The slash commands in the players' languages: discord.py asks this translator for every
description, option description and choice name when it syncs the commands, and Discord shows
each user the one of their client's language. Command and option names stay English (what is
typed), as does everything Discord finds no translation for."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

import i18n

NAMES = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)


class CittaTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        code = i18n.supported(locale.value)
        if code is None or code == i18n.DEFAULT or context.location in NAMES:
            return None
        return i18n.lang(code).known(string.message)
