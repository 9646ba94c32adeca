"""What a new user meets first: the README's Quick start (install, then commands run one
after the other in one folder) and the compile notice of a cold kernel cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import hinge_fast
from hinge_fast import cli as cli_module

ROOT = Path(__file__).resolve().parent.parent
NOTICE = "hinge-fast: compiling the numba kernels"


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    env.update(extra)
    return env


def test_kernel_cache_is_a_user_folder_chosen_before_numba(tmp_path):
    """Without NUMBA_CACHE_DIR, numba caches in XDG_CACHE_HOME/hinge-fast/numba; a set
    NUMBA_CACHE_DIR wins."""
    code = "import hinge_fast.core, numba; print(numba.config.CACHE_DIR)"
    run = subprocess.run([sys.executable, "-c", code], env=_env(XDG_CACHE_HOME=str(tmp_path)), capture_output=True, text=True, timeout=120)
    assert run.stdout.strip() == str(tmp_path / "hinge-fast" / "numba"), run.stderr
    mine = tmp_path / "mine"
    run = subprocess.run([sys.executable, "-c", code], env=_env(NUMBA_CACHE_DIR=str(mine)), capture_output=True, text=True, timeout=120)
    assert run.stdout.strip() == str(mine), run.stderr


def test_no_kernel_cache_inside_the_package():
    """hinge_fast is a regular package, and (after this suite's kernels ran) numba
    wrote no cache file beside its sources: pip would leave such a folder behind."""
    from hinge_fast.core import kernels

    kernels.perft_kernel  # the kernels are loaded or compiled by now
    package = Path(hinge_fast.__file__).parent
    assert hinge_fast.__file__.endswith("__init__.py") and hinge_fast.__spec__.origin == hinge_fast.__file__
    assert [p for p in package.rglob("*") if p.suffix in (".nbi", ".nbc")] == []


def test_a_command_that_compiled_compiles_the_rest_once(cli, monkeypatch):
    """The wiring behind 'first run only': after a command that had to compile, the
    command line compiles every other kernel (warm_up), once a process."""
    from hinge_fast.core import kernels
    from hinge_fast.tools import warmup

    calls = []
    monkeypatch.setattr(warmup, "warm_up", lambda: calls.append(1) or True)
    monkeypatch.setattr(cli_module, "COMPILED_ALL", False)
    monkeypatch.setattr(kernels.COMPILE_NOTICE, "said", False)
    assert cli("moves", "--size", "4").status == 0 and calls == []  # nothing compiled: nothing more
    monkeypatch.setattr(kernels.COMPILE_NOTICE, "said", True)
    run = cli("moves", "--size", "4")
    assert run.status == 0 and calls == [1]
    assert "compiling the other kernels too" in run.err and "compiling done in" in run.err  # the wait is said
    run = cli("perft", "1", "--size", "4")
    assert run.status == 0 and calls == [1] and "compiling" not in run.err
    monkeypatch.setattr(cli_module, "COMPILED_ALL", False)
    run = cli("warmup")  # it compiles everything itself: no second round, no second message
    assert run.status == 0 and calls == [1, 1] and "other kernels" not in run.err


def test_ctrl_c_while_compiling_the_rest_keeps_the_command_status(cli, monkeypatch):
    """Ctrl-C during the extra compile skips it: the command's own work is done, so
    its status stands (not 130) and the user is told what the next command does."""
    from hinge_fast.core import kernels
    from hinge_fast.tools import warmup

    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(warmup, "warm_up", interrupted)
    monkeypatch.setattr(cli_module, "COMPILED_ALL", False)
    monkeypatch.setattr(kernels.COMPILE_NOTICE, "said", True)
    run = cli("moves", "--size", "4")
    assert run.status == 0 and run.out.split()[0] == "B2"
    assert "compiling skipped; the next command compiles what it needs" in run.err
    monkeypatch.setattr(cli_module, "COMPILED_ALL", False)
    run = cli("moves", "--size", "99")  # a user mistake: status 2 stands too
    assert run.status == 2 and "skipped" in run.err


@pytest.mark.slow
def test_quick_start_then_other_commands_on_a_cold_cache(tmp_path):
    """The README's Quick start in one folder, installed twice over (pip replaces the
    install and leaves foreign files behind), on a cold kernel cache: the first command
    compiles (one notice), the next ones, of other command families, start without."""
    target = tmp_path / "site"
    install = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--upgrade", "--target", str(target), str(ROOT)]
    env = _env(XDG_CACHE_HOME=str(tmp_path / "cache"), PYTHONPATH=str(target))
    hinge = [sys.executable, "-m", "hinge_fast.cli"]

    def run(*argv):
        return subprocess.run([*hinge, *argv], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=1200)

    subprocess.run(install, cwd=tmp_path, check=True, timeout=600, capture_output=True)
    first = run("moves")
    assert first.returncode == 0 and NOTICE in first.stderr and first.stdout.split()[0] == "B2"
    subprocess.run(install, cwd=tmp_path, check=True, timeout=600, capture_output=True)
    for argv in (["perft", "3"], ["show"], ["move", "--nodes", "50", "--seed", "1"], ["analyze", "--depth", "1", "--top", "1"]):
        later = run(*argv)
        assert later.returncode == 0, later.stderr
        assert NOTICE not in later.stderr, argv
    assert [p for p in (target / "hinge_fast").rglob("*") if p.suffix in (".nbi", ".nbc")] == []
