"""``hinge-fast play``: a game driven through stdin (fake stdin, and one real pipe)."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hinge_fast import Board, Color
from hinge_fast.cli import main
from hinge_fast.commands.play import TerminalGame
from hinge_fast.games.players import get_player
from hinge_fast.records.record import read_records

ROOT = Path(__file__).resolve().parent.parent


def play(monkeypatch, capsys, lines, *args):
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    status = main(["play", "--size", "4", "--engine", "random", "--seed", "1", *args])
    return status, capsys.readouterr()


def test_moves_illegal_undo_hint_save_quit(monkeypatch, capsys, tmp_path):
    record = tmp_path / "game.hgn"
    status, out = play(
        monkeypatch,
        capsys,
        [
            "help",
            "C3",
            "moves",
            "A1",
            "Z9",
            "hello there",
            "undo",
            "hint",
            "C3",
            "save " + str(record),
            "quit",
            "F6",
        ],
    )
    assert status == 0 and out.err == ""
    text = out.out
    assert "You play green against random" in text
    assert "you play C3" in text and text.count("engine plays ") == 2
    assert "illegal move A1: A1 is an edge cell" in text
    assert "Z9 is not a cell of the side-4 board" in text
    assert "cannot read move 'hello there'" in text
    assert "taken back: C3 " in text
    assert "hint: " in text
    assert text.rstrip().endswith("bye")
    assert "\x1b[" not in text  # no ANSI colours when stdout is not a terminal
    [game] = read_records(record)
    assert game.moves[0] == "C3" and len(game.moves) == 2
    assert (
        game.tags["Green"] == "you"
        and game.tags["Blue"] == "random"
        and game.result == "unfinished"
    )
    # the legal moves listed after C3 and the engine's answer are those of that position
    board = Board(4)
    board.push_str("C3")
    first_answer = text.split("engine plays ", 1)[1].split("\n", 1)[0]
    board.push_str(first_answer)
    assert " ".join(str(m) for m in board.legal_moves) in text


def test_engine_moves_first_when_you_play_blue(monkeypatch, capsys):
    status, out = play(monkeypatch, capsys, [], "--side", "blue")
    assert status == 0
    lines = out.out.splitlines()
    assert "You play blue" in lines[0]
    assert any(line.startswith("engine plays ") for line in lines)
    assert lines[-1] == "end of input: game left"


def test_undo_with_nothing_to_take_back(monkeypatch, capsys):
    status, out = play(monkeypatch, capsys, ["undo"])
    assert status == 0 and "nothing to take back" in out.out


def test_game_over_is_announced_and_moves_refused():
    # Green to move can eliminate Blue's only group (F5) with a swipe.
    board = Board.from_fen("6/7/8/9/10/4gg5/5b4/9/8/7/6 g")
    winning = next(m for m in board.legal_moves if m.is_swipe)
    stdin = io.StringIO(f"{winning}\nG7\nundo\nquit\n")
    stdout = io.StringIO()
    game = TerminalGame(
        board, Color.GREEN, get_player("random", seed=1), "random", stdin, stdout, False
    )
    assert game.run() == 0
    text = stdout.getvalue()
    assert "game over: green wins by elimination (you win)" in text
    assert "the game is over" in text
    assert f"taken back: {winning}" in text


@pytest.mark.parametrize(
    "args, message",
    [
        (["--side", "purple"], "--side must be green or blue"),
        (["--engine", "nobody"], "nobody"),
        (["--size", "12"], "S must be from 4 to 9"),
        (["--time", "0"], "time must be more than 0"),
    ],
)
def test_bad_options_are_one_error_line(monkeypatch, capsys, args, message):
    status, out = play(monkeypatch, capsys, [], *args)
    assert status == 2
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_through_a_real_pipe(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "hinge_fast.cli",
            "play",
            "--size",
            "4",
            "--engine",
            "random",
            "--seed",
            "3",
            "--no-color",
        ],
        input="C3\nmoves\nbogus\n",  # no quit: end of input ends the game
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert proc.returncode == 0
    assert "you play C3" in proc.stdout and "engine plays " in proc.stdout
    assert "cannot read move 'bogus'" in proc.stdout
    assert proc.stdout.rstrip().endswith("end of input: game left")
    assert "Traceback" not in proc.stderr
