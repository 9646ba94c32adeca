"""What a new user meets first: the README's Quick start (install, then commands run one
after the other in one folder) and the compile notice of a cold kernel cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTICE = "hinge-fast: compiling the kernels"


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    env.update(extra)
    return env


@pytest.mark.slow
def test_quick_start_then_other_commands_on_a_cold_cache(tmp_path):
    """The README's Quick start in one folder, installed twice over (pip replaces the
    install and leaves foreign files behind), on a cold kernel cache: the first command
    compiles what it runs (one notice); after ``warmup`` the next ones, of other command
    families, start without."""
    target = tmp_path / "site"
    install = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "-q",
        "--no-deps",
        "--upgrade",
        "--target",
        str(target),
        str(ROOT),
    ]
    env = _env(XDG_CACHE_HOME=str(tmp_path / "cache"), PYTHONPATH=str(target))
    hinge = [sys.executable, "-m", "hinge_fast.cli"]

    def run(*argv):
        return subprocess.run(
            [*hinge, *argv], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=1200
        )

    subprocess.run(install, cwd=tmp_path, check=True, timeout=600, capture_output=True)
    first = run("moves")
    assert first.returncode == 0 and NOTICE in first.stderr and first.stdout.split()[0] == "B2"
    subprocess.run(install, cwd=tmp_path, check=True, timeout=600, capture_output=True)
    assert run("warmup").returncode == 0
    for argv in (
        ["perft", "3"],
        ["show"],
        ["move", "--nodes", "50", "--seed", "1"],
        ["analyze", "--depth", "1", "--top", "1"],
    ):
        later = run(*argv)
        assert later.returncode == 0, later.stderr
        assert NOTICE not in later.stderr, argv
    assert [p for p in (target / "hinge_fast").rglob("*") if p.suffix in (".nbi", ".nbc")] == []
