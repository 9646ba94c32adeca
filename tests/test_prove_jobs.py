"""A proof by jobs (``solving/spread.py``; ``prove --concurrency``, ``--ray``): the values
of side-4 positions as their tablebases have them, proofs that the reference checker
accepts, a run killed after some jobs and resumed from its checkpoint, a local Ray, and
the mistakes refused."""

from __future__ import annotations

import json
import multiprocessing
import os
import select
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading

import pytest

from hinge_fast import Board
from hinge_fast.errors import HingeError
from hinge_fast.jobs.executor import Executor
from hinge_fast.solving.proof import check_proof, check_proof_text, write_proof_text
from hinge_fast.solving.spread import Job, prove_job, prove_jobs
from hinge_fast.solving.tablebase import solve

#: Side-4 positions of seeded random games (``late_positions``) that one thread proves
#: in 197 and 412 nodes: at 10 nodes a job, they need many jobs and the master's plies.
POSITIONS = ["4/1ggb1/2g1b1/1g3b1/3b2/1g1b1/4 g", "4/1b1b1/3g2/1b1g1g1/1b2g1/2g2/4 b"]
#: One that takes 1,203 nodes, for the interrupted runs.
HARD = "4/1b1b1/1g1g2/1g1gb2/2g3/3b1/4 b"
EMPTY4 = Board(4).fen()


def exact(fen):
    """``(winner, distance)`` of ``fen`` from the tablebase of its tree."""
    result = solve(fen, progress=False)
    code = int(result.values[result.start_index])
    board = Board.from_fen(fen)
    win, distance = (code - 1) % 2, (code - 1) // 2
    return (board.turn if win else board.turn.other), distance


@pytest.fixture(scope="module")
def values():
    return {fen: exact(fen) for fen in [*POSITIONS, HARD]}


def checked(proof):
    return check_proof_text(
        write_proof_text(proof.position, str(proof.winner), proof.distance, proof.strategy)
    )


@pytest.mark.parametrize("fen", POSITIONS)
@pytest.mark.parametrize("plies", [1, 2, 3])
def test_jobs_prove_what_the_tablebase_says_and_their_proof_is_accepted(values, fen, plies):
    board = Board.from_fen(fen)
    winner, distance = values[fen]
    seen = []
    with Executor() as executor:
        result, proof = prove_jobs(
            board,
            executor,
            table_mb=4,
            split_plies=plies,
            job_nodes=10,
            proof=True,
            progress=lambda nodes, pn, dn, t: seen.append(nodes),
        )
    assert board.fen() == fen  # the board is given back as it came
    assert result.winner == winner and result.complete
    assert result.distance >= distance
    assert seen == sorted(seen) and seen[-1] == result.nodes
    report = checked(proof)
    assert report.winner == str(winner) and proof.distance >= distance
    assert len(result.root_moves) == len(board.legal_moves) or len(seen) == 1


def test_two_worker_processes_prove_the_empty_side4_board_with_a_proof(tmp_path, cli):
    out = tmp_path / "side4.proof"
    run = cli(
        "prove", "--size", "4", "--concurrency", "2", "--job-nodes", "2000", "--table-mb", "8",
        "--out", out, "--moves",
    )  # fmt: skip
    assert run.status == 0, run.err
    assert run.out.startswith("Green wins in at most ")
    assert "proving by jobs on 2 worker processes, the master keeping 2 plies" in run.err
    lines = run.out.splitlines()
    assert sum("Green wins" in line for line in lines[1:20]) >= 1  # the root's moves listed
    assert check_proof(out).winner == "green"


@pytest.mark.slow
def test_the_empty_side4_board_by_jobs_agrees_with_the_whole_table(side4_table):
    code = side4_table.facts["start_code"]
    assert (code - 1) % 2 == 1  # Green, to move, wins
    with Executor(concurrency=2) as executor:
        found, proof = prove_jobs(
            Board(4), executor, table_mb=8, split_plies=3, job_nodes=100, proof=True
        )
    assert str(found.winner) == "green" and found.distance >= (code - 1) // 2
    assert checked(proof).winner == "green"


