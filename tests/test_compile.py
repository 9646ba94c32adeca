"""Compile time is user time: a command compiles only the kernels it runs, for the board
side it runs on, and says so; ``hinge-fast warmup`` compiles everything, after which no
command compiles anything. Compiles are read from numba's own compile events
(``kernels.COMPILE_NOTICE``), never from the wall time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Runs the commands of argv[1] (a JSON list of argument lists) in this one fresh
#: process and prints, per command, its exit status and the kernels it compiled.
RUNNER = """
import contextlib, io, json, sys
from hinge_fast.core import kernels
from hinge_fast import cli
out = []
for argv in json.loads(sys.argv[1]):
    before = kernels.COMPILE_NOTICE.compiled
    with contextlib.redirect_stdout(io.StringIO()):
        status = cli.main(argv)
    out.append([argv, status, kernels.COMPILE_NOTICE.names[before:]])
print(json.dumps(out))
"""


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    env.update(extra)
    return env


def hinge_fast(*argv, timeout=900):
    """Run ``hinge-fast ARGV`` in a fresh process (the suite's kernel cache)."""
    return subprocess.run(
        [sys.executable, "-m", "hinge_fast.cli", *argv],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_commands(commands, env=None, timeout=900):
    run = subprocess.run(
        [sys.executable, "-c", RUNNER, json.dumps(commands)],
        cwd=ROOT,
        env=env or _env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1]), run.stderr


def commands_of_side(size: int, folder: Path) -> list[list[str]]:
    """What users run on one side: both engines by nodes and by time, on more threads,
    analysis (text and JSON), perft (bulk, made, threads), playouts, the prover; on
    side 4 the solver and a probe of the table it wrote."""
    s = str(size)
    commands = [
        ["move", "--size", s, "--nodes", "300"],
        ["move", "--size", s, "--engine", "mcts", "--nodes", "300"],
        ["move", "--size", s, "--time", "0.1", "-o", "threads=2"],
        ["move", "--size", s, "--engine", "mcts", "--time", "0.1", "-o", "threads=2"],
        ["analyze", "--size", s, "--depth", "2", "--top", "2"],
        ["analyze", "--size", s, "--engine", "mcts", "--nodes", "300", "--json"],
        ["perft", "3", "--size", s, "--threads", "1"],
        ["perft", "3", "--size", s, "--no-bulk", "--threads", "2"],
        ["playouts", "100", "--size", s],
        ["prove", "--size", s, "--nodes", "500", "--table-mb", "16", "--quiet"],
        ["prove", "--size", s, "--nodes", "500", "--table-mb", "16", "--threads", "2", "--quiet"],
    ]
    if size == 4:
        table = str(folder / "side4.tb")
        near_end = "4/1ggb1/1bgbg1/1gbgbg1/1bgbg1/1gbg1/4 g"
        commands += [
            ["solve", "--from", near_end, "--out", table, "--quiet"],
            ["probe", "--tablebase", table, near_end],
        ]
    return commands


def test_after_warmup_no_command_compiles_on_any_side(tmp_path):
    """After ``hinge-fast warmup``, fresh processes running move, analyze, perft,
    playouts, prove, solve and probe with both engines on every side from 4 to 9
    compile no kernel at all; it removes the kernels of earlier builds from the cache."""
    from hinge_fast.core.jit import cache_folders

    (folder,) = [f for f in cache_folders() if list(f.glob("moves.moves_in-*.nbi"))]
    stale = _plant_stale_kernels(folder)  # the suite's conftest has warmed this cache
    warm = hinge_fast("warmup", timeout=1800)
    assert warm.returncode == 0, warm.stderr[-3000:]
    assert not any(p.exists() for p in stale)
    assert "cached kernel files of earlier builds" in warm.stdout, warm.stdout
    for size in range(4, 10):
        results, err = run_commands(commands_of_side(size, tmp_path))
        for argv, status, compiled in results:
            assert status in (0, 1), (argv, err[-2000:])
            assert compiled == [], (argv, compiled)
        assert "compiling" not in err


def test_a_command_compiles_only_its_side_and_says_so_and_removes_earlier_builds(tmp_path):
    """On an empty cache, ``moves --size 4`` compiles the move generator for side 4's
    one-word sets only (no kernel of another side, no search), says so once on stderr,
    and the same command again compiles nothing.

    Numba never loads a cached kernel of an earlier build again, nor deletes it: the
    first compile of a build removes them from its install's folders (and nothing of
    another package, or of this build), so that upgrades do not pile up in the cache."""
    cache = tmp_path / "cache"
    env = _env(HINGE_FAST_CACHE_DIR=str(cache))
    (first,), err = run_commands([["moves", "--size", "4"]], env)
    argv, status, compiled = first
    assert status == 0 and compiled, compiled
    assert err.count("hinge-fast: compiling the kernels this command runs for side 4") == 1, err
    assert not {"negamax", "run_iterations", "mid", "perft_sets", "games_in"} & set(compiled), (
        compiled
    )
    (again,), err = run_commands([["moves", "--size", "4"]], env)
    assert again[2] == [] and "compiling" not in err
    # Files of an earlier build, and another package's, beside side 4's kernels
    (folder,) = {p.parent for p in cache.rglob("moves.moves_in-*.nbi")}
    stale = _plant_stale_kernels(folder)
    kept = sorted(folder.iterdir())
    foreign = cache / "other_0123" / "theirs.f-1.py311.nbi"
    foreign.parent.mkdir()
    foreign.write_bytes(stale[0].read_bytes())
    # The kernels compiled were for one word per set: a second side of another layout
    # compiles its own versions, which side 4's run did not; that compile removes the
    # earlier build's files and nothing else.
    (other,), _ = run_commands([["moves", "--size", "7"]], env)
    assert "list_moves" in other[2]
    assert not any(p.exists() for p in stale)
    assert set(kept) - set(stale) <= set(folder.iterdir())
    assert foreign.exists()
    (again,), err = run_commands([["moves", "--size", "4"]], env)
    assert again[2] == [] and "compiling" not in err  # this build's kernels all kept


def _plant_stale_kernels(folder: Path) -> list[Path]:
    """Files of an earlier build in the cache folder ``folder``: an index stamped by
    another build with its data file, and a data file that a current index (of
    ``moves.moves_in``) does not name. Returns them."""
    import pickle

    import numba

    index = folder / "movecode.gone-1.py311.nbi"
    index.write_bytes(
        pickle.dumps(numba.__version__)
        + pickle.dumps(("an earlier build", {("sig",): "movecode.gone-1.py311.1.nbc"}))
    )
    (current,) = folder.glob("moves.moves_in-*.nbi")
    unnamed = folder / current.name.replace(".nbi", ".9.nbc")
    data = folder / "movecode.gone-1.py311.1.nbc"
    for path in (data, unnamed):
        path.write_bytes(b"stale")
    return [index, data, unnamed]


def test_kernel_cache_folder_honours_the_settings_whatever_was_imported_first(tmp_path):
    """hinge-fast's kernels go to HINGE_FAST_CACHE_DIR, else NUMBA_CACHE_DIR, else
    XDG_CACHE_HOME/hinge-fast/numba, even when numba was imported first; another
    package's numba cache stays where numba puts it (beside its source)."""
    other = tmp_path / "other_pkg.py"
    other.write_text("import numba\n\n@numba.njit(cache=True)\ndef double(x):\n    return 2 * x\n")
    code = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import numba, other_pkg; "
        "other_pkg.double(2); from hinge_fast.board import Board; Board(4).zobrist_key"
    )
    for settings, expected in (
        ({"XDG_CACHE_HOME": str(tmp_path / "xdg")}, tmp_path / "xdg" / "hinge-fast" / "numba"),
        ({"NUMBA_CACHE_DIR": str(tmp_path / "numba")}, tmp_path / "numba"),
        (
            {
                "HINGE_FAST_CACHE_DIR": str(tmp_path / "mine"),
                "NUMBA_CACHE_DIR": str(tmp_path / "n2"),
            },
            tmp_path / "mine",
        ),
    ):
        env = {
            k: v for k, v in _env().items() if k not in ("NUMBA_CACHE_DIR", "HINGE_FAST_CACHE_DIR")
        }
        env.update(settings)
        run = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert run.returncode == 0, run.stderr[-2000:]
        assert list(expected.rglob("*.nbi")), (settings, list(tmp_path.rglob("*.nbi")))
        ours = [p for p in expected.rglob("*.nbi") if "other_pkg" in p.name]
        if "NUMBA_CACHE_DIR" not in settings:
            assert ours == []  # another package's kernels are left where numba puts them
            assert list((tmp_path / "__pycache__").glob("other_pkg.double-*.nbi"))


