"""A server's rank roles (part of the service layer): ``/citta-server rank-role`` and
``/citta-server rank-roles``, and who should hold each role (`holders`); the bot keeps them current
in the clock's tick (`bot.service.rank_sync`).

Decisions:

- **Three rules** an admin maps a Discord role to (one rule per role, at most `MOST_ROLES` roles per
  server): ``champion`` — the champion of the last season that had one (`bot.service.seasons`), who
  keeps it until the next champion is announced (a season without one changes nothing); ``top`` with
  a number N — the members at places 1 to N of the running season's leaderboard (a computer level
  takes a place too, but holds no role; no running season: nobody); ``rating`` with a number X — every
  member whose all-time shown rating (μ − 3σ, `/citta leaderboard`) is at least X. ``off`` unmaps a
  role: the bot takes it back from the members it gave it to.
- **The bot only takes a role it gave.** The (role, member) pairs it gave are stored
  (`bot.storage.ranks_protocol`); a member who held a role already (an admin gave it) is not counted
  as the bot's, so it is never taken from them.
- **The permission is asked for only when the feature is switched on**: mapping a role checks, from
  what the client reads of the server (`RoleFacts`), that the bot has Manage Roles, that the role is
  below the bot's highest role, and that it is neither @everyone nor managed by an integration; each
  refusal says privately what to fix, and nothing is stored. The invite link does not ask for Manage
  Roles (docs/discord-setup.md).
- **When the holders change**: a rule changed, a game of the server finished (its ratings and the
  season's leaderboard changed) or a season was announced; the clock's next tick (within a minute)
  decides and makes the Discord calls (`bot.service.rank_sync`), restart-safe.
"""

from __future__ import annotations

from bot.errors import CittaError, NoGame
from bot.results import Message
from bot.service.context import Context
from bot.service.history import number
from bot.service.role_calls import RoleFacts
from bot.service.seasons import board
from bot.storage.ranks_protocol import RankRule, Rule
from i18n import _, _n

MOST_ROLES = 10
"""The rank roles a server may map (each change is a Discord call per member)."""
MOST_PLACES = 50
"""The most places a ``top`` role may cover."""
RULES = ("champion", "top", "rating", "off")


def mention(role: int) -> str:
    return f"<@&{role}>"


def rule_of(given: str, value: float | None, role: int, guild: int) -> RankRule | None:
    """The rule an admin gave (None: ``off``); what is wrong with it is refused, saying what is right."""
    if given not in RULES:
        raise CittaError(_("A rank role's rule is `champion`, `top`, `rating` or `off`; not `{given}`.",
                           given=given[:30]))  # fmt: skip
    if given in ("champion", "off"):
        if value is not None:
            raise CittaError(_("`{rule}` takes no `value`: leave it out.", rule=given))
        return None if given == "off" else RankRule(guild, role, "champion")
    if value is None:
        raise CittaError(_("`{rule}` needs a `value`: the number of places for `top`, the least "
                           "all-time rating for `rating`.", rule=given))  # fmt: skip
    if given == "top" and (value != int(value) or not 1 <= value <= MOST_PLACES):
        raise CittaError(_("`top` covers places 1 to N of the season: N is a whole number from 1 to "
                           "{most}, not {value}.", most=MOST_PLACES, value=number(value)))  # fmt: skip
    kind: Rule = "top" if given == "top" else "rating"
    return RankRule(guild, role, kind, float(value))


def refusal(facts: RoleFacts) -> str | None:
    """Why the bot cannot give the role (None: it can), and what the admins can do about it."""
    role = mention(facts.role)
    if facts.everyone:
        return _("Every member holds @everyone: choose a role of its own.")
    if facts.managed:
        return _("{role} belongs to an integration (a bot, server boosts or a subscription): Discord "
                 "lets nobody give it. Choose another role.", role=role)  # fmt: skip
    if not facts.manage_roles:
        return _("I need the **Manage Roles** permission to give rank roles: in Server Settings → Roles, "
                 "give it to my role **{bot_role}**, then map the role again.",
                 bot_role=facts.bot_role)  # fmt: skip
    if not facts.below_bot:
        return _("{role} is not below my highest role **{bot_role}**, and Discord lets me give only the "
                 "roles below it: in Server Settings → Roles, drag **{bot_role}** above {role}, then map "
                 "the role again.", role=role, bot_role=facts.bot_role)  # fmt: skip
    return None


