"""Pictures of a game: `render_board(view)` draws one player's view as a PNG.

The picture is a pure function of an `engine.views.View`, so it can only show what that
viewer may see. `render_post(view, …)` draws the pictures of a turn post, each readable on a
phone, with their alt texts. Both take ``lang``, the language of every word (the game's).
`warm()` draws ahead what every board needs; `warm_start(folder)`, what a turn post needs,
kept on disk in ``folder`` for the next worker (call one at start-up); `draw_ahead(view, seats)`,
the landscape of the close-ups the post after those seats' next move shows.
"""

from __future__ import annotations

from .closeup import draw_ahead
from .compose import render_board
from .post import render_post
from .warmup import warm, warm_start

__all__ = ["draw_ahead", "render_board", "render_post", "warm", "warm_start"]
