"""Local play in the terminal: moves typed in the notation, the game saved, the board drawn per move."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from scenario import Scenario

from bot.local import LocalGame, Quit, main, parse_args
from engine import Game


class Terminal(io.StringIO):
    """Typed input at a terminal (the game pauses there to let the player read)."""

    def isatty(self) -> bool:
        return True


class CtrlC(io.StringIO):
    def readline(self, size: int | None = -1) -> str:
        raise KeyboardInterrupt


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
    assert "Not allowed:" in text and "Unknown move 'fly'" in text
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


def test_undo_is_refused_once_something_hidden_was_revealed(
    tmp_path: Path, pictures: list[list[str]]
) -> None:
    _, text = run(game_args(tmp_path), "poll 1 2\nundo\nquit\n")
    refused = (
        "Your last move cannot be taken back: something hidden became known since: Player polls the people"
    )
    assert refused in text


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


def test_resume_refuses_a_file_that_is_not_a_saved_game(tmp_path: Path) -> None:
    other = tmp_path / "record.json"
    other.write_text(json.dumps({"players": ["A", "B"], "seed": 1, "setup": "beginner", "moves": []}))
    with pytest.raises(SystemExit, match=r"cannot resume from .*record\.json: not a la-citta-local/1 file"):
        run(["--resume", str(other)])
    with pytest.raises(SystemExit, match="no saved game in"):
        run(["--resume", "--out", str(tmp_path / "empty")])


def test_a_new_game_with_the_seed_of_a_saved_one_says_it_replaces_it(
    tmp_path: Path, pictures: list[list[str]]
) -> None:
    run(game_args(tmp_path), "quit\n")
    _, text = run(game_args(tmp_path), "quit\n")
    assert "(it replaces the game saved there before)" in text
