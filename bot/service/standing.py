"""Standing answers, the use case (part of the service layer): ``/citta me ahead`` shows and sets a
player's answers ahead, and `standing` finds, for a position, the players it answers for at once
(`bot.service.advance` plays them; `bot.service.commit` does not ping them). What an answer is and
what it plays: `bot.service.ahead`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.errors import CittaError
from bot.results import Message
from bot.service.ahead import COMPUTER, KIND_NAMES, KINDS, covered, services_order
from bot.service.context import Context
from bot.storage.rows import SeatRow
from engine import Game
from i18n import _


async def standing(ctx: Context, game: Game, seats: Sequence[SeatRow]) -> dict[int, dict[str, str]]:
    """The standing answers that cover all that players (seats they play themselves) are asked now,
    by seat; their preferences are read only when one is asked something outside their turn."""
    pending = set(game.pending_seats())
    asked = [
        s for s in seats
        if s.seat in pending and not s.played_by_bot
        and any(d.kind in KINDS for d in game.pending_decisions(s.seat))
    ]  # fmt: skip
    if not asked:
        return {}
    prefs = await ctx.storage.players.prefs([s.user_id for s in asked])
    return {s.seat: prefs[s.user_id].ahead for s in asked if covered(game, s.seat, prefs[s.user_id].ahead)}


OFF = "off"
"""The answer that turns a standing answer off: the player is asked again."""


async def set_ahead(ctx: Context, user_id: int, kind: str | None = None, given: str | None = None) -> Message:
    """``/citta me ahead``: show the user's standing answers, or set (``off``: drop) the one for
    ``kind``; a bad answer is refused saying what would be right, and changes nothing."""
    prefs = (await ctx.storage.players.prefs([user_id]))[user_id]
    if kind is not None and given is not None:
        if kind not in KINDS:
            raise CittaError(_("Answers ahead are for `prefer`, `first`, `starve` and `demolish`."))
        rule = _rule(kind, given)
        ahead = {k: v for k, v in prefs.ahead.items() if k != kind} | ({} if rule == OFF else {kind: rule})
        prefs = replace(prefs, ahead=ahead)
        await ctx.storage.players.set_prefs(prefs)
    lines = [_("Your answers ahead, applied the moment you are asked (in every game):")]
    for k in KINDS:
        standing = prefs.ahead.get(k)
        if standing is None:
            said = _("you are asked")
        elif standing == COMPUTER:
            said = _("the strong computer decides for you, from what you can see")
        else:
            said = " › ".join(_(s) for s in standing.split())
        lines.append(f"• `{k}` ({_(KIND_NAMES[k])}): {said}")
    lines.append(
        _("Set one with `/citta me ahead`: `computer`, `off`, or for `prefer` your order of services.")
    )
    return Message("\n".join(lines), ephemeral=True)


def _rule(kind: str, given: str) -> str:
    """The standing answer ``given`` for ``kind``, as stored; raises saying what would be right."""
    text = given.strip().lower()
    if text in (COMPUTER, OFF):
        return text
    order = services_order(text) if kind == "prefer" else None
    if order:
        return " ".join(order)
    if kind == "prefer":
        raise CittaError(
            _("`{given}` is not an answer for `prefer`: write `computer`, `off`, or the services in your "
              "order, e.g. `health education culture`.", given=given[:40])
        )  # fmt: skip
    raise CittaError(
        _("`{given}` is not an answer for `{kind}`: write `computer` or `off`.", given=given[:40], kind=kind)
    )
