"""The languages players choose: a game's (its channel posts), with `/citta new language`, the
server's locale or `/citta settings language`; a player's own (their private replies and DMs),
with `/citta me language` (``auto``: their Discord client's). Through the service, on each
storage backend."""

from __future__ import annotations

import pytest
from test_bot_support import CHANNEL, GUILD, MIDNIGHT, PLAYERS, Table, current

import i18n
from bot.client.commands.base import game_language
from bot.errors import LobbyError
from bot.service import absence as svc_absence
from bot.service import lobby as svc_lobby
from bot.service import settings as svc_settings
from bot.service.context import Context
from bot.service.settings import SettingsError

ANN, BOB = PLAYERS[:2]


async def _lobby(svc: Context, language: str | None = None) -> int:
    await svc_lobby.new_game(svc, ANN, channel=CHANNEL, guild=GUILD, language=language)
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    return row.id


async def _started(svc: Context, language: str | None = None) -> int:
    game = await _lobby(svc, language)
    await svc_lobby.join(svc, game, BOB)
    await svc_lobby.start(svc, game, ANN)
    return game


async def _language(svc: Context) -> str:
    row = await svc.storage.games.latest_game(CHANNEL)
    assert row is not None
    return row.settings.language


async def test_a_game_opened_without_a_language_speaks_english(svc: Context) -> None:
    lobby = await svc_lobby.new_game(svc, ANN, channel=CHANNEL, guild=GUILD, language=None)
    assert await _language(svc) == "en"
    assert lobby.text.startswith("**La Città** — new game (beginner setup, 2–5 players). Press **Join**")
    assert [b.label for b in lobby.buttons] == ["Join", "Leave", "Start"]


async def test_a_server_with_a_german_locale_opens_german_games_whoever_reads_them(svc: Context) -> None:
    assert game_language(None, "de", "en-US") == "de"
    assert game_language("nl", "de", "en-US") == "nl", "the option chosen comes first"
    assert game_language(None, "ja", "fr") == "fr", "a server language we lack: the opener's"
    lobby = await svc_lobby.new_game(
        svc, ANN, channel=CHANNEL, guild=GUILD, language=game_language(None, "de", "en-US")
    )
    assert await _language(svc) == "de"
    assert lobby.text.startswith(
        "**La Città** — neue Partie (Aufbau für Einsteiger, 2–5 Spieler). Drücken Sie **Beitreten**, "
        "um mitzuspielen; der Gastgeber drückt **Starten**"
    )
    assert [b.label for b in lobby.buttons] == ["Beitreten", "Verlassen", "Starten"]
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    with i18n.speaking("en"):  # an English reader's press edits the public lobby: still German
        joined = await svc_lobby.join(svc, row.id, BOB)
    assert f"1. <@{ANN.id}> (Gastgeber)\n2. <@{BOB.id}>" in joined.reply.text
    with i18n.speaking("en"):
        started = await svc_lobby.start(svc, row.id, ANN)
    assert started.announcement is not None
    assert started.announcement.text.startswith(
        "Die Partie 1 von **La Città** beginnt (Aufbau für Einsteiger)"
    )
    assert "— begonnen." in started.reply.text


async def test_the_host_choosing_french_makes_the_games_posts_french_while_replies_stay_the_readers(
    svc: Context,
) -> None:
    game = await _started(svc)
    with i18n.speaking("en"):
        changed = await svc_settings.settings(svc, ANN.id, channel=CHANNEL, language="fr")
    assert changed.reply.text == "Settings saved." and changed.reply.ephemeral
    assert changed.announcement is not None
    assert changed.announcement.text.startswith(f"⚙️ <@{ANN.id}> a changé les réglages de la partie {game} :")
    assert "Langue des messages : Français." in changed.announcement.text
    assert await _language(svc) == "fr"
    with i18n.speaking("nl"):  # reading the settings is private: the reader's language
        shown = await svc_settings.settings(svc, BOB.id, channel=CHANNEL)
    assert (
        shown.reply.text.startswith(f"Instellingen van spel {game}:")
        and "Taal van de berichten: Français." in shown.reply.text
    )
    with i18n.speaking("en"):
        away = await svc_absence.vacation(svc, BOB.id, channel=CHANNEL, days=2)
    assert away.reply.text == "Have a good time!"
    assert away.announcement is not None and away.announcement.text.startswith(
        "🏖 Bob est en vacances jusqu'au <t:"
    )
    assert "(reste 12 sur 14 jours cette année)" in away.announcement.text


