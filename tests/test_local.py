"""Local play in the terminal: moves typed in the notation, the game saved, the board drawn per move."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from leftover_english import leftover_english
from scenario import Scenario
from untranslated import untranslated

import i18n
from bot.local import NAMES, LocalGame, Quit, main
from bot.local import rules as local_rules
from bot.local_cli import COMMANDS, RULE_TOPICS, language_of, parse_args, terminal_language
from engine import Game
from engine.ai import choose
from engine.components import ARCHES, CITY_NAMES, POLITICS_TITLES


class Terminal(io.StringIO):
    """Typed input at a terminal (the game pauses there to let the player read)."""

    def isatty(self) -> bool:
        return True


class CtrlC(io.StringIO):
    # (typeshed gives StringIO the readline of _IOBase too, which returns bytes)
    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise KeyboardInterrupt


@pytest.fixture(autouse=True)
def terminal_in_no_language_of_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal's locale does not choose the language of these tests (English unless a test
    says otherwise)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def run(args: list[str], typed: str | io.StringIO = "") -> tuple[int, str]:
    out = io.StringIO()
    stdin = io.StringIO(typed) if isinstance(typed, str) else typed
    code = main(args, stdin=stdin, stdout=out)
    return code, out.getvalue()


@pytest.fixture
def pictures(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Each board drawn, as the hexes it rings (the picture itself is a stand-in)."""
    drawn: list[list[str]] = []

    def fake(view: Any, *, highlight: list[str] | None = None, width: int = 1400) -> bytes:
        drawn.append(list(highlight or []))
        return b"\x89PNG fake"

    monkeypatch.setattr("render.render_board", fake)
    return drawn


def game_args(tmp_path: Path, seed: int = 3, *extra: str) -> list[str]:
    return ["--players", "3", "--level", "basic", "--seed", str(seed), "--out", str(tmp_path), *extra]


# --- the demo and the basics --------------------------------------------------------------


def test_an_automatic_game_is_played_to_the_end_and_the_boards_are_written(tmp_path: Path) -> None:
    code, text = run(["--auto", "--players", "2", "--level", "random", "--seed", "3", "--out", str(tmp_path)])
    assert code == 0
    assert "Game over. Scores:" in text
    boards = sorted((tmp_path / "game-3").glob("board-*.png"))
    assert len(boards) >= 7, "the start, each year's end and the end"
    assert f"[board: {boards[-1].resolve()}]" in text
    assert boards[-1].read_bytes().startswith(b"\x89PNG")


def test_a_player_lists_moves_is_told_what_is_wrong_and_plays(
    tmp_path: Path, pictures: list[list[str]]
) -> None:
    typed = "?\n? gold\nbuild palace A1\nfly\nstatus\ngold\nquit\n"
    _, text = run(game_args(tmp_path, 5), typed)
    assert "gold — take 2 gold" in text  # '?' describes the legal moves
    assert "Not allowed:" in text and "Unknown move `fly`" in text
    assert "Player (you): gold" in text and "Player takes 2 gold" in text


def test_private_events_of_the_computer_seats_are_not_shown(
    tmp_path: Path, pictures: list[list[str]]
) -> None:
    code, text = run(["--auto", "--players", "3", "--level", "random", "--seed", "2", "--out", str(tmp_path)])
    assert code == 0
    assert "passes and draws a politics card face down" in text and "polls the people" in text
    assert "You drew" not in text and "You polled" not in text


# --- moves made for the player ---------------------------------------------------------


def no_choice_game() -> Game:
    """P0 (the player) has no action card, no gold and only costly cards in the row: they must pass."""
    sc = Scenario()
    sc.city(0, "K9", 3)
    sc.city(1, "E5", 3)
    sc.row("palace", "hospital", "bath", "cathedral", "university", "master", "palace")
    sc.state.players[0].action_cards = 0
    sc.state.players[0].gold = 0
    return sc.turn(1).game()


