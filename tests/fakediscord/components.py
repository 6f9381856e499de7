"""Message components as Discord checks and stores them: walking the tree, the checks, the stored form.

Rules, from Discord's docs (discord-api-docs: developers/components/reference.mdx, "Component Reference";
developers/resources/message.mdx; developers/change-log.mdx, 2025-04-29 "Raised Component Limits"):

- Without the IS_COMPONENTS_V2 flag (legacy): up to 5 top-level action rows and nothing else.
- With it: top-level action row (1), section (9), text display (10), media gallery (12), file (13),
  separator (14), container (17); a thumbnail (11) only as a section's accessory ("Thumbnails are
  currently only available in messages as an accessory in a section"); at most 40 components in all,
  nested ones counted (discord.py's ``LayoutView`` counts the same way: every item, accessories too).
- Action row: 1-5 buttons, or exactly one select. Container children: action row, text display,
  section, media gallery, separator, file. Section: 1-3 text displays and a button or thumbnail accessory.
- Button: style 1-6; label ≤ 80; link buttons (5) have a ``url`` (≤ 512) and no ``custom_id``; premium
  buttons (6) a ``sku_id`` and no ``custom_id``/``label``/``url``/``emoji``; the others a ``custom_id``
  and no url.
- Selects (3, 5-8): ``custom_id``; placeholder ≤ 150; ``min_values`` 0-25, ``max_values`` 1-25, min ≤ max.
  String select: 1-25 options (label, value, description ≤ 100), values unique, max_values ≤ options.
- ``custom_id``: 1-100 characters, unique across the whole message. ``id``: optional 32-bit integer,
  unique in the message; absent or 0 → Discord numbers the component "sequentially", skipping ids in use.
- Media gallery: 1-10 items; item and thumbnail ``description`` (alt text) ≤ 1024. Unfurled media ``url``:
  any url or ``attachment://NAME``, which must name an attachment of the message; a file component
  takes only ``attachment://``. Discord fills in the rest of an unfurled media item (``attachment_id``,
  ``proxy_url``, size, content type): the fake stores the attachment's url with those fields.
- Text displays total ≤ 4000 characters: not in Discord's docs; discord.py's ``LayoutView.content_length``
  documents it ("a maximum of 4000 display characters across all its items"). A text display's
  ``content`` is required; that an empty one is refused too is the fake's assumption (docs give no minimum).

Error codes: COMPONENT_CUSTOM_ID_DUPLICATED, COMPONENT_LAYOUT_WIDTH_EXCEEDED, BASE_TYPE_MAX_LENGTH and
BASE_TYPE_BAD_LENGTH are Discord's (seen in its answers quoted in public code); the other codes are the
fake's own descriptive names. Tests should rely on 50035 and the error's path.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models import FakeAttachment

COMPONENTS_V2 = 1 << 15
ROW, BUTTON, STRING_SELECT, SECTION, TEXT, THUMBNAIL, GALLERY, FILE, SEPARATOR, CONTAINER = (
    1, 2, 3, 9, 10, 11, 12, 13, 14, 17
)  # fmt: skip
SELECTS = frozenset({3, 5, 6, 7, 8})
TOP_LEGACY = frozenset({ROW})
TOP_V2 = frozenset({ROW, SECTION, TEXT, GALLERY, FILE, SEPARATOR, CONTAINER})
IN_CONTAINER = frozenset({ROW, TEXT, SECTION, GALLERY, SEPARATOR, FILE})
IN_ROW = frozenset({BUTTON}) | SELECTS
ACCESSORY = frozenset({BUTTON, THUMBNAIL})
ATTACHMENT_SCHEME = "attachment://"
MAX_TOTAL, MAX_TEXT, MAX_ID = 40, 4000, 2**31 - 1

Component = dict[str, Any]
Problem = tuple[str, str, str]  # (path, code, message), e.g. ("components.0.custom_id", ...)


def walk(components: Sequence[Component], path: str = "components") -> Iterator[tuple[str, Component]]:
    """Every component with its path, in document order: a component, its ``components``, its accessory."""
    for i, comp in enumerate(components):
        if not isinstance(comp, dict):
            continue
        here = f"{path}.{i}"
        yield here, comp
        children = comp.get("components")
        if isinstance(children, list):
            yield from walk(children, f"{here}.components")
        accessory = comp.get("accessory")
        if isinstance(accessory, dict):
            yield f"{here}.accessory", accessory


def texts(components: Sequence[Component]) -> list[str]:
    """The contents of the text displays, in document order."""
    return [str(c.get("content") or "") for _, c in walk(components) if c.get("type") == TEXT]


def attachment_name(url: Any) -> str | None:
    if isinstance(url, str) and url.startswith(ATTACHMENT_SCHEME):
        return url[len(ATTACHMENT_SCHEME) :]
    return None


def check(components: Any, *, v2: bool, attachments: Collection[str]) -> list[Problem]:
    """What Discord refuses in a message's ``components`` (``attachments``: the message's file names)."""
    return _Checker(v2, attachments).run(components)


class _Checker:
    def __init__(self, v2: bool, attachments: Collection[str]) -> None:
        self.v2, self.attachments = v2, attachments
        self.problems: list[Problem] = []
        self.custom_ids: set[str] = set()
        self.ids: set[int] = set()
        self.total = self.text = 0

    def bad(self, path: str, code: str, message: str) -> None:
        self.problems.append((path, code, message))

    def too_long(self, path: str, value: Any, limit: int) -> None:
        if isinstance(value, str) and len(value) > limit:
            self.bad(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def count(self, path: str, items: Any, low: int, high: int) -> list[Any]:
        if not isinstance(items, list) or not low <= len(items) <= high:
            self.bad(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")
        return items if isinstance(items, list) else []

    def run(self, components: Any) -> list[Problem]:
        if not isinstance(components, list):
            self.bad("components", "LIST_TYPE_CONVERT", "Must be an array.")
            return self.problems
        if not self.v2 and len(components) > 5:
            self.bad("components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        for i, comp in enumerate(components):
            self.component(f"components.{i}", comp, TOP_V2 if self.v2 else TOP_LEGACY)
        if self.total > MAX_TOTAL:
            self.bad("components", "MESSAGE_COMPONENTS_TOO_MANY", f"Must be {MAX_TOTAL} or fewer in total.")
        if self.text > MAX_TEXT:
            self.bad("components", "MESSAGE_TEXT_TOO_LONG", f"Text displays must total {MAX_TEXT} or fewer.")
        return self.problems

    def component(self, path: str, comp: Any, allowed: frozenset[int]) -> None:
        self.total += 1
        kind = comp.get("type") if isinstance(comp, dict) else None
        if not isinstance(comp, dict) or kind not in allowed:
            where = "with IS_COMPONENTS_V2" if self.v2 else "without IS_COMPONENTS_V2"
            self.bad(
                f"{path}.type",
                "COMPONENT_TYPE_INVALID",
                f"Component type {kind} is not allowed here {where}.",
            )
            return
        self.numeric_id(path, comp.get("id"))
        {
            ROW: self.row,
            BUTTON: self.button,
            SECTION: self.section,
            TEXT: self.text_display,
            THUMBNAIL: self.thumbnail,
            GALLERY: self.gallery,
            FILE: self.file,
            SEPARATOR: self.separator,
            CONTAINER: self.container,
        }.get(kind, self.select)(path, comp)

    def numeric_id(self, path: str, value: Any) -> None:
        if value is None or value == 0:
            return
        if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= MAX_ID:
            self.bad(f"{path}.id", "NUMBER_TYPE_COERCE", "Must be a 32-bit integer.")
        elif value in self.ids:
            self.bad(f"{path}.id", "COMPONENT_ID_DUPLICATED", "Component id cannot be duplicated.")
        self.ids.add(value)

    def custom_id(self, path: str, comp: Component) -> None:
        value = comp.get("custom_id")
        if not isinstance(value, str) or not 1 <= len(value) <= 100:
            self.bad(f"{path}.custom_id", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        elif value in self.custom_ids:
            self.bad(
                f"{path}.custom_id",
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        else:
            self.custom_ids.add(value)

    def row(self, path: str, comp: Component) -> None:
        children = self.count(f"{path}.components", comp.get("components"), 1, 5)
        kinds = [c.get("type") for c in children if isinstance(c, dict)]
        if any(k in SELECTS for k in kinds) and len(children) > 1:
            self.bad(
                f"{path}.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A select must be alone in its row."
            )
        for j, child in enumerate(children):
            self.component(f"{path}.components.{j}", child, IN_ROW)

    def button(self, path: str, comp: Component) -> None:
        style = comp.get("style")
        self.too_long(f"{path}.label", comp.get("label"), 80)
        if style == 5:
            if not isinstance(comp.get("url"), str):
                self.bad(f"{path}.url", "BUTTON_COMPONENT_URL_REQUIRED", "A link button must have a url.")
            self.too_long(f"{path}.url", comp.get("url"), 512)
            forbidden = ["custom_id", "sku_id"]
        elif style == 6:
            if comp.get("sku_id") is None:
                self.bad(
                    f"{path}.sku_id", "BUTTON_COMPONENT_SKU_ID_REQUIRED", "A premium button needs a sku_id."
                )
            forbidden = ["custom_id", "label", "url", "emoji"]
        elif style in (1, 2, 3, 4):
            self.custom_id(path, comp)
            forbidden = ["url", "sku_id"]
        else:
            self.bad(
                f"{path}.style", "BASE_TYPE_CHOICES", f"Value must be one of (1, 2, 3, 4, 5, 6), not {style}."
            )
            return
        for key in forbidden:
            if comp.get(key) is not None:
                self.bad(
                    f"{path}.{key}", "BUTTON_COMPONENT_INVALID_FIELD", f"A style {style} button has no {key}."
                )

    def select(self, path: str, comp: Component) -> None:
        self.custom_id(path, comp)
        self.too_long(f"{path}.placeholder", comp.get("placeholder"), 150)
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        if not isinstance(low, int) or not 0 <= low <= 25:
            self.bad(f"{path}.min_values", "NUMBER_TYPE_MAX", "Must be between 0 and 25.")
        if not isinstance(high, int) or not 1 <= high <= 25:
            self.bad(f"{path}.max_values", "NUMBER_TYPE_MAX", "Must be between 1 and 25.")
        elif isinstance(low, int) and low > high:
            self.bad(
                f"{path}.min_values", "SELECT_COMPONENT_MIN_VALUES_TOO_HIGH", "Must be at most max_values."
            )
        if comp.get("type") != STRING_SELECT:
            return
        options = self.count(f"{path}.options", comp.get("options"), 1, 25)
        seen: set[Any] = set()
        for k, option in enumerate(options):
            where = f"{path}.options.{k}"
            for key in ("label", "value"):
                if not isinstance(option.get(key), str):
                    self.bad(f"{where}.{key}", "BASE_TYPE_REQUIRED", "This field is required")
            for key in ("label", "value", "description"):
                self.too_long(f"{where}.{key}", option.get(key), 100)
            if option.get("value") in seen:
                self.bad(
                    f"{where}.value",
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Option values must be unique.",
                )
            seen.add(option.get("value"))
        if options and isinstance(high, int) and high > len(options):
            self.bad(
                f"{path}.max_values", "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS", "More than the options."
            )

    def text_display(self, path: str, comp: Component) -> None:
        content = comp.get("content")
        if not isinstance(content, str) or not content:
            self.bad(f"{path}.content", "BASE_TYPE_REQUIRED", "This field is required")
        else:
            self.text += len(content)

    def section(self, path: str, comp: Component) -> None:
        for j, child in enumerate(self.count(f"{path}.components", comp.get("components"), 1, 3)):
            self.component(f"{path}.components.{j}", child, frozenset({TEXT}))
        if comp.get("accessory") is None:
            self.bad(f"{path}.accessory", "BASE_TYPE_REQUIRED", "This field is required")
        else:
            self.component(f"{path}.accessory", comp["accessory"], ACCESSORY)

    def media(self, path: str, media: Any, *, attachment_only: bool = False) -> None:
        url = media.get("url") if isinstance(media, dict) else None
        name = attachment_name(url)
        if not isinstance(url, str) or not url:
            self.bad(f"{path}.url", "BASE_TYPE_REQUIRED", "This field is required")
        elif name is not None and name not in self.attachments:
            self.bad(
                f"{path}.url", "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND", f"No attachment named {name!r}."
            )
        elif name is None and attachment_only:
            self.bad(
                f"{path}.url", "UNFURLED_MEDIA_ITEM_ATTACHMENT_REQUIRED", "Must be an attachment:// url."
            )

    def thumbnail(self, path: str, comp: Component) -> None:
        self.media(f"{path}.media", comp.get("media"))
        self.too_long(f"{path}.description", comp.get("description"), 1024)

    def gallery(self, path: str, comp: Component) -> None:
        for j, item in enumerate(self.count(f"{path}.items", comp.get("items"), 1, 10)):
            where = f"{path}.items.{j}"
            self.media(f"{where}.media", item.get("media") if isinstance(item, dict) else None)
            if isinstance(item, dict):
                self.too_long(f"{where}.description", item.get("description"), 1024)

    def file(self, path: str, comp: Component) -> None:
        self.media(f"{path}.file", comp.get("file"), attachment_only=True)

    def separator(self, path: str, comp: Component) -> None:
        if comp.get("spacing", 1) not in (1, 2):
            self.bad(f"{path}.spacing", "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")

    def container(self, path: str, comp: Component) -> None:
        color = comp.get("accent_color")
        if color is not None and (not isinstance(color, int) or not 0 <= color <= 0xFFFFFF):
            self.bad(f"{path}.accent_color", "NUMBER_TYPE_MAX", "Must be between 0 and 16777215.")
        children = comp.get("components")
        for j, child in enumerate(children if isinstance(children, list) else []):
            self.component(f"{path}.components.{j}", child, IN_CONTAINER)


# --- the stored form: what Discord answers -------------------------------------------------------


def stored(components: Sequence[Component], attachments: Sequence[FakeAttachment]) -> list[Component]:
    """``components`` as Discord returns them: every component numbered (absent or 0 ``id``: the lowest
    free id from 1, in document order), unfurled media items filled in from the attachments they name."""
    out = copy.deepcopy(list(components))
    used = {c["id"] for _, c in walk(out) if c.get("id")}
    next_id = 1
    by_name = {a.filename: a for a in attachments}  # the newest of two same-named attachments wins
    for _, comp in walk(out):
        if not comp.get("id"):
            while next_id in used:
                next_id += 1
            comp["id"] = next_id
            used.add(next_id)
        if comp.get("type") == FILE:  # Discord adds the file's name and size
            att = by_name.get(attachment_name(comp["file"].get("url")) or "")
            if att is not None:
                comp["name"], comp["size"] = att.filename, att.size
        for holder, key in _media_slots(comp):
            holder[key] = _unfurled(holder[key], by_name)
    return out


def _media_slots(comp: Component) -> list[tuple[dict[str, Any], str]]:
    kind = comp.get("type")
    if kind == THUMBNAIL:
        return [(comp, "media")]
    if kind == FILE:
        return [(comp, "file")]
    if kind == GALLERY:
        return [(item, "media") for item in comp.get("items", [])]
    return []


def _unfurled(media: dict[str, Any], by_name: dict[str, FakeAttachment]) -> dict[str, Any]:
    att = by_name.get(attachment_name(media.get("url")) or "")
    if att is None:
        return {**media, "flags": 0}
    return {
        "url": att.url,
        "proxy_url": att.url,
        "width": att.width,
        "height": att.height,
        "content_type": att.content_type,
        "flags": 0,
        "attachment_id": str(att.id),
    }
