"""Local play in the terminal: moves typed in the notation, the board written as a PNG."""

from __future__ import annotations

import io
from pathlib import Path

from bot.local import main


def run(args: list[str], typed: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(args, stdin=io.StringIO(typed), stdout=out)
    return code, out.getvalue()


def test_an_automatic_game_is_played_to_the_end_and_the_board_is_written(tmp_path: Path) -> None:
    code, text = run(["--auto", "--players", "2", "--level", "random", "--seed", "3", "--out", str(tmp_path)])
    assert code == 0
    assert "Game over. Scores:" in text
    board = tmp_path / "board.png"
    assert f"[board: {board.resolve()}]" in text
    assert board.read_bytes().startswith(b"\x89PNG")


def test_a_player_lists_moves_is_told_what_is_wrong_and_plays(tmp_path: Path) -> None:
    typed = "?\n? gold\nbuild palace A1\nfly\nstatus\ngold\nquit\n"
    code, text = run(["--players", "2", "--level", "random", "--seed", "5", "--out", str(tmp_path)], typed)
    assert code == 1  # stopped before the end
    assert "gold — take 2 gold" in text  # '?' describes the legal moves
    assert "Not allowed:" in text and "Unknown move 'fly'" in text
    assert "Player: gold" in text and "Player takes 2 gold" in text
    assert "Replay this game with --seed 5" in text
    assert (tmp_path / "board.png").exists()


def test_private_events_of_the_computer_seats_are_not_shown(tmp_path: Path) -> None:
    code, text = run(["--auto", "--players", "3", "--level", "random", "--seed", "2", "--out", str(tmp_path)])
    assert code == 0
    assert "passes and draws a politics card face down" in text and "polls the people" in text
    assert "You drew" not in text and "You polled" not in text
