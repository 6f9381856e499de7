"""Per-game settings (`/citta settings`) and a player's own preferences (`/citta me`).

Part of the service layer. The host or a member with Manage Server changes a game's settings;
everyone may read them. Changes are announced in the channel.
"""

from __future__ import annotations

from dataclasses import replace

import i18n
from bot.errors import CittaError, NotAllowed
from bot.results import Message, Outcome
from bot.service import clock, reliability
from bot.service.computer import levels
from bot.service.context import Context
from bot.service.lobby import viewer as lobby_viewer
from bot.service.lookup import game_row, told
from bot.storage.rows import POLICIES, GameSettings, Policy, Prefs, RemindBy
from i18n import N_, _, _n

MAX_DEADLINE_HOURS = 24 * 14
MAX_VACATION_DAYS = 60
POLICY_TEXT = {
    "wait": N_("the table waits"),
    "computer": N_("a computer player ({level}) plays for them until they are back"),
    "skip": N_("the least harmful move is made for them until they are back"),
}


class SettingsError(CittaError):
    """A setting value out of range."""


def describe_settings(s: GameSettings) -> str:
    """The settings in a few lines (in the current language)."""
    deadline = _("{hours} h", hours=s.deadline_hours) if s.deadline_hours else _("off")
    remind = (
        _n(
            "every {hours} h (at most {count} time)",
            "every {hours} h (at most {count} times)",
            clock.MAX_REMINDERS,
            hours=s.remind_hours,
        )
        if s.remind_hours
        else _("off")
    )
    board = _("after every move") if s.board_every == "move" else _("at the end of each round")
    lines = (
        _("Move deadline: {deadline}. Reminders: {reminders}.", deadline=deadline, reminders=remind),
        _("At the deadline: {policy}.", policy=policy_text(s)),
        _n(
            "Board: {board}. Vacation: {count} day per player and year.",
            "Board: {board}. Vacation: {count} days per player and year.",
            s.vacation_days,
            board=board,
        ),
        _("Language of the posts: {language}.", language=language_name(s.language)),
    )
    minimum = reliability.minimum_text(s)
    return "\n".join(lines if minimum is None else (*lines, minimum))


def language_name(code: str | None) -> str:
    """A language by its own name (``Deutsch``)."""
    chosen = i18n.choose(code)
    return i18n.NAMES.get(chosen, chosen)


def policy_text(s: GameSettings) -> str:
    """What happens at the deadline, in the current language."""
    return _(POLICY_TEXT[s.policy], level=_(s.ai_level))


async def settings(
    ctx: Context, user_id: int, *, channel: int, can_manage: bool = False, deadline: int | None = None,
    reminders: int | None = None, policy: str | None = None, level: str | None = None,
    board: str | None = None, vacation: int | None = None, language: str | None = None,
    finished: int | None = None, pace: int | None = None,
) -> Outcome:  # fmt: skip
    """Show the game's settings, or change those given (host or Manage Server). The
    ``language`` is that of the game's channel posts and pictures; ``finished`` (percent) and
    ``pace`` (hours) are the minimum a player who joins must meet (`bot.service.reliability`)."""
    row = await game_row(ctx, channel, None, active=False)
    s = row.settings
    asked = (deadline, reminders, policy, level, board, vacation, language, finished, pace)
    if all(v is None for v in asked):
        text = _("Settings of game {game}:", game=row.id) + "\n" + describe_settings(s)
        return Outcome(Message(text, ephemeral=True))
    if user_id != row.host and not can_manage:
        raise NotAllowed(_("Only the host or a member with Manage Server can change the settings."))
    if row.status not in ("lobby", "active"):
        raise NotAllowed(_("That game is finished; its settings can no longer change."))
    if deadline is not None and not 0 <= deadline <= MAX_DEADLINE_HOURS:
        raise SettingsError(_("The deadline is 0 (off) to {hours} hours.", hours=MAX_DEADLINE_HOURS))
    if reminders is not None and not 0 <= reminders <= MAX_DEADLINE_HOURS:
        raise SettingsError(_("The reminder interval is 0 (off) to {hours} hours.", hours=MAX_DEADLINE_HOURS))
    if policy is not None and policy not in POLICIES:
        raise SettingsError(_("At the deadline: {policies}.", policies=", ".join(POLICIES)))
    if level is not None and level not in levels():
        raise SettingsError(_("The computer levels are {levels}.", levels=", ".join(levels())))
    if board is not None and board not in ("move", "round"):
        raise SettingsError(_("The board is posted after every `move` or at the end of each `round`."))
    if vacation is not None and not 0 <= vacation <= MAX_VACATION_DAYS:
        raise SettingsError(_("The vacation allowance is 0 to {days} days a year.", days=MAX_VACATION_DAYS))
    if language is not None and i18n.supported(language) is None:
        raise SettingsError(_("The languages are {languages}.", languages=_languages()))
    if finished is not None and not 0 <= finished <= 100:
        raise SettingsError(_("The share of games finished to join is 0 (none) to 100 percent."))
    if pace is not None and not 0 <= pace <= MAX_DEADLINE_HOURS:
        raise SettingsError(
            _("The median time to move to join is 0 (none) to {hours} hours.", hours=MAX_DEADLINE_HOURS)
        )
    new = replace(
        s,
        deadline_hours=s.deadline_hours if deadline is None else deadline,
        remind_hours=s.remind_hours if reminders is None else reminders,
        policy=s.policy if policy is None else _policy(policy),
        ai_level=s.ai_level if level is None else level,
        board_every="move" if board == "move" else "round" if board == "round" else s.board_every,
        vacation_days=s.vacation_days if vacation is None else vacation,
        language=s.language if language is None else i18n.choose(language),
        min_finished=s.min_finished if finished is None else finished,
        max_pace_hours=s.max_pace_hours if pace is None else pace,
    )
    if row.status == "lobby":  # a lobby's activity; its message shows the language
        shown = await lobby_viewer(ctx, await ctx.storage.games.seats(row.id))
        await ctx.storage.games.set_settings(row.id, new, now=ctx.now(), view=shown)
    else:
        await ctx.storage.games.set_settings(row.id, new)
    with i18n.speaking(new.language):  # the announcement is public: in the game's (new) language
        text = _("⚙️ <@{user}> changed the settings of game {game}:", user=user_id, game=row.id)
        text += "\n" + describe_settings(new)
    return await told(
        ctx, row, Outcome(Message(_("Settings saved."), ephemeral=True), Message(text), game=row.id)
    )