def test_a_move_made_for_the_player_is_shown_as_theirs_and_waits_to_be_read(
    tmp_path: Path, pictures: list[list[str]]
) -> None:
    out = io.StringIO()
    local = LocalGame(no_choice_game(), 0, "random", tmp_path, 600, out)
    with pytest.raises(Quit):
        local.run(Terminal("\n" * 40 + "quit\n"))
    text = out.getvalue()
    passed = "P0 passes and draws a politics card face down (the only possible move)."
    mine = text.index(f"▶ yours, with no other choice: {passed}")
    assert text.index("(Enter to go on)", mine) < text.index("your move>"), "it waits before going on"


def test_without_a_terminal_the_game_does_not_wait(tmp_path: Path, pictures: list[list[str]]) -> None:
    out = io.StringIO()
    local = LocalGame(no_choice_game(), 0, "random", tmp_path, 600, out)
    with pytest.raises(Quit):
        local.run(io.StringIO("quit\n"))
    assert "▶ yours" in out.getvalue() and "Enter to go on" not in out.getvalue()


# --- stopping, going on, taking back ------------------------------------------------------


def test_quit_saves_the_game_and_exits_0_and_resume_goes_on_from_there(
    tmp_path: Path, pictures: list[list[str]]
) -> None:
    code, text = run(game_args(tmp_path), "gold\nquit\n")
    save = tmp_path / "game-3" / "game.json"
    assert code == 0
    assert f"Resume with: python -m bot.local --resume {save}" in text
    moves = json.loads(save.read_text())["record"]["moves"]
    assert moves[0] == [0, "gold"] and len(moves) == 3
    code, text = run(["--resume", str(save)], "status\nscore\nquit\n")
    assert code == 0
    assert "Resumed" in text and "3 moves made" in text
    assert "political round 2 of 5" in text
    assert "Player: gold 3," in text, "the player's 2 gold are still there"


def test_resume_without_a_file_takes_the_latest_saved_game(tmp_path: Path, pictures: list[list[str]]) -> None:
    run(game_args(tmp_path, 8), "gold\nquit\n")
    code, text = run(["--resume", "--out", str(tmp_path)], "quit\n")
    assert code == 0 and f"Resumed {tmp_path / 'game-8' / 'game.json'}" in text


def test_end_of_input_saves_and_exits_0(tmp_path: Path, pictures: list[list[str]]) -> None:
    code, text = run(game_args(tmp_path), "gold\n")
    assert code == 0 and "the game is saved" in text
    assert "Replay this game with --seed" not in text


def test_ctrl_c_saves_and_says_how_to_resume(tmp_path: Path, pictures: list[list[str]]) -> None:
    code, text = run(game_args(tmp_path), CtrlC())
    assert code == 130
    assert "Interrupted; the game is saved" in text and "--resume" in text
    assert (tmp_path / "game-3" / "game.json").exists()


def test_undo_takes_back_the_players_move_and_the_computers_since(
    tmp_path: Path, pictures: list[list[str]]
) -> None:
    _, text = run(game_args(tmp_path), "gold\nundo\nstatus\nundo\nquit\n")
    assert "Taken back: your move gold and 2 computer moves since." in text
    after = text.split("Taken back")[1]
    assert "Player: gold 1," in after and "3 action cards" in after
    assert "Nothing to take back" in after
    moves = json.loads((tmp_path / "game-3" / "game.json").read_text())["record"]["moves"]
    assert moves == []


def test_undo_after_resume_takes_back_the_move_made_before_it(
    tmp_path: Path, pictures: list[list[str]]
) -> None:
    run(game_args(tmp_path), "gold\nquit\n")
    _, text = run(["--resume", "--out", str(tmp_path)], "undo\nquit\n")
    assert "Taken back: your move gold and 2 computer moves since." in text
    assert json.loads((tmp_path / "game-3" / "game.json").read_text())["record"]["moves"] == []


def test_undo_is_refused_once_something_hidden_was_revealed(
    tmp_path: Path, pictures: list[list[str]]
) -> None:
    _, text = run(game_args(tmp_path), "poll 1 2\nundo\nquit\n")
    refused = (
        "Your last move cannot be taken back: something hidden became known since: Player polls the people"
    )
    assert refused in text


