"""Local play's review: ``review`` in a game and ``--review`` of a saved one step through the game
in the terminal (one key a line), print each position's heading and move, and write the turn post's
pictures to files — the seat's view while the game runs, everything once it is over."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.local import LocalGame, Quit, main
from bot.local_cli import help_text
from bot.service.commit import stage
from engine import Game, View
from engine.ai import choose

HEADING = re.compile(
    r"^🔎 Game (\d+), (?:move (\d+) of (\d+)|before the first move \((\d+) moves? in all\)) · "
)


@pytest.fixture(autouse=True)
def terminal_in_no_language_of_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal's locale does not choose the language of these tests (English)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[View]:
    """The view each review picture set is drawn from (drawn for real: the files are PNGs)."""
    import render

    views: list[View] = []
    real = render.render_post

    def recorded(view: View, **options: Any) -> Any:
        views.append(view)
        return real(view, **options)

    monkeypatch.setattr(render, "render_post", recorded)
    return views


@pytest.fixture
def sketched(monkeypatch: pytest.MonkeyPatch) -> list[View]:
    """The view each review picture set is drawn from; the pictures are stand-ins (a long walk)."""
    import render

    views: list[View] = []

    def stand_in(view: View, **options: Any) -> list[tuple[str, bytes, str]]:
        views.append(view)
        return [(name, b"\x89PNG stand-in", "alt") for name in ("board.png", "closeup-1.png", "table.png")]

    monkeypatch.setattr(render, "render_post", stand_in)
    return views


def cards(view: View) -> set[str]:
    """What a view's polled cards are said as (``card 1 is health``)."""
    return {f"card {k} is {card}" for k, card in enumerate(view.peek) if card}


