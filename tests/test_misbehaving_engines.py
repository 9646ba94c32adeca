"""The match runner survives any engine: one that crashes, hangs, answers an illegal or
unreadable move, floods its output, starts slowly or never answers ``quit``
(tests/misbehaving_engine.py). Each game ends with a result and its reason, the engine
is started again for the next game, and nothing is left running."""

from __future__ import annotations

import json
import os
import select
import shlex
import sys
from pathlib import Path

import pytest

from hinge_fast import Board, HingeError, Limits
from hinge_fast.cli import main
from hinge_fast.games.match import play_match
from hinge_fast.games.players import EnginePlayer, get_player
from hinge_fast.games.tournament import play_tournament
from hinge_fast.protocol.client import Engine, EngineError
from hinge_fast.records.record import read_records

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
#: Seconds a move may take past its limit here: the fake engine answers at once, so a
#: small margin keeps the hanging engine's games short.
MARGIN = 1.0


def command(*mode) -> str:
    return shlex.join([sys.executable, str(HERE / "misbehaving_engine.py"), *map(str, mode)])


@pytest.fixture(autouse=True)
def engine_path(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))


@pytest.mark.parametrize(
    "mode, ending",
    [
        ("crash", "engine crash"),
        ("hang", "time forfeit"),
        ("illegal", "illegal move"),
        ("garbage", "illegal move"),
        ("flood", "output flood"),
    ],
)
def test_a_match_goes_on_past_a_failing_engine(mode, ending):
    # A flood is caught by its size (16 MB), not by the clock: a longer margin keeps a
    # busy machine, slow to carry 16 MB through the pipe, from making it a time forfeit.
    margin = 30.0 if mode == "flood" else MARGIN
    bad = EnginePlayer(command(mode, 2), Limits(nodes=10), margin=margin)
    try:
        result = play_match(bad, get_player("random", seed=1), games=2, size=5, seed=3)
    finally:
        bad.close()
    assert result.played == 2 and result.losses == 2  # every game lost at the engine's second move
    assert {str(g.termination) for g in result.games} == {ending}
    assert all(g.detail and g.detail.startswith("engine ") for g in result.games)
    assert result.forfeits == {"a": {ending: 2}, "b": {}}
    assert result.figures()["endings"] == {ending: 2}
    assert bad.restarts == 1  # started again for the second game
    if mode == "hang":
        assert f"lost on time: misbehaving {mode} 2, random 0" in result.summary()
    else:
        assert f"misbehaving {mode} forfeited: {ending} 2" in result.summary()
    records = [g.record() for g in result.games]
    assert all(r.tags["Termination"] == ending and r.tags["Forfeit"] for r in records)


def test_a_good_engine_plays_whole_games():
    good = EnginePlayer(command("good"), Limits(nodes=10), margin=MARGIN)
    try:
        result = play_match(good, get_player("random", seed=1), games=2, size=4, seed=3)
    finally:
        good.close()
    assert all(str(g.termination) in ("elimination", "no legal move") for g in result.games)
    assert good.restarts == 0 and result.forfeits == {"a": {}, "b": {}}


def test_a_slow_start_costs_no_move_time():
    slow = EnginePlayer(
        command("slow-start", 20), Limits(nodes=10), margin=MARGIN
    )  # 2 s to start, 1 s a move
    try:
        result = play_match(slow, get_player("random", seed=1), games=2, size=4, seed=3)
    finally:
        slow.close()
    assert not any(g.forfeit for g in result.games)


def test_every_request_has_a_deadline_under_a_node_limit():
    engine = Engine.popen(command("hang", 1), timeout=MARGIN, margin=MARGIN)
    with pytest.raises(EngineError, match="did not answer 'bestmove nodes 10' in time") as caught:
        engine.play(Board(4), Limits(nodes=10))
    assert str(caught.value.termination) == "time forfeit" and not engine.alive
    engine.close()


def test_an_engine_s_last_words_are_bounded():
    from hinge_fast.protocol.client import STDERR_LINE_CHARS, STDERR_LINES

    engine = Engine.popen(command("stderr-flood", 1), timeout=MARGIN, margin=30)
    with pytest.raises(
        EngineError, match=r"ended \(exit status 3\).*its last words: complaint"
    ) as caught:
        engine.play(Board(4), Limits(nodes=10))
    assert str(caught.value.termination) == "engine crash"
    assert len(str(caught.value)) < STDERR_LINES * (STDERR_LINE_CHARS + 3) + 300
    engine.close()


def test_bad_deadlines_are_refused():
    for bad in (0, -1, "soon", True):
        with pytest.raises(HingeError, match="must be more than 0 seconds"):
            Engine.popen(command("good"), timeout=bad)


def test_ready_has_a_deadline_too():
    player = EnginePlayer(command("hang", 1), Limits(nodes=10), margin=MARGIN)
    with pytest.raises(EngineError, match="in time"):
        player.ready(Board(4))
    player.close()


def test_an_engine_that_never_answers_quit_is_killed_on_close():
    engine = Engine.popen(command("no-quit"), timeout=MARGIN)
    engine.close()
    assert engine.process.poll() is not None and not engine.alive


def fifo_held_by(tmp_path, wrap: bool):
    """A named pipe and the engine (behind ``sh -c`` when ``wrap``) holding it open, as
    does a child process the engine starts."""
    fifo = tmp_path / "held"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    cmd = command("no-quit", "--hold", fifo)
    engine = Engine.popen(["sh", "-c", f"{cmd}; exit 0"] if wrap else cmd, timeout=MARGIN)
    return reader, engine


