"""The checks beside the tests, run as tests so that the README's test command runs them:
ruff's lint and format check over the tree, and mypy over the package (pyproject's
``[tool.ruff]`` and ``[tool.mypy]``). ``scripts/check_build.py`` (the sdist and wheel
build, their metadata, the wheel installed and run) runs in CI after the tests; here its
own checks are tried on made-up wheels."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from hinge_fast.errors import HingeError
from scripts import check_build

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=540
    )


def test_ruff_finds_nothing_to_fix():
    done = run("ruff", "check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_tree_is_formatted():
    done = run("ruff", "format", "--check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_accepts_the_package(tmp_path):
    done = run("mypy", "--cache-dir", str(tmp_path / "mypy"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout


def test_ruff_would_fail_on_a_real_mistake(tmp_path):
    """The lint run is not a formality: an unused import and a name never defined fail."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n\n\ndef f():\n    return undefined_name\n")
    done = run("ruff", "check", "--no-cache", "--config", str(ROOT / "pyproject.toml"), str(bad))
    assert done.returncode == 1
    assert "F401" in done.stdout and "F821" in done.stdout


def test_the_version_is_read_from_the_source():
    import hinge_fast

    assert check_build.source_version() == hinge_fast.__version__


def make_wheel(path: Path, names: list[str]) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        for name in names:
            z.writestr(name, "")
    return path


def complete_wheel_names() -> list[str]:
    packages = check_build.packages_of(ROOT / "pyproject.toml")
    names = [p.replace(".", "/") + "/__init__.py" for p in packages]
    return names + [r + ("x.txt" if r.endswith("/") else "") for r in check_build.REQUIRED]


def test_a_complete_wheel_passes(tmp_path):
    check_build.check_wheel_contents(make_wheel(tmp_path / "ok.whl", complete_wheel_names()))


def test_a_wheel_without_the_web_page_or_a_package_is_refused(tmp_path):
    names = [n for n in complete_wheel_names() if not n.endswith("index.html")]
    with pytest.raises(HingeError, match="lacks hinge_fast/web/static/index.html"):
        check_build.check_wheel_contents(make_wheel(tmp_path / "a.whl", names))
    names = [n for n in complete_wheel_names() if n != "hinge_fast/core/__init__.py"]
    with pytest.raises(HingeError, match="lacks hinge_fast/core/__init__.py"):
        check_build.check_wheel_contents(make_wheel(tmp_path / "b.whl", names))


def test_a_wheel_carrying_the_tests_is_refused(tmp_path):
    names = complete_wheel_names() + ["tests/test_board.py"]
    with pytest.raises(HingeError, match="not the package: tests/test_board.py"):
        check_build.check_wheel_contents(make_wheel(tmp_path / "c.whl", names))
