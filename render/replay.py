"""A finished game as an animated GIF: one frame at the end of each political round and one at
the end of each year, each drawn from the spectator view (``game.view(None)``) of the position
the game's record reaches at that moment, never from the full state.

`animation(record)` replays the record move by move and returns the GIF, under `MAX_BYTES`
(it draws smaller frames if it has to), its captions and boards in the language asked for.
`frames(record)` gives the captioned views.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import Any

from PIL import Image

from engine import Game, Record, View
from i18n import _, speaking

from . import fonts
from .compose import render_board
from .palette import BACKGROUND, PAPER

Stage = tuple[int, str, int]
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


def _stage(view: View) -> Stage:
    return view.year, view.phase, view.round


def frames(record: Record | dict[str, Any]) -> list[tuple[str, View]]:
    """The captioned spectator views: after the move that ends each political round, and after
    the move that ends each year (both, when one move ends the last round and the year); the
    captions in the language spoken."""
    return [(caption, view) for caption, view, _end in _frames(record)]


def _frames(record: Record | dict[str, Any]) -> list[tuple[str, View, bool]]:
    """`frames`, each marked whether it ends a year."""
    rec = Record.model_validate(record)
    before = _stage(Game.new(rec.players, rec.seed, rec.setup).view(None))
    found: list[tuple[str, View, bool]] = []
    for game in positions(rec):
        view = game.view(None)
        now = _stage(view)
        year, phase, rnd = before
        if phase == "politics" and now != before:
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


def _frame(png: bytes, caption: str) -> Image.Image:
    """A board picture with its caption on a band above it, in a 256-colour palette."""
    board = Image.open(io.BytesIO(png)).convert("RGB")
    img = Image.new("RGB", (board.width, board.height + CAPTION_HEIGHT), BACKGROUND)
    img.paste(board, (0, CAPTION_HEIGHT))
    shown = fonts.shorten(caption, 18, board.width - 20)
    fonts.text(img, (10, CAPTION_HEIGHT // 2), shown, 18, PAPER, anchor="lm", bold=True)
    return img.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def _gif(images: list[Image.Image], durations: list[int]) -> bytes:
    out = io.BytesIO()
    images[0].save(
        out, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0, disposal=1
    )
    return out.getvalue()


def animation(
    record: Record | dict[str, Any], renderer: Callable[..., bytes] = render_board, lang: str = "en"
) -> tuple[bytes, int]:
    """The GIF of a game (``renderer`` draws a view as a PNG, like `render_board`) and its number
    of frames, in language ``lang`` (captions and boards); ValueError when the record has no
    frame to show."""
    with speaking(lang):
        shown = _frames(record)
    if not shown:
        raise ValueError("the record ends before the first political round does")
    durations = [YEAR_MS if end else ROUND_MS for _c, _v, end in shown]
    durations[-1] = LAST_MS
    data = b""
    for width in WIDTHS:
        images = [_frame(renderer(v, highlight=[], width=width, lang=lang), c) for c, v, _end in shown]
        data = _gif(images, durations)
        if len(data) <= MAX_BYTES:
            break
    return data, len(shown)