def golden_times_game(population: int) -> Game:
    """P0 (the player) may play Golden Times on their city of K9 and L9, which has room for
    ``5 - population``."""
    sc = Scenario()
    sc.city(0, "K9", population, [("farm", "L9")])
    sc.city(1, "E5", 3)
    sc.row("golden")
    sc.state.players[0].gold = 5
    return sc.turn(0).game()


def play_typed(game: Game, typed: str, tmp_path: Path) -> tuple[LocalGame, str]:
    """``typed`` played by P0 in ``game``, against the random computer player."""
    out = io.StringIO()
    local = LocalGame(game, 0, "random", tmp_path, 600, out)
    with pytest.raises(Quit):
        local.run(io.StringIO(typed))
    return local, out.getvalue()


WASTED = "⚠ Only 1 of the 3 citizens fit in {city} (its limit), but you pay for 3. Type `golden 3 K9` again"


def test_a_move_that_wastes_something_is_played_only_when_typed_again(
    tmp_path: Path, pictures: list[list[str]]
) -> None:
    local, text = play_typed(golden_times_game(4), "golden 3 K9\ngolden 3 l9\nquit\n", tmp_path)
    city = local.game.state.cities[0].name
    assert WASTED.format(city=city) in text
    assert text.index(WASTED.format(city=city)) < text.index("P0 (you): golden 3 K9")
    assert local.game.record().moves[0] == (0, "golden 3 K9"), "the same move, named by another hex"
    assert "(2 did not fit)" in text


def test_after_the_warning_anything_else_typed_is_a_new_start(
    tmp_path: Path, pictures: list[list[str]]
) -> None:
    typed = "golden 3 K9\nstatus\ngolden 3 K9\ngold\nquit\n"
    local, text = play_typed(golden_times_game(4), typed, tmp_path)
    assert text.count("Type `golden 3 K9` again") == 2, "warned again after another command"
    assert local.game.record().moves[0] == (0, "gold")


def test_a_move_that_wastes_nothing_is_played_at_once(tmp_path: Path, pictures: list[list[str]]) -> None:
    local, text = play_typed(golden_times_game(2), "golden 3 K9\nquit\n", tmp_path)
    assert "again to play it anyway" not in text and local.game.record().moves[0] == (0, "golden 3 K9")


# --- what the player reads ----------------------------------------------------------------


def test_extra_spaces_in_a_question_are_ignored(tmp_path: Path, pictures: list[list[str]]) -> None:
    _, text = run(game_args(tmp_path), "?   build   farm\n? build farm\nquit\n")
    counts = [line for line in text.splitlines() if line.strip().startswith("(") and "move" in line]
    assert counts[0] == counts[1] == "  (5 moves)"


def test_the_status_line_names_the_phase(tmp_path: Path, pictures: list[list[str]]) -> None:
    _, text = run(game_args(tmp_path, 3, "--setup", "experienced"), "quit\n")
    assert "[Setup: castle placement]" in text and "[year 0" not in text
    _, text = run(game_args(tmp_path, 4), "quit\n")
    assert "[Year 1 of 6, political round 1 of 5]" in text


def test_one_action_card_is_singular(tmp_path: Path, pictures: list[list[str]]) -> None:
    g = no_choice_game()
    g.state.players[0].action_cards = 1
    out = io.StringIO()
    with pytest.raises(Quit):
        LocalGame(g, 0, "random", tmp_path, 600, out).run(io.StringIO("status\nquit\n"))
    assert "1 action card;" in out.getvalue() and "1 action card," in out.getvalue()
    assert "1 action cards" not in out.getvalue()


def test_each_move_gets_its_own_picture_ringing_everything_since_the_players_move(
    tmp_path: Path, pictures: list[list[str]]
) -> None:
    _, text = run(game_args(tmp_path), "found H3 from L11\nboard\nquit\n")
    folder = tmp_path / "game-3"
    assert sorted(p.name for p in folder.glob("board-*.png")) == [f"board-00{k}.png" for k in range(4)]
    record = json.loads((folder / "game.json").read_text())["record"]["moves"]
    assert [m[1].split()[0] for m in record] == ["found", "found", "build"]
    # The last picture before the player's next move rings the player's city and both replies.
    last = pictures[-1]
    assert {"H3", "L11"} <= set(last)
    assert record[1][1].split()[1] in last and record[2][1].split()[-1] in last
    assert f"[board: {(folder / 'board-003.png').resolve()}]" in text.split("your move>")[-2]