def all_gone(reader, within: float = 10) -> bool:
    """True once every process holding the pipe has ended (end of file), within
    ``within`` seconds."""
    while True:
        ready, _, _ = select.select([reader], [], [], within)
        if not ready:
            return False
        try:
            if os.read(reader, 4096) == b"":
                return True
        except BlockingIOError:
            continue  # a writer came between the wake-up and the read: nothing to read yet


@pytest.mark.parametrize("wrap", [False, True])
def test_closing_an_engine_ends_its_whole_process_group(tmp_path, wrap):
    reader, engine = fifo_held_by(tmp_path, wrap)
    try:
        engine.close()
        assert all_gone(reader)
    finally:
        os.close(reader)


def test_a_failed_engine_behind_a_shell_leaves_nothing_running(tmp_path):
    fifo = tmp_path / "held"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        engine = Engine.popen(
            ["sh", "-c", command("hang", 1, "--hold", fifo) + "; exit 0"],
            timeout=MARGIN,
            margin=MARGIN,
        )
        with pytest.raises(EngineError):
            engine.play(Board(4), Limits(nodes=10))
        assert all_gone(reader)
    finally:
        os.close(reader)


def test_match_command_scores_forfeits_and_resumes_them(tmp_path, capsys):
    out, figures = tmp_path / "m.hgn", tmp_path / "m.json"
    argv = [
        "match",
        "cmd:" + command("crash", 2),
        "random",
        "--games",
        "4",
        "--size",
        "5",
        "--nodes",
        "10",
        "--margin",
        str(MARGIN),
        "--seed",
        "1",
        "--book",
        "none",
    ]
    assert main(argv + ["--out", str(out), "--json", str(figures)]) == 0
    said = capsys.readouterr().out
    assert (
        "games ended by engine crash 4" in said
        and "misbehaving crash forfeited: engine crash 4" in said
    )
    data = json.loads(figures.read_text())
    assert data["forfeits"] == {"a": {"engine crash": 4}, "b": {}} and data["losses"] == 4
    records = read_records(str(out))
    assert [r.tags["Termination"] for r in records] == ["engine crash"] * 4
    assert all("ended (exit status 3)" in r.tags["Forfeit"] for r in records)
    assert main(argv + ["--resume", str(out)]) == 0  # read back: nothing to play
    assert "resuming: 4 games already in" in capsys.readouterr().out


def test_tournament_survives_misbehaving_engines(tmp_path, capsys):
    out = tmp_path / "t.hgn"
    argv = [
        "tournament",
        "cmd:" + command("crash", 2),
        "cmd:" + command("illegal", 2),
        "random",
        "--rounds",
        "1",
        "--size",
        "5",
        "--nodes",
        "10",
        "--margin",
        str(MARGIN),
        "--seed",
        "1",
        "--book",
        "none",
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    said = capsys.readouterr().out
    assert (
        "misbehaving crash forfeited: engine crash" in said
        and "misbehaving illegal forfeited: illegal move" in said
    )
    records = read_records(str(out))
    assert len(records) == 6
    ends = [r.tags["Termination"] for r in records]
    assert ends.count("engine crash") >= 2 and ends.count("illegal move") >= 2


def test_play_tournament_counts_forfeits_by_player():
    players = [
        EnginePlayer(command("crash", 2), Limits(nodes=10), margin=MARGIN),
        get_player("random", seed=2),
    ]
    try:
        result = play_tournament(players, rounds=1, size=5, seed=1)
    finally:
        players[0].close()
    assert result.forfeits() == {"misbehaving crash": {"engine crash": 2}}
    assert result.figures()["forfeits"] == {"misbehaving crash": {"engine crash": 2}}


@pytest.mark.skipif(os.name != "posix", reason="SIGINT semantics")
@pytest.mark.parametrize(
    "command_name, mode, concurrency, signs",
    [("match", "good", 2, 3), ("match", "hang", 1, 2), ("stats", "good", 2, 3)],
)
def test_ctrl_c_leaves_nothing_running(tmp_path, command_name, mode, concurrency, signs):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) while two
    worker processes play with external engines, or while an engine hangs in the middle
    of a move: the command ends with status 130 at once, every engine and every process
    an engine started is gone, and no semaphore is reported leaked."""
    import signal
    import subprocess

    fifo = tmp_path / "held"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    engine = "cmd:" + command(mode, 1, "--hold", fifo)
    if command_name == "match":
        argv = ["match", engine, "random", "--games", "400", "--book", "none", "--margin", "600"]
    else:
        argv = ["stats", "--player", engine, "--games", "4000"]
    argv = [
        sys.executable,
        "-m",
        "hinge_fast.cli",
        *argv,
        "--size",
        "6",
        "--nodes",
        "10",
        "--seed",
        "1",
        "--concurrency",
        str(concurrency),
    ]
    match = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # This test's own writer keeps the pipe open, so that an engine ending between two
    # others (the banner's) is no end of file: the reader wakes only for the engines' bytes.
    keeper = os.open(fifo, os.O_WRONLY)
    try:
        started = 0
        # the engine the command made for its banner and one in each worker started, or
        # the engine started and hangs
        while started < signs:
            ready, _, _ = select.select([reader], [], [], 120)
            assert ready, "no engine started"
            started += len(os.read(reader, 64))
        os.close(keeper)
        keeper = None
        os.killpg(match.pid, signal.SIGINT)
        # at once: not after the margin of 600 s, nor after 5 s waiting for a hung engine to answer quit
        _, err = match.communicate(timeout=4 if mode == "hang" else 15)
        assert match.returncode == 130, err
        assert all_gone(reader, within=30)
        assert b"leaked" not in err and b"Traceback" not in err, err
    finally:
        if keeper is not None:
            os.close(keeper)
        os.close(reader)
        if match.poll() is None:
            os.killpg(match.pid, signal.SIGKILL)
