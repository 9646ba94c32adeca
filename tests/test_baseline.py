"""scripts/baseline.py installs a commit as an engine of its own: list, engine and the
error paths here on temporary folders; the slow test installs a real commit and plays
one search through the engine protocol."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from scripts import baseline

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str) -> tuple[int, str, str]:
    """(status, stdout, stderr) of ``python -m scripts.baseline ARGV``, in a process of its own."""
    done = subprocess.run(
        [sys.executable, "-m", "scripts.baseline", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stdout, done.stderr


def fake_install(directory: Path, name: str, commit: str) -> Path:
    """A baseline folder as install leaves it (record and program), without installing."""
    folder = directory / name
    program = baseline.hinge_fast_program(folder)
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    (folder / baseline.MARKER).write_text(json.dumps({"name": name, "commit": commit}))
    return folder


def test_the_first_named_baseline_is_0_1_0():
    assert next(iter(baseline.BASELINES.items())) == ("0.1.0", "9b8965c")


def test_list_and_engine_show_what_is_installed(tmp_path, capsys):
    assert baseline.main(["list", "--dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == f"no baselines in {tmp_path}\n"
    folder = fake_install(tmp_path, "0.1.0", "9b8965c" + "0" * 33)
    fake_install(tmp_path, "trial", "1234567890" + "0" * 30)
    assert baseline.main(["list", "--dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split() for line in lines] == [
        ["0.1.0", "9b8965c000", str(folder)],
        ["trial", "1234567890", str(tmp_path / "trial")],
    ]
    assert baseline.main(["engine", "0.1.0", "--dir", str(tmp_path)]) == 0
    spec = capsys.readouterr().out.strip()
    assert spec == f"cmd:{shlex.quote(str(folder / '.venv' / 'bin' / 'hinge-fast'))} engine"


def test_the_spec_survives_a_folder_with_a_space(tmp_path):
    folder = fake_install(tmp_path / "my baselines", "b", "0" * 40)
    spec = baseline.player_spec(folder)
    assert spec.startswith("cmd:")
    assert shlex.split(spec[4:]) == [str(folder / ".venv" / "bin" / "hinge-fast"), "engine"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["engine", "0.1.0"],
            "error: no baseline '0.1.0' in {dir}: install it with python -m scripts.baseline install 0.1.0",
        ),
        (["install", "no-such-commit-here"], "error: unknown commit 'no-such-commit-here' in"),
        (["install", "HEAD", "--repo", "{dir}"], "error: {dir} is not a git checkout"),
    ],
)
def test_errors_are_one_line_and_exit_2(tmp_path, argv, message):
    argv = [a.format(dir=tmp_path) for a in argv]
    status, out, err = run(*argv, "--dir", str(tmp_path))
    assert status == 2
    assert out == ""
    assert err.startswith(message.format(dir=tmp_path)) and err.count("\n") == 1, err
    assert "Traceback" not in err


def test_an_existing_name_is_refused_and_left_alone(tmp_path):
    folder = fake_install(tmp_path, "0.1.0", "9b8965c" + "0" * 33)
    status, out, err = run("install", "0.1.0", "--dir", str(tmp_path))
    assert status == 2 and out == ""
    assert err == f"error: baseline '0.1.0' exists: {folder} (remove it or choose another --name)\n"
    assert (folder / baseline.MARKER).exists()


@pytest.mark.slow
def test_a_real_install_plays_through_the_protocol(tmp_path):
    """Installs 0.1.0 (pip, then the kernels compiled: minutes) and asks it for a move."""
    status, out, err = run_long("install", "0.1.0", "--dir", str(tmp_path))
    assert status == 0, err
    spec = out.strip()
    assert spec == baseline.player_spec(tmp_path / "0.1.0")
    record = json.loads((tmp_path / "0.1.0" / baseline.MARKER).read_text())
    assert record["commit"].startswith("9b8965c")
    # The installed engine runs from its own venv, not from this working tree.
    command = shlex.split(spec[len("cmd:") :])
    session = subprocess.run(
        command,
        input="info\nnewgame 4\nbestmove nodes 200\nquit\n",
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert session.returncode == 0, session.stderr
    lines = session.stdout.splitlines()
    assert lines[0].startswith("id hinge-fast")
    answers = [line for line in lines if line != "ok" and not line.startswith("info ")]
    move = answers[-1]
    from hinge_fast import Board

    assert move in {str(m) for m in Board(4).legal_moves}


def run_long(*argv: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "scripts.baseline", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    return done.returncode, done.stdout, done.stderr
