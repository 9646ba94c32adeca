"""The Ray backend (--ray): the same answers as a local run with any number of
workers, and a match that loses a worker still ends with every game.

Ray is in the test extra: without it these tests fail (at the import below) rather
than skip. One local Ray (2 CPUs) serves the whole session."""

from __future__ import annotations

import pytest
import ray  # pip install '.[test]' installs it

from hinge_fast.cli import main
from hinge_fast.games.match import RunSettings, play_match
from hinge_fast.games.players import PlayerSpec
from hinge_fast.jobs.executor import Executor

# One local Ray per test worker (conftest.local_ray): under pytest-xdist this file runs on
# one worker (--dist loadfile).


def _cube(x):
    return x**3


A, B = PlayerSpec("mcts", nodes=60, size=5), PlayerSpec("alphabeta", nodes=150, size=5)


def _moves(result):
    return [(g.green, g.blue, g.moves, g.result) for g in result.games]


def test_ray_executor_runs_every_job(local_ray):
    # one executor at a time: each actor holds one of the 2 CPUs
    with Executor(ray="auto") as both:
        assert both.start().workers == 2
        assert sorted(both.run(_cube, range(12))) == [(i, i**3) for i in range(12)]
    with Executor(ray="auto", concurrency=1) as single:
        assert single.start().workers == 1
        assert sorted(single.run(_cube, range(5))) == [(i, i**3) for i in range(5)]
    assert ray.is_initialized()  # a Ray the executor did not start is left running


@pytest.mark.parametrize("workers", [1, 2])
def test_match_on_ray_equals_local(local_ray, workers):
    local = play_match(A, B, games=6, size=5, seed=9)
    with Executor(ray="auto", concurrency=workers) as ex:
        remote = play_match(A, B, games=6, size=5, seed=9, run=RunSettings(ex))
    assert _moves(remote) == _moves(local)
    assert (remote.wins, remote.losses, remote.unfinished) == (
        local.wins,
        local.losses,
        local.unfinished,
    )


def test_match_survives_a_killed_worker(local_ray):
    local = play_match(A, B, games=10, size=5, seed=3)
    with Executor(ray="auto") as ex:
        victim = ex.start().actors[0]

        def kill_once(game):
            if ex.actor_deaths == 0 and victim in ex.actors:
                ray.kill(victim)

        remote = play_match(A, B, games=10, size=5, seed=3, run=RunSettings(ex, on_game=kill_once))
        assert ex.actor_deaths >= 1  # the killed actor had games queued: they went elsewhere
        assert victim not in ex.actors and len(ex.actors) == 2  # replaced
    assert remote.played == 10
    assert _moves(remote) == _moves(local)


def test_match_command_on_ray(local_ray, tmp_path, capsys):
    argv = [
        "match",
        "mcts",
        "greedy",
        "--nodes",
        "60",
        "--size",
        "5",
        "--seed",
        "5",
        "--games",
        "4",
    ]
    assert main(argv + ["--out", str(tmp_path / "a.hgn")]) == 0
    local = capsys.readouterr().out
    assert main(argv + ["--out", str(tmp_path / "b.hgn"), "--ray", "auto"]) == 0
    remote = capsys.readouterr().out
    assert "Ray workers on the Ray cluster at auto" in remote
    cut = lambda out: out.split("\n", 1)[1]  # noqa: E731  (the header names the executor)
    assert cut(remote) == cut(local).replace("a.hgn", "b.hgn")


MIDGAME = "5/1bb1g1/1b2g2/2bbg3/2b1b4/4bg2/3g1g1/6/5 b"


@pytest.mark.parametrize("workers", [1, 2])
def test_perft_on_ray_equals_local(local_ray, workers, monkeypatch):
    from hinge_fast import Board
    from hinge_fast.measure import counting

    board = Board.from_fen(MIDGAME)
    with Executor() as here:
        local = counting.perft_split(board, 3, here)
        with Executor(ray="auto", concurrency=workers) as ex:
            assert counting.perft_split(board, 3, ex) == local  # one job per root move
            monkeypatch.setattr(counting, "JOBS_PER_WORKER", 10**6)
            assert (
                counting.perft_split(board, 3, ex) == local
            )  # one job per position two plies deep
            assert counting.perft_split(board, 3, ex, bulk=False) == local
    assert sum(c for _, c in local) > 0 and board.fen() == MIDGAME


