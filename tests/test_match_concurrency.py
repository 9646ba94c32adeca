"""match --concurrency, the executor's local backends, and matches that lose nothing
(--out saves each game as it finishes, --resume continues an interrupted match)."""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
from pathlib import Path

import pytest

from hinge_fast import HingeError
from hinge_fast.cli import main
from hinge_fast.games.match import RunSettings, play_match
from hinge_fast.games.matchfile import MatchSettings, read_match, read_match_file
from hinge_fast.games.players import PlayerSpec, get_player
from hinge_fast.jobs.executor import Executor, in_order
from hinge_fast.records.record import format_record, read_records
from tests.conftest import pty_read, pty_read_to_end

MATCH = ["match", "mcts", "greedy", "--nodes", "60", "--size", "5", "--seed", "7"]


def games_by_round(path):
    """{round: (green, blue, moves, result)} of a match file: the same games whatever
    order they were written in (Date left out)."""
    return {
        int(r.tags["Round"]): (r.tags["Green"], r.tags["Blue"], tuple(r.moves), r.result)
        for r in read_records(str(path))
    }


def summary(out: str) -> str:
    """The result lines of a match's stdout (the header names the executor and the
    last line the file)."""
    lines = out.strip().splitlines()
    start = next(
        i
        for i, line in enumerate(lines)
        if " games on side " in line and not line.startswith("match ")
    )
    return "\n".join(line for line in lines[start:] if not line.endswith(".hgn"))


# ----- executor ------------------------------------------------------------------------------------
def _square(x):
    return x * x


def _fail_on_three(x):
    if x == 3:
        raise HingeError("three is not allowed")
    return x


def test_executor_backends_give_every_result():
    jobs = list(range(20))
    with Executor() as serial, Executor(concurrency=2) as pool:
        assert serial.kind == "serial" and pool.kind == "processes"
        expected = [(i, i * i) for i in jobs]
        assert list(serial.run(_square, jobs)) == expected
        assert sorted(pool.run(_square, jobs)) == expected
        assert (
            list(in_order(pool.run(_square, iter(jobs)))) == expected
        )  # a generator of jobs, twice on one pool


def test_executor_passes_errors_back():
    with Executor(concurrency=2) as pool:
        with pytest.raises(HingeError, match="three"):
            list(pool.run(_fail_on_three, range(6)))


def test_in_order():
    assert list(in_order([(2, "c"), (0, "a"), (1, "b")])) == [(0, "a"), (1, "b"), (2, "c")]
    assert list(in_order([(3, "d"), (2, "c")], start=2)) == [(2, "c"), (3, "d")]


def test_bad_concurrency():
    for bad in (0, -1, 1.5, True):
        with pytest.raises(HingeError):
            Executor(concurrency=bad)


# ----- concurrency: the same games ------------------------------------------------------------------
def test_concurrent_match_plays_the_same_games():
    """Each game is the same when two are played at once (node limits, fixed seed):
    own seed, own searcher objects, counted in game order."""
    a, b = PlayerSpec("mcts", nodes=60, size=5), PlayerSpec("alphabeta", nodes=200, size=5)
    one = play_match(a, b, games=6, size=5, seed=4)
    finished = []
    with Executor(concurrency=2) as pool:
        two = play_match(
            a,
            b,
            games=6,
            size=5,
            seed=4,
            run=RunSettings(pool, on_game=lambda g: finished.append(g.round)),
        )
    assert [g.moves for g in two.games] == [g.moves for g in one.games]
    assert [g.result for g in two.games] == [g.result for g in one.games]
    assert (two.wins, two.losses, two.unfinished) == (one.wins, one.losses, one.unfinished)
    assert sorted(finished) == [1, 2, 3, 4, 5, 6]
    # Player objects are copied to the workers, and play as PlayerSpecs do
    with Executor(concurrency=2) as pool:
        objects = play_match(
            get_player("mcts", nodes=60),
            get_player("alphabeta", nodes=200),
            games=6,
            size=5,
            seed=4,
            run=RunSettings(pool),
        )
    assert [g.moves for g in objects.games] == [g.moves for g in one.games]


