"""The search entry point and the ``move`` command, with alpha-beta behind them."""

from __future__ import annotations

import threading

import pytest

import hinge_fast
from hinge_fast import Board, HingeError
from hinge_fast.cli import main
from tests.conftest import MID_GAME

BLUE_ELIMINATED = "4/3b1/3bb1/1bbbbb1/2b1g1/3g1/4 g"  # Green flips Blue's only group with D2-D3xB4


def stderr_lines(err):
    """stderr without numba's one-off compilation notice."""
    return [line for line in err.splitlines() if not line.startswith("hinge-fast: compiling")]


def test_search_dispatches_to_alphabeta():
    board = Board.from_fen(MID_GAME)
    result = hinge_fast.search(board, engine="alphabeta", depth=2)
    assert result.engine == "alphabeta" and result.depth == 2
    assert result.move in board.legal_moves
    assert hinge_fast.search(board, engine="alphabeta", depth=2, table_mb=0).score == result.score
    assert (
        hinge_fast.search(board, depth=2).engine == "alphabeta"
    )  # the default engine has no depths


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"engine": "minimax", "depth": 1}, "unknown engine"),
        ({"time": 0}, "time must be more than 0"),
        ({"nodes": 0}, "nodes must be from 1"),
        ({"depth": 65}, "depth must be from 1 to 64"),
        (
            {"engine": "alphabeta", "depth": 1, "colour": "green"},
            "unknown option 'colour' of engine alphabeta",
        ),
        ({"engine": "alphabeta", "depth": 1, "table_mb": -3}, "table_mb must be from 0"),
        ({"engine": "mcts", "depth": 3}, "engine mcts has no depth limit"),
        ({"engine": "mcts", "nodes": 5, "seed": -2}, "seed must be from -1"),
    ],
)
def test_bad_search_arguments(kwargs, message):
    with pytest.raises(HingeError, match=message):
        hinge_fast.search(Board(), **kwargs)


def test_time_limit_is_kept():
    result = hinge_fast.search(Board.from_fen(MID_GAME), time=0.1)
    assert result.move is not None
    assert result.seconds < 0.5  # 5% plus a few ms in quiet conditions; loose for busy machines


def test_move_command_prints_the_move_last(capsys):
    assert main(["move", MID_GAME, "--depth", "3"]) == 0
    out, err = capsys.readouterr()
    move = out.strip().splitlines()[-1]
    assert Board.from_fen(MID_GAME).parse_move(move)
    lines = stderr_lines(err)
    assert [line.split()[1] for line in lines if line.startswith("depth")] == ["1:", "2:", "3:"]
    assert lines[-1].startswith(f"best move {move}: Green ")


def test_move_command_quiet_and_node_limit(capsys):
    assert main(["move", "start", "--size", "5", "--nodes", "1", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() in {str(m) for m in Board(5).legal_moves}
    assert stderr_lines(err) == []


def test_move_command_finds_the_elimination(capsys):
    assert main(["move", BLUE_ELIMINATED, "--time", "0.5"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == "D2-D3xB4"
    assert "best move D2-D3xB4: Green wins in 1 (" in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["move", "--time", "abc"],
            "error: argument --time: time must be a number of seconds, not 'abc'",
        ),
        (["move", "--time", "0"], "error: argument --time: time must be more than 0"),
        (["move", "--depth", "0"], "error: argument --depth: depth must be from 1 to 64, not 0"),
        (["move", "--nodes", "x"], "error: argument --nodes: nodes must be a whole number"),
        (["move", "--engine", "minimax"], "error: argument --engine: invalid choice"),
        (["move", "6/7 g"], "error: position string has 2 rows"),
        (["move", "4/3bb/4/5/4/3/2 g"], "error:"),
    ],
)
def test_move_command_bad_input(capsys, argv, message):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = stderr_lines(err)
    assert len(lines) == 1 and lines[0].startswith(message)


def test_move_command_on_a_finished_game(capsys):
    board = Board.from_fen(BLUE_ELIMINATED)
    board.push("D2-D3xB4")
    assert main(["move", board.fen()]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert stderr_lines(err) == ["error: the game is over: green wins by elimination"]


@pytest.mark.parametrize("engine", hinge_fast.search.ENGINES)
def test_stop_from_another_thread_ends_a_long_search_early(engine):
    from hinge_fast.search import Limits, create_searcher

    board = Board.from_fen(MID_GAME)
    searcher = create_searcher(engine)
    first = threading.Event()
    timer = threading.Timer(60, searcher.stop)  # a safety net only

    def on_progress(result):
        if not first.is_set():
            first.set()
            threading.Thread(target=searcher.stop).start()

    timer.start()
    try:
        result = searcher.go(board, Limits(time=3600), on_progress)
    finally:
        timer.cancel()
    assert first.is_set() and result.move in board.legal_moves
    assert result.seconds < 30