def test_perft_command_on_ray(local_ray, capsys):
    for argv in (["perft", "3", MIDGAME, "--divide"], ["perft", "3", "--size", "4", "--no-bulk"]):
        assert main(argv) == 0
        local = capsys.readouterr().out
        assert main(argv + ["--ray", "auto"]) == 0
        assert capsys.readouterr().out == local


def test_tune_command_on_ray(local_ray, capsys):
    """SPSA's games go to the Ray workers; the parameter path is the local one."""
    argv = [
        "tune",
        "mcts",
        "-p",
        "exploration=0.4,0.1,1.0",
        "--iterations",
        "2",
        "--games",
        "4",
        "--nodes",
        "30",
        "--size",
        "4",
        "--seed",
        "3",
        "--learning-rate",
        "1",
    ]
    assert main(argv) == 0
    local = capsys.readouterr().out
    assert main(argv + ["--ray", "auto"]) == 0
    assert capsys.readouterr().out == local
    assert "iter 2/2" in local


def _refuse_three(x):
    from hinge_fast import HingeError

    if x == 3:
        raise HingeError("three is not allowed")
    return x


def test_ray_passes_errors_back(local_ray):
    from hinge_fast import HingeError

    with Executor(ray="auto") as ex:
        with pytest.raises(HingeError, match="three is not allowed"):
            list(ex.run(_refuse_three, range(6)))
        assert sorted(ex.run(_refuse_three, [1, 2])) == [(0, 1), (1, 2)]  # the workers go on


def test_stats_on_ray_equals_local(local_ray, monkeypatch):
    from hinge_fast.games import stats
    from hinge_fast.games.stats import self_play

    monkeypatch.setattr(stats, "RANDOM_STATS_CHUNK", 10)
    monkeypatch.setattr(stats, "PLAYER_STATS_CHUNK", 2)
    drop = lambda s: {k: v for k, v in s.items() if k != "seconds"}  # noqa: E731
    local_random = self_play(5, 35, "random", seed=4)
    local_engine = self_play(4, 5, "mcts", nodes=40, seed=6)
    for workers in (1, 2):
        with Executor(ray="auto", concurrency=workers) as ex:
            assert drop(self_play(5, 35, "random", seed=4, executor=ex)) == drop(local_random)
            assert drop(self_play(4, 5, "mcts", nodes=40, seed=6, executor=ex)) == drop(
                local_engine
            )


def test_stats_command_on_ray(local_ray, capsys):
    argv = ["stats", "--size", "4", "--games", "20", "--seed", "2"]
    assert main(argv) == 0
    local = capsys.readouterr().out
    assert main(argv + ["--ray", "auto"]) == 0
    remote = capsys.readouterr().out
    cut = lambda out: out.split("\n", 1)[1]  # noqa: E731  (the first line gives the time)
    assert cut(remote) == cut(local)


def test_playouts_on_ray_equal_local(local_ray):
    import numpy as np

    from hinge_fast import Board
    from hinge_fast.core import parallel
    from hinge_fast.measure.counting import playouts_split

    board = Board.from_fen(MIDGAME)
    local = parallel.playouts(board.size, board.own, board.enemy, 300, 500, 11, 1)
    for workers in (1, 2):
        with Executor(ray="auto", concurrency=workers) as ex:
            remote = playouts_split(board, 300, 500, 11, ex)
        for mine, theirs in zip(remote, local):
            assert np.array_equal(mine, theirs)


def test_playouts_command_on_ray(local_ray, capsys):
    argv = ["playouts", "500", "--size", "5", "--seed", "4"]
    assert main(argv + ["--threads", "1"]) == 0
    local = capsys.readouterr().out.splitlines()
    assert main(argv + ["--ray", "auto"]) == 0
    remote = capsys.readouterr().out.splitlines()
    assert "Ray workers" in remote[0] and remote[1:] == local[1:]


