"""Each reader in their own language: what is private (answers, refusals, the panel,
autocomplete) in the reader's, what the channel reads (posts, their buttons and pictures) in
the game's, a direct message in its reader's; and a whole game in the pseudo-language leaves
nothing untranslated."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from test_bot_support import CHANNEL, GUILD, OUTSIDER, PLAYERS, FakeRenderer, current
from untranslated import untranslated

import i18n
from bot.errors import CittaError, MoveRefused, NoGame, NotAllowed, NotSeated
from bot.ids import parse_custom_id
from bot.results import Message, Outcome, Post
from bot.service import choices as svc_choices
from bot.service import leaving as svc_leaving
from bot.service import lobby as svc_lobby
from bot.service import moves as svc_moves
from bot.service import panel as svc_panel
from bot.service import questions as svc_questions
from bot.service.context import Context
from bot.storage import envelope
from bot.storage.rows import Prefs
from engine import Game, IllegalMove
from engine.components import CITY_NAMES


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """Each test sets its reader's language; the next starts in English."""
    yield
    i18n.read_by("en")


async def _start(svc: Context, n: int = 2, language: str = "en", setup: str = "beginner") -> Outcome:
    """A started game of ``n`` of `PLAYERS` in ``language`` (the host opens it, all join)."""
    host = PLAYERS[0]
    await svc_lobby.new_game(svc, host, channel=CHANNEL, guild=GUILD, setup=setup, language=language)
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    for user in PLAYERS[1:n]:
        await svc_lobby.join(svc, row.id, user)
    return await svc_lobby.start(svc, row.id, host)


def _renderer(svc: Context) -> FakeRenderer:
    assert isinstance(svc.renderer, FakeRenderer)
    return svc.renderer


def _button_of(msg: Message | None, seat: int) -> tuple[int, int, str]:
    """(game, version, move) of a quick button of ``seat`` on a turn post."""
    assert msg is not None
    for b in msg.buttons:
        ref = parse_custom_id(b.custom_id)
        if ref is not None and ref.seat == seat and ref.move is not None:
            return ref.game, ref.version, ref.move
    raise AssertionError(f"no button for seat {seat}")


async def test_a_german_reader_gets_german_answers_while_the_channel_post_stays_english(
    svc: Context,
) -> None:
    start = await _start(svc)
    game = await current(svc)
    seat = game.pending_seats()[0]
    user, other = PLAYERS[seat], PLAYERS[1 - seat]
    drawn = len(_renderer(svc).langs)
    i18n.read_by("de")

    with pytest.raises(NotSeated) as outsider:
        await svc_moves.play(svc, OUTSIDER.id, "gold", channel=CHANNEL)
    assert str(outsider.value) == "Sie spielen in dieser Partie nicht mit (es spielen Ann, Bob)."
    game_id, version, move = _button_of(start.announcement, seat)
    with pytest.raises(NotAllowed, match=f"^Diese Schaltfläche ist für {user.name}\\.$"):
        await svc_moves.play(svc, other.id, move, game_id=game_id, based_on=version, seat=seat)
    with pytest.raises(IllegalMove) as engine_says:
        game.check(seat, "build farm A1")
    with pytest.raises(MoveRefused) as refused:
        await svc_moves.play(svc, user.id, "build farm A1", channel=CHANNEL)
    assert str(refused.value) == engine_says.value.told(i18n.lang("de"))

    played = await svc_moves.play(svc, user.id, "gold", channel=CHANNEL)
    assert played.reply.text == "Sie haben `gold` gespielt."
    post = played.announcement
    assert post is not None and "Next:" in post.text and "Als Nächstes" not in post.text
    assert post.buttons[0].label == "🎲 Make my move"
    assert _renderer(svc).langs[drawn:] and set(_renderer(svc).langs[drawn:]) == {"en"}

    status = await svc_questions.status(svc, CHANNEL)
    assert status.text.startswith("Partie ") and "Als Nächstes: " in status.text
    score = await svc_questions.score(svc, CHANNEL)
    assert score.text.startswith("Punktestand, wenn die Partie jetzt endete:")
    i18n.read_by("en")
    assert (await svc_questions.status(svc, CHANNEL)).text.startswith("Game ")