def test_a_node_limit_bounds_all_the_jobs_together():
    with Executor() as executor:
        result, proof = prove_jobs(Board(5), executor, nodes=700, table_mb=1, job_nodes=100)
    assert result.winner is None and not result.complete and proof is None
    assert 600 <= result.nodes <= 700
    assert len(result.root_moves) == len(Board(5).legal_moves)
    # the 37 first moves make 6 classes under the board's symmetries: 6 sets of numbers
    assert len({(m.pn, m.dn) for m in result.root_moves}) <= 6


# ----- interrupted runs and their checkpoints -------------------------------------------------
def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads /proc")
def endless_jobs(*indices: int) -> list[Job]:
    """Jobs numbered ``indices`` proving the empty side-6 board within 10^12 nodes: they
    end only by being stopped."""
    return [Job(k, "prove", Board(6).fen(), 10**12, None, 16) for k in indices]


def test_a_worker_ends_at_once_on_sigterm_in_the_middle_of_a_long_job():
    """The pool's stop (and a scheduler's SIGTERM) ends a worker process within seconds
    even while its job has billions of nodes to go: the job's kernel runs on a thread,
    and the worker's main thread handles the signal. The run then stops with an error,
    whichever of the two workers ended."""
    endless = endless_jobs(0, 1)
    failures = []

    def run_jobs():
        try:
            list(executor.run(prove_job, endless))
        except HingeError as e:  # the pool lost a worker
            failures.append(str(e))

    with Executor(concurrency=2) as executor:
        thread = threading.Thread(target=run_jobs)
        thread.start()
        worker = None
        while worker is None or cpu_seconds(worker.pid) < 3.0:  # deep in its job's kernel
            # the worker started last: the one a pool starting its workers lazily may not watch
            children = multiprocessing.active_children()
            if len(children) == 2:
                worker = max(children, key=lambda process: process.pid)
            if worker is not None:
                worker.join(0.05)
                assert worker.is_alive(), "the worker ended by itself"
            else:
                thread.join(0.05)
        watched = os.pidfd_open(worker.pid)
        os.kill(worker.pid, signal.SIGTERM)
        ended, _, _ = select.select([watched], [], [], 10.0)
        os.close(watched)
        if not ended:  # nothing else would end the workers' jobs
            for process in multiprocessing.active_children():
                process.kill()
        assert ended, "the worker ran on for 10 s after SIGTERM"
        # the run stops by itself (closing the executor would end it anyway)
        thread.join(10)
        assert not thread.is_alive() and failures, "the run did not stop when its worker ended"


def test_a_run_closed_early_stops_the_jobs_still_running():
    """A consumer that stops taking results (a match whose SPRT has decided, or Ctrl-C
    landing while a finished game is saved) ends the jobs still running at once: nothing
    would take their results, and waiting for them could take for ever."""
    quick = Job(0, "prove", Board(4).fen(), 1000, None, 16)
    endless = endless_jobs(1, 2)
    taken = []

    def take_one_then_close():
        with Executor(concurrency=2) as executor:
            stream = executor.run(prove_job, [quick, *endless])
            taken.append(next(stream))
            stream.close()

    thread = threading.Thread(target=take_one_then_close, daemon=True)
    thread.start()
    thread.join(30)
    if thread.is_alive():  # nothing else would end the endless jobs
        for process in multiprocessing.active_children():
            process.kill()
    assert not thread.is_alive(), "closing the run waited for its endless jobs"
    assert [index for index, _ in taken] == [0]
    assert not multiprocessing.active_children()


KILLED = textwrap.dedent(
    """
    import os, signal, sys
    from hinge_fast import Board
    from hinge_fast.jobs.executor import Executor
    from hinge_fast.solving.spread import prove_jobs

    fen, path, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
    finished = []

    def progress(nodes, pn, dn, seconds):  # called once the job's checkpoint is written
        finished.append(nodes)
        if len(finished) == k:
            os.kill(os.getpid(), signal.SIGKILL)

    with Executor(concurrency=2) as executor:
        prove_jobs(Board.from_fen(fen), executor, table_mb=4, job_nodes=10,
                   checkpoint=path, progress=progress)
    """
)


