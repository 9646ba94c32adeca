"""Every tool in scripts/ runs one way, ``python -m scripts.NAME``: its ``--help`` works
(and names that command line), and its docstring shows an example."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from hinge_fast.errors import HingeError

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted(p.stem for p in (ROOT / "scripts").glob("*.py") if p.stem != "__init__")


def test_the_scripts_are_found():
    assert {"baseline", "ground_truth", "make_perft_table", "nps_ab"} <= set(SCRIPTS)


@pytest.mark.parametrize("name", SCRIPTS)
def test_help(name):
    done = subprocess.run(
        [sys.executable, "-m", f"scripts.{name}", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert f"usage: python -m scripts.{name}" in done.stdout


def test_every_script_exits_through_run_script():
    # the one place that turns a HingeError, an unreadable file or Ctrl-C into one line
    for name in SCRIPTS:
        assert "    run_script(main)\n" in (ROOT / "scripts" / f"{name}.py").read_text(), name


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["ground_truth", "--tablebase", "no/such.tb", "--positions", "2"],
            "error: no tablebase at no/such.tb",
        ),
    ],
)
def test_a_mistake_is_one_line_and_status_2(argv, message):
    done = subprocess.run(
        [sys.executable, "-m", f"scripts.{argv[0]}", *argv[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (done.returncode, done.stderr) == (2, message + "\n")


@pytest.mark.parametrize("name", SCRIPTS)
def test_docstring_has_an_example(name):
    docstring = ast.get_docstring(ast.parse((ROOT / "scripts" / f"{name}.py").read_text()))
    assert docstring and "Example" in docstring, f"scripts/{name}.py: no Example in its docstring"


@pytest.mark.parametrize("engine", ["alphabeta", "mcts"])
def test_ground_truth_asks_a_fresh_process_for_the_same_move_as_a_search_here(engine):
    # --command: one `hinge-fast move` process per search; with a node limit and a seed
    # the process picks the move the same search picks in this process.
    import hinge_fast
    from hinge_fast import Board
    from scripts.ground_truth import command_move

    command = str(Path(sys.executable).parent / "hinge-fast")
    board = Board.from_fen("4/1bgg1/2bb2/2bgg2/1ggb2/2gb1/4 b")
    options = {"tablebase": "off", "threads": 1}
    here = hinge_fast.search(board.copy(), engine=engine, seed=7, nodes=300, **options).move
    assert (
        board.parse_move(command_move(command, board, engine, options, {"nodes": 300}, 7)) == here
    )


def test_perft_profile_reads_cachegrind_and_divides_by_the_leaves_added():
    from scripts.perft_profile import LEAVES, parse_cachegrind, per_leaf

    summary = (
        "==1== I   refs:      3,132,169,094\n==1== Branches:        526,713,727  (447,942,212 cond + 78,771,515 ind)\n"
        "==1== Mispredicts:      54,560,657  ( 29,571,246 cond + 24,989,411 ind)\n"
    )
    low = {"leaves": 59232, **parse_cachegrind(summary)}
    assert low == {
        "leaves": 59232,
        "instructions": 3132169094,
        "branches": 526713727,
        "mispredictions": 54560657,
    }
    high = dict(low, leaves=59232 + 1000, instructions=low["instructions"] + 90_000)
    assert per_leaf(low, high)["instructions"] == 90.0 and per_leaf(low, high)["branches"] == 0.0
    # both programs' ways of printing a count
    assert LEAVES.findall("59232\n") == ["59232"] and LEAVES.findall(
        "perft(5) = 59232\nbulk 0.1 s\n"
    ) == ["59232"]


def test_the_growth_fit_recovers_an_exact_exponential():
    from scripts.prove_growth import extrapolate

    plies = [{"ply": p, "median": 7 * 3 ** (20 - p), "measured": True} for p in (20, 18, 16, 14)]
    fit = extrapolate(plies + [{"ply": 12, "median": 1, "measured": False}])
    assert fit["plies"] == [20, 18, 16, 14]  # the ply whose median is a bound is left out
    assert fit["factor_per_ply"] == pytest.approx(3)
    assert fit["nodes"] == pytest.approx(7 * 3**20, rel=1e-6)
    assert (
        fit["low"] == pytest.approx(fit["nodes"], rel=1e-6) == pytest.approx(fit["high"], rel=1e-6)
    )
    assert extrapolate(plies[:2]) is None


def test_the_growth_summary_calls_a_median_measured_only_when_most_are_proven():
    from scripts.prove_growth import ply_summary

    rows = [
        {"nodes": n, "winner": w, "to_move": "green"}
        for n, w in [(10, "green"), (100, "blue"), (1000, None), (1000, None)]
    ]
    s = ply_summary(12, rows, 1000)
    assert (s["positions"], s["proven"], s["mover_wins"], s["largest"]) == (4, 2, 1, 1000)
    assert s["median"] == 550 and not s["measured"]
    assert ply_summary(12, rows[:3], 1000)["measured"]


def test_prove_growth_proves_the_positions_of_its_games(tmp_path):
    import json

    from hinge_fast import Board
    from hinge_fast.search.prover import Prover
    from scripts.prove_growth import main

    out = tmp_path / "growth.json"
    assert (
        main(["--games", "2", "--plies", "20,19,18", "--nodes", "20000", "--json", str(out)]) == 0
    )
    data = json.loads(out.read_text())
    assert [s["ply"] for s in data["plies"]] == [20, 19, 18]
    for row in data["positions"]:
        board = Board.from_fen(row["position"])
        # a ply counts from the empty board: its parity says who is to move
        assert str(board.turn) == row["to_move"] == ("green" if row["ply"] % 2 == 0 else "blue")
        again = Prover(table_mb=16).prove(board, nodes=20_000, interruptible=False)
        assert (None if again.winner is None else str(again.winner)) == row["winner"]


def test_prove_growth_takes_the_positions_of_recorded_games(tmp_path):
    import json

    from hinge_fast.records.record import GameRecord, write_records
    from scripts.prove_growth import main

    games = tmp_path / "games.hgn"
    moves = ["C3", "H7", "B2", "F3", "H5", "F4", "H6", "G6"]
    start = "5/6/7/8/4g4/8/7/6/5 b"  # one placement made: plies count from the empty board
    write_records(games, [GameRecord(5, moves), GameRecord(5, moves[1:4], start=start)])
    out = tmp_path / "growth.json"
    assert (
        main(["--records", str(games), "--plies", "8,3", "--nodes", "500", "--json", str(out)]) == 0
    )
    data = json.loads(out.read_text())
    assert data["size"] == 5 and data["games"] == 2
    by_ply = {}
    for row in data["positions"]:
        by_ply.setdefault(row["ply"], []).append((row["game"], row["position"]))
    after_three = GameRecord(5, moves).board_at(3).fen()
    assert by_ply[3] == [
        (0, after_three),
        (1, GameRecord(5, moves[1:4], start=start).board_at(2).fen()),
    ]
    assert 8 not in by_ply  # the first game ends at ply 8 and the second before: nothing to prove


def test_prove_growth_refuses_records_of_two_sides(tmp_path):
    from hinge_fast.records.record import GameRecord, write_records
    from scripts.prove_growth import main

    games = tmp_path / "games.hgn"
    write_records(games, [GameRecord(5, ["C3", "H7"]), GameRecord(4, ["B2"])])
    out = tmp_path / "growth.json"
    with pytest.raises(HingeError) as refused:
        main(["--records", str(games), "--plies", "1", "--json", str(out)])
    assert (
        str(refused.value)
        == f"{games} mixes games of sides 4, 5: the growth is measured on one side"
    )
    assert not out.exists()


def test_prove_check_parts_name_one_slice_each_of_the_draw():
    import argparse

    from scripts.prove_check import part_of, take_part

    assert part_of("1/1") == (1, 1) and part_of("2/3") == (2, 3)
    for bad in ("0/2", "3/2", "1", "a/b", "1/0", "-1/2"):
        with pytest.raises(argparse.ArgumentTypeError):
            part_of(bad)
    draw = list(range(10))
    slices = [take_part(draw, k, 3) for k in (1, 2, 3)]
    assert slices[0] == [0, 3, 6, 9] and sorted(sum(slices, [])) == draw
    assert take_part(draw, 1, 1) == draw


def test_the_structure_figures_of_a_small_package(tmp_path):
    """scripts/structure.py counts lines, function lengths, parameters (without self),
    imports inside functions, and finds a cycle through an import inside a function
    (not one through an import under TYPE_CHECKING)."""
    from scripts.structure import measure, report

    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text('"""A package."""\n')
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from .sub import b\n"
        "if TYPE_CHECKING:\n"
        "    from . import c\n"
        "class K:\n"
        "    def method(self, x, *, y=1, **rest):\n"
        "        return x\n"
    )
    (package / "sub" / "b.py").write_text(
        "def f():\n    from ..a import K\n    import json\n    return K, json\n"
    )
    (package / "c.py").write_text("from .a import K\n")
    figures = measure(package)
    assert figures.modules["pkg.a"] == 7 and figures.modules["pkg"] == 1
    assert figures.functions == {"pkg.a:K.method": 2, "pkg.sub.b:f": 4}
    assert figures.parameters["pkg.a:K.method"] == 3
    assert figures.function_imports == {
        "pkg": 0,
        "pkg.a": 0,
        "pkg.c": 0,
        "pkg.sub": 0,
        "pkg.sub.b": 2,
    }
    assert figures.cycles == [["pkg.a", "pkg.sub.b"]]
    text = report(figures, top=1)
    assert "imports inside functions: 2" in text and "pkg.a <-> pkg.sub.b" in text


def test_move_loss_counts_each_player_by_round(tmp_path):
    # Blue can eliminate Green at once (B4-C4xD2). In round 1 the second player is Blue
    # and places instead; in round 2 the first player is Blue and eliminates.
    start = "4/2gb1/2ggg1/1b2g2/1b2g1/1bbg1/4 b"
    games = tmp_path / "games.hgn"
    games.write_text(
        "".join(
            f'[Round "{r}"]\n[Size "4"]\n[Start "{start}"]\n[Result "{result}"]\n'
            f'[PlayerA "first"]\n[PlayerB "second"]\n\n1... {move} {result}\n\n'
            for r, move, result in ((1, "C3", "unfinished"), (2, "B4-C4xD2", "blue"))
        )
    )
    done = subprocess.run(
        [sys.executable, "-m", "scripts.move_loss", str(games), "--depth", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "A (first): 1 moves, mean loss 0 centi-tokens, 0.0% losing 500 or more",
        "B (second): 1 moves, mean loss 5000 centi-tokens, 100.0% losing 500 or more",
    ]