async def test_me_language_de_makes_private_replies_german_even_with_an_english_client(
    svc: Context,
) -> None:
    game = await _lobby(svc)
    with i18n.speaking("en"):
        mine = await svc_settings.me(svc, BOB.id, language="de", client="en-US")
    assert mine.ephemeral and mine.text.startswith(
        "Ruhezeiten (keine Erinnerungen): keine. Erinnerungen kommen per "
    )
    assert "Sprache: Deutsch." in mine.text, "the answer is already in the language chosen"
    assert await svc_settings.language_of(svc, BOB.id, "en-US") == "de"
    assert await svc_settings.language_of(svc, ANN.id, "en-US") == "en", "only Bob's own choice"
    with i18n.speaking(await svc_settings.language_of(svc, BOB.id, "en-US")):  # what the Discord layer does
        joined = await svc_lobby.join(svc, game, BOB)
        with pytest.raises(LobbyError, match=r"^Sie spielen bereits in dieser Partie mit\.$"):
            await svc_lobby.join(svc, game, BOB)
    assert "Press **Join** to play" in joined.reply.text, "the lobby is public: the game's language"
    with (
        i18n.speaking(await svc_settings.language_of(svc, ANN.id, "en-US")),
        pytest.raises(LobbyError, match=r"^You are already"),
    ):
        await svc_lobby.join(svc, game, ANN)


async def test_auto_gives_a_player_back_their_clients_language(svc: Context) -> None:
    with i18n.speaking("en"):
        await svc_settings.me(svc, BOB.id, language="nl", client="en-US")
    assert await svc_settings.language_of(svc, BOB.id, "fr") == "nl"
    with i18n.speaking("nl"):
        back = await svc_settings.me(svc, BOB.id, language="auto", client="fr")
    assert "Langue : celle de votre Discord." in back.text, "answered in the client's language"
    assert await svc_settings.language_of(svc, BOB.id, "fr") == "fr"
    assert await svc_settings.language_of(svc, BOB.id, "pt-BR") == "en", "a client language we lack: English"
    assert (await svc.storage.players.prefs([BOB.id]))[BOB.id].language is None


async def test_unknown_languages_are_refused_with_the_list_and_change_nothing(svc: Context) -> None:
    await _started(svc, "nl")
    listed = r"`en` \(English\), `de` \(Deutsch\), `fr` \(Français\), `nl` \(Nederlands\)"
    with i18n.speaking("en"), pytest.raises(SettingsError, match=rf"^The languages are {listed}\.$"):
        await svc_settings.settings(svc, ANN.id, channel=CHANNEL, language="klingon")
    german = rf"^Die Sprachen sind {listed}, oder `auto`"
    with i18n.speaking("de"), pytest.raises(SettingsError, match=german):
        await svc_settings.me(svc, BOB.id, language="xx", client="de")
    assert await _language(svc) == "nl"
    assert await svc_settings.language_of(svc, BOB.id, "fr") == "fr", "Bob's choice is unchanged"


async def test_reminders_speak_the_games_language_in_the_channel_and_the_readers_in_a_dm(
    table: Table,
) -> None:
    svc = table.svc
    game = await _started(svc, "de")
    user = PLAYERS[(await current(svc)).pending_seats()[0]].id
    await svc_settings.me(svc, user, remind_by="dm", language="nl")
    [post] = await table.at(12)
    [dm] = post.direct
    assert dm.text.startswith(f"⏰ Spel {game} van La Città in <#{CHANNEL}> wacht op je: ")
    assert dm.text.endswith(f"de tijd is <t:{MIDNIGHT + 24 * 3600}:R> om, daarna geldt: de tafel wacht.")
    fallback = post.message_for({user})
    assert fallback is not None
    assert fallback.text == (
        f"<@{user}> ⏰ Erinnerung: Partie {game} wartet auf Sie "
        "(ich konnte Ihnen keine Direktnachricht senden)."
    )
    await svc_settings.me(svc, user, remind_by="mention", language="en")
    [mention] = await table.at(24)
    assert mention.message is not None
    assert mention.message.text.startswith(f"⏰ Erinnerung — Partie {game} wartet auf <@{user}>: ")