async def test_a_french_game_posts_in_french_while_an_english_reader_gets_english(svc: Context) -> None:
    await _start(svc, language="fr")
    seat = (await current(svc)).pending_seats()[0]
    drawn = len(_renderer(svc).langs)
    i18n.read_by("en")
    played = await svc_moves.play(svc, PLAYERS[seat].id, "gold", channel=CHANNEL)
    assert played.reply.text == "You played `gold`."
    post = played.announcement
    assert post is not None
    assert "Ensuite : " in post.text and "Next:" not in post.text and "pièce d'or · nourriture" in post.text
    assert post.buttons[0].label == "🎲 Jouer mon coup"
    assert _renderer(svc).langs[drawn:] and set(_renderer(svc).langs[drawn:]) == {"fr"}
    panel = await svc_panel.my_panel(svc, PLAYERS[1 - seat].id, CHANNEL)
    assert panel.text.startswith("🎲 **Your move**") and panel.buttons[-1].label == "Close"


async def test_resigning_and_abandoning_are_announced_in_the_games_language(svc: Context) -> None:
    await _start(svc, language="nl")
    i18n.read_by("de")
    resigned = await svc_leaving.resign(svc, PLAYERS[0].id, channel=CHANNEL)
    assert resigned.reply.text == "Sie haben aufgegeben."
    assert resigned.announcement is not None
    assert resigned.announcement.text.startswith("**Ann** geeft op; de bot doet voortaan de zetten.")
    abandoned = await svc_leaving.abandon(svc, PLAYERS[0].id, game_id=resigned.game, can_manage=True)
    assert abandoned.reply.text == "Die Partie ist abgebrochen."
    assert abandoned.announcement is not None
    assert abandoned.announcement.text == f"<@{PLAYERS[0].id}> heeft spel {resigned.game} gestaakt. " + (
        "`/citta new` start een nieuw spel."
    )


def _poll_seed() -> tuple[int, int]:
    """A seed whose first player of three may poll, and the seat of that player."""
    for seed in range(1, 200):
        g = Game.new([p.name for p in PLAYERS[:3]], seed=seed)
        if "poll" in g.view(None).politics_row:
            return seed, g.pending_seats()[0]
    raise AssertionError("no seed with Polling the People in the first row")


async def test_a_peek_comes_by_dm_in_its_readers_own_language_and_the_channel_note_in_the_games(
    svc: Context,
) -> None:
    seed, seat = _poll_seed()
    svc.seeds = lambda: seed
    await _start(svc, 3, language="fr")
    poller = PLAYERS[seat]
    await svc.storage.players.set_prefs(Prefs(poller.id, language="de"))
    i18n.read_by("nl")  # the poller's client; their own choice (German) wins for the DM
    outcome = await svc_moves.play(svc, poller.id, "poll 1 3", channel=CHANNEL)
    [dm] = outcome.dms
    assert dm.user_id == poller.id and dm.text.startswith(f"La Città (Partie {outcome.game}): ")
    assert outcome.reply.text.startswith("Je hebt `poll 1 3` gespeeld.")

    i18n.read_by("en")  # the delivery task reads nothing: the note was written when stored
    payload, image = envelope.dump(Post(CHANNEL, outcome=outcome))
    failed = envelope.load(CHANNEL, payload, image).message_for({poller.id})
    assert failed is not None
    assert f"📪 <@{poller.id}>: Je n'ai pas pu vous envoyer de message privé." in failed.text
    assert "**Voir mes infos privées**" in failed.text
    assert [b.label for b in failed.buttons][-1] == "Voir mes infos privées"


async def test_the_panel_speaks_dutch_to_a_dutch_reader(svc: Context) -> None:
    await _start(svc)
    seat = (await current(svc)).pending_seats()[0]
    user = PLAYERS[seat]
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    i18n.read_by("nl")
    panel = await svc_panel.panel(svc, user.id, row.id)
    assert panel.text.startswith(
        f"🎲 **Jouw zet** (spel {row.id}) — Speeljaar 1 van 6, politieke ronde 1 van 5."
    )
    assert "Je moet een beurt spelen." in panel.text and panel.text.endswith("Wat doe je?")
    labels = [o.label for s in panel.selects for o in s.options]
    assert {"2 goudstukken nemen", "Nieuwe stad stichten", "Klein gebouw bouwen"} <= set(labels)
    assert all(s.placeholder.startswith("Kies: ") for s in panel.selects)
    assert panel.buttons[-1].label == "Sluiten"
    build = await svc_panel.panel(svc, user.id, row.id, path=("build",))
    assert "Boerderij" in [o.label for s in build.selects for o in s.options]
    assert "Tot nu toe gekozen: `build`." in build.text and build.buttons[0].label == "◀ Terug"
    with pytest.raises(NotAllowed, match=r"^Deze knop is voor "):  # whose button: `admission.whose`
        await svc_panel.panel(svc, PLAYERS[1 - seat].id, row.id, seat=seat)


# --- the pseudo-language -------------------------------------------------------------------