@pytest.mark.parametrize("width", ["400", "100", "0", "5000", "wide"])
def test_a_board_width_out_of_range_is_refused_with_the_range(
    width: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--width", width])
    err = capsys.readouterr().err
    assert "--width" in err and ("600 to 4000 px" in err or "not a number" in err)


def test_the_prompt_shows_the_polled_cards(tmp_path: Path, pictures: list[list[str]]) -> None:
    _, text = run(game_args(tmp_path), "poll 1 2\nquit\n")
    prompt = text.split("your move>")[-2].splitlines()[-2]
    assert "(you polled 1 and 2)" in prompt and "face down ? ? ?" not in prompt


def test_help_shows_the_defaults_the_setups_and_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "(default: 3)" in text and "(default: basic" in text and "(default: 1400)" in text
    assert "experienced: shuffled terrain" in text
    for command in ("? [TEXT]", "status", "board", "quit", "score", "log [N]", "rules [TOPIC]", "undo"):
        assert command in text


def test_score_log_and_rules_answer_in_the_game(tmp_path: Path, pictures: list[list[str]]) -> None:
    _, text = run(game_args(tmp_path), "gold\nscore\nlog 3\nrules scoring\nrules bot\nhelp\nquit\n")
    assert "Score if the game ended now:" in text and "**" not in text
    log = text.split("your move>")[3]
    assert log.strip().splitlines()[0].startswith("Ada (computer, basic):") or "Bruno" in log
    assert "1 point per citizen" in text
    assert "No rules on 'bot'" in text
    assert text.count("Commands:") == 2


RECORD = {"players": ["A", "B"], "seed": 1, "setup": "beginner", "moves": []}
SAVED = {"format": "la-citta-local/1", "human": 0, "level": "basic", "record": RECORD}
NOT_SAVED_GAMES = {
    "record.json": (json.dumps(RECORD), "not a la-citta-local/1 file"),
    "text.json": ("a game of La Città", "not a la-citta-local/1 file"),
    "list.json": (json.dumps([SAVED]), "not a la-citta-local/1 file"),
    "no-record.json": (json.dumps({**SAVED, "record": None}), "the field record is missing or not valid"),
    "seed.json": (
        json.dumps({**SAVED, "record": {**RECORD, "seed": "one"}}),
        "the field record.seed is missing or not valid",
    ),
    "moves.json": (
        json.dumps({**SAVED, "record": {**RECORD, "moves": [[1, 2, 3]]}}),
        "the field record.moves.0 is missing or not valid",
    ),
    "players.json": (
        json.dumps({**SAVED, "record": {**RECORD, "players": ["A"]}}),
        "the field record.players is missing or not valid",
    ),
    "human.json": (json.dumps({**SAVED, "human": 2}), "the field human is missing or not valid"),
    "level.json": (json.dumps({**SAVED, "level": "grandmaster"}), "the field level is missing or not valid"),
    "illegal.json": (
        json.dumps({**SAVED, "record": {**RECORD, "moves": [[1, "gold"], [1, "gold"]]}}),
        "a saved move does not apply (It is not your turn.",
    ),
    "unknown.json": (
        json.dumps({**SAVED, "record": {**RECORD, "moves": [[1, "fly"]]}}),
        "a saved move does not apply (Unknown move `fly`",
    ),
}
"""Files ``--resume`` refuses, and why it says it does."""


@pytest.mark.parametrize("name", NOT_SAVED_GAMES)
def test_resume_refuses_a_file_that_is_not_a_saved_game(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content, why = NOT_SAVED_GAMES[name]
    path = tmp_path / name
    path.write_text(content)
    code, text = run(["--resume", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and not text
    assert err.startswith(f"citta: cannot resume from {path}: {why}") and err.count("\n") == 1, err


def test_resume_without_a_saved_game_says_so_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _text = run(["--resume", "--out", str(tmp_path / "empty")])
    err = capsys.readouterr().err
    assert code == 2 and err == f"citta: no saved game in {tmp_path / 'empty'}; start one without --resume.\n"


def test_a_new_game_with_the_seed_of_a_saved_one_says_it_replaces_it(
    tmp_path: Path, pictures: list[list[str]]
) -> None:
    run(game_args(tmp_path), "quit\n")
    _, text = run(game_args(tmp_path), "quit\n")
    assert "(it replaces the game saved there before)" in text


# --- in the player's language ---------------------------------------------------------------


def test_the_language_is_the_terminals_unless_lang_says_otherwise() -> None:
    assert terminal_language({"LANG": "de_DE.UTF-8"}) == "de"
    assert terminal_language({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "nl_BE.UTF-8"}) == "nl"
    assert terminal_language({"LANG": "de_DE.UTF-8", "LC_ALL": "fr_FR.UTF-8"}) == "fr"
    assert terminal_language({"LANG": "C.UTF-8"}) == terminal_language({"LANG": "ja_JP"}) == "en"
    assert terminal_language({}) == "en"
    assert language_of(["--lang", "fr", "--seed", "3"], {"LANG": "de_DE"}) == "fr"
    assert language_of(["--seed", "3"], {"LANG": "de_DE"}) == "de"
    assert language_of(["--lang", "xx"], {"LANG": "nl_NL"}) == "nl", "parse_args then refuses it in Dutch"


class Autoplayer(io.StringIO):
    """A player who first types ``script``, then makes the basic computer player's move at each
    question (``turns`` of them) and stops. Notes every move they could make (notation, which
    is never translated)."""

    def __init__(self, script: list[str], turns: int) -> None:
        super().__init__()
        self.script = list(script)
        self.turns = turns
        self.local: LocalGame | None = None
        self.notation: set[str] = set()

    # (typeshed gives StringIO the readline of _IOBase too, which returns bytes)
    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        assert self.local is not None
        game = self.local.game
        self.notation.update(str(m) for m in game.legal_moves(0))
        if self.script:
            return self.script.pop(0) + "\n"
        if self.turns <= 0 or game.is_over:
            return ""
        self.turns -= 1
        return str(choose(game, 0, "basic", seed=self.turns)) + "\n"


def play_in(
    code: str, args: list[str], typed: Autoplayer, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str]:
    """``citta --lang CODE ARGS`` with ``typed`` as the player (who sees the game they play)."""
    start = LocalGame.run

    def watched(self: LocalGame, inp: Any) -> int:
        typed.local = self
        return start(self, inp)

    monkeypatch.setattr(LocalGame, "run", watched)
    return run([*args, "--lang", code], typed)


SCRIPT = [
    "?", "? build farm", "status", "hint", "build palace A1", "fly", "board", "log 3", "score",
    "rules", "rules Wertung", "rules scoring", "rules bot", "help", "undo",
    "gold", "undo", "poll 1 2", "undo", "status",
]  # fmt: skip
"""What the scripted player types first: every command, refused moves, taking back."""
TYPED_WORDS = (
    [cmd for cmd, _arg, _what in COMMANDS if cmd.isalpha()] + list(RULE_TOPICS) + list(POLITICS_TITLES)
)
"""What is typed as it is in every language: the commands, the rule topics, the politics cards."""
PATHS = re.compile(r"(?:/[^\s\]/:]+)+/?")
OPTIONS = re.compile(r"--?[\w-]+|\{[^}]*\}")
"""The command line's options and their choices (typed as they are)."""


def a_whole_game(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, set[str]]:
    """A game in ``code``: the script, some moves, quit; then resumed and played to its end.
    What the player read, and the notation they could type."""
    args = game_args(tmp_path, 3)
    first = Autoplayer(SCRIPT, turns=6)
    code_1, text_1 = play_in(code, args, first, monkeypatch)
    again = Autoplayer(["status", "score"], turns=400)
    code_2, text_2 = play_in(code, ["--resume", "--out", str(tmp_path)], again, monkeypatch)
    assert code_1 == code_2 == 0
    assert again.local is not None and again.local.game.is_over, "the game was played to its end"
    played = {move for _seat, move in again.local.game.record().moves}
    return text_1 + text_2, first.notation | again.notation | played


def without_notation(text: str, notation: set[str]) -> str:
    """``text`` without the moves (notation) and the file paths (never translated)."""
    text = PATHS.sub(" ", text)
    for move in sorted(notation, key=len, reverse=True):
        text = text.replace(move, " ")
    return text


def test_a_game_in_german_shows_no_english_outside_the_notation_and_the_names(
    tmp_path: Path, pictures: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    text, notation = a_whole_game("de", tmp_path, monkeypatch)
    assert "Ihr Zug>" in text and "Ende des Spiels" in text and "fortgesetzt" in text
    names = [*NAMES, *CITY_NAMES, "Spieler", "La Città", *TYPED_WORDS]
    kinds = [*ARCHES, "castle"]  # the notation's buildings, which a refusal lists
    found: dict[str, str] = {}
    for line in text.splitlines():
        allowed = [*names, *kinds] if line.split("> ")[-1].strip().startswith("Nicht erlaubt:") else names
        for word in leftover_english(without_notation(line, notation), "de", allowed):
            found.setdefault(word, line)
    assert not found, "\n".join(f"{w!r} in {line!r}" for w, line in found.items())


def notation_in_backticks(line: str, notation: set[str]) -> str:
    """``line`` with each move that starts a description (``build farm I9 — …``, after the
    prompt or a 💡) in backticks."""
    pieces = []
    for piece in line.split("> "):
        m = re.match(r"(\s*(?:💡 )?)(.+?)( — .*)", piece)
        pieces.append(f"{m[1]}`{m[2]}`{m[3]}" if m and m[2] in notation else piece)
    return "> ".join(pieces)


def test_a_game_in_the_pseudo_language_has_nothing_that_skipped_translation(
    tmp_path: Path, pictures: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    text, notation = a_whole_game(i18n.PSEUDO, tmp_path, monkeypatch)
    assert "⟦" in text
    resume = f"python -m bot.local --resume {tmp_path / 'game-3' / 'game.json'} --lang {i18n.PSEUDO}"
    names = [*NAMES, *CITY_NAMES, *TYPED_WORDS, "Wertung", "bot"]  # the topics typed, unknown in qps
    with i18n.speaking(i18n.PSEUDO):
        rules = {local_rules(topic) for topic in RULE_TOPICS}
    assert all(r.startswith("⟦") and r.endswith("⟧") and r.count("⟦") == 1 for r in rules)
    found: dict[str, str] = {}
    for line in text.splitlines():
        for shown in rules:  # a topic shown whole, without its bold: one marked text
            line = line.replace(shown, "`rules`")
        line = PATHS.sub(" ", line.replace(resume, "`resume`"))
        for problem in untranslated(notation_in_backticks(line, notation), names):
            found.setdefault(problem, line)
    assert not found, "\n".join(f"{problem} ← {line!r}" for problem, line in found.items())


def test_the_command_line_and_its_refusals_are_in_the_chosen_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "de", "--help"])
    text = capsys.readouterr().out
    assert text.startswith("Aufruf: citta") and "(Standard: 3)" in text and "Im Spiel tippen Sie:" in text
    typed = [*TYPED_WORDS, "beginner", "experienced", *i18n.NAMES.values()]
    assert not leftover_english(OPTIONS.sub(" ", PATHS.sub(" ", text)), "de", typed)
    with pytest.raises(SystemExit):
        main(["--lang", "fr", "--width", "10"])
    assert "citta : erreur : argument --width : 10 est hors limites" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "usage: citta" in capsys.readouterr().out, "English without a --lang or a terminal language"


def test_the_terminals_language_is_spoken_and_the_resume_line_keeps_another(
    tmp_path: Path, pictures: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    _, text = run(game_args(tmp_path), "gold\nquit\n")
    assert "Jij bent aan de beurt:" in text and "Verder spelen met: python -m bot.local --resume" in text
    assert "--lang" not in text.splitlines()[-1], "the terminal speaks Dutch already"
    _, text = run([*game_args(tmp_path), "--lang", "fr"], "quit\n")
    assert text.splitlines()[-1].endswith("--lang fr")
    assert i18n.current().code == "en", "the language of a run does not outlive it"