def test_prove_command_on_ray(local_ray, capsys, tmp_path):
    # the root's moves proven on the Ray's workers: the empty side-4 board (Green wins),
    # and a lost position, whose proof is joined from every move's proof and accepted by
    # the reference checker
    from hinge_fast.solving.proof import check_proof

    assert main(["prove", "--size", "4", "--table-mb", "16", "--ray", "auto", "--moves"]) == 0
    run = capsys.readouterr()
    assert "Ray workers" in run.err
    assert run.out.startswith("Green wins in at most ")
    assert any("Green wins in at most" in line for line in run.out.splitlines()[1:])
    out = tmp_path / "lost.proof"
    assert (
        main(
            [
                "prove",
                "4/1bgg1/2bbb1/2bgg2/1ggg2/2gg1/4 b",
                "--table-mb",
                "4",
                "--ray",
                "auto",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.startswith("Green wins in at most 2 plies (proven)")
    assert check_proof(out).winner == "green"


# ----- a local Ray stays on this machine -------------------------------------------------------
LISTENING = r'''
import os, socket, sys
from hinge_fast.jobs.executor import Executor


def tree(root):
    """The process ``root`` and all its descendants."""
    children = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = open(f"/proc/{pid}/stat").read()
        except OSError:
            continue
        children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(pid))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def sockets(pids):
    """inode -> the name of the process holding that socket."""
    found = {}
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
            name = open(f"/proc/{pid}/comm").read().strip()
        except OSError:
            continue
        for fd in fds:
            try:
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:["):
                found[int(link[8:-1])] = name
    return found


def listening():
    """(address, port, inode) of every TCP socket listening on this machine."""
    rows = []
    for table, family in (("tcp", socket.AF_INET), ("tcp6", socket.AF_INET6)):
        for line in open(f"/proc/net/{table}").read().splitlines()[1:]:
            fields = line.split()
            if fields[3] != "0A":
                continue
            address, port = fields[1].split(":")
            raw = bytes.fromhex(address)
            raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
            rows.append((socket.inet_ntop(family, raw), int(port, 16), int(fields[9])))
    return rows


with Executor(ray="local", concurrency=1) as executor:
    executor.start()
    import ray

    print("describe", executor.describe())
    print("nodes", *sorted(node["NodeManagerAddress"] for node in ray.nodes()))
    ours = sockets(tree(os.getpid()))
    for address, port, inode in listening():
        if inode in ours:
            print("listen", ours[inode], address, port)
'''


def test_a_local_ray_listens_on_loopback_only(tmp_path):
    """--ray without an address: every socket that Ray's processes (the GCS, the raylet,
    the workers, the driver) listen on is bound to 127.0.0.1, not the LAN address
    Ray would choose, and the command's description says so."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    run = subprocess.run(
        [sys.executable, "-c", LISTENING],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.splitlines()
    assert "describe 1 Ray workers on a local Ray listening on 127.0.0.1 only" in lines
    assert "nodes 127.0.0.1" in lines
    listens = [line.split() for line in lines if line.startswith("listen ")]
    names = {fields[1] for fields in listens}
    assert {"gcs_server", "raylet"} <= names, lines
    assert all(fields[2] in ("127.0.0.1", "::ffff:127.0.0.1", "::1") for fields in listens), listens


def test_a_local_ray_is_refused_when_it_would_listen_on_the_network():
    """Ray imported before the executor could make its node address the loopback one:
    the executor starts nothing and says why, in one line."""
    import os
    import subprocess
    import sys

    code = (
        "import ray, ray.util\n"
        "from hinge_fast.errors import HingeError\n"
        "from hinge_fast.jobs.executor import Executor\n"
        "if ray.util.get_node_ip_address() == '127.0.0.1':\n"
        "    print('loopback only'); raise SystemExit\n"
        "try:\n"
        "    Executor(ray='local').start()\n"
        "except HingeError as e:\n"
        "    print(e, ray.is_initialized())\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env
    )
    assert run.returncode == 0, run.stderr[-3000:]
    if run.stdout.strip() == "loopback only":
        pytest.skip("this machine has no address but the loopback one")
    assert run.stdout.startswith(
        "cannot start a local Ray listening on 127.0.0.1 only: Ray was imported before"
    )
    assert run.stdout.strip().endswith("False")
