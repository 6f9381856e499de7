"""``/citta describe``: the whole position in words, for players who use a screen reader (the
pictures of every post also carry alt text, drawn with them: `render.alt`)."""

from __future__ import annotations

from bot.errors import NoGame
from bot.results import Message
from bot.service.context import Context
from bot.service.lookup import game_row
from bot.service.positions import restore
from engine import View
from i18n import _, current


def position_words(view: View, lang: str = "en") -> list[str]:
    """`render.alt.describe_position` in language ``lang`` (imported where it runs: in a worker,
    which may be another process: the language goes with the call)."""
    from render.alt import describe_position

    return describe_position(view, lang=lang)


async def describe(ctx: Context, channel: int, *, user_id: int = 0) -> list[Message]:
    """The spectator's view of this channel's game in words: one private message or more, each within
    Discord's 2000 characters. Written once per game version and language (`Context.asked`) in the
    workers' `aside` lane; a member who asks again and again at new positions meets
    `bot.service.limits`."""
    row = await game_row(ctx, channel, None, active=False)
    if row.snapshot is None:
        raise NoGame(_("The game has not started yet: there is no position to describe."))
    view = restore(row).view(None)
    code = current().code
    key = ("describe", row.id, row.version, code)
    if not ctx.asked.holds(key):
        ctx.limits.take(user_id, "describe", now=ctx.clock())
    texts = await ctx.asked.get(key, lambda: ctx.workers.aside(position_words, view, code))
    return [Message(text, ephemeral=True) for text in texts]
