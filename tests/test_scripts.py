"""Every tool in scripts/ runs one way, ``python -m scripts.NAME``: its ``--help`` works
(and names that command line), and its docstring shows an example."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted(p.stem for p in (ROOT / "scripts").glob("*.py") if p.stem != "__init__")


def test_the_scripts_are_found():
    assert {"baseline", "ground_truth", "make_perft_table", "nps_ab"} <= set(SCRIPTS)


@pytest.mark.parametrize("name", SCRIPTS)
def test_help(name):
    done = subprocess.run([sys.executable, "-m", f"scripts.{name}", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"usage: python -m scripts.{name}" in done.stdout


@pytest.mark.parametrize("name", SCRIPTS)
def test_docstring_has_an_example(name):
    docstring = ast.get_docstring(ast.parse((ROOT / "scripts" / f"{name}.py").read_text()))
    assert docstring and "Example" in docstring, f"scripts/{name}.py: no Example in its docstring"
