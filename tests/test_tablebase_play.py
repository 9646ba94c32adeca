"""Perfect play on side 4 from the tablebase: the searchers'
``tablebase`` option, ``Searcher.go``'s answer from the table, the command line
(``--tablebase``), the protocol option, and the fallback to searching.

The full tablebase is not needed: a small one is solved from two late positions and
written in the same format (its values are those of the full table, which the slow test
at the end solves once for the run).
"""

from __future__ import annotations

import dataclasses
import io
import json
import random
import shlex
from pathlib import Path

import numpy as np
import pytest

from hinge_fast import Board, Color
from hinge_fast.errors import HingeError
from hinge_fast.games.players import get_player
from hinge_fast.protocol.client import EngineOption
from hinge_fast.protocol.server import EngineSession
from hinge_fast.search import Limits, Score, create_searcher
from hinge_fast.search import tablebase as stb
from hinge_fast.search.registry import ENGINES, engine_spec
from hinge_fast.solving import tablebase as tbmod
from hinge_fast.solving.tablebase import Tablebase, probe, solve, write_tablebase

#: Blue to move wins in 3 (one winning move among eight).
WIN_START = "4/1bgg1/2bb2/2bgg2/1ggb2/2gb1/4 b"
#: Green to move loses: in 4 at best, in 2 after most moves.
LOSS_START = "4/1gbb1/1gg1b1/1bb1b2/1bgbg1/1ggg1/4 g"
#: In WIN_START's tree: Green wins in 3 or in 5, by its choice.
TWO_WINS = "4/1bgg1/2bbb1/2bgg2/1ggb2/2gb1/4 g"


@pytest.fixture(scope="module")
def small_tb(tmp_path_factory):
    """A tablebase of the positions reachable from WIN_START and LOSS_START."""
    results = [solve(fen, progress=False) for fen in (WIN_START, LOSS_START)]
    values = results[0].values.copy()
    values = np.where(values != 0, values, results[1].values)
    path = tmp_path_factory.mktemp("tb") / "small.tb"
    write_tablebase(dataclasses.replace(results[0], values=values), path, facts={"test": True})
    return path


@pytest.fixture(scope="module")
def tree(small_tb):
    """Every unfinished position of the two trees, as position strings."""
    seen, todo = set(), [Board.from_fen(WIN_START), Board.from_fen(LOSS_START)]
    while todo:
        board = todo.pop()
        if board.fen() in seen or board.is_game_over():
            continue
        seen.add(board.fen())
        for move in board.legal_moves:
            child = board.copy()
            child.push(move)
            todo.append(child)
    return sorted(seen)


def seeded(engine: str, seed: int) -> dict:
    """``{"seed": seed}`` for an engine with a ``seed`` option (MCTS), else nothing."""
    return {"seed": seed} if "seed" in engine_spec(engine).option_names else {}


def _choice_positions(tree, tb):
    """Positions where the distance depends on the choice: wins of two lengths, or
    only losses of two lengths."""
    out = []
    for fen in tree:
        answer = probe(Board.from_fen(fen), tb)
        wins = {m.distance for m in answer.moves if m.win}
        losses = {m.distance for m in answer.moves if not m.win}
        if len(wins) > 1 or (not wins and len(losses) > 1):
            out.append(fen)
    return out


def _best(answer):
    """(win, distance) of the best move: the fastest win, else the longest loss."""
    wins = [m.distance for m in answer.moves if m.win]
    if wins:
        return True, min(wins)
    return False, max(m.distance for m in answer.moves)


