"""A game's web page address (part of the service layer): its unguessable token, made on first need
(`bot.service.webpage` serves the page; a turn post and ``/citta status`` link it)."""

from __future__ import annotations

import secrets

from bot.service.context import Context

TOKEN_BYTES = 24
"""The token's random bytes: 192 bits, 32 characters of URL-safe base64."""


def fresh_token() -> str:
    """A new page token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def url_of(ctx: Context, token: str) -> str:
    """The page's full address (``ctx.web_url`` set)."""
    return f"{ctx.web_url}/g/{token}"


async def address(ctx: Context, game_id: int) -> str | None:
    """The game's page address, its token made on first need (None: no ``CITTA_WEB_URL``, or no
    such game)."""
    if ctx.web_url is None:
        return None
    token = await ctx.storage.games.page(game_id, fresh_token())
    return None if token is None else url_of(ctx, token)
