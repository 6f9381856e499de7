"""Drawing what a post shows, off the event loop: the pictures of a turn post (made for a phone, each
with its alt text) and the full poster of the board, by the context's renderer in a worker.

A failure to draw never stops a move: it is logged, and the post goes without its pictures.
"""

from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING, Any, Protocol, cast

import i18n
from bot.results import Drawing, Picture
from engine import View

if TYPE_CHECKING:
    from bot.service.context import Context

log = logging.getLogger(__name__)
PictureData = tuple[str, bytes, str]
"""A picture as the renderer gives it: file name, PNG, alt text."""


class Renderer(Protocol):
    def __call__(
        self, view: View, *, highlight: list[str] | None = None, width: int = 1400, lang: str = "en"
    ) -> bytes:
        """The full poster of the board and table (for large screens), its words in ``lang``."""
        ...

    def post(
        self, view: View, *, highlight: list[str], last_move: str, focus: int | None, lang: str = "en"
    ) -> list[PictureData]:
        """The pictures of a turn post, each readable on a phone, with their alt texts, all in
        ``lang`` (a language code: the renderer runs in a worker, maybe another process)."""
        ...

    def ahead(self, view: View, *, seats: list[int]) -> None:
        """Draw ahead, in the worker that draws the game's posts, what the post after a move of
        ``seats`` will need and is not drawn yet after a restart (`bot.service.predraw`)."""
        ...


class DefaultRenderer:
    """`render.render_board`, `render.render_post` and `render.draw_ahead`, imported on first use
    (in a worker)."""

    def __call__(
        self, view: View, *, highlight: list[str] | None = None, width: int = 1400, lang: str = "en"
    ) -> bytes:
        render_board = importlib.import_module("render").render_board
        return cast(bytes, render_board(view, highlight=highlight, width=width, lang=lang))

    def post(
        self, view: View, *, highlight: list[str], last_move: str, focus: int | None, lang: str = "en"
    ) -> list[PictureData]:
        render_post = importlib.import_module("render").render_post
        return cast(
            list[PictureData],
            render_post(view, highlight=highlight, last_move=last_move, focus=focus, lang=lang),
        )

    def ahead(self, view: View, *, seats: list[int]) -> None:
        importlib.import_module("render").draw_ahead(view, seats)


default_renderer = DefaultRenderer()


async def post_pictures(
    ctx: Context, view: View, highlight: list[str], *, last_move: str = "", focus: int | None = None,
    lang: str | None = None, game: int | None = None,
) -> tuple[Picture, ...]:  # fmt: skip
    """The pictures of a post in ``lang`` (a language code; the current language when None: a
    channel post passes the game's), drawn by a worker (the one that drew ``game``'s last post, if
    it is free: the bands of its table are kept there); none (and a log line) if drawing fails."""
    if ctx.renderer is None:
        return ()
    code = lang or i18n.current().code
    options: dict[str, Any] = {"highlight": highlight, "last_move": last_move, "focus": focus, "lang": code}
    try:
        with ctx.metrics.drawing.time():
            drawn = await ctx.workers.call_near(game, ctx.renderer.post, view, **options)
    except Exception:
        log.exception("Drawing the pictures failed; posting without them")
        return ()
    return tuple(Picture(name, data, alt) for name, data, alt in drawn)


async def redraw(ctx: Context, drawing: Drawing) -> tuple[Picture, ...]:
    """The pictures of a stored post, drawn again from its ``drawing``."""
    view = View.model_validate_json(drawing.view)
    return await post_pictures(
        ctx,
        view,
        list(drawing.highlight),
        last_move=drawing.last_move,
        focus=drawing.focus,
        lang=drawing.lang,
    )


async def poster(
    ctx: Context, view: View, highlight: list[str], *, lang: str | None = None, width: int = 1400
) -> bytes | None:
    """The full poster of the board in ``lang`` (the current language when None), ``width`` pixels
    wide, drawn by a worker of the `aside` lane (a member asked for it); None (and a log line) if
    it fails."""
    if ctx.renderer is None:
        return None
    try:
        return await ctx.workers.aside(
            ctx.renderer, view, highlight=highlight, width=width, lang=lang or i18n.current().code
        )
    except Exception:
        log.exception("Rendering the board failed; posting without the image")
        return None
