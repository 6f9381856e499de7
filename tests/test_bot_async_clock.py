"""Reminders driven by stored clocks: intervals, the cap, stalls, quiet hours, DMs, vacation,
one message for several players, and all of it across restarts (time is injected)."""

from __future__ import annotations

import random

import pytest
from test_bot_support import (
    CHANNEL,
    HOUR,
    MIDNIGHT,
    PLAYERS,
    Table,
    current,
    start_game,
)

from bot.service import absence as svc_absence
from bot.service import moves as svc_moves
from bot.service import settings as svc_settings
from bot.service.absence import VacationError
from bot.service.clock import MAX_REMINDERS, parse_quiet
from bot.service.context import Context
from bot.service.settings import SettingsError


async def _pending_user(svc: Context) -> int:
    return PLAYERS[(await current(svc)).pending_seats()[0]].id


async def test_reminders_come_at_the_interval_at_most_three_times_then_the_table_hears_it_stalled(
    table: Table,
) -> None:
    await start_game(table.svc, 2)
    user = await _pending_user(table.svc)
    assert await table.at(11.9) == []
    [first] = await table.at(12)
    assert first.message is not None and first.message.mentions == (user,)
    assert "Reminder" in first.message.text and f"<@{user}>" in first.message.text
    assert await table.at(12.5) == [], "a reminder is sent once"
    await table.restart()  # the count lives in the database
    assert len(await table.at(24)) == 1
    await table.restart()
    assert len(await table.at(36)) == 1
    [stall] = await table.at(48)
    assert stall.message is not None and "stalled" in stall.message.text
    assert "/citta replace" in stall.message.text and "policy:computer" in stall.message.text
    assert user not in stall.message.mentions and PLAYERS[0].id in stall.message.mentions, "the host is told"
    await table.restart()
    assert await table.at(60) == [] and await table.at(500) == [], "no more after the stall notice"
    clocks = await table.svc.storage.clocks.get()
    assert [c.reminders for c in clocks] == [MAX_REMINDERS]


async def test_a_move_restarts_the_clock_of_the_player_who_moved(table: Table) -> None:
    await start_game(table.svc, 2)
    first = await _pending_user(table.svc)
    await table.at(12)
    table.clock.now = MIDNIGHT + 20 * HOUR
    await svc_moves.play(table.svc, first, "gold", channel=CHANNEL)
    second = await _pending_user(table.svc)
    assert await table.at(31) == []
    [post] = await table.at(32)
    assert post.message is not None and post.message.mentions == (second,)


async def test_no_reminder_in_quiet_hours_it_comes_when_they_end(table: Table) -> None:
    table.clock.now = MIDNIGHT + 9 * HOUR  # 09:00 UTC
    await start_game(table.svc, 2)
    user = await _pending_user(table.svc)
    shown = await svc_settings.me(table.svc, user, quiet="22-08 UTC+1")  # 21:00-07:00 UTC
    assert "22:00-08:00 UTC+1" in shown.text and shown.ephemeral
    await table.restart()
    assert await table.at(21) == []  # due at 21:00 UTC: quiet
    assert await table.at(30.9) == []  # 06:54 UTC next day: still quiet
    [post] = await table.at(31)  # 07:00 UTC
    assert post.message is not None and post.message.mentions == (user,)


def test_quiet_hours_are_read_with_minutes_and_offsets_and_nonsense_is_refused() -> None:
    assert parse_quiet("23:30-07:00 UTC-5") == (23 * 60 + 30, 7 * 60, -300)
    assert parse_quiet("22-8") == (22 * 60, 8 * 60, 0)
    for bad in ("tonight", "22-22", "25-08", "22-08 UTC+20"):
        with pytest.raises(ValueError):
            parse_quiet(bad)


async def test_bad_quiet_hours_are_refused_with_an_example(table: Table) -> None:
    with pytest.raises(SettingsError, match="22-08 UTC"):
        await svc_settings.me(table.svc, PLAYERS[0].id, quiet="at night")
    assert "none" in (await svc_settings.me(table.svc, PLAYERS[0].id, quiet="off")).text


async def test_a_player_who_prefers_dms_is_reminded_by_dm_and_mentioned_only_if_it_fails(
    table: Table,
) -> None:
    await start_game(table.svc, 2)
    user = await _pending_user(table.svc)
    await svc_settings.me(table.svc, user, remind_by="dm")
    [post] = await table.at(12)
    assert post.message is None and [dm.user_id for dm in post.direct] == [user]
    assert "waits for you" in post.direct[0].text
    assert post.message_for(set()) is None
    fallback = post.message_for({user})
    assert fallback is not None and fallback.mentions == (user,) and "direct message" in fallback.text


async def test_several_waiting_players_are_reminded_in_one_message(table: Table) -> None:
    await start_game(table.svc, 5, "experienced")
    rnd = random.Random(11)
    while len((game := await current(table.svc)).pending_seats()) < 2:
        seat = game.pending_seats()[0]
        move = str(rnd.choice(game.legal_moves(seat)))
        await svc_moves.play(table.svc, PLAYERS[seat].id, move, channel=CHANNEL, confirmed=True)
    waiting = [PLAYERS[s].id for s in game.pending_seats()]
    posts = await table.at(12)
    assert len(posts) == 1 and posts[0].message is not None
    assert posts[0].message.mentions == tuple(waiting)
    assert posts[0].message.text.count("<@") == len(waiting)


async def test_vacation_pauses_reminders_and_the_deadline_within_the_yearly_allowance(table: Table) -> None:
    await start_game(table.svc, 2)
    user = await _pending_user(table.svc)
    owner = await svc_settings.settings(table.svc, PLAYERS[0].id, channel=CHANNEL, policy="skip")
    assert owner.announcement is not None and "least harmful" in owner.announcement.text
    table.clock.now = MIDNIGHT + HOUR
    away = await svc_absence.vacation(table.svc, user, channel=CHANNEL, days=3)
    assert away.announcement is not None and "vacation" in away.announcement.text
    assert "11 of 14 days" in away.announcement.text
    with pytest.raises(VacationError, match="11 of 14"):
        await svc_absence.vacation(table.svc, user, channel=CHANNEL, days=12)
    await table.restart()
    for hours in (12, 24, 48, 72):
        assert await table.at(hours) == [], f"nothing while on vacation ({hours} h)"
    [reminder] = await table.at(84)  # 72 h paused + 12 h
    assert reminder.message is not None and user in reminder.message.mentions
    assert await table.at(95) == []
    [skipped] = await table.at(96)  # 72 h paused + the 24 h deadline
    assert skipped.outcome is not None and skipped.outcome.announcement is not None
    assert "Time is up" in skipped.outcome.announcement.text


async def test_ending_a_vacation_early_gives_back_the_unused_days_and_restarts_the_clock(
    table: Table,
) -> None:
    await start_game(table.svc, 2)
    user = await _pending_user(table.svc)
    await svc_absence.vacation(table.svc, user, channel=CHANNEL, days=10)
    table.clock.now = MIDNIGHT + 24 * HOUR
    back = await svc_absence.vacation(table.svc, user, channel=CHANNEL, days=0)
    assert "9 days returned" in back.reply.text
    with pytest.raises(VacationError, match="not on vacation"):
        await svc_absence.vacation(table.svc, user, channel=CHANNEL, days=0)
    [post] = await table.at(36)  # the clock counts the day before the vacation ended
    assert post.message is not None and user in post.message.mentions
    await svc_absence.vacation(table.svc, user, channel=CHANNEL, days=13)  # 1 + 13 = the allowance of 14