def run(args: list[str], typed: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(args, stdin=io.StringIO(typed), stdout=out)
    return code, out.getvalue()


def positions(text: str) -> list[tuple[int, list[str]]]:
    """The positions the review printed: each one's number of moves and the lines after its heading
    (up to the next prompt)."""
    found = []
    lines = text.splitlines()
    for k, line in enumerate(lines):
        m = HEADING.match(line.split("> ")[-1])
        if m:
            shown = []
            for after in lines[k + 1 :]:
                if "> " in after or HEADING.match(after):
                    break
                shown.append(after)
            found.append((int(m[2] or 0), shown))
    return found


def pictures_of(shown: list[str]) -> list[Path]:
    return [
        Path(line.strip()[len("[picture: ") : -1]) for line in shown if line.strip().startswith("[picture:")
    ]


def finished_save(tmp_path: Path, seed: int = 2) -> Path:
    """A finished game of two computers (random level), saved."""
    code, _text = run(["--auto", "--players", "2", "--level", "random", "--seed", str(seed),
                       "--out", str(tmp_path)], "")  # fmt: skip
    assert code == 0
    return tmp_path / f"game-{seed}" / "game.json"


def walked(
    record: dict[str, Any], seat: int | None, over: bool
) -> tuple[list[View], list[tuple[int, str, int]]]:
    """The engine's replay of ``record``: the view after each number of moves (everything, or
    ``seat``'s) and the stage (year, phase, political round)."""
    views, stages = [], []
    for game, _events in Game.walk(record):
        views.append(game.open_view() if over else game.view(seat))
        stages.append(stage(game))
    return views, stages


def jumps(starts: list[int], end: int, forwards: bool) -> list[int]:
    """The positions a key passes through from the start to ``end`` (``forwards``) or back: each of
    ``starts`` (the first positions of a stage, or of a year) on the way, then the end."""
    at, out = end if not forwards else 0, []
    while at != (end if forwards else 0):
        if forwards:
            at = min((k for k in starts if k > at), default=end)
        else:
            at = max((k for k in starts if k < at), default=0)
        out.append(at)
    return out


def test_a_finished_game_is_reviewed_every_move_round_and_year_forwards_and_backwards(
    tmp_path: Path, sketched: list[View]
) -> None:
    save = finished_save(tmp_path)
    record = json.loads(save.read_text())["record"]
    count = len(record["moves"])
    views, stages = walked(record, None, over=True)
    starts = [k for k in range(1, count + 1) if stages[k] != stages[k - 1]]
    years = [k for k in starts if stages[k][0] != stages[k - 1][0]]
    walks = [
        ("n", list(range(1, count + 1))), ("p", list(range(count - 1, -1, -1))),
        ("]", jumps(starts, count, True)), ("[", jumps(starts, count, False)),
        ("y", jumps(years, count, True)), ("Y", jumps(years, count, False)),
    ]  # fmt: skip
    assert len(years) >= 5 and len(starts) > 2 * len(years), "every year and more rounds and phases"
    keys = [key for key, passed in walks for _k in passed]
    code, text = run(["--review", str(save)], "\n".join(keys) + "\nq\n")
    assert code == 0
    expected = [0, *(k for _key, passed in walks for k in passed)]
    shown = positions(text)
    assert [moved for moved, _lines in shown] == expected
    assert sketched == [views[k] for k in expected], "each picture is the engine's replay up to that move"
    for moved, lines in shown:
        if moved:
            seat, notation = record["moves"][moved - 1]
            assert lines[0].startswith(f"{record['players'][seat]} {notation} —"), lines
        assert "**" not in "\n".join(lines) and "`" not in "\n".join(lines), "no Discord markup"
        files = pictures_of(lines)
        assert files[0].name == f"move-{moved:03d}-board.png"
        assert files[-1].name == f"move-{moved:03d}-table.png"
        assert all(p.parent == (save.parent / "review").resolve() for p in files)
        assert all(p.read_bytes().startswith(b"\x89PNG") for p in files)
    assert "voice" in text and "What only" in text, "a finished game shows the private events too"


def test_a_running_games_review_shows_the_players_seat_and_the_game_goes_on_unchanged(
    tmp_path: Path, drawn: list[View]
) -> None:
    """The player polls, and so do the computers; the review (opened mid-game, walked from the
    start to the end) shows only what the player saw, and the game goes on where it was."""
    game = Game.new(["P0", "P1", "P2"], seed=2, setup="beginner")
    out = io.StringIO()
    local = LocalGame(game, 0, "basic", tmp_path, 600, out)

    class Player(io.StringIO):
        """Polls at the first turn, then plays the random computer's moves until a computer seat has
        polled too; then reviews the game, and plays one more move."""

        def __init__(self) -> None:
            super().__init__()
            self.typed: list[str] = []
            self.script: list[str] | None = None
            self.before: tuple[Any, bytes] | None = None
            self.at_q: tuple[Any, bytes] | None = None

        # (typeshed gives StringIO the readline of _IOBase too, which returns bytes)
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            g = local.game
            polled = any(seat != 0 and move.startswith("poll") for seat, move in g.record().moves)
            if self.script is None and not polled:
                move = "poll 1 2" if not self.typed else str(choose(g, 0, "random", seed=len(self.typed)))
                self.typed.append(move)
                return move + "\n"
            if self.script is None:
                self.before = (g.record().model_copy(deep=True), local.save_path.read_bytes())
                count = len(g.record().moves)
                self.script = ["review", "0", *[""] * count, "q", str(choose(g, 0, "random", seed=0))]
            if self.script[:1] == ["q"]:
                self.at_q = (g.record().model_copy(deep=True), local.save_path.read_bytes())
            return self.script.pop(0) + "\n" if self.script else ""

    typed = Player()
    with pytest.raises(Quit):
        local.run(typed)
    text = out.getvalue()
    assert typed.before is not None
    record, saved = typed.before
    count = len(record.moves)
    assert any(seat != 0 and move.startswith("poll") for seat, move in record.moves), "a computer polled"
    review = text[text.index("Review keys") : text.rindex("review> ")]
    views, _stages = walked(record.model_dump(mode="json"), 0, over=False)
    shown = positions(review)
    assert [moved for moved, _lines in shown] == [count, *range(count + 1)], "opened at the current position"
    assert drawn == [views[k] for k in [count, *range(count + 1)]], "the player's view at each move"
    assert "You polled the people" in review
    seen = {seat: walked(record.model_dump(mode="json"), seat, over=False)[0] for seat in (1, 2)}
    hidden = 0
    for moved, lines in shown:
        theirs = (cards(seen[1][moved]) | cards(seen[2][moved])) - cards(views[moved])
        hidden += len(theirs)
        assert not [card for card in theirs if card in "\n".join(lines)], (moved, lines)
        files = pictures_of(lines)
        assert files and all(p.read_bytes().startswith(b"\x89PNG") for p in files)
    assert hidden, "a computer's polled cards were there to hide"
    assert "What only" not in review
    # After q the game goes on where it was: the same record, its save untouched, the next move played.
    assert local.game.record().moves[:count] == record.moves and len(local.game.record().moves) > count
    after = text[text.rindex("review> ") :]
    assert "Your move:" in after.split("your move>")[0], "the question is asked again"
    assert (tmp_path / "review").is_dir() and not list((tmp_path / "review").glob("board-*"))
    assert typed.at_q == (record, saved), "the review changed neither the game nor its save"
    assert saved != local.save_path.read_bytes(), "saved again by the move after the review"


def test_the_review_refuses_what_is_not_a_key_or_a_move_of_the_game_and_stays_where_it_was(
    tmp_path: Path, drawn: list[View]
) -> None:
    save = finished_save(tmp_path)
    count = len(json.loads(save.read_text())["record"]["moves"])
    code, text = run(["--review", str(save)], f"3\nx\n{count + 1}\n½\nn\nq\n")
    assert code == 0
    assert "Not a key of the review: 'x'. Review keys (one a line): Enter or n the next move" in text
    assert f"There is no move {count + 1}: the game has {count} moves so far; type 0 to {count}." in text
    assert "Not a key of the review: '½'." in text
    assert [moved for moved, _lines in positions(text)] == [0, 3, 4], "a refusal leaves the position"


def test_the_game_offers_its_review_at_the_end_and_help_lists_it(tmp_path: Path, drawn: list[View]) -> None:
    assert "review" in help_text()
    game = Game.new(["P0", "P1"], seed=2, setup="beginner")
    out = io.StringIO()
    local = LocalGame(game, 0, "random", tmp_path, 600, out)

    class Player(io.StringIO):
        """Plays the random computer's moves to the end, then takes the review offered."""

        def __init__(self) -> None:
            super().__init__()
            self.after = ["review", "p", "q"]

        # (typeshed gives StringIO the readline of _IOBase too, which returns bytes)
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            g = local.game
            if not g.is_over:
                return str(choose(g, 0, "random", seed=len(g.record().moves))) + "\n"
            return self.after.pop(0) + "\n" if self.after else ""

    assert local.run(Player()) == 0
    text = out.getvalue()
    count = len(local.game.record().moves)
    assert "Type `review` to go through the game move by move, or Enter to stop." in text
    assert [moved for moved, _lines in positions(text)] == [count, count - 1]
    views, _stages = walked(local.game.record().model_dump(mode="json"), 0, over=True)
    assert drawn == [views[count], views[count - 1]], "a finished game: everything"


def test_review_without_a_saved_game_or_of_a_file_that_is_not_one_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text = run(["--review", "--out", str(tmp_path / "empty")], "")
    assert code == 2 and not text
    assert capsys.readouterr().err == f"citta: no saved game in {tmp_path / 'empty'} to review.\n"
    path = tmp_path / "text.json"
    path.write_text("a game of La Città")
    code, text = run(["--review", str(path)], "")
    assert code == 2 and not text
    assert capsys.readouterr().err == f"citta: cannot review {path}: not a la-citta-local/1 file\n"
    record = {"players": ["A", "B"], "seed": 1, "setup": "beginner", "moves": [[1, "gold"]]}
    saved = {"format": "la-citta-local/1", "human": 0, "level": "basic", "record": record}
    path.write_text(json.dumps(saved))
    code, text = run(["--review", str(path)], "")
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(
        f"citta: cannot review {path}: a saved move does not apply (It is not your turn."
    )
