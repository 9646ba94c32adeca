"""One Ctrl-C stops a long command: a real ``hinge-fast`` process on a pseudo-terminal,
sent SIGINT (to its whole process group, as a terminal's Ctrl-C is) once its output shows
the work has started, exits promptly with status 130, says how far it got (and how to
go on, where that exists), and leaves no process behind: the terminal closes only once
every process holding it, worker processes included, is gone."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest

from tests.conftest import pty_read, pty_read_to_end

#: Seconds from the signal to the exit that count as prompt on a busy test machine
#: ("about a second" when idle).
PROMPT = 10.0


def _ctrl_c_as_in_a_terminal():
    """SIGINT as a terminal's foreground job has it (a test run started in the
    background inherits it ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _as_a_background_job():
    """SIGINT as a shell without job control leaves it to a job it starts with ``&``
    (and so to everything a process manager runs that way): ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def interrupt(
    argv: list[str], started: str, cwd, sent: int = signal.SIGINT, background: bool = False
) -> tuple[int, float, str]:
    """Run ``hinge-fast ARGV`` with stdout and stderr on a pseudo-terminal, send SIGINT
    (or ``sent``) to its process group once what it wrote matches ``started``, and
    return the exit status, the seconds from the signal to the exit, and all it wrote
    (to the end: every process holding the terminal gone). With ``background``, the
    command starts with SIGINT ignored, as a background job of a script does."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 160, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "hinge_fast.cli", *argv],
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=slave,
        start_new_session=True,
        preexec_fn=_as_a_background_job if background else _ctrl_c_as_in_a_terminal,
        cwd=cwd,
    )
    os.close(slave)
    said = ""
    try:
        while not re.search(started, said):
            ready, _, _ = select.select([master], [], [], 600)
            assert ready, f"no sign of work after 600 s: {said!r}"
            chunk = pty_read(master)
            assert chunk, f"it ended before the work showed: {said!r}"
            said += chunk
        os.killpg(proc.pid, sent)
        when = time.monotonic()
        status = proc.wait(timeout=120)
        took = time.monotonic() - when
        said = pty_read_to_end(
            master, said, f"a process outlived the command (it still holds the terminal): {said!r}"
        )
    finally:
        os.close(master)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    return status, took, said.replace("\r", "\n")


def assert_stopped(status, took, said):
    assert status == 130, said
    assert took < PROMPT, f"{took:.1f} s to stop: {said}"
    assert "interrupted" in said and "Traceback" not in said, said


def games_in(path) -> int:
    return sum(1 for line in path.read_text().splitlines() if line.startswith("[Round "))


@pytest.mark.parametrize("extra", [[], ["--concurrency", "2"]], ids=["here", "workers"])
def test_ctrl_c_stops_a_match_of_searchers_mid_game(tmp_path, extra):
    # alpha-beta returns its best move when interrupted: the match must stop all the same
    out = tmp_path / "m.hgn"
    argv = [
        "match",
        "alphabeta",
        "alphabeta:quiescence=0",
        "--games",
        "40",
        "--time",
        "0.05",
        "--size",
        "6",
        "--book",
        "none",
        "--seed",
        "3",
        "--out",
        str(out),
        *extra,
    ]
    status, took, said = interrupt(argv, r"\b1/40\b", tmp_path)
    assert_stopped(status, took, said)
    found = re.search(r"stopped after (\d+) of 40 games; resume with --resume (\S+)", said)
    assert found, said
    assert int(found.group(1)) == games_in(out) >= 1 and found.group(2) == str(out)


def test_ctrl_c_stops_a_tournament(tmp_path):
    out = tmp_path / "t.hgn"
    argv = [
        "tournament",
        "alphabeta",
        "mcts",
        "greedy",
        "--rounds",
        "10",
        "--time",
        "0.1",
        "--size",
        "5",
        "--seed",
        "2",
        "--out",
        str(out),
    ]
    status, took, said = interrupt(argv, r"\b1/60\b", tmp_path)
    assert_stopped(status, took, said)
    found = re.search(r"stopped after (\d+) of 60 games; resume with --resume", said)
    assert found and int(found.group(1)) == games_in(out), said


def test_ctrl_c_stops_stats_of_a_searcher(tmp_path):
    argv = [
        "stats",
        "--player",
        "alphabeta",
        "--time",
        "0.05",
        "--games",
        "30",
        "--size",
        "5",
        "--seed",
        "1",
    ]
    status, took, said = interrupt(argv, r"\b[1-9]/30\b", tmp_path)
    assert_stopped(status, took, said)


def test_ctrl_c_stops_tune_and_names_the_values_so_far(tmp_path):
    argv = [
        "tune",
        "mcts",
        "-p",
        "exploration=0.7,0.1,2",
        "--iterations",
        "50",
        "--time",
        "0.05",
        "--size",
        "5",
        "--seed",
        "1",
    ]
    status, took, said = interrupt(argv, r"iter 1/50", tmp_path)
    assert_stopped(status, took, said)
    assert re.search(
        r"stopped during iteration \d+ of 50; the values after iteration \d+: exploration=", said
    ), said
    assert "final:" not in said