def test_a_master_killed_after_some_jobs_resumes_from_its_checkpoint(values, tmp_path):
    path = tmp_path / "run.json"
    k = 5
    with tempfile.TemporaryDirectory() as temporary:  # the killed run cannot clean its own
        killed = subprocess.run(
            [sys.executable, "-c", KILLED, HARD, str(path), str(k)],
            capture_output=True,
            text=True,
            timeout=600,
            env=dict(os.environ, TMPDIR=temporary),
        )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    saved = json.loads(path.read_text())
    assert saved["position"] == HARD and saved["jobs"] == k
    assert saved["nodes"] == sum(row[2] for row in saved["leaves"]) > 0
    assert not [p for p in os.listdir(tmp_path) if p != "run.json"]  # no temporary file left
    with Executor() as executor:
        result, _ = prove_jobs(
            Board.from_fen(HARD), executor, table_mb=4, job_nodes=10, checkpoint=path
        )
    assert result.winner == values[HARD][0] and result.distance >= values[HARD][1]
    after = json.loads(path.read_text())
    assert after["jobs"] > k and after["nodes"] == result.nodes > saved["nodes"]
    # a finished run given its checkpoint again is decided at once, with no job
    with Executor() as executor:
        again, _ = prove_jobs(
            Board.from_fen(HARD), executor, table_mb=4, job_nodes=10, checkpoint=path
        )
    assert again.winner == result.winner and again.nodes == result.nodes
    assert json.loads(path.read_text())["jobs"] == after["jobs"]


def test_cli_stopped_at_a_node_limit_then_resumed(values, tmp_path, cli):
    path = tmp_path / "run.json"
    args = ["prove", HARD, "--concurrency", "2", "--job-nodes", "10", "--table-mb", "4"]
    first = cli(*args, "--nodes", "200", "--checkpoint", path)
    assert first.status == 1 and first.out == "not proven within the limits\n", first.err
    assert f"checkpoint written to {path}" in first.err
    saved = json.loads(path.read_text())
    assert 0 < saved["nodes"] <= 200
    second = cli(*args, "--checkpoint", path)
    assert second.status == 0, second.err
    assert "resuming the run saved in" in second.err
    winner = str(values[HARD][0]).capitalize()
    assert second.out.startswith(f"{winner} wins in at most ")


@pytest.mark.parametrize(
    "content, message",
    [
        ("junk", "is not a readable split-proof checkpoint (not JSON)"),
        ('{"format": "hinge-fast split proof", "version": 1, "position": "', "(not JSON)"),
        ('{"format": "other"}', "is not a readable split-proof checkpoint"),
        ('{"format": "hinge-fast split proof", "version": 9}', "(version 9)"),
        (
            '{"format": "hinge-fast split proof", "version": 1, "position": "4/5/6/7/6/5/4 g", '
            '"nodes": -1, "jobs": 0, "seconds": 0, "expanded": [], "leaves": []}',
            "(not a count: -1)",
        ),
        (
            '{"format": "hinge-fast split proof", "version": 1, "position": "4/5/6/7/6/5/4 g", '
            '"nodes": 1, "jobs": 1, "seconds": 0, "expanded": [], "leaves": [["x"]]}',
            "is not a readable split-proof checkpoint (",
        ),
    ],
)
def test_a_damaged_checkpoint_is_one_line(tmp_path, cli, content, message):
    path = tmp_path / "run.json"
    path.write_text(content)
    run = cli("prove", "--size", "4", "--concurrency", "1", "--checkpoint", path, "--quiet")
    assert run.status == 2 and run.err.count("\n") == 1 and message in run.err, run.err