def test_concurrent_match_stops_where_a_serial_sprt_stops():
    a, b = PlayerSpec("random"), PlayerSpec("greedy")
    one = play_match(
        a,
        b,
        games=60,
        size=5,
        seed=1,
        sprt=__import__("hinge_fast.games.pairstats", fromlist=["Sprt"]).Sprt(0, 100),
    )
    with Executor(concurrency=2) as pool:
        two = play_match(a, b, games=60, size=5, seed=1, sprt=one.sprt, run=RunSettings(pool))
    assert one.sprt_decision is not None and one.played < 60
    assert two.played == one.played and two.sprt_decision == one.sprt_decision
    assert [g.moves for g in two.games] == [g.moves for g in one.games]


def test_match_command_concurrency_writes_the_same_games(tmp_path, capsys):
    serial, concurrent = tmp_path / "one.hgn", tmp_path / "two.hgn"
    assert main(MATCH + ["--games", "6", "--out", str(serial)]) == 0
    out_one = capsys.readouterr().out
    assert main(MATCH + ["--games", "6", "--out", str(concurrent), "--concurrency", "2"]) == 0
    out_two = capsys.readouterr().out
    assert "2 worker processes" in out_two
    assert games_by_round(serial) == games_by_round(concurrent)
    assert summary(out_one) == summary(out_two)


def test_uncopyable_player_is_refused():
    class Local(type(get_player("random"))):
        pass

    player = Local(seed=1)
    player.lock = __import__("threading").Lock()  # cannot be pickled
    with Executor(concurrency=2) as pool:
        with pytest.raises(HingeError, match="cannot be sent"):
            play_match(player, get_player("random"), games=2, size=4, seed=1, run=RunSettings(pool))


# ----- match files ---------------------------------------------------------------------------------------
SETTINGS = MatchSettings("mcts", "greedy", 5, 4, 400, "nodes 60", 7)


def _file_of(tmp_path, games=3):
    result = play_match(
        PlayerSpec("mcts", nodes=60, size=5), PlayerSpec("greedy"), games=games, size=5, seed=2
    )
    path = tmp_path / "games.hgn"
    path.write_text(
        "".join(format_record(g.record(settings=SETTINGS)) + "\n" for g in result.games)
    )
    return path, result


def test_a_game_cut_short_is_left_out(tmp_path):
    path, result = _file_of(tmp_path)
    text = path.read_bytes()
    third = text.rindex(b"[Event", 0, text.index(b'[Round "3"]'))
    assert [g.round for g in read_match(path, SETTINGS)[0].values()] == [1, 2, 3]
    for cut in range(third, len(text) - 2, 7):  # every way the last write could have stopped
        path.write_bytes(text[:cut])
        records, length = read_match_file(path)
        assert len(records) == 2 and length == third, cut
    path.write_bytes(text[:third] + b'[Event "hinge')
    assert sorted(read_match(path, SETTINGS)[0]) == [0, 1]


