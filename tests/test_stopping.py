"""Long counts stop when asked: perft and playouts stop within a poll when
``should_stop`` turns true or Ctrl-C arrives (KeyboardInterrupt in the waiting thread),
their workers end, and the protocol's ``stop`` ends a deep ``perft``."""

import os
import signal
import subprocess
import sys
import threading

import pytest

from hinge_fast import Board, HingeError
from hinge_fast.core import parallel, workers
from tests.conftest import S9_MID

#: A count far too big to finish: it ends only by being stopped.
ENDLESS = 9


def running() -> int:
    """Tasks still running on the worker threads (``core/workers.py``)."""
    return workers.busy()


@pytest.mark.parametrize("threads", [1, 2])
def test_perft_stops_when_asked_and_names_how_far_it_got(threads):
    board = Board.from_fen(S9_MID)
    calls = []

    def should_stop():
        calls.append(1)
        return len(calls) > 3

    with pytest.raises(HingeError, match=r"perft stopped after \d+ of \d+ root moves"):
        parallel.perft(board.size, board.own, board.enemy, ENDLESS, True, threads, should_stop)
    assert not running()


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_perft_and_its_workers(threads):
    board = Board.from_fen(S9_MID)
    seen = []

    def interrupted(done, total):
        seen.append((done, total))
        if len(seen) == 3:
            raise KeyboardInterrupt  # as the signal arrives in the waiting thread

    with pytest.raises(KeyboardInterrupt):
        parallel.perft_divide(
            board.size, board.own, board.enemy, ENDLESS, False, threads, progress=interrupted
        )
    assert not running()
    assert all(total == len(Board.from_fen(S9_MID).legal_moves) for _, total in seen)


def test_a_ctrl_c_inside_the_wait_is_raised_once_the_wait_lets_go():
    """A signal that lands while the waiting loop runs (here inside ``should_stop``; it
    may as well land while a future's lock is taken, which KeyboardInterrupt would leave
    taken for good) is noted, and its handler runs once the loop is out of its wait."""
    ended = threading.Event()
    went_on = []

    def should_stop():
        os.kill(os.getpid(), signal.SIGINT)
        went_on.append(True)  # not reached when the handler runs at the signal
        return False

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        work = workers.run([ended.wait], ended.set, should_stop=should_stop)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)
    assert work.interrupted and went_on == [True] and not running()


def test_playouts_stop_and_report_progress():
    board = Board(9)
    seen = []
    with pytest.raises(HingeError, match=r"playouts stopped after \d+ of 100000000 games"):
        parallel.playouts(
            9,
            board.own,
            board.enemy,
            100_000_000,
            10_000,
            1,
            2,
            should_stop=lambda: len(seen) > 2,
            progress=lambda done, total: seen.append(done),
        )
    assert not running() and seen == sorted(seen)


def test_a_finished_count_reports_everything_done():
    board = Board(5)
    seen = []
    counts, codes = parallel.perft_divide(
        5, board.own, board.enemy, 3, True, 2, progress=lambda d, t: seen.append((d, t))
    )
    assert seen[-1] == (len(codes), len(codes)) and int(counts.sum()) == board.perft(3)


def test_the_protocols_stop_ends_a_deep_perft():
    engine = subprocess.Popen(
        [sys.executable, "-m", "hinge_fast.cli", "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    try:
        engine.stdin.write(f"newgame {S9_MID}\n")
        assert engine.stdout.readline().startswith("9/")
        assert engine.stdout.readline().strip() == "ok"
        engine.stdin.write(f"perft {ENDLESS}\nstop\n")
        answer = engine.stdout.readline()
        assert answer.startswith("err perft stopped after"), answer
        assert engine.stdout.readline().strip() == "ok"
        engine.stdin.write("info\n")
        assert engine.stdout.readline().startswith("id hinge-fast")
    finally:
        engine.stdin.close()
        engine.wait(60)


def test_the_protocols_stop_ends_a_side_9_perft_8():
    """perft 8 of the empty side-9 board runs for hours: an answer that it stopped is the
    stop landing (a stop that never lands fails by the suite's per-test time limit)."""
    engine = subprocess.Popen(
        [sys.executable, "-m", "hinge_fast.cli", "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    try:
        engine.stdin.write(
            "newgame 9\nperft 1\n"
        )  # the perft kernels loaded before the clock starts
        assert engine.stdout.readline().startswith("9/")
        assert engine.stdout.readline().strip() == "ok"
        assert engine.stdout.readline().strip().isdigit()
        assert engine.stdout.readline().strip() == "ok"
        engine.stdin.write("perft 8\n")
        engine.stdin.write("stop\n")
        answer = engine.stdout.readline()
        assert answer.startswith("err perft stopped after"), answer
        assert engine.stdout.readline().strip() == "ok"
        engine.stdin.write("info\n")  # the session goes on
        assert engine.stdout.readline().startswith("id hinge-fast")
    finally:
        engine.stdin.close()
        engine.wait(60)
