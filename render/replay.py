"""A finished game as an animated GIF: one frame at the end of each political round and one at
the end of each year, each drawn from the spectator view (``game.view(None)``) of the position
the game's record reaches at that moment, never from the full state.

`animation(record)` replays the record move by move and returns the GIF, under `MAX_BYTES`
(it draws smaller frames if it has to), its captions and boards in the language asked for.
`frames(record)` gives the captioned views.

Each frame is drawn as an image (`compose`), not written as a PNG and read back, and put in the
palette every board is written in (`palette_image`), once: its board's pixels are exactly those
of the board's PNG (`render_board`), the caption's the nearest of the palette's colours. (Until
issue 31, each frame was written as a PNG, read back and put in a palette of its own by median
cut: about 2.4 times the CPU, for a board whose colours were already 256, which the median cut
could only change.) All frames are as tall as the tallest (`_frame`).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import Any

from PIL import Image

from engine import Game, Record, View
from i18n import _, speaking

from . import fonts
from .compose import compose
from .compose import height as composed_height
from .palette import BACKGROUND, PANEL, PAPER
from .png_palette import palette_image

Stage = tuple[int, str, int]
Renderer = Callable[..., bytes]
"""Draws a view as a PNG, like `render_board` (``highlight``, ``width`` and ``lang`` by name)."""
MAX_BYTES = 8 * 1024 * 1024 - 64 * 1024
"""Discord's upload limit (8 MiB) with room for the rest of the message."""
WIDTHS = (700, 600)
"""Frame widths to try, largest first (the board is drawn 600 px wide at the least)."""
CAPTION_HEIGHT = 30
ROUND_MS, YEAR_MS, LAST_MS = 900, 2200, 5000


def positions(record: Record | dict[str, Any]) -> Iterator[Game]:
    """The game after each move of ``record``, in order.

    The moves of an old record that were played before the engine asked ``first`` (its
    ``legacy_moves``) are replayed through `Game.replay` of each prefix, as the engine did
    then; the moves after them are played one by one.
    """
    rec = Record.model_validate(record)
    legacy = len(rec.moves) if rec.legacy_moves is None else rec.legacy_moves
    game = Game.new(rec.players, rec.seed, rec.setup)
    for k, (seat, move) in enumerate(rec.moves, start=1):
        if k <= legacy:
            game = Game.replay(rec.model_copy(update={"moves": rec.moves[:k], "legacy_moves": legacy}))
        else:
            game.play(seat, move)
        yield game


def _stage(game: Game) -> Stage:
    """Year, phase and political round, as the spectator view shows them (read from the state: a
    view is made only for the positions shown)."""
    state = game.state
    return state.year, state.phase, state.round


def frames(record: Record | dict[str, Any]) -> list[tuple[str, View]]:
    """The captioned spectator views: after the move that ends each political round, and after
    the move that ends each year (both, when one move ends the last round and the year); the
    captions in the language spoken."""
    return [(caption, view) for caption, view, _end in _frames(record)]


def _frames(record: Record | dict[str, Any]) -> list[tuple[str, View, bool]]:
    """`frames`, each marked whether it ends a year."""
    rec = Record.model_validate(record)
    before = _stage(Game.new(rec.players, rec.seed, rec.setup))
    found: list[tuple[str, View, bool]] = []
    for game in positions(rec):
        now = _stage(game)
        if now == before:  # no round and no year ended
            continue
        view = game.view(None)
        year, phase, rnd = before
        if phase == "politics":
            found.append(
                (_("Year {year}, end of political round {round}", year=year, round=rnd), view, False)
            )
        if phase not in ("setup", "over") and (now[0] != year or now[1] == "over"):
            if now[1] == "over":
                caption = _("End of year {year}: final scores", year=year)
            else:
                caption = _("End of year {year}", year=year)
            found.append((caption, view, True))
        before = now
    return found


class _Boards:
    """The frames' boards ``width`` px wide: drawn here (``renderer`` None: `compose`, their heights
    known before they are drawn), or by ``renderer`` as PNGs (all written first, their heights read
    from them), each read back in RGB when its frame is made."""

    def __init__(self, renderer: Renderer | None, views: list[View], width: int, lang: str) -> None:
        self.renderer, self.views, self.width, self.lang = renderer, views, width, lang
        self.pngs = (
            [] if renderer is None else [renderer(v, highlight=[], width=width, lang=lang) for v in views]
        )

    def height(self) -> int:
        """The tallest board's height."""
        if self.renderer is None:
            return max(composed_height(v, self.width) for v in self.views)
        return max(Image.open(io.BytesIO(png)).height for png in self.pngs)

    def image(self, k: int) -> Image.Image:
        if self.renderer is None:
            with speaking(self.lang):
                return compose(self.views[k], [], self.width)
        return Image.open(io.BytesIO(self.pngs[k])).convert("RGB")


def _frame(board: Image.Image, caption: str, height: int) -> Image.Image:
    """A board picture with its caption on a band above it, ``height`` px tall below the caption
    (a GIF's frames share the first one's size: each is padded below in the table's colour to the
    tallest, the final scores', which would otherwise lose its bottom), in the boards' palette."""
    img = Image.new("RGB", (board.width, height + CAPTION_HEIGHT), PANEL)
    img.paste(BACKGROUND, (0, 0, board.width, CAPTION_HEIGHT))
    img.paste(board, (0, CAPTION_HEIGHT))
    shown = fonts.shorten(caption, 18, board.width - 20)
    fonts.text(img, (10, CAPTION_HEIGHT // 2), shown, 18, PAPER, anchor="lm", bold=True)
    return img.quantize(palette=palette_image(), dither=Image.Dither.NONE)


def _gif(images: list[Image.Image], durations: list[int]) -> bytes:
    out = io.BytesIO()
    images[0].save(
        out, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0, disposal=1
    )
    return out.getvalue()


def animation(
    record: Record | dict[str, Any], renderer: Renderer | None = None, lang: str = "en"
) -> tuple[bytes, int]:
    """The GIF of a game and its number of frames, in language ``lang`` (captions and boards);
    ValueError when the record has no frame to show. The boards are drawn here (``renderer``
    None, the bot's), or by ``renderer`` as PNGs (like `render_board`: tests, other looks)."""
    with speaking(lang):
        shown = _frames(record)
    if not shown:
        raise ValueError("the record ends before the first political round does")
    durations = [YEAR_MS if end else ROUND_MS for _c, _v, end in shown]
    durations[-1] = LAST_MS
    data = b""
    for width in WIDTHS:
        boards = _Boards(renderer, [v for _c, v, _end in shown], width, lang)
        tallest = boards.height()
        data = _gif([_frame(boards.image(k), c, tallest) for k, (c, _v, _end) in enumerate(shown)], durations)
        if len(data) <= MAX_BYTES:
            break
    return data, len(shown)