def test_resume_refuses_other_settings(tmp_path, capsys):
    path, _ = _file_of(tmp_path)
    for other in (
        MatchSettings("mcts", "greedy", 5, 4, 400, "nodes 61", 7),
        MatchSettings("greedy", "mcts", 5, 4, 400, "nodes 60", 7),
        MatchSettings("mcts", "greedy", 5, 4, 400, "nodes 60", 8),
        MatchSettings("mcts", "greedy", 5, 2, 400, "nodes 60", 7),
    ):
        with pytest.raises(HingeError, match="resume with the same settings"):
            read_match(path, other)
    assert (
        main(
            [
                "match",
                "mcts",
                "greedy",
                "--nodes",
                "61",
                "--size",
                "5",
                "--games",
                "4",
                "--book",
                "none",
                "--resume",
                str(path),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Limit 'nodes 60', not 'nodes 61'" in err[0]
    assert (
        main(MATCH + ["--games", "2", "--book", "none", "--resume", str(path)]) == 2
    )  # fewer games than the file holds
    assert "past the 2" in capsys.readouterr().err
    plain = tmp_path / "plain.hgn"
    plain.write_text(
        format_record(read_records(str(path))[0].__class__(5, ["C3"], {"Result": "unfinished"}))
    )
    assert main(MATCH + ["--games", "2", "--resume", str(plain)]) == 2
    assert "not a file written by match" in capsys.readouterr().err


def test_resume_on_a_finished_match_plays_nothing(tmp_path, capsys):
    path = tmp_path / "m.hgn"
    assert main(MATCH + ["--games", "4", "--resume", str(path)]) == 0  # a missing file: a new match
    first = capsys.readouterr().out
    before = path.read_bytes()
    assert (
        main(MATCH[:-2] + ["--games", "4", "--resume", str(path)]) == 0
    )  # the seed comes from the file
    second = capsys.readouterr().out
    assert "resuming: 4 games already in" in second
    assert path.read_bytes() == before and summary(first) == summary(second)
    assert main(MATCH + ["--games", "6", "--resume", str(path)]) == 0  # more games: two are added
    assert sorted(games_by_round(path)) == [1, 2, 3, 4, 5, 6]


#: The interrupted matches: 48 games of 600-node MCTS against 600-node MCTS with a
#: uniform policy that tries unvisited children first (about 45 ms a game when idle),
#: stopped once the bar counts 2 games. A match against greedy
#: (16 games of 60 nodes, then 48 of 600) finished in the moment between the bar's count
#: and the signal on a loaded machine: greedy games are short and MCTS proves them early.
LONGER_MATCH = [
    "match",
    "mcts",
    "mcts:exploration=0.4,fpu=-1,prior_weight=0",
    "--nodes",
    "600",
    "--size",
    "5",
    "--seed",
    "7",
]
LONGER_GAMES = 48
STOP_AT = 2


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """(summary, games) of LONGER_MATCH played straight through."""
    whole = tmp_path_factory.mktemp("whole") / "whole.hgn"
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(LONGER_MATCH + ["--games", str(LONGER_GAMES), "--out", str(whole)]) == 0
    return summary(out.getvalue()), games_by_round(whole)


def _ctrl_c_as_in_a_terminal():
    """In the match's process, before it starts: SIGINT as a terminal's foreground job
    has it. A test run started in the background (``pytest &`` in a script, ``nohup``)
    inherits SIGINT ignored, and so would the match, which then never saw the signal
    and played on to the end (seen as SigIgn 0x1001007 in /proc)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupted(tmp_path, sig, extra=()):
    """Start LONGER_MATCH saving to a file, stop it with ``sig`` once its progress bar
    says ``STOP_AT`` games are done, and return the file, the exit status and all it wrote on
    stderr. stderr is a pseudo-terminal, so that the bar is drawn; it is read as it
    comes (no sleeping). A game is in the file before the bar counts it."""
    path = tmp_path / f"cut-{sig}.hgn"
    games = LONGER_GAMES
    argv = (
        [sys.executable, "-m", "hinge_fast.cli"]
        + LONGER_MATCH
        + ["--games", str(games), "--out", str(path), *extra]
    )
    master, slave = pty.openpty()
    fcntl.ioctl(
        slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0)
    )  # a width to draw the bar in
    # Its own process group, signalled as a whole, as a terminal's Ctrl-C does: the
    # worker processes of --concurrency hold the terminal too.
    temporary = tempfile.TemporaryDirectory()  # a run killed by SIGKILL cannot clean its own
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=slave,
        start_new_session=True,
        preexec_fn=_ctrl_c_as_in_a_terminal,
        env=dict(os.environ, TMPDIR=temporary.name),
    )
    os.close(slave)
    said = ""
    try:
        while not any(int(n) >= STOP_AT for n in re.findall(rf"\b(\d+)/{games}\b", said[-300:])):
            chunk = pty_read(master)
            assert chunk, f"the match ended before {STOP_AT} games were counted: {said!r}"
            said += chunk
        # The signal state of the match, for a failure's message: a SIGINT that is
        # blocked or ignored there would let the match run to its end.
        with open(f"/proc/{proc.pid}/status") as f:
            said += (
                "\n["
                + " ".join(
                    line.strip() for line in f if line.startswith(("SigBlk", "SigIgn", "SigCgt"))
                )
                + "]\n"
            )
        os.killpg(proc.pid, sig)
        status = proc.wait(timeout=120)
        # Read what it said on its way out, to the end: the end comes once every process
        # holding the terminal is gone, the match's worker processes and fork server too.
        said = pty_read_to_end(
            master,
            said,
            "a process of the interrupted match outlived it (it still holds the terminal)",
        )
    finally:
        os.close(master)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        temporary.cleanup()
    return path, status, said


def _told(said: str) -> str:
    """What the match wrote besides its progress bar (and the bar's last state)."""
    lines = [
        line
        for line in said.replace("\r", "\n").splitlines()
        if line.strip() and "game/s" not in line
    ]
    return "\n".join(lines + said.replace("\r", "\n").splitlines()[-1:])


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_interrupted_match_resumes_to_the_same_result(tmp_path, capsys, uninterrupted, sig):
    expected, whole_games = uninterrupted
    path, status, said = _interrupted(tmp_path, sig)
    assert status == (-signal.SIGKILL if sig == signal.SIGKILL else 130), _told(said)
    kept = games_by_round(path)
    assert STOP_AT <= len(kept) < LONGER_GAMES, _told(said)  # stopped in the middle
    assert main(LONGER_MATCH + ["--games", str(LONGER_GAMES), "--resume", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"resuming: {len(kept)} games already in" in out
    assert summary(out) == expected
    assert games_by_round(path) == whole_games


def test_interrupted_concurrent_match_resumes(tmp_path, capsys, uninterrupted):
    expected, whole_games = uninterrupted
    games = str(LONGER_GAMES)
    path, status, said = _interrupted(tmp_path, signal.SIGINT, ["--concurrency", "2"])
    assert status == 130, _told(said)
    assert STOP_AT <= len(games_by_round(path)) < LONGER_GAMES, _told(
        said
    )  # stopped in the middle, no finished game lost
    assert main(LONGER_MATCH + ["--games", games, "--resume", str(path), "--concurrency", "2"]) == 0
    assert summary(capsys.readouterr().out) == expected
    assert games_by_round(path) == whole_games


@pytest.mark.parametrize(
    "argv, message",
    [
        (["perft", "3", "--ray", "nonsense"], "--ray takes HOST:PORT"),
        (["perft", "3", "--ray", "127.0.0.1:9"], "cannot reach the Ray cluster at 127.0.0.1:9"),
        (MATCH + ["--games", "2", "--ray", "127.0.0.1:9"], "cannot reach the Ray cluster"),
        (MATCH + ["--games", "2", "--concurrency", "0"], "--concurrency must be from 1"),
        (
            MATCH + ["--games", "2", "--out", "a.hgn", "--resume", "b.hgn"],
            "not allowed with argument",
        ),
    ],
)
def test_executor_arguments_bad_input(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and message in err[0]


# ----- stats on several processes ---------------------------------------------------------------------
def _without_time(summary):
    return {k: v for k, v in summary.items() if k != "seconds"}


def test_stats_chunks_give_the_same_statistics(monkeypatch):
    from hinge_fast.games import stats
    from hinge_fast.games.stats import self_play

    whole = self_play(4, 30, "random", seed=3, max_plies=200)
    with Executor(concurrency=2) as pool:
        assert _without_time(
            self_play(4, 30, "random", seed=3, max_plies=200, executor=pool)
        ) == _without_time(whole)
        monkeypatch.setattr(stats, "PLAYER_STATS_CHUNK", 3)
        engine = self_play(4, 7, "mcts", nodes=40, seed=5)
        assert _without_time(
            self_play(4, 7, "mcts", nodes=40, seed=5, executor=pool)
        ) == _without_time(engine)
        # random self-play in chunks: the first chunk is the games one process plays
        monkeypatch.setattr(stats, "RANDOM_STATS_CHUNK", 10)
        chunked = self_play(4, 30, "random", seed=3, max_plies=200)
        assert chunked["lengths"][:10] == whole["lengths"][:10]
        assert _without_time(
            self_play(4, 30, "random", seed=3, max_plies=200, executor=pool)
        ) == _without_time(chunked)


def test_stats_command_concurrency(capsys):
    argv = ["stats", "--size", "4", "--games", "40", "--seed", "2", "--json"]
    assert main(argv) == 0
    one = __import__("json").loads(capsys.readouterr().out)
    assert main(argv + ["--concurrency", "2"]) == 0
    two = __import__("json").loads(capsys.readouterr().out)
    assert _without_time(one) == _without_time(two)


def worker_pid(_job) -> int:
    return os.getpid()


def test_pool_workers_end_when_the_process_that_made_them_ends():
    """A pool owner that ends without closing its pool (as one stopped by Ctrl-C at the
    wrong moment may) takes its worker processes with it. (It ends without its exit
    handlers, so multiprocessing's folder stays: the owner's temporary folder is one of
    the test's.)"""
    script = (
        "import os, sys\n"
        "from hinge_fast.jobs.executor import Executor\n"
        "from tests.test_match_concurrency import worker_pid\n"
        "ex = Executor(concurrency=2)\n"
        "pids = {pid for _, pid in ex.run(worker_pid, range(8))}\n"
        "print(' '.join(map(str, pids)), flush=True)\n"
        "os._exit(0)\n"
    )
    with tempfile.TemporaryDirectory() as temporary:
        run = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=Path(__file__).resolve().parent.parent,
            env=dict(os.environ, TMPDIR=temporary),
        )
    assert run.returncode == 0, run.stderr
    pids = [int(p) for p in run.stdout.split()]
    assert pids and os.getpid() not in pids
    for pid in pids:
        try:
            watched = os.pidfd_open(pid)
        except ProcessLookupError:
            continue  # already gone
        try:
            ready, _, _ = select.select([watched], [], [], 60)
            assert ready, f"worker {pid} outlived the process that made its pool"
        finally:
            os.close(watched)


POOLED_MATCH = [sys.executable, "-m", "hinge_fast.cli", "match", "alphabeta", "alphabeta"] + [
    "--nodes", "100", "--games", "2", "--size", "4", "--concurrency", "2", "--seed", "3",
]  # fmt: skip


def _pooled_match_in(temporary) -> None:
    """POOLED_MATCH with ``temporary`` as the temporary folder: it must play its games."""
    run = subprocess.run(
        POOLED_MATCH,
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, TMPDIR=str(temporary)),
    )
    assert run.returncode == 0, run.stderr
    assert "+1 -1" in run.stdout, run.stdout


def test_a_pooled_command_leaves_nothing_in_the_temporary_folder():
    """The command line ends without the interpreter's teardown, but its exit handlers
    run: multiprocessing's folder for the fork server's socket goes (every
    ``--concurrency`` run left one in the system's temporary folder). The folder's path
    is a short one, where the fork server can start."""
    with tempfile.TemporaryDirectory() as temporary:
        _pooled_match_in(temporary)
        assert os.listdir(temporary) == []


def test_a_long_temporary_folder_path_is_no_obstacle(tmp_path):
    """Under a temporary folder whose path is too long for the fork server's socket
    (about 100 bytes: the fork server cannot start), the worker processes are started
    as new interpreters instead."""
    temporary = tmp_path / ("t" * 60) / ("u" * 60)
    temporary.mkdir(parents=True)
    _pooled_match_in(temporary)


def test_odds_give_engine_b_its_own_limit(tmp_path, capsys):
    """--nodes-b / --time-b: ENGINE_B searches with its own limit, in every executor,
    and the file's Limit tag records both (a resume with other odds is refused)."""
    odds = [
        "match",
        "mcts",
        "mcts",
        "--nodes",
        "2",
        "--nodes-b",
        "400",
        "--size",
        "5",
        "--seed",
        "3",
        "--games",
        "6",
    ]
    serial, pooled = tmp_path / "serial.hgn", tmp_path / "pooled.hgn"
    assert main(odds + ["--out", str(serial)]) == 0
    out = capsys.readouterr().out
    assert "2 nodes per move for A, 400 nodes for B" in out
    _, losses = (int(n) for n in re.search(r"\+(\d+) -(\d+)", out).groups())
    assert losses >= 5, out  # two playouts a move against four hundred
    assert {r.tags["Limit"] for r in read_records(str(serial))} == {"nodes 2; B nodes 400"}
    assert main(odds + ["--out", str(pooled), "--concurrency", "2"]) == 0
    capsys.readouterr()
    assert games_by_round(pooled) == games_by_round(serial)  # node limits: the same games
    even = ["match", "mcts", "mcts", "--nodes", "2", "--size", "5", "--seed", "3", "--games", "6"]
    assert main(even + ["--resume", str(serial)]) == 2
    assert "Limit 'nodes 2; B nodes 400', not 'nodes 2'" in capsys.readouterr().err
    assert (
        main(
            [
                "match",
                "greedy",
                "random",
                "--time-b",
                "0.3",
                "--size",
                "5",
                "--seed",
                "1",
                "--games",
                "2",
            ]
        )
        == 0
    )
    assert "0.1 s per move for A, 0.3 s for B" in capsys.readouterr().out


# ----- --out never loses a file; --resume reads a torn one ------------------------------------------
def test_out_refuses_a_file_that_holds_games_unless_forced(tmp_path, capsys):
    path = tmp_path / "m.hgn"
    assert main(MATCH + ["--games", "2", "--book", "none", "--out", str(path)]) == 0
    before = path.read_bytes()
    capsys.readouterr()
    assert main(MATCH + ["--games", "2", "--book", "none", "--out", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert (
        len(err) == 1
        and "holds 2 games" in err[0]
        and f"--resume {path}" in err[0]
        and "--force" in err[0]
    )
    assert path.read_bytes() == before  # refused: the games are still there
    other = tmp_path / "notes.txt"
    other.write_text("my notes\n")
    assert main(MATCH + ["--games", "2", "--out", str(other)]) == 2
    assert "is not empty" in capsys.readouterr().err and other.read_text() == "my notes\n"
    assert main(MATCH + ["--games", "2", "--book", "none", "--out", str(path), "--force"]) == 0
    assert sorted(games_by_round(path)) == [1, 2] and len(read_records(str(path))) == 2
    assert main(MATCH + ["--games", "2", "--resume", str(path), "--force"]) == 2
    assert "--force goes with --out" in capsys.readouterr().err


def test_resume_drops_a_torn_last_game_and_plays_it_again(tmp_path, capsys):
    whole = tmp_path / "whole.hgn"
    assert main(MATCH + ["--games", "4", "--book", "none", "--out", str(whole)]) == 0
    expected = summary(capsys.readouterr().out)
    text = whole.read_bytes()
    fourth = text.rindex(b"[Event", 0, text.index(b'[Round "4"]'))
    torn = tmp_path / "torn.hgn"
    torn.write_bytes(text[: fourth + (len(text) - fourth) // 2])  # the last game half written
    assert main(MATCH + ["--games", "4", "--book", "none", "--resume", str(torn)]) == 0
    out = capsys.readouterr().out
    assert "resuming: 3 games already in" in out and summary(out) == expected
    assert games_by_round(torn) == games_by_round(whole)
    assert len(read_records(str(torn))) == 4


@pytest.mark.parametrize("round_tag", ["\u00b2", "1" * 5001, "-3", "0", "1e3", " 2"])
def test_resume_refuses_a_round_that_is_not_a_game_number(tmp_path, capsys, round_tag):
    path, _ = _file_of(tmp_path, games=2)
    text = path.read_text()
    path.write_text(text.replace('[Round "2"]', f'[Round "{round_tag}"]'))
    assert main(MATCH + ["--games", "4", "--book", "none", "--resume", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert (
        len(err) == 1 and "Round" in err[0] and "Traceback" not in err[0] and len(err[0]) < 300
    ), err


def test_a_match_file_over_the_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    import hinge_fast.games.matchfile as matchfile

    path, _ = _file_of(tmp_path, games=2)
    monkeypatch.setattr(matchfile, "MAX_RECORD_BYTES", path.stat().st_size - 1)
    with pytest.raises(HingeError, match="is over"):
        read_match_file(path)


def test_a_game_torn_inside_a_tag_that_names_a_result_is_left_out(tmp_path):
    path, _ = _file_of(tmp_path)
    text = path.read_bytes()
    third = text.rindex(b"[Event", 0, text.index(b'[Round "3"]'))
    result_tag = text.index(b'[Result "', third) + len(b'[Result "')
    result = text[result_tag : text.index(b'"', result_tag)]
    path.write_bytes(
        text[: result_tag + len(result)]
    )  # torn right after the word green, blue or unfinished
    records, length = read_match_file(path)
    assert len(records) == 2 and length == third


def test_a_local_ray_that_fails_to_start_is_one_line(monkeypatch, capsys):
    """Ray can fail to start in ways of its own (a timeout waiting for its services
    under load, an error class of Ray's): the command still ends with one line, no
    traceback, and status 2."""
    ray = pytest.importorskip("ray")

    class RayWouldNotStart(Exception):
        pass

    def refuse(*args, **kwargs):
        raise RayWouldNotStart("the node's services did not answer in time\nmore detail")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", refuse)
    assert main(["perft", "3", "--ray"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["error: cannot start a local Ray: the node's services did not answer in time"]