def _check_result(board, result, tb):
    """``result`` is the table's: a best move, its exact score, every root move scored
    as the table says, a principal variation that ends the game as the score says."""
    answer = probe(board, tb)
    assert result.tablebase
    value = {m.move: (m.win, m.distance) for m in answer.moves}
    assert value[result.move] == _best(answer) == (answer.win, answer.distance)
    assert result.score == (
        Score.win(answer.distance) if answer.win else Score.loss(answer.distance)
    )
    assert result.mate == (answer.distance if answer.win else -answer.distance)
    assert [rm.move for rm in result.root_moves] == [m.move for m in answer.moves]
    for rm in result.root_moves:
        win, distance = value[rm.move]
        assert rm.score == (Score.win(distance) if win else Score.loss(distance))
    assert result.pv[0] == result.move and len(result.pv) == answer.distance
    line = board.copy()
    for move in result.pv:
        assert not line.is_game_over()
        line.push(move)
    outcome = line.outcome()
    assert outcome is not None and (outcome.winner == board.turn) == answer.win


@pytest.mark.parametrize("engine", ENGINES)
def test_searchers_play_the_fastest_win_and_the_longest_loss(engine, small_tb, tree):
    tb = Tablebase(small_tb)
    chosen = _choice_positions(tree, tb)
    wins = [f for f in chosen if probe(Board.from_fen(f), tb).win]
    assert TWO_WINS in wins and LOSS_START in chosen and len(chosen) > len(wins) > 10
    searcher = create_searcher(engine, tablebase=str(small_tb), **seeded(engine, 1))
    for fen in chosen[:: max(1, len(chosen) // 40)] + [TWO_WINS, LOSS_START, WIN_START]:
        board = Board.from_fen(fen)
        result = searcher.go(board, Limits(nodes=50))
        _check_result(board, result, tb)
        assert board.fen() == fen and result.engine == engine
    result = searcher.go(Board.from_fen(TWO_WINS), Limits(nodes=50))
    assert str(result.score) == "win in 3"
    result = searcher.go(Board.from_fen(LOSS_START), Limits(nodes=50))
    assert str(result.score) == "loss in 4"


def test_every_move_of_every_position_of_a_tree(small_tb, tree):
    """Along the whole WIN_START tree, alpha-beta (deterministic) answers from the table."""
    tb = Tablebase(small_tb)
    searcher = create_searcher("alphabeta", tablebase=str(small_tb))
    for fen in tree:
        board = Board.from_fen(fen)
        _check_result(board, searcher.go(board, Limits(depth=1)), tb)


def test_progress_gets_the_result(small_tb):
    seen = []
    result = create_searcher("mcts", tablebase=str(small_tb)).go(
        Board.from_fen(WIN_START), Limits(nodes=10), seen.append
    )
    assert seen == [result]


def test_positions_not_in_the_table_are_searched(small_tb):
    for engine in ENGINES:
        searcher = create_searcher(engine, tablebase=str(small_tb), **seeded(engine, 1))
        for board in (Board(4), Board(6), Board.from_fen("4/5/6/2g4/6/5/4 b")):
            result = searcher.go(board, Limits(nodes=60))
            assert not result.tablebase and result.move in board.legal_moves
            if engine == "mcts":
                assert result.nodes == 60
    # finished games are left to the search too (no move)
    over = Board.from_fen("4/5/6/7/6/1gg2/4 b")
    assert over.is_game_over()
    assert (
        create_searcher("alphabeta", tablebase=str(small_tb)).go(over, Limits(depth=1)).move is None
    )


def test_off_does_not_use_it(small_tb):
    board = Board.from_fen(WIN_START)
    assert (
        not create_searcher("mcts", tablebase="off", seed=1).go(board, Limits(nodes=30)).tablebase
    )


def test_auto_uses_the_default_location_when_it_exists(small_tb, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    board = Board.from_fen(WIN_START)
    searcher = create_searcher("mcts", tablebase="auto", seed=1)
    assert not searcher.go(board, Limits(nodes=30)).tablebase  # nothing there: searched, silently
    target = tbmod.default_tablebase_path()
    target.parent.mkdir(parents=True)
    target.write_bytes(small_tb.read_bytes())
    assert searcher.go(board, Limits(nodes=30)).tablebase  # found once it is there
    assert str(searcher.go(board, Limits(nodes=30)).score) == "win in 3"


def test_the_option(small_tb, tmp_path, monkeypatch):
    check = stb.check_tablebase_option
    assert [check(v) for v in ("auto", "AUTO", "", " off ", "none", "false")] == [
        "auto",
        "auto",
        "off",
        "off",
        "off",
        "off",
    ]
    assert check(str(small_tb)) == str(small_tb) and check(small_tb) == str(small_tb)
    with pytest.raises(HingeError, match="no tablebase at"):
        check(str(tmp_path / "missing.tb"))
    junk = tmp_path / "junk.tb"
    junk.write_bytes(b"junk")
    with pytest.raises(HingeError, match="not a hinge-fast tablebase"):
        check(str(junk))
    with pytest.raises(HingeError, match="not a usable file name"):
        check("a;b.tb")
    with pytest.raises(HingeError, match="auto, off or a file"):
        check(3)
    # the test suite's default (conftest): off; the variable sets it
    assert engine_spec("mcts").option("tablebase").default == "off"
    monkeypatch.setenv(stb.TABLEBASE_VARIABLE, "auto")
    assert stb.default_tablebase_option() == "auto"
    monkeypatch.delenv(stb.TABLEBASE_VARIABLE)
    assert stb.default_tablebase_option() == "auto"


def test_a_replaced_file_is_opened_again(small_tb, tmp_path):
    path = tmp_path / "t.tb"
    path.write_bytes(small_tb.read_bytes())
    first = stb.open_tablebase(path)
    assert stb.open_tablebase(path) is first
    path.write_bytes(small_tb.read_bytes() + b"")  # same bytes, new time
    import os

    os.utime(path, ns=(1, 1))
    assert stb.open_tablebase(path) is not first


# ----- the command line --------------------------------------------------------------------------


def test_move_command(small_tb, cli):
    run = cli("move", WIN_START, "--tablebase", small_tb)
    assert run.status == 0 and run.out == "D6-D6xE6\n"
    assert run.err.rstrip().endswith(
        "best move D6-D6xE6: Blue wins in 3 (from the side-4 tablebase)"
    )
    run = cli("move", TWO_WINS, "--tablebase", small_tb, "--engine", "alphabeta", "--quiet")
    tb = Tablebase(small_tb)
    answer = probe(Board.from_fen(TWO_WINS), tb)
    assert {m.move for m in answer.moves if m.win and m.distance == 3} >= {
        Board.from_fen(TWO_WINS).parse_move(run.out.strip())
    }
    run = cli("move", LOSS_START, "--tablebase", small_tb, "-o", "threads=1")
    assert "best move E5: Blue wins in 4 (from the side-4 tablebase)" in run.err


def test_analyze_command(small_tb, cli):
    run = cli("analyze", WIN_START, "--tablebase", small_tb, "--top", "3", "--nodes", "100")
    assert run.status == 0
    lines = run.out.splitlines()
    assert lines[3].startswith(
        "best: D6-D6xE6, Blue wins in 3 (alphabeta, from the side-4 tablebase, "
    )
    assert lines[4:8] == [
        "top moves (exact, from the side-4 tablebase):",
        "  1. D6-D6xE6  Blue wins in 3",
        "  2. B4        Green wins in 4",
        "  3. C5        Green wins in 4",
    ]
    assert lines[8] == "principal variation: D6-D6xE6 B2 C4-C4xB2"
    run = cli(
        "analyze",
        LOSS_START,
        "--tablebase",
        small_tb,
        "--engine",
        "alphabeta",
        "--depth",
        "2",
        "--json",
    )
    report = json.loads(run.out)
    assert (
        report["tablebase"] is True
        and report["best"]["score_text"] == f"{report['turn'].capitalize()} loses in 4"
        and report["best"]["mate"] == -4
    )
    assert all(
        " loses in " in t["score_text"] or " wins in " in t["score_text"] for t in report["top"]
    )
    # not in the table: a search, as before
    report = json.loads(
        cli("analyze", "--size", "4", "--tablebase", small_tb, "--depth", "2", "--json").out
    )
    assert report["tablebase"] is False and report["depth"] == 2


@pytest.mark.parametrize(
    "argv",
    [
        ["move", "--size", "4"],
        ["analyze", "--size", "4"],
        ["move", "--size", "6"],
        ["engine"],
        ["play", "--size", "4"],
    ],
)
def test_a_bad_tablebase_is_one_line_and_exit_2(argv, cli, tmp_path, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"quit\n")))
    missing = tmp_path / "missing.tb"
    run = cli(*argv, "--tablebase", missing)
    assert run.status == 2 and run.err == f"error: no tablebase at {missing}\n" and run.out == ""
    junk = tmp_path / "junk.tb"
    junk.write_bytes(b"HINGETB\x01\xff\xff\xff\x00{")
    run = cli(*argv, "--tablebase", junk)
    assert (
        run.status == 2
        and run.err == f"error: {junk}: corrupt tablebase header (it claims 16777215 bytes)\n"
    )


def test_a_missing_default_is_silent(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    run = cli("move", WIN_START, "--tablebase", "auto", "--nodes", "50", "--seed", "1")
    assert run.status == 0 and "(tablebase)" not in run.err and "error" not in run.err


def test_play_falls_back_off_the_table(small_tb, cli, monkeypatch):
    """``play`` starts from the empty board, which a small table does not hold: the
    engine searches and says nothing of a tablebase."""
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\nquit\n"))
    run = cli(
        "play",
        "--size",
        "4",
        "--nodes",
        "20",
        "--seed",
        "1",
        "--tablebase",
        small_tb,
        "--side",
        "blue",
    )
    assert (
        run.status == 0
        and "engine plays" in run.out
        and "hint: " in run.out
        and "tablebase" not in run.out
    )


def test_players_and_match_specs(small_tb):
    player = get_player(f"mcts:tablebase={small_tb}", nodes=20, seed=1)
    board = Board.from_fen(WIN_START)
    assert str(player.choose(board)) == "D6-D6xE6" and player.last_result.tablebase
    player = get_player("alphabeta", nodes=20, options={"tablebase": str(small_tb)})
    assert str(player.choose(board)) == "D6-D6xE6"
    with pytest.raises(HingeError, match="takes no options"):
        get_player("greedy", options={"tablebase": str(small_tb)})


def test_solve_from(cli, tmp_path):
    out = tmp_path / "late.tb"
    run = cli("solve", "--from", WIN_START, "--out", out, "--quiet")
    assert run.status == 0
    lines = run.out.splitlines()
    assert (
        lines[0]
        == f"reachable (board, side to move) pairs from {WIN_START}: 13,067 (1,038 classes)"
    )
    assert lines[2] == "the position, blue to move: win in 3"
    assert probe(Board.from_fen(WIN_START), Tablebase(out, verify=True)).describe() == "win in 3"
    run = cli("solve", "--from", WIN_START)
    assert run.status == 2 and "needs --out" in run.err and run.err.count("\n") == 1
    run = cli("solve", "--from", "start", "--out", out)
    assert run.status == 2 and run.err.count("\n") == 1


# ----- the protocol ------------------------------------------------------------------------------


def test_protocol_option(small_tb, tmp_path):
    session = EngineSession(strict=True)
    line = session.handle("options get tablebase")[0]
    assert line == "tablebase;string;off;off;;"
    option = EngineOption.parse(line)
    assert (option.name, option.kind, option.value, option.default) == (
        "tablebase",
        "string",
        "off",
        "off",
    )
    before = session.snapshot()
    answer = session.handle(f"options set tablebase {tmp_path / 'missing.tb'}")
    assert (
        answer == [f"err no tablebase at {tmp_path / 'missing.tb'}", "ok"]
        and session.snapshot() == before
    )
    assert session.handle(f"options set tablebase {small_tb}") == [
        f"tablebase;string;{small_tb};off;;",
        "ok",
    ]
    session.handle(f"newgame {WIN_START}")
    answer = session.handle("bestmove nodes 100")
    assert answer[-2:] == ["D6-D6xE6", "ok"]
    assert answer[0].startswith("info depth 3 score win 3 nodes ") and answer[0].endswith(
        " pv D6-D6xE6 B2 C4-C4xB2"
    )
    assert session.last_result.tablebase
    session.handle("options set engine alphabeta")
    session.handle(f"newgame {LOSS_START}")
    answer = session.handle("bestmove depth 1")
    assert "score loss 4" in answer[0] and session.last_result.tablebase
    session.handle("options set tablebase off")
    session.handle("bestmove depth 1")
    assert not session.last_result.tablebase


def test_engine_command_option(small_tb, tmp_path, monkeypatch, capsys):
    from hinge_fast.cli import main

    monkeypatch.setattr(
        "sys.stdin",
        io.TextIOWrapper(
            io.BytesIO(
                f"options get tablebase\nnewgame {WIN_START}\nbestmove nodes 50\nquit\n".encode()
            )
        ),
    )
    assert main(["engine", "--tablebase", str(small_tb)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"tablebase;string;{small_tb};off;;" and "D6-D6xE6" in out


# ----- the full table ------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_whole_side4_table(cli, monkeypatch, side4_table):
    """The whole side-4 board, solved once for the run (about two minutes and 4 GB, so
    in the slow suite; one test, so that its checks need the table on one worker only):

    * the independently established facts, exactly, and every value the minimax of its
      children's, over the whole table and along random games;
    * the probe example of docs/solve.md (run there on a table solved from its
      position) gives the same lines with the whole table at the default location;
    * both engines, playing each other from the empty board with the table at its
      default location, make only table-best moves, and Green wins in 13 plies;
      ``play`` shows the values."""
    from hinge_fast.core import retro

    facts = side4_table.facts
    assert facts["positions_by_side"] == [400_410_975, 392_105_089]
    assert facts["positions"] == 792_516_064
    assert (facts["wins"], facts["losses"], facts["unsolved"]) == (566_840_847, 225_675_217, 0)
    assert retro.code_win(facts["start_code"])
    assert facts["inconsistent"] == 0
    firsts = facts["first_moves"]
    assert len(firsts) == 19 and all(win for _, win, _ in firsts)
    answer = probe(Board(4), Tablebase(side4_table.path, verify=True))
    assert answer.win and all(m.win for m in answer.moves)
    # Along random games, each value is the minimax of its moves' values: the shortest
    # win, else the longest loss; a finished game is a loss in 0.
    rng = random.Random(4)
    tb = Tablebase(side4_table.path)
    for _ in range(40):
        board = Board(4)
        while not board.is_game_over():
            answer = probe(board, tb)
            if answer.win:
                assert answer.distance == min(m.distance for m in answer.moves if m.win)
            else:
                assert all(not m.win for m in answer.moves)
                assert answer.distance == max(m.distance for m in answer.moves)
            board.push(rng.choice(board.legal_moves))
        assert probe(board, tb)[:2] == (False, 0)

    monkeypatch.setenv("XDG_DATA_HOME", str(side4_table.data))
    path = tbmod.default_tablebase_path()
    assert path == side4_table.path
    text = (Path(__file__).resolve().parent.parent / "docs" / "solve.md").read_text()
    block = text.split("$ hinge-fast probe ", 1)[1].split("```", 1)[0].splitlines()
    run = cli("probe", *shlex.split(block[0]), "--tablebase", path)
    assert run.status == 0 and run.out.splitlines() == block[1:]

    players = [
        create_searcher("mcts", tablebase=str(path), seed=1),
        create_searcher("alphabeta", tablebase=str(path)),
    ]
    for first in range(2):
        board = Board(4)
        ply = 0
        while not board.is_game_over():
            searcher = players[(ply + first) % 2]
            result = searcher.go(board, Limits(nodes=100))
            _check_result(board, result, tb)
            board.push(result.move)
            ply += 1
        assert ply == 13 and board.outcome().winner == Color.GREEN
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\nquit\n"))
    run = cli("play", "--size", "4", "--side", "blue", "--tablebase", "auto")
    assert (
        "engine plays B3 (tablebase: Green wins in 13)" in run.out
        and "hint: " in run.out
        and "(tablebase: Green wins in 12)" in run.out
    )
