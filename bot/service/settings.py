"""Per-game settings (`/citta settings`) and a player's own preferences (`/citta me`).

Part of the service layer. The host or a member with Manage Server changes a game's settings;
everyone may read them. Changes are announced in the channel.
"""

from __future__ import annotations

from dataclasses import replace

from bot.errors import CittaError, NotAllowed
from bot.results import Message, Outcome
from bot.service import clock
from bot.service.base import ServiceBase
from bot.service.computer import levels
from bot.storage.rows import POLICIES, GameSettings, Policy, Prefs, RemindBy

MAX_DEADLINE_HOURS = 24 * 14
MAX_VACATION_DAYS = 60
POLICY_TEXT = {
    "wait": "the table waits",
    "computer": "a computer player ({level}) plays for them until they are back",
    "skip": "the least harmful move is made for them until they are back",
}


class SettingsError(CittaError):
    """A setting value out of range."""


def describe_settings(s: GameSettings) -> str:
    """The settings in a few lines."""
    deadline = f"{s.deadline_hours} h" if s.deadline_hours else "off"
    remind = f"every {s.remind_hours} h (at most {clock.MAX_REMINDERS} times)" if s.remind_hours else "off"
    board = "after every move" if s.board_every == "move" else "at the end of each round"
    return (
        f"Move deadline: {deadline}. Reminders: {remind}.\n"
        f"At the deadline: {policy_text(s)}.\n"
        f"Board: {board}. Vacation: {s.vacation_days} days per player and year."
    )


def policy_text(s: GameSettings) -> str:
    return POLICY_TEXT[s.policy].format(level=s.ai_level)


class SettingsMixin(ServiceBase):
    """`/citta settings` and `/citta me`."""

    async def settings(
        self, user_id: int, *, channel: int, can_manage: bool = False, deadline: int | None = None,
        reminders: int | None = None, policy: str | None = None, level: str | None = None,
        board: str | None = None, vacation: int | None = None,
    ) -> Outcome:  # fmt: skip
        """Show the game's settings, or change those given (host or Manage Server)."""
        row = await self._game_row(channel, None, active=False)
        s = row.settings
        asked = (deadline, reminders, policy, level, board, vacation)
        if all(v is None for v in asked):
            return Outcome(Message(f"Settings of game {row.id}:\n{describe_settings(s)}", ephemeral=True))
        if user_id != row.host and not can_manage:
            raise NotAllowed("Only the host or a member with Manage Server can change the settings.")
        if row.status not in ("lobby", "active"):
            raise NotAllowed("That game is finished; its settings can no longer change.")
        if deadline is not None and not 0 <= deadline <= MAX_DEADLINE_HOURS:
            raise SettingsError(f"The deadline is 0 (off) to {MAX_DEADLINE_HOURS} hours.")
        if reminders is not None and not 0 <= reminders <= MAX_DEADLINE_HOURS:
            raise SettingsError(f"The reminder interval is 0 (off) to {MAX_DEADLINE_HOURS} hours.")
        if policy is not None and policy not in POLICIES:
            raise SettingsError(f"At the deadline: {', '.join(POLICIES)}.")
        if level is not None and level not in levels():
            raise SettingsError(f"The computer levels are {', '.join(levels())}.")
        if board is not None and board not in ("move", "round"):
            raise SettingsError("The board is posted after every `move` or at the end of each `round`.")
        if vacation is not None and not 0 <= vacation <= MAX_VACATION_DAYS:
            raise SettingsError(f"The vacation allowance is 0 to {MAX_VACATION_DAYS} days a year.")
        new = replace(
            s,
            deadline_hours=s.deadline_hours if deadline is None else deadline,
            remind_hours=s.remind_hours if reminders is None else reminders,
            policy=s.policy if policy is None else _policy(policy),
            ai_level=s.ai_level if level is None else level,
            board_every="move" if board == "move" else "round" if board == "round" else s.board_every,
            vacation_days=s.vacation_days if vacation is None else vacation,
        )
        await self.storage.set_settings(row.id, new)
        text = f"⚙️ <@{user_id}> changed the settings of game {row.id}:\n{describe_settings(new)}"
        return await self._told(
            row, Outcome(Message("Settings saved.", ephemeral=True), Message(text), game=row.id)
        )

    async def me(self, user_id: int, *, quiet: str | None = None, remind_by: str | None = None) -> Message:
        """Show or set the user's quiet hours (``22-08 UTC+1``, ``off``) and how to be reminded."""
        prefs = (await self.storage.prefs([user_id]))[user_id]
        if quiet is not None:
            if quiet.strip().lower() in ("off", "none", "-"):
                prefs = replace(prefs, quiet_start=None, quiet_end=None, utc_offset=0)
            else:
                try:
                    start, end, offset = clock.parse_quiet(quiet)
                except clock.QuietHoursError as e:
                    raise SettingsError(str(e)) from None
                prefs = replace(prefs, quiet_start=start, quiet_end=end, utc_offset=offset)
        if remind_by is not None:
            if remind_by not in ("mention", "dm"):
                raise SettingsError("Reminders come by `mention` in the channel or by `dm`.")
            prefs = replace(prefs, remind_by=_remind_by(remind_by))
        if quiet is not None or remind_by is not None:
            await self.storage.set_prefs(prefs)
        return Message(_prefs_text(prefs), ephemeral=True)


def _prefs_text(p: Prefs) -> str:
    how = "a direct message" if p.remind_by == "dm" else "a mention in the game's channel"
    return (
        f"Quiet hours (no reminders): {clock.quiet_text(p)}. Reminders come by {how}.\n"
        "Change them with `/citta me quiet 22-08 UTC+1` (or `off`) and `/citta me reminders`."
    )


def _policy(text: str) -> Policy:
    return next(p for p in POLICIES if p == text)


def _remind_by(text: str) -> RemindBy:
    return "dm" if text == "dm" else "mention"
