"""A `Message` as the keyword arguments of one Discord call (send, followup, edit).

A message with pictures (a turn post, a review) is sent as one Components V2 container: its text, a
media gallery of the pictures (each with its alt text, also given as the file's description),
its buttons and then its select menus (one a row). Any other message is a plain one: content, an
optional file, select menus (one a row) and buttons.

Each button and select menu is sent as the class of its kind (`ITEMS`, filled by the door's
classes, `bot.client.door`): discord.py then keeps no view in memory for the message, since
every press is dispatched by its custom id's template.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import discord

from bot.client.mentions import COMMANDS
from bot.ids import kind_of
from bot.results import Button, Message, Select

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


ITEMS: dict[str, Callable[[discord.ui.Item[Any]], discord.ui.Item[Any]]] = {}
"""The component class of each kind of custom id (by `bot.ids.Kind` name)."""


def button_item(b: Button) -> discord.ui.Item[Any]:
    """The button ``b`` as the class of its kind (a link button as itself: Discord opens its address)."""
    if b.url is not None:
        return discord.ui.Button(label=b.label, url=b.url, style=discord.ButtonStyle.link)
    base: discord.ui.Button[Any] = discord.ui.Button(
        label=b.label, custom_id=b.custom_id, style=STYLES[b.style]
    )
    return ITEMS[kind_of(b.custom_id).name](base)


def select_item(s: Select) -> discord.ui.Item[Any]:
    """The select menu ``s`` (a string select: one value of at most 25 options) as the class of its kind."""
    options = [discord.SelectOption(label=o.label, value=o.value, description=o.description or None)
               for o in s.options]  # fmt: skip
    base: discord.ui.Select[Any] = discord.ui.Select(custom_id=s.custom_id, placeholder=s.placeholder,
                                                     options=options)  # fmt: skip
    return _kind_class(s.custom_id)(base)


def _kind_class(custom_id: str) -> Callable[[discord.ui.Item[Any]], discord.ui.Item[Any]]:
    kind = kind_of(custom_id).name
    if kind not in ITEMS:
        raise LookupError(f"no component class for {kind!r}: import bot.client.components first")
    return ITEMS[kind]


def _mentions(msg: Message) -> discord.AllowedMentions:
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(u) for u in msg.mentions]
    )


def _rows(buttons: tuple[Button, ...], rows: int) -> list[tuple[Button, ...]]:
    """Buttons in rows of five, at most ``rows`` rows."""
    return [buttons[i : i + BUTTONS_PER_ROW] for i in range(0, len(buttons), BUTTONS_PER_ROW)][:rows]


def plain_view(msg: Message) -> discord.ui.View | None:
    """A (timeout-free) view: each select on a row of its own, then the buttons."""
    if not msg.buttons and not msg.selects:
        return None
    view = discord.ui.View(timeout=None)
    for row, s in enumerate(msg.selects[: ROWS - 1]):
        item = select_item(s)
        item.row = row
        view.add_item(item)
    first = len(msg.selects[: ROWS - 1])
    for row, buttons in enumerate(_rows(msg.buttons, ROWS - first), start=first):
        for b in buttons:
            item = button_item(b)
            item.row = row
            view.add_item(item)
    return view


def layout_view(msg: Message) -> tuple[discord.ui.LayoutView, list[discord.File]]:
    """The Components V2 container of a message with pictures, and its files."""
    files = [
        discord.File(io.BytesIO(p.data), filename=p.filename, description=p.alt[:1024]) for p in msg.pictures
    ]
    children: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(posted_text(msg))]
    gallery: discord.ui.MediaGallery[Any] = discord.ui.MediaGallery(
        *(
            discord.MediaGalleryItem(f"attachment://{p.filename}", description=p.alt[:1024])
            for p in msg.pictures
        )
    )
    children.append(gallery)
    for buttons in _rows(msg.buttons, ROWS - len(msg.selects[: ROWS - 1])):
        row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        for b in buttons:
            row.add_item(button_item(b))
        children.append(row)
    for s in msg.selects[: ROWS - 1]:  # (a review's menu: below its steps, under the thumb)
        children.append(discord.ui.ActionRow(select_item(s)))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*children))
    return view, files


def message_kwargs(msg: Message) -> dict[str, Any]:
    """Keyword arguments for ``send`` / ``followup.send``: the whole message and its pings."""
    kw: dict[str, Any] = {"allowed_mentions": _mentions(msg)}
    if msg.pictures:
        kw["view"], kw["files"] = layout_view(msg)
        return kw
    kw["content"] = posted_text(msg)
    if msg.image is not None:
        kw["file"] = discord.File(io.BytesIO(msg.image), filename=msg.filename)
    view = plain_view(msg)
    if view is not None:
        kw["view"] = view
    return kw


def edit_kwargs(msg: Message) -> dict[str, Any]:
    """Keyword arguments to replace a message (an interaction's response, a private panel) by ``msg``."""
    kw = message_kwargs(msg)
    kw.setdefault("view", None)
    kw.setdefault("content", None)
    files = [kw.pop("file")] if "file" in kw else kw.pop("files", [])
    kw["attachments"] = files
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
    """The text ``msg`` is sent with (and `text_of` reads back): the commands it names as mentions
    (`bot.client.mentions`), within Discord's limit."""
    return COMMANDS.link(msg.text)[: V2_TEXT_LIMIT if msg.pictures else TEXT_LIMIT]