class Reader:
    """Every text the service gives, with where it was read and the notation it may show
    bare (a button's move in its label, an autocomplete choice's)."""

    def __init__(self) -> None:
        self.texts: list[tuple[str, str, tuple[str, ...]]] = []

    def add(self, where: str, text: str, notation: tuple[str, ...] = ()) -> None:
        self.texts.append((where, text, notation))

    def message(self, where: str, msg: Message | None) -> None:
        if msg is None:
            return
        self.add(where, msg.text)
        for b in msg.buttons:
            ref = parse_custom_id(b.custom_id)
            self.add(f"{where} button", b.label, (ref.move,) if ref is not None and ref.move else ())
        for s in msg.selects:
            self.add(f"{where} placeholder", s.placeholder)
            for o in s.options:
                self.add(f"{where} option", o.label)
                self.add(f"{where} description", o.description)

    def outcome(self, where: str, outcome: Outcome) -> None:
        self.message(f"{where} reply", outcome.reply)
        for dm in outcome.dms:
            self.add(f"{where} dm", dm.text)
        self.message(f"{where} post", outcome.announcement_for({dm.user_id for dm in outcome.dms}))

    def error(self, where: str, error: CittaError) -> None:
        self.add(f"{where} refused", str(error))


async def _questions(svc: Context, reader: Reader, user_id: int) -> None:
    """What a player may ask at any time."""
    reader.message("status", await svc_questions.status(svc, CHANNEL))
    reader.message("board", await svc_questions.board(svc, CHANNEL))
    reader.message("log", await svc_questions.log(svc, CHANNEL))
    reader.message("score", await svc_questions.score(svc, CHANNEL))
    reader.message("secrets", await svc_questions.secrets(svc, user_id, channel=CHANNEL))


async def test_a_whole_game_in_the_pseudo_language_leaves_nothing_untranslated(svc: Context) -> None:
    i18n.read_by(i18n.PSEUDO)
    reader = Reader()
    start = await _start(svc, 3, language=i18n.PSEUDO, setup="experienced")
    reader.outcome("start", start)
    rnd = random.Random(5)
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    moves = 0
    while not (game := await current(svc)).is_over:
        seat = rnd.choice(game.pending_seats())
        user = PLAYERS[seat]
        if moves % 3 == 0:
            panel = await svc_panel.panel(svc, user.id, row.id)
            reader.message("panel", panel)
            options = [o.value for s in panel.selects for o in s.options]
            reader.message(
                "panel step", await svc_panel.panel(svc, user.id, row.id, path=(rnd.choice(options),))
            )
            for choice in await svc_choices.choices(svc, CHANNEL, user.id, ""):
                reader.add("autocomplete", choice.name, (choice.value,))
        if moves % 10 == 0:
            idle = next(
                (p for p in PLAYERS[:3] if p is not user and PLAYERS.index(p) not in game.pending_seats()),
                None,
            )
            for who, text in ((user, "fly to the moon"), (user, "build farm A1"), (idle, "gold")):
                if who is not None:
                    with pytest.raises(CittaError) as refused:
                        await svc_moves.play(svc, who.id, text, channel=CHANNEL)
                    reader.error(text, refused.value)
        if moves % 25 == 0:
            await _questions(svc, reader, user.id)
        outcome = await svc_moves.play(svc, user.id, str(rnd.choice(game.legal_moves(seat))), channel=CHANNEL)
        if outcome.announcement is None:  # a warning first
            reader.outcome("warning", outcome)
            ref = parse_custom_id(outcome.reply.buttons[0].custom_id)
            assert ref is not None and ref.move is not None
            outcome = await svc_moves.play_pressed(svc, user.id, ref)
        reader.outcome("move", outcome)
        moves += 1
    await _questions(svc, reader, PLAYERS[0].id)
    with pytest.raises(NoGame) as over:
        await svc_leaving.abandon_prompt(svc, PLAYERS[0].id, channel=CHANNEL, can_manage=True)
    reader.error("abandon after the end", over.value)

    names = [*CITY_NAMES, *(p.name for p in PLAYERS)]
    found: dict[str, str] = {}
    for where, text, notation in reader.texts:
        for problem in untranslated(text, names, notation):
            found.setdefault(problem, f"{where}: {text[:200]!r}")
    assert not found, "\n".join(f"{problem}\n    ← {where}" for problem, where in found.items())
    assert set(_renderer(svc).langs) == {i18n.PSEUDO}, "every picture in the game's language"
    assert moves > 40 and any(text.startswith("⟦Final score:⟧") for _, text, _ in reader.texts)