async def language_of(ctx: Context, user_id: int, client: str | None) -> str:
    """The language of what is private to the user: their own choice (`/citta me language`),
    else their Discord client's (``client``), else English."""
    prefs = (await ctx.storage.players.prefs([user_id]))[user_id]
    return i18n.choose(prefs.language, client)


async def me(
    ctx: Context, user_id: int, *, quiet: str | None = None, remind_by: str | None = None,
    language: str | None = None, client: str | None = None,
) -> Message:  # fmt: skip
    """Show or set the user's quiet hours (``22-08 UTC+1``, ``off``), how to be reminded and
    their own language (a code, or ``auto``: their Discord client's, ``client``). The answer
    is in the language the user reads from now on."""
    prefs = (await ctx.storage.players.prefs([user_id]))[user_id]
    if quiet is not None:
        if quiet.strip().lower() in ("off", "none", "-"):
            prefs = replace(prefs, quiet_start=None, quiet_end=None)  # the time zone stays (the digest's)
        else:
            try:
                start, end, offset = clock.parse_quiet(quiet)
            except clock.QuietHoursError as e:
                raise SettingsError(str(e)) from None
            prefs = replace(prefs, quiet_start=start, quiet_end=end, utc_offset=offset)
    if remind_by is not None:
        if remind_by not in ("mention", "dm"):
            raise SettingsError(_("Reminders come by `mention` in the channel or by `dm`."))
        prefs = replace(prefs, remind_by=_remind_by(remind_by))
    if language is not None:
        if language != "auto" and i18n.supported(language) is None:
            raise SettingsError(
                _("The languages are {languages}, or `auto` (your Discord's).", languages=_languages())
            )
        prefs = replace(prefs, language=None if language == "auto" else i18n.choose(language))
        i18n.read_by(prefs.language or client or i18n.current().code)  # answer in the language chosen
    if quiet is not None or remind_by is not None or language is not None:
        await ctx.storage.players.set_prefs(prefs)
    return Message(_prefs_text(prefs), ephemeral=True)


def _prefs_text(p: Prefs) -> str:
    how = _("a direct message") if p.remind_by == "dm" else _("a mention in the game's channel")
    own = language_name(p.language) if p.language else _("your Discord's")
    return _(
        "Quiet hours (no reminders): {quiet}. Reminders come by {how}. Language: {language}.\n"
        "Change them with `/citta me quiet 22-08 UTC+1` (or `off`), `/citta me reminders` and "
        "`/citta me language`.",
        quiet=clock.quiet_text(p), how=how, language=own,
    )  # fmt: skip


def _languages() -> str:
    return ", ".join(f"`{code}` ({i18n.NAMES[code]})" for code in i18n.LANGUAGES)


def _policy(text: str) -> Policy:
    return next(p for p in POLICIES if p == text)


def _remind_by(text: str) -> RemindBy:
    return "dm" if text == "dm" else "mention"
