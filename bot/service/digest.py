"""The daily digest (part of the service layer): a player who asks for it (``/citta me digest``)
gets, once a day at the local time they chose, one direct message listing the games waiting on them
in every server (`bot.service.mine`), with links to the posts that ask; nothing when nothing waits.

The time is in the player's time zone (the UTC offset of ``/citta me quiet``, which ``digest`` may
set too). A time inside their quiet hours is moved to the end of them: a digest never comes while
they asked for quiet. Each day's digest is taken once (`PlayersProtocol.claim_digest`), whichever
process's clock tick sees it due first, and stored in the outbox like any post (a DM only).
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace

import i18n
from bot.errors import CittaError
from bot.results import DirectMessage, Message, Post
from bot.service import clock, mine
from bot.service.context import Context
from bot.storage.rows import Prefs
from i18n import _

log = logging.getLogger(__name__)
DAY_MINUTES = 1440
_TIME = re.compile(
    r"^\s*(\d{1,2})(?::(\d{2}))?(?:\s+((?:utc|gmt)\s*(?:[+-]\s*\d{1,2}(?::\d{2})?)?))?\s*$", re.I
)


def local_time(prefs: Prefs, now: int) -> tuple[int, int]:
    """The player's local day (days since the epoch) and minute of the day at ``now``."""
    minutes = now // 60 + prefs.utc_offset
    return minutes // DAY_MINUTES, minutes % DAY_MINUTES


def sent_at(prefs: Prefs) -> int | None:
    """The minute of the local day the digest comes: the one chosen, or the end of the quiet hours
    it falls in (None: no digest).

    >>> sent_at(Prefs(1, digest_at=18 * 60))
    1080
    >>> sent_at(Prefs(1, quiet_start=22 * 60, quiet_end=8 * 60, digest_at=23 * 60))
    480
    """
    at = prefs.digest_at
    return prefs.quiet_end if at is not None and clock.quiet_at(prefs, at) else at


def due(prefs: Prefs, now: int) -> int | None:
    """The local day whose digest is due at ``now`` (None: none is): its time has come today, today's
    was not taken yet, and it is not quiet."""
    at = sent_at(prefs)
    if at is None:
        return None
    day, minute = local_time(prefs, now)
    if (
        minute < at
        or (prefs.digest_day is not None and prefs.digest_day >= day)
        or clock.in_quiet(prefs, now)
    ):
        return None
    return day


async def send_due(ctx: Context) -> int:
    """The clock's step: the digests due now, each taken once and stored to be sent; how many."""
    now, sent = ctx.now(), 0
    for prefs in await ctx.storage.players.digests():
        day = due(prefs, now)
        if day is None or not await ctx.storage.players.claim_digest(prefs.user_id, day):
            continue
        with i18n.speaking(prefs.language or i18n.DEFAULT):
            games = await mine.games_of(ctx, prefs.user_id, lambda _guild: None)
            if games.first_waiting is None:
                continue  # nothing waits: no message today
            text = _("📬 Your La Città games waiting on you today (`/citta-my-games` lists them all):")
            text += "\n\n" + mine.listing(games.waiting, [], [])
        row = games.first_waiting
        post = Post(row.channel, None, (DirectMessage(prefs.user_id, text),))
        await ctx.storage.outbox.enqueue(row.id, [post], now)
        sent += 1
    if sent:
        log.info("Stored %d daily digest(s)", sent)
    return sent


async def set_digest(ctx: Context, user_id: int, when: str | None) -> Message:
    """``/citta me digest``: show, set (``18``, ``18:30``, ``7 UTC+1``) or turn off (``off``) the
    user's daily digest; a time that does not read is refused saying what would be right."""
    prefs = (await ctx.storage.players.prefs([user_id]))[user_id]
    if when is not None:
        prefs = _set(prefs, when)
        await ctx.storage.players.set_prefs(prefs)
    at = sent_at(prefs)
    if at is None:
        text = _("You get no daily digest. `/citta me digest 18` sends you one at 18:00, your time.")
    else:
        zone = clock.zone_text(prefs.utc_offset)
        text = _("Your daily digest comes at {time} {zone}, when a game waits on you (`off` ends it).",
                 time=f"{at // 60:02d}:{at % 60:02d}", zone=zone)  # fmt: skip
        if at != prefs.digest_at:
            text += "\n" + _("(At the end of your quiet hours: the time you chose is in them.)")
    return Message(text, ephemeral=True)


def _set(prefs: Prefs, when: str) -> Prefs:
    if when.strip().lower() in ("off", "none", "-"):
        return replace(prefs, digest_at=None)
    found = _TIME.match(when)
    hour, minute = (int(found[1]), int(found[2] or 0)) if found else (24, 0)
    if found is None or hour > 23 or minute > 59:
        raise CittaError(
            _(
                "`{given}` is not a time of day: write it as `18`, `18:30` or `7 UTC+1` (or `off`).",
                given=when[:30],
            )
        )
    try:
        offset = prefs.utc_offset if found[3] is None else clock.parse_offset(found[3])
    except ValueError:
        raise CittaError(_("A UTC offset is between −14 and +14 hours, e.g. `UTC+1`.")) from None
    return replace(prefs, digest_at=hour * 60 + minute, utc_offset=offset)