def test_no_kernel_cache_inside_the_package():
    """hinge_fast is a regular package, and (after this suite's kernels ran) numba
    wrote no cache file beside its sources: pip would leave such a folder behind."""
    import hinge_fast
    from hinge_fast.board import Board

    Board(4).legal_moves  # the kernels are loaded or compiled by now
    package = Path(hinge_fast.__file__).parent
    assert (
        hinge_fast.__file__.endswith("__init__.py")
        and hinge_fast.__spec__.origin == hinge_fast.__file__
    )
    assert [p for p in package.rglob("*") if p.suffix in (".nbi", ".nbc")] == []


def test_warmup_of_chosen_sides_runs_only_their_layouts():
    """``warmup --size S`` runs the jobs of S's word count only (sides 5 and 6 share
    one), every component of it, the solver's only with side 4."""
    from hinge_fast.measure.warmup import COMPONENTS, jobs, sides_warmed

    assert sides_warmed() == [4, 5, 6, 7, 8, 9]
    assert sides_warmed([6]) == [5, 6] and sides_warmed([9, 4]) == [4, 9]
    assert sorted(jobs([6])) == sorted((c, 2) for c in COMPONENTS if c != "solver")
    assert ("solver", 1) in jobs([4]) and {w for _, w in jobs([4, 8])} == {1, 4}
    assert sorted(jobs()) == sorted(set(jobs([4]) + jobs([5]) + jobs([7]) + jobs([8]) + jobs([9])))


def test_warmup_of_one_side_says_which_and_refuses_other_sides():
    """The command names the sides it made ready; a side outside 4 to 9 is refused with
    one line and status 2."""
    run = hinge_fast("warmup", "--size", "5", "--processes", "1")
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith("kernels of sides 5 and 6 "), run.stdout
    bad = hinge_fast("warmup", "--size", "10", timeout=60)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [
        "error: argument --size: S must be from 4 to 9, not 10 (see 'hinge-fast warmup --help')"
    ]