def test_a_checkpoint_of_another_position_is_refused(tmp_path, cli):
    path = tmp_path / "run.json"
    assert cli("prove", "--size", "4", "--concurrency", "1", "--nodes", "10", "--job-nodes",
               "10", "--checkpoint", path, "--quiet").status == 1  # fmt: skip
    run = cli("prove", "--size", "5", "--concurrency", "1", "--checkpoint", path, "--quiet")
    assert run.status == 2
    assert f"the checkpoint {path} is of the position 4/5/6/7/6/5/4 g, not of " in run.err
    npz = cli("prove", "--size", "4", "--checkpoint", path, "--quiet")  # one thread: .npz
    assert npz.status == 2 and "is not a readable prover checkpoint" in npz.err


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--split-plies", "2"], "--split-plies and --job-nodes set the jobs of --concurrency"),
        (["--job-nodes", "5"], "--split-plies and --job-nodes set the jobs of --concurrency"),
        (["--concurrency", "2", "--split-plies", "0"], "--split-plies"),
        (["--concurrency", "2", "--split-plies", "5"], "--split-plies"),
        (["--concurrency", "2", "--job-nodes", "0"], "--job-nodes"),
        (["--concurrency", "2", "--threads", "2"], "leave out --threads"),
        (["--concurrency", "2", "--shortest"], "leave out --concurrency and --ray"),
        (["--concurrency", "2", "--checkpoint-every", "5"], "leave out --checkpoint-every"),
    ],
)
def test_mistakes_are_one_line(cli, extra, message):
    run = cli("prove", "--size", "4", "--quiet", *extra)
    assert run.status == 2 and run.err.count("\n") == 1 and message in run.err, run.err


@pytest.mark.parametrize(
    "options, message",
    [
        ({"split_plies": 0}, "split plies must be from 1 to 4"),
        ({"split_plies": True}, "split plies must be a whole number"),
        ({"job_nodes": 0}, "job nodes must be a whole number of at least 1"),
    ],
)
def test_api_mistakes_are_hinge_errors(options, message):
    with Executor() as executor, pytest.raises(HingeError, match=message):
        prove_jobs(Board(4), executor, **options)


# ----- on a local Ray ----------------------------------------------------------------------------
def test_a_ray_run_closed_early_ends_its_jobs_and_the_next_run_has_workers(local_ray):
    """On Ray as in a local pool, closing a run early ends the jobs still running (the
    actors running them are killed), and the next run on the same executor gets new
    actors: a tournament's next pairing after an SPRT's early stop."""
    quick = Job(0, "prove", Board(4).fen(), 1000, None, 16)
    endless = endless_jobs(1, 2)
    again = []

    def close_early_then_run_again():
        with Executor(ray="auto", concurrency=2) as executor:
            stream = executor.run(prove_job, [quick, *endless])
            assert next(stream)[0] == 0
            stream.close()
            again.extend(sorted(index for index, _ in executor.run(prove_job, [quick, quick])))

    thread = threading.Thread(target=close_early_then_run_again, daemon=True)
    thread.start()
    thread.join(120)
    assert not thread.is_alive(), "the second run waited behind the first one's endless jobs"
    assert again == [0, 1]


def test_jobs_on_a_local_ray(local_ray, values, tmp_path, cli):
    fen = POSITIONS[0]
    with Executor(ray="auto", concurrency=2) as executor:
        result, proof = prove_jobs(
            Board.from_fen(fen), executor, table_mb=4, job_nodes=10, proof=True
        )
    assert result.winner == values[fen][0]
    assert checked(proof).winner == str(values[fen][0])
    path = tmp_path / "run.json"
    run = cli("prove", HARD, "--ray", "auto", "--job-nodes", "10", "--table-mb", "4",
              "--checkpoint", path)  # fmt: skip
    assert run.status == 0, run.err
    assert run.out.startswith(f"{str(values[HARD][0]).capitalize()} wins in at most ")
    assert "Ray workers on the Ray cluster at auto" in run.err
    assert json.loads(path.read_text())["jobs"] >= 2
