"""A `Message` as the keyword arguments of one Discord call (send, followup, edit).

A message with pictures (a turn post) is sent as one Components V2 container: its text, a
media gallery of the pictures (each with its alt text, also given as the file's description)
and its buttons. Any other message is a plain one: content, an optional file, select menus
(one a row) and buttons.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord

from bot.results import Button, Message, Select

if TYPE_CHECKING:
    from collections.abc import Callable

TEXT_LIMIT = 2000
V2_TEXT_LIMIT = 4000
BUTTONS_PER_ROW = 5
ROWS = 5
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def _mentions(msg: Message) -> discord.AllowedMentions:
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(u) for u in msg.mentions]
    )


def _rows(buttons: tuple[Button, ...], rows: int) -> list[tuple[Button, ...]]:
    """Buttons in rows of five, at most ``rows`` rows."""
    return [buttons[i : i + BUTTONS_PER_ROW] for i in range(0, len(buttons), BUTTONS_PER_ROW)][:rows]


def plain_view(
    msg: Message,
    button: Callable[[Button], discord.ui.Item[Any]],
    select: Callable[[Select], discord.ui.Item[Any]],
) -> discord.ui.View | None:
    """A (timeout-free) view: each select on a row of its own, then the buttons."""
    if not msg.buttons and not msg.selects:
        return None
    view = discord.ui.View(timeout=None)
    for row, s in enumerate(msg.selects[: ROWS - 1]):
        item = select(s)
        item.row = row
        view.add_item(item)
    first = len(msg.selects[: ROWS - 1])
    for row, buttons in enumerate(_rows(msg.buttons, ROWS - first), start=first):
        for b in buttons:
            item = button(b)
            item.row = row
            view.add_item(item)
    return view


def layout_view(
    msg: Message, button: Callable[[Button], discord.ui.Item[Any]]
) -> tuple[discord.ui.LayoutView, list[discord.File]]:
    """The Components V2 container of a turn post, and its files."""
    files = [
        discord.File(io.BytesIO(p.data), filename=p.filename, description=p.alt[:1024]) for p in msg.pictures
    ]
    children: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(msg.text[:V2_TEXT_LIMIT])]
    gallery: discord.ui.MediaGallery[Any] = discord.ui.MediaGallery(
        *(
            discord.MediaGalleryItem(f"attachment://{p.filename}", description=p.alt[:1024])
            for p in msg.pictures
        )
    )
    children.append(gallery)
    for buttons in _rows(msg.buttons, ROWS):
        row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        for b in buttons:
            row.add_item(button(b))
        children.append(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*children))
    return view, files


def message_kwargs(
    msg: Message,
    button: Callable[[Button], discord.ui.Item[Any]],
    select: Callable[[Select], discord.ui.Item[Any]],
) -> dict[str, Any]:
    """Keyword arguments for ``send`` / ``followup.send``: the whole message and its pings."""
    kw: dict[str, Any] = {"allowed_mentions": _mentions(msg)}
    if msg.pictures:
        kw["view"], kw["files"] = layout_view(msg, button)
        return kw
    kw["content"] = msg.text[:TEXT_LIMIT]
    if msg.image is not None:
        kw["file"] = discord.File(io.BytesIO(msg.image), filename=msg.filename)
    view = plain_view(msg, button, select)
    if view is not None:
        kw["view"] = view
    return kw


def text_of(message: discord.Message) -> str:
    """The text of a message: its content, or the text displays of its Components V2 layout."""
    if message.content:
        return message.content
    parts: list[str] = []

    def walk(components: Any) -> None:
        for c in components:
            if isinstance(c, discord.TextDisplay):
                parts.append(c.content)
            walk(getattr(c, "children", None) or getattr(c, "components", None) or ())

    walk(message.components)
    return "\n".join(parts)


def posted_text(msg: Message) -> str:
    """The text `text_of` reads back from the message ``msg`` is sent as."""
    return msg.text[: V2_TEXT_LIMIT if msg.pictures else TEXT_LIMIT]