def described(rule: RankRule) -> str:
    """Who holds a role of ``rule``, in the language being spoken."""
    if rule.rule == "champion":
        return _("the last season's champion, until the next champion is announced")
    if rule.rule == "top":
        places = int(rule.value)
        return _n("place {count} of the running season", "places 1 to {count} of the running season", places)
    return _("every member with an all-time rating of at least {rating}", rating=number(rule.value))


async def configure(
    ctx: Context, guild: int, facts: RoleFacts, given: str, value: float | None, channel: int, language: str
) -> Message:
    """``/citta-server rank-role``: map the role to a rule, or unmap it (``off``); see the module.
    ``channel`` and ``language`` are where the admins hear if Discord refuses a change later."""
    rule = rule_of(given, value, facts.role, guild)
    if rule is None:
        if not await ctx.storage.ranks.drop_rule(guild, facts.role):
            raise CittaError(_("{role} is no rank role: `/citta-server rank-roles` lists them.",
                               role=mention(facts.role)))  # fmt: skip
        text = _("{role} is no rank role any more: I take it back from the members I gave it to.",
                 role=mention(facts.role))  # fmt: skip
        return Message(text, ephemeral=True)
    why = refusal(facts)
    if why is not None:
        raise CittaError(why)
    rules = await ctx.storage.ranks.rules(guild)
    if facts.role not in {r.role for r in rules} and len(rules) >= MOST_ROLES:
        raise CittaError(_("This server has {count} rank roles, the most it may have: unmap one with "
                           "`rule: off` first.", count=MOST_ROLES))  # fmt: skip
    await ctx.storage.ranks.set_rule(rule, channel, language)
    text = _("🎖️ {role} now goes to {who}. I keep it current within a minute of each finished game and "
             "each season's end.", role=mention(facts.role), who=described(rule))  # fmt: skip
    return Message(text, ephemeral=True)


async def listing(ctx: Context, guild: int) -> Message:
    """``/citta-server rank-roles``: the server's rank roles, how many members the bot gave each, and
    whether Discord refuses its changes."""
    rules = await ctx.storage.ranks.rules(guild)
    if not rules:
        raise NoGame(_("This server has no rank roles: map one with `/citta-server rank-role`."))
    held: dict[int, int] = {}
    for g in await ctx.storage.ranks.grants(guild):
        if g.state == "held":
            held[g.role] = held.get(g.role, 0) + 1
    lines = [_("🎖️ **Rank roles** of this server")]
    for r in rules:
        count = held.get(r.role, 0)
        lines.append(_n("{role}: {who} (I gave it to {count} member)",
                        "{role}: {who} (I gave it to {count} members)",
                        count, role=mention(r.role), who=described(r)))  # fmt: skip
    refused = await ctx.storage.ranks.refused_since(guild)
    if refused is not None:
        lines.append(refused_text(refused))
    return Message("\n".join(lines), ephemeral=True)


def refused_text(at: int) -> str:
    """What the admins read when Discord refused a rank role change (in the language being spoken)."""
    return _("⚠️ Discord refused to change a rank role <t:{at}:R>: I need **Manage Roles**, and every rank "
             "role below my highest role. I try again every hour; `/citta-server rank-roles` lists them.",
             at=at)  # fmt: skip


async def holders(ctx: Context, guild: int, rules: list[RankRule]) -> set[tuple[int, int]]:
    """The (role, member) pairs the server's ``rules`` give now (see the module's decisions)."""
    wanted: set[tuple[int, int]] = set()
    for r in rules:
        if r.rule == "champion":
            past = await ctx.storage.seasons.past(guild)
            keys = [s.champion for s in past if s.champion is not None][:1]
        elif r.rule == "top":
            season = await ctx.storage.seasons.running(guild)
            rows = (
                board(await ctx.storage.seasons.results(guild, season.starts, season.ends)) if season else []
            )
            keys = [s.player for s in rows[: int(r.value)]]
        else:
            keys = [
                s.player for s in await ctx.storage.history.leaderboard(guild) if s.rating.shown >= r.value
            ]
        wanted |= {(r.role, int(k.removeprefix("user:"))) for k in keys if k.startswith("user:")}
    return wanted
