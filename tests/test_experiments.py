"""Every program in experiments/ runs one way, ``python -m experiments.NAME``: its
``--help`` works (and names that command line), its docstring shows an example, and
experiments/README.md says what it is."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXPERIMENTS = sorted(p.stem for p in (ROOT / "experiments").glob("*.py") if p.stem != "__init__")


def test_the_experiments_are_found_and_each_is_in_the_readme():
    assert {"texel", "fit_win_scale", "find_tactics"} <= set(EXPERIMENTS)
    readme = (ROOT / "experiments" / "README.md").read_text()
    for name in EXPERIMENTS:
        assert f"`{name}.py`" in readme and f"python -m experiments.{name}" in readme, name


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_help(name):
    done = subprocess.run(
        [sys.executable, "-m", f"experiments.{name}", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert f"usage: python -m experiments.{name}" in done.stdout


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_docstring_has_an_example_and_it_exits_through_run_script(name):
    text = (ROOT / "experiments" / f"{name}.py").read_text()
    docstring = ast.get_docstring(ast.parse(text))
    assert docstring and "Example" in docstring, (
        f"experiments/{name}.py: no Example in its docstring"
    )
    assert "    run_script(main)\n" in text, name


def test_a_mistake_is_one_line_and_status_2():
    done = subprocess.run(
        [sys.executable, "-m", "experiments.texel", "fit", "no/such.npz"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (done.returncode, done.stderr) == (
        2,
        "error: No such file or directory: no/such.npz\n",
    )


def test_the_win_scale_fit_finds_the_scale_of_its_data():
    """Results drawn from the logistic curve with scale 800 give back about 800; a game
    of self-play records a score per searched position and the winner."""
    import random

    import numpy as np

    from experiments.fit_win_scale import fit_scale, play_one
    from hinge_fast.search import create_searcher

    rng = np.random.default_rng(3)
    score = rng.integers(-4000, 4000, size=20_000)
    won = (rng.random(len(score)) < 1 / (1 + np.exp(-score / 800))).astype(np.int64)
    assert abs(fit_scale(score, won) - 800) < 40
    scores, movers, winner = play_one(
        create_searcher("alphabeta", threads=1, table_mb=1), 4, 200, random.Random(1)
    )
    assert len(scores) == len(movers) > 0 and winner in (0, 1, None) and set(movers) <= {0, 1}


def test_records_takes_each_game_once_with_its_result(tmp_path):
    """``texel records``: the leaves of the positions of played games, a game held by
    two files counted once, each labelled with the result for its leaf's side to move."""
    import numpy as np

    from experiments.texel import main as texel
    from hinge_fast.cli import main as cli
    from hinge_fast.records.record import read_records

    games = tmp_path / "m.hgn"
    argv = ["match", "greedy", "random", "--games", "4", "--size", "4", "--seed", "2"]
    assert cli([*argv, "--out", str(games)]) == 0
    records = read_records(games)
    out = tmp_path / "leaves.npz"
    texel(["records", str(games), str(games), "--out", str(out)])
    data = np.load(out)
    assert sorted(set(data["game"].tolist())) == [0, 1, 2, 3]
    assert set(data["size"].tolist()) == {4} and set(data["result"].tolist()) <= {0.0, 1.0}
    # no more positions than the games have before their end, a verdict's left out
    assert 0 < len(data["result"]) <= sum(len(r.moves) for r in records)
    assert data["terms"].shape == (len(data["result"]), 10) and data["cells"].shape[0] == len(
        data["result"]
    )
