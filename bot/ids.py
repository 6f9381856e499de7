"""The custom ids of the bot's components: one `Kind` per kind of button or select menu, who may
press it and where, how to make its id and how to read one back.

Every component the bot ever posted carries such an id and must keep working after an update and a
restart, so the forms never change (new kinds may be added)::

    citta:<game>:<version>:<seat, or - for none>:<action>
    cittas:<game>:<version>:<seat>:p.<page>.<select>.<words>    (a select menu of the private panel)

>>> cid = custom_id(7, 12, 1, move="prefer F7 culture")
>>> cid
'citta:7:12:1:m.prefer_F7_culture'
>>> parse_custom_id(cid)
ButtonRef(game=7, version=12, seat=1, action='move', move='prefer F7 culture', path=(), page=0)
>>> kind_of(cid).name, kind_of("citta:3:0:-:join").name, kind_of("citta:3:0:-:jump").name
('move', 'join', 'unknown')

The private panel's steps carry the path chosen so far:

>>> step_id(7, 12, 1, ("found", "D13"), page=1, select=2)
'cittas:7:12:1:p.1.2.found_D13'
>>> parse_custom_id(step_id(7, 12, 1, ("found", "D13", "from E12")))
ButtonRef(game=7, version=12, seat=1, action='step', move=None, path=('found', 'D13', 'from E12'), page=0)

A number too large for the database is no id of ours:

>>> parse_custom_id("citta:99999999999999999999:0:-:join") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_CUSTOM_ID = 100
"""Discord's limit on a custom id's length."""
MAX_GAME = 2**63 - 1
"""The largest game id the databases store (a signed 64-bit integer)."""
MAX_NUMBER = 2**31 - 1
"""The largest version, seat or page (a 32-bit integer in the database)."""
_WORDS = r"[A-Za-z0-9_.-]"


@dataclass(frozen=True)
class Kind:
    """One kind of component: the action of its id, who may press it and where.

    The door (`bot.client.door`) checks all of that before any handler runs: a component of a game
    is pressed in that game's server, in its channel (``anywhere``: any channel of the server); a
    seat's own (``seat``) only by that seat's player; never in a direct message, but a ``personal``
    one (the panel's, the menu of ``/citta-my-games``), which its player may press anywhere."""

    name: str
    action: str
    """The action part of the id, as a regular expression (its named groups are read by `parse_custom_id`)."""
    seat: bool = False
    select: bool = False
    anywhere: bool = False
    game: bool = True
    """False: the id names no game (game 0): it acts on the server it is pressed in."""
    personal: bool = False
    """Its presser's own, wherever they are: pressed in any server or in a direct message with the
    bot (a panel opened from ``/citta-my-games``), only by the seat's player for a seat's component;
    the use case checks the rest (``mine``: that the presser plays in the game they pick)."""

    @property
    def template(self) -> str:
        """The whole id as a regular expression (discord.py matches a component against it)."""
        prefix = "cittas" if self.select else "citta"
        seat = r"(?P<seat>\d+)" if self.seat else "-"
        return rf"{prefix}:(?P<game>\d+):(?P<version>\d+):{seat}:{self.action}"


_STEP = rf"p\.(?P<page>\d+)\.(?P<select>\d+)\.(?P<words>{_WORDS}*)"
JOIN, LEAVE, START = Kind("join", "join"), Kind("leave", "leave"), Kind("start", "start")
PEEK = Kind("peek", "peek")
"""Show my peek: the presser's private information (a channel post's fallback when DMs fail)."""
ABANDON = Kind("abandon", "abandon")
PANEL = Kind("panel", "panel")
"""🎲: open the presser's private panel of their pending decision."""
CLOSE = Kind("close", "close", seat=True, personal=True)
FORGET = Kind("forget", "forget", game=False)
"""Confirm ``/citta me forget`` in the server it is pressed in."""
HERE = Kind("here", "here", anywhere=True)
"""A paused game goes on in the channel where this is pressed."""
MOVE = Kind("move", rf"m\.(?P<move>{_WORDS}+)", seat=True)
"""Play a move (a turn post's quick answers, a hint's, a warning's "play anyway")."""
CONFIRM = Kind("confirm", rf"c\.(?P<move>{_WORDS}+)", seat=True, personal=True)
"""The panel's Confirm."""
STEP = Kind("step", _STEP, seat=True, personal=True)
"""A panel button: back, another page."""
CHOOSE = Kind("choose", _STEP, seat=True, select=True, personal=True)
"""A panel select menu: the option picked is the next word of the move."""
MINE = Kind("mine", "mine", select=True, game=False, personal=True)
"""``/citta-my-games``' menu: the game picked (its id the option's value) opens the presser's panel."""
_REVIEW = r"r\.(?P<page>\d+)\.(?P<select>\d+)"
REVIEW = Kind("review", _REVIEW, personal=True)
"""A review's step (⏮ ◀ ▶ ⏭, `bot.service.review`): the position it goes to, as the number of moves
played before it (``page``), and its place among the message's buttons."""
REVIEW_MENU = Kind("review-menu", _REVIEW, select=True, personal=True)
"""A review's menu: the position picked is the option's value."""
REVIEW_AT = Kind("review-at", r"o\.(?P<page>\d+)")
"""🔎 on a turn post or the final scoring post: the presser's own review of the game, privately, at the
position after ``page`` moves."""
REVIEW_GAME = Kind("review-game", "review", select=True, game=False, personal=True)
"""``/citta games``' menu: the review of the game picked (its id the option's value)."""
WHY = Kind("why", r"w\.(?P<page>\d+)", personal=True)
"""🤔 of a finished game's review: the strong computer's view of the move that led to the position."""
DECISIVE = Kind("decisive", "decisive", personal=True)
"""⚡ of a finished game's review: the game's decisive moments."""
SIGN_UP = Kind("sign-up", r"t\.(?P<page>\d+)", game=False)
"""A tournament's Sign up (its id in ``page``), pressed in its server (`bot.service.tournaments`)."""
WITHDRAW = Kind("withdraw", r"u\.(?P<page>\d+)", game=False)
"""A tournament's Withdraw (its id in ``page``): a player's sign-up taken back."""
KINDS = (
    JOIN, LEAVE, START, PEEK, ABANDON, PANEL, CLOSE, FORGET, HERE, MOVE, CONFIRM, STEP, CHOOSE, MINE, REVIEW,
    REVIEW_MENU, REVIEW_AT, REVIEW_GAME, WHY, DECISIVE, SIGN_UP, WITHDRAW,
)  # fmt: skip
UNKNOWN = Kind("unknown", "")
"""Any other id of ours: an old or malformed one, answered as no longer used."""
ANY_OTHER = r"(?!(?:{})$)cittas?:.*".format("|".join(re.sub(r"\(\?P<\w+>", "(?:", k.template) for k in KINDS))
"""The template of `UNKNOWN`: our prefix, and none of the kinds' templates (discord.py runs every
template that matches, so no id may match two)."""
_MATCHERS = [(k, re.compile(k.template)) for k in KINDS]


@dataclass(frozen=True)
class ButtonRef:
    """What a component's custom id says: the game, the version it was made at, for whom, what."""

    game: int
    version: int
    seat: int | None
    action: str
    """The name of its `Kind`."""
    move: str | None = None
    path: tuple[str, ...] = ()
    """A panel step's choices so far (the words of a move; see `bot.service.panel`)."""
    page: int = 0


def kind_of(cid: str) -> Kind:
    """The kind of component ``cid`` is the id of (`UNKNOWN`: none)."""
    return next((k for k, m in _MATCHERS if m.fullmatch(cid)), UNKNOWN)


def parse_custom_id(cid: str) -> ButtonRef | None:
    """The `ButtonRef` of one of our custom ids; None for anything else (also numbers out of range)."""
    for kind, matcher in _MATCHERS:
        if (m := matcher.fullmatch(cid)) is not None:
            return ref_from(kind, m.groupdict())
    return None


def ref_from(kind: Kind, groups: dict[str, str]) -> ButtonRef | None:
    """A `ButtonRef` from the named groups of ``kind``'s template; None when a number is out of range."""
    game, version = int(groups["game"]), int(groups["version"])
    seat = int(groups["seat"]) if groups.get("seat") is not None else None
    page = int(groups.get("page") or 0)
    if game > MAX_GAME or max(version, page, seat or 0) > MAX_NUMBER:
        return None
    if kind in (STEP, CHOOSE):
        path = tuple(w.replace("-", " ") for w in groups["words"].split("_") if w)
        return ButtonRef(game, version, seat, "step", path=path, page=page)
    move = groups.get("move")
    return ButtonRef(
        game, version, seat, kind.name, None if move is None else move.replace("_", " "), page=page
    )


def custom_id(
    game: int, version: int, seat: int | None, action: str = "move", move: str | None = None
) -> str:
    """The custom id of a button (``action``: a kind's name); ValueError when it would not fit
    Discord's 100 characters, or names no kind."""
    who = "-" if seat is None else str(seat)
    what = action if move is None else ("c." if action == "confirm" else "m.") + move.replace(" ", "_")
    return _fits(f"citta:{game}:{version}:{who}:{what}")


def mine_id() -> str:
    """The custom id of ``/citta-my-games``' menu (`MINE`)."""
    return _fits("cittas:0:0:-:mine")


def review_id(game: int, position: int, place: int, *, select: bool = False) -> str:
    """The custom id of a review's step to ``position`` (the moves played before it), the ``place``-th
    of its message (ids are unique within a message); ``select``: its menu.

    >>> review_id(7, 120, 3), parse_custom_id(review_id(7, 120, 3)).page
    ('citta:7:0:-:r.120.3', 120)
    """
    return _fits(f"{'cittas' if select else 'citta'}:{game}:0:-:r.{position}.{place}")


def review_at_id(game: int, position: int) -> str:
    """The custom id of a post's 🔎: the review of ``game`` after ``position`` moves (`REVIEW_AT`)."""
    return _fits(f"citta:{game}:0:-:o.{position}")


def why_id(game: int, position: int) -> str:
    """The custom id of a review's 🤔 at ``position`` (`WHY`)."""
    return _fits(f"citta:{game}:0:-:w.{position}")


def decisive_id(game: int) -> str:
    """The custom id of a review's ⚡ (`DECISIVE`)."""
    return _fits(f"citta:{game}:0:-:decisive")


def review_game_id() -> str:
    """The custom id of ``/citta games``' menu of reviews (`REVIEW_GAME`)."""
    return _fits("cittas:0:0:-:review")


def step_id(
    game: int, version: int, seat: int, path: tuple[str, ...], *, page: int = 0, select: int | None = None
) -> str:
    """The custom id of a panel step: a button (``select`` None) or the ``select``-th select menu
    of a page (numbered so that ids stay unique within the message)."""
    words = "_".join(w.replace(" ", "-") for w in path)
    kind = "citta" if select is None else "cittas"
    return _fits(f"{kind}:{game}:{version}:{seat}:p.{page}.{select or 0}.{words}")


def _fits(cid: str) -> str:
    if len(cid) > MAX_CUSTOM_ID or kind_of(cid) is UNKNOWN:
        raise ValueError(f"custom id does not fit: {cid!r}")
    return cid


def sign_up_id(tournament: int) -> str:
    """The custom id of tournament ``tournament``'s Sign up (`SIGN_UP`).

    >>> sign_up_id(4), parse_custom_id(sign_up_id(4)).page
    ('citta:0:0:-:t.4', 4)
    """
    return _fits(f"citta:0:0:-:t.{tournament}")


def withdraw_id(tournament: int) -> str:
    """The custom id of tournament ``tournament``'s Withdraw (`WITHDRAW`)."""
    return _fits(f"citta:0:0:-:u.{tournament}")
