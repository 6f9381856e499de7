"""A server's history (part of the service layer): ``/citta leaderboard``, ``stats``, ``games``,
``replay`` and ``me forget``. Every answer is private; only finished games appear (see
`bot.service.history`), so a history never shows what a running game hides; a game is shown only
to a member who can view its channel, and to its players (`bot.service.visible`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable

from bot.errors import NoGame, NotAllowed
from bot.ids import custom_id, review_game_id
from bot.results import Button, Message, Option, Select, User
from bot.service import reliability, seasons, tournaments
from bot.service.context import Context
from bot.service.ending import replay_message
from bot.service.history import favourite, number, signed
from bot.service.lobby import clean_name
from bot.service.reliability import Figures
from bot.service.visible import Viewer, sees
from bot.storage.rows import FORMER, Finished
from i18n import N_, _, _n, decimal, percent

TOP = 10
GAMES_LISTED = 10
REVIEWS_OFFERED = 25
"""The most games the menu of reviews offers (Discord's limit of a menu's options)."""
PAGE = 50
"""How many finished games `games` reads at a time while it looks for those the asker is shown."""
TREND = 5
YEARS = 6
LIMIT = 1990
N_("a former player")  # `FORMER`, the name a forgotten player is shown by (`shown`)


def shown(name: str, player: str = "") -> str:
    """A stored player name as the reader sees it: a computer player's (``player`` is the
    rating key ``computer:<level>``) and a forgotten player's in the reader's language."""
    if player.startswith("computer:"):
        return _("Computer ({level})", level=_(player.removeprefix("computer:")))
    return _(FORMER) if name == FORMER else name


def game_link(guild: int, game: Finished) -> str:
    """A link to the final post of a game (or a note that it is not posted yet)."""
    if game.message_id is None or not guild:
        return _("final post not sent yet")
    url = f"https://discord.com/channels/{guild}/{game.channel}/{game.message_id}"
    return _("[final post]({url})", url=url)


def _fit(lines: list[str]) -> str:
    """The lines that fit in one message (the first, a heading, always)."""
    text = lines[0]
    for line in lines[1:]:
        if len(text) + 1 + len(line) > LIMIT:
            break
        text += "\n" + line
    return text


async def leaderboard(ctx: Context, guild: int, user_id: int) -> Message:
    """The server's ten best rated players (computer levels included) and the asker's place."""
    board = await ctx.storage.history.leaderboard(guild)
    if not board:
        raise NoGame(_("No game has finished on this server yet: there is no leaderboard."))
    lines = [_("🏆 **Leaderboard** of this server (rating: OpenSkill μ − 3σ)")]
    me = f"user:{user_id}"
    for k, s in enumerate(board[:TOP], start=1):
        values = {"place": k, "name": shown(s.name, s.player), "rating": number(s.rating.shown)}
        if s.player == me:
            line = _n(
                "{place}. **{name}** {rating} ({count} game) ← you",
                "{place}. **{name}** {rating} ({count} games) ← you",
                s.games,
                **values,
            )
        else:
            line = _n(
                "{place}. **{name}** {rating} ({count} game)",
                "{place}. **{name}** {rating} ({count} games)",
                s.games,
                **values,
            )
        lines.append(line)
    place = next((k for k, s in enumerate(board, start=1) if s.player == me), None)
    if place is None:
        lines.append(_("You have no rated game on this server yet."))
    elif place > TOP:
        mine = board[place - 1]
        you = _(
            "{place}. **{name}** {rating} ← you",
            place=place,
            name=shown(mine.name, mine.player),
            rating=number(mine.rating.shown),
        )
        lines.append(f"…\n{you}")
    return Message(_fit(lines), ephemeral=True)


async def stats(ctx: Context, guild: int, user: User) -> Message:
    """A player's record on this server: games, wins, scores, rating and trend, hunger, buildings; and
    their reliability and pace over the last 90 days, here and in all servers (`bot.service.reliability`)."""
    results = await ctx.storage.history.results_of(guild, f"user:{user.id}")
    here, everywhere = (await reliability.figures(ctx, [user.id], guild)).get(user.id, (Figures(), Figures()))
    pace = [
        _("⏱ Last 90 days on this server: {figures}", figures=reliability.long(here)),
        _("⏱ Last 90 days in all servers: {figures}", figures=reliability.long(everywhere)),
    ]
    if not results:
        if here.empty:  # their figures elsewhere are not this server's business alone
            raise NoGame(_("{name} has no finished game on this server yet.", name=clean_name(user.name)))
        head = _("📊 **{name}** has no finished game on this server yet.", name=clean_name(user.name))
        return Message("\n".join([head, *pace]), ephemeral=True)
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
    games, won = _n("{count} game", "{count} games", n), _n("{count} win", "{count} wins", wins)
    share, average = percent(wins / n), decimal(sum(scores) / n)
    lines = [
        _("📊 **{name}** on this server: {games}, {wins} ({share}); average score {average}, "
          "best {best}.", name=shown(last.name, last.player), games=games, wins=won,
          share=share, average=average, best=max(scores)),
        _n("Rating {rating} (μ {mu} ± {sigma}); the last {count} game: {trend}.",
           "Rating {rating} (μ {mu} ± {sigma}); the last {count} games: {trend}.", min(n, TREND),
           rating=number(last.after.shown), mu=number(last.after.mu), sigma=decimal(last.after.sigma),
           trend=trend),
        _n("Hunger: {hungry} of {count} year ({share}).", "Hunger: {hungry} of {count} years ({share}).",
           n * YEARS, hungry=hungry, share=percent(hungry / (n * YEARS)))
        + " "
        + (_("Favourite building: {building} ({count} built).", building=_(fav), count=built[fav]) if fav
           else _("No building built yet.")),
    ]  # fmt: skip
    titles = await seasons.titles(ctx, guild, user.id)
    cups = await tournaments.results_line(ctx, guild, user.id)
    return Message("\n".join([*lines, *(t for t in (titles, cups) if t), *pace]), ephemeral=True)


async def shown_games(ctx: Context, guild: int, viewer: Viewer) -> list[Finished]:
    """The newest `GAMES_LISTED` finished games of the server that ``viewer`` is shown, newest first
    (the others are skipped, and older ones take their places)."""

    async def shown_to(g: Finished) -> bool:
        return await sees(viewer, g.channel, (p.user_id for p in g.places))

    return await finished_where(ctx, guild, shown_to, GAMES_LISTED)


async def finished_where(
    ctx: Context, guild: int, keep: Callable[[Finished], Awaitable[bool]], limit: int
) -> list[Finished]:
    """The newest ``limit`` finished games of the server that ``keep`` keeps, newest first, read
    `PAGE` at a time."""
    found: list[Finished] = []
    before: int | None = None
    while True:
        page = await ctx.storage.history.finished_games(guild, PAGE, before)
        for g in page:
            if await keep(g):
                found.append(g)
                if len(found) == limit:
                    return found
        if len(page) < PAGE:
            return found
        before = page[-1].game


async def games(ctx: Context, guild: int, viewer: Viewer) -> Message:
    """The server's finished games that ``viewer`` is shown, newest first: date, players and scores,
    the final post. Hidden games are left out as if they did not exist."""
    finished = await shown_games(ctx, guild, viewer)
    if not finished:
        raise NoGame(_("No game has finished on this server yet."))
    lines = [_("📜 **Finished games** of this server, newest first")]
    for g in finished:
        who = ", ".join(
            f"{shown(p.name, p.player)} {p.score}" for p in sorted(g.places, key=lambda p: (p.rank, p.seat))
        )
        line = _(
            "**Game {game}** <t:{ended}:d> — {players} — {link}",
            game=g.game,
            ended=g.ended_at,
            players=who,
            link=game_link(guild, g),
        )
        lines.append(line)
    options = tuple(
        Option(_("Game {game}", game=g.game), str(g.game),
               ", ".join(shown(p.name, p.player) for p in g.places)[:100])
        for g in finished[:REVIEWS_OFFERED]
    )  # fmt: skip
    pick = Select(review_game_id(), _("🔎 Review a game…"), options)
    return Message(_fit(lines), ephemeral=True, selects=(pick,))


async def replay(
    ctx: Context, guild: int, channel: int, viewer: Viewer, game_id: int | None = None
) -> Message:
    """A finished game's animation (default: this channel's latest game), privately. A game that
    ``viewer`` is not shown gets the answer of a game that does not exist, whatever its state (a
    running game's "still running" would tell that it exists). At most a few in a short while for
    each member (`bot.service.limits`: each is a large upload)."""
    row = await (
        ctx.storage.games.game(game_id) if game_id is not None else ctx.storage.games.latest_game(channel)
    )
    players = [s.user_id for s in await ctx.storage.games.seats(row.id)] if row is not None else []
    if row is None or (row.guild or 0) != guild or not await sees(viewer, row.channel, players):
        raise NoGame(_("There is no such game on this server.") if game_id else _("No game was played here."))
    if row.status in ("lobby", "active"):
        raise NotAllowed(
            _("Game {game} is still running: its replay is shown once it has ended.", game=row.id)
        )
    if row.status != "over" or row.record is None:
        raise NoGame(_("Game {game} was abandoned before its end: there is no replay of it.", game=row.id))
    if ctx.renderer is None:
        raise NoGame(_("This bot draws no pictures."))
    ctx.limits.take(viewer.user_id, "replay", now=ctx.clock())
    return await replay_message(ctx, row, ephemeral=True)


async def forget_prompt(ctx: Context, guild: int, user_id: int) -> Message:
    """The private confirmation (with its button) for `forget`, which cannot be undone."""
    games = await ctx.storage.history.games_to_forget(guild, user_id)
    if not games and not await ctx.storage.history.ratings(guild, [f"user:{user_id}"]):
        raise NoGame(_("This server's history has nothing of yours to forget."))
    button = Button(_("Forget me"), custom_id(0, 0, None, "forget"), "danger")
    text = _n(
        "Take your name out of the {count} finished game you played on this server (you become "
        "“{former}”) and delete your rating? This cannot be undone.",
        "Take your name out of the {count} finished games you played on this server (you become "
        "“{former}”) and delete your rating? This cannot be undone.",
        games, former=_(FORMER),
    )  # fmt: skip
    return Message(text, ephemeral=True, buttons=(button,))


async def forget(ctx: Context, guild: int, user_id: int) -> Message:
    """Take the user's name out of this server's finished games and delete their rating."""
    had_rating = bool(await ctx.storage.history.ratings(guild, [f"user:{user_id}"]))
    games = await ctx.storage.history.forget(guild, user_id)
    if not games and not had_rating:
        raise NoGame(_("This server's history has nothing of yours to forget."))
    text = _n(
        "Done: in the {count} finished game you played on this server you are now “{former}”, and "
        "your rating is deleted. Games you play from now on are recorded again.",
        "Done: in the {count} finished games you played on this server you are now “{former}”, and "
        "your rating is deleted. Games you play from now on are recorded again.",
        games, former=_(FORMER),
    )  # fmt: skip
    return Message(text, ephemeral=True)
