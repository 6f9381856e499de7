"""A server's history (part of the service layer): ``/citta leaderboard``, ``stats``, ``games``,
``replay`` and ``me forget``. Every answer is private; only finished games appear (see
`bot.service.history`), so a history never shows what a running game hides.
"""

from __future__ import annotations

from collections import Counter

from bot.errors import NoGame, NotAllowed
from bot.results import Message, Post, User
from bot.service.history import favourite, number, signed
from bot.service.reminders import TickMixin
from bot.service.summary import count
from bot.storage.history import Finished
from bot.storage.rows import FORMER

TOP = 10
GAMES_LISTED = 10
TREND = 5
YEARS = 6
LIMIT = 1990


def game_link(guild: int, game: Finished) -> str:
    """A link to the final post of a game (or a note that it is not posted yet)."""
    if game.message_id is None or not guild:
        return "final post not sent yet"
    return f"[final post](https://discord.com/channels/{guild}/{game.channel}/{game.message_id})"


def _fit(lines: list[str]) -> str:
    """The lines that fit in one message (the first, a heading, always)."""
    text = lines[0]
    for line in lines[1:]:
        if len(text) + 1 + len(line) > LIMIT:
            break
        text += "\n" + line
    return text


class ArchiveMixin(TickMixin):
    """The history commands; the clock also posts the replays that a stop interrupted."""

    async def tick(self) -> list[Post]:
        posts = await super().tick()
        for game_id in await self.storage.unreplayed():
            await self.post_replay(game_id)
        return posts

    async def leaderboard(self, guild: int, user_id: int) -> Message:
        """The server's ten best rated players (computer levels included) and the asker's place."""
        board = await self.storage.leaderboard(guild)
        if not board:
            raise NoGame("No game has finished on this server yet: there is no leaderboard.")
        lines = ["🏆 **Leaderboard** of this server (rating: OpenSkill μ − 3σ)"]
        me = f"user:{user_id}"
        for k, s in enumerate(board[:TOP], start=1):
            you = " ← you" if s.player == me else ""
            played = count(s.games, "game")
            lines.append(f"{k}. **{s.name}** {number(s.rating.shown)} ({played}){you}")
        place = next((k for k, s in enumerate(board, start=1) if s.player == me), None)
        if place is None:
            lines.append("You have no rated game on this server yet.")
        elif place > TOP:
            mine = board[place - 1]
            lines.append(f"…\n{place}. **{mine.name}** {number(mine.rating.shown)} ← you")
        return Message(_fit(lines), ephemeral=True)

    async def stats(self, guild: int, user: User) -> Message:
        """A player's record on this server: games, wins, scores, rating and trend, hunger, buildings."""
        results = await self.storage.results_of(guild, f"user:{user.id}")
        if not results:
            raise NoGame(f"{user.name} has no finished game on this server yet.")
        places = [r.place for r in results]
        n, wins = len(places), sum(p.rank == 1 for p in places)
        scores = [p.score for p in places]
        last = places[-1]
        trend = ", ".join(signed(p.change) for p in places[-TREND:])
        hungry = sum(p.hungry_years for p in places)
        built: Counter[str] = Counter()
        for p in places:
            built.update(p.built)
        fav = favourite(built)
        lines = [
            f"📊 **{last.name}** on this server: {count(n, 'game')}, {count(wins, 'win')} "
            f"({wins / n:.0%}); average score {sum(scores) / n:.1f}, best {max(scores)}.",
            f"Rating {number(last.after.shown)} (μ {number(last.after.mu)} ± {last.after.sigma:.1f}); "
            f"the last {count(min(n, TREND), 'game')}: {trend}.",
            f"Hunger: {hungry} of {n * YEARS} years ({hungry / (n * YEARS):.0%}). "
            + (f"Favourite building: {fav} ({built[fav]} built)." if fav else "No building built yet."),
        ]
        return Message("\n".join(lines), ephemeral=True)

    async def games(self, guild: int) -> Message:
        """The server's finished games, newest first: date, players and scores, the final post."""
        finished = await self.storage.finished_games(guild, GAMES_LISTED)
        if not finished:
            raise NoGame("No game has finished on this server yet.")
        lines = ["📜 **Finished games** of this server, newest first"]
        for g in finished:
            who = ", ".join(f"{p.name} {p.score}" for p in sorted(g.places, key=lambda p: (p.rank, p.seat)))
            lines.append(f"**Game {g.game}** <t:{g.ended_at}:d> — {who} — {game_link(guild, g)}")
        return Message(_fit(lines), ephemeral=True)

    async def replay(self, guild: int, channel: int, game_id: int | None = None) -> Message:
        """A finished game's animation (default: this channel's latest game), privately."""
        row = await (self.storage.game(game_id) if game_id is not None else self.storage.latest_game(channel))
        if row is None or (row.guild or 0) != guild:
            raise NoGame("There is no such game on this server." if game_id else "No game was played here.")
        if row.status in ("lobby", "active"):
            raise NotAllowed(f"Game {row.id} is still running: its replay is shown once it has ended.")
        if row.status != "over" or row.record is None:
            raise NoGame(f"Game {row.id} was abandoned before its end: there is no replay of it.")
        if self.renderer is None:
            raise NoGame("This bot draws no pictures.")
        return await self.replay_message(row, ephemeral=True)

    async def forget(self, guild: int, user_id: int) -> Message:
        """Take the user's name out of this server's finished games and delete their rating."""
        had_rating = bool(await self.storage.ratings(guild, [f"user:{user_id}"]))
        games = await self.storage.forget(guild, user_id)
        if not games and not had_rating:
            raise NoGame("This server's history has nothing of yours to forget.")
        return Message(
            f"Done: in the {count(games, 'finished game')} you played on this server you are now "
            f"“{FORMER}”, and your rating is deleted. Games you play from now on are recorded again.",
            ephemeral=True,
        )