def test_ctrl_c_stops_analyze_mid_search(tmp_path):
    argv = ["analyze", "start", "--engine", "alphabeta", "--time", "600"]
    status, took, said = interrupt(
        argv, r"analysing with alphabeta, 600 s \(Ctrl-C stops\)", tmp_path
    )
    assert_stopped(status, took, said)
    assert "best:" not in said


def test_ctrl_c_makes_move_print_its_best_move_so_far(tmp_path):
    # a search stopped by Ctrl-C is a search that ended: its move, status 0
    import re

    from hinge_fast import Board
    from tests.conftest import MID_GAME

    status, took, said = interrupt(["move", MID_GAME, "--time", "600"], r"depth [2-9]:", tmp_path)
    assert status == 0 and took < PROMPT and "Traceback" not in said, said
    seconds = float(re.search(r"best move \S+: .* in ([\d.]+) s\)", said).group(1))
    assert seconds < 300, said
    assert Board.from_fen(MID_GAME).parse_move(said.split()[-1])  # the move, printed last


FINALISER_INTERRUPTED = """
from hinge_fast.cli import ctrl_c_stops_the_command

class Finaliser:
    def __del__(self):
        raise KeyboardInterrupt  # what a Ctrl-C landing while a finaliser runs does

try:
    with ctrl_c_stops_the_command():
        done = Finaliser()
        del done
        while True:
            pass
except KeyboardInterrupt:
    print("stopped")
"""


def test_a_ctrl_c_that_lands_in_a_finaliser_still_stops_the_command():
    # Python drops an exception raised in a finaliser (a progress bar's __del__, as a
    # bar closes just when Ctrl-C comes): without the command's handling the loop never ends.
    done = subprocess.run(
        [sys.executable, "-c", FINALISER_INTERRUPTED], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "stopped\n", "")


def test_ctrl_c_stops_solve_and_leaves_no_file(tmp_path):
    out = tmp_path / "early.tb"
    argv = ["solve", "--from", "4/5/1g4/2gg3/2bb2/1b3/4 g", "--out", str(out)]
    status, took, said = interrupt(argv, r"pos", tmp_path)
    assert_stopped(status, took, said)
    assert sorted(p.name for p in tmp_path.iterdir()) == [], said


@pytest.mark.parametrize("threads", ["1", "2"])
def test_ctrl_c_stops_a_deep_perft(tmp_path, threads):
    from tests.conftest import S9_MID

    status, took, said = interrupt(
        ["perft", "9", S9_MID, "--threads", threads], r"root moves", tmp_path
    )
    assert_stopped(status, took, said)


def test_ctrl_c_stops_playouts(tmp_path):
    status, took, said = interrupt(
        ["playouts", "1000000000", "--size", "9", "--threads", "2"], r"game", tmp_path
    )
    assert_stopped(status, took, said)


def test_ctrl_c_stops_prove(tmp_path):
    argv = ["prove", "--size", "6", "--table-mb", "16"]
    status, took, said = interrupt(argv, r"[\d,]+ nodes in \d+ s, pn ", tmp_path)
    assert_stopped(status, took, said)
    assert "wins" not in said and "not proven" not in said


@pytest.mark.parametrize(
    "extra, background",
    [
        ([], False),
        (["--concurrency", "2", "--job-nodes", "20000"], False),
        (["--concurrency", "2", "--job-nodes", "20000"], True),
    ],
)
def test_sigterm_stops_prove_as_ctrl_c_does_and_keeps_its_checkpoint(tmp_path, extra, background):
    """A process manager or a cluster's scheduler stops a command with SIGTERM: the
    command stops as for Ctrl-C, writes its checkpoint, and exits with status 143; also
    when it runs as a background job, with SIGINT ignored."""
    path = tmp_path / "run.ckpt"
    argv = ["prove", "--size", "6", "--table-mb", "16", "--checkpoint", str(path), *extra]
    status, took, said = interrupt(
        argv, r"[\d,]+ nodes in \d+ s, pn ", tmp_path, signal.SIGTERM, background
    )
    assert status == 143, said
    assert took < PROMPT, f"{took:.1f} s to stop: {said}"
    assert said.rstrip().endswith("terminated") and "Traceback" not in said, said
    assert "leaked" not in said, said  # no worker process killed before it let go
    assert f"checkpoint written to {path}" in said and path.stat().st_size > 0, said


def test_ctrl_c_saves_the_prove_checkpoint(tmp_path):
    from hinge_fast import Board
    from hinge_fast.search.checkpoint import load_checkpoint

    path = tmp_path / "run.npz"
    argv = ["prove", "--size", "6", "--table-mb", "16", "--checkpoint", str(path)]
    status, took, said = interrupt(argv, r"[\d,]+ nodes in \d+ s, pn ", tmp_path)
    assert_stopped(status, took, said)
    assert f"checkpoint written to {path}" in said
    assert load_checkpoint(path, Board(6).fen()).nodes > 0


def test_ctrl_c_stops_prove_on_threads(tmp_path):
    argv = ["prove", "--size", "6", "--table-mb", "16", "--threads", "2"]
    status, took, said = interrupt(argv, r"[\d,]+ nodes in \d+ s, pn ", tmp_path)
    assert_stopped(status, took, said)
    assert "wins" not in said and "not proven" not in said
