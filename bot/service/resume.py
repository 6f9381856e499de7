"""A paused game going on (part of the service layer).

A game whose channel cannot be posted in for good (a deleted channel, a locked thread) is
paused when its post is refused: its posts are held, its clocks stop counting (no reminder,
no deadline, no computer move). When a moderator unlocks the thread, the bot hears it
(`resume_channel`): the held posts go out in their order, the table is told the game goes
on, and the seats it waits for get their full time again from that moment.
"""

from __future__ import annotations

import i18n
from bot.results import Message, Outcome
from bot.service import clock
from bot.service.base import ServiceBase, log
from i18n import _


class ResumeMixin(ServiceBase):
    """Resuming the paused games of a channel that can be posted in again."""

    async def resume_channel(self, channel: int) -> list[Outcome]:
        """The channel can be posted in again: each of its paused games goes on (none: nothing
        was paused there). An outcome per game, its note to the table stored for delivery."""
        now = self.now()
        resumed = await self.storage.release_channel(channel, now)
        outcomes = []
        for game_id in resumed:
            row = await self.storage.game(game_id)
            if row is None:
                continue
            if row.status == "active":
                seats = {s.seat: s for s in await self.storage.seats(game_id)}
                waiting = await self.storage.clocks(game_id)
                fresh = [clock.fresh(game_id, seats[c.seat], now) for c in waiting]
                await self.storage.reset_clocks(game_id, fresh)
            log.info("game %s: its channel can be posted in again; the game goes on", game_id)
            with i18n.speaking(row.settings.language):  # told in the channel
                note = Message(_("▶️ The game goes on: I can post in this channel again."))
            outcomes.append(await self._told(row, Outcome(Message(""), note, game=game_id)))
        return outcomes
