"""The prover (``search/dfpn.py``, ``search/prover.py``): nodes a second, the side-4 empty
board, and fixed side-5 and side-6 middle-game positions, on one thread and on every core
(``Prover(threads=T)``, the root's moves on T threads).

    python -m pytest bench/test_bench_prove.py --benchmark-enable -n 0 --benchmark-columns=min,median,max

Each round starts from an empty table. The positions come from seeded random games, a
few plies before their end, chosen to be proven in a few seconds on one thread.
"""

import time

import pytest

from hinge_fast import Board
from hinge_fast.jobs.executor import cores
from hinge_fast.search.prover import Prover

#: Nodes of the nodes-a-second measure (the side-5 empty board: never proven so soon).
NODES = 300_000
TABLE_MB = 64
THREADS = sorted({1, cores()})

#: (position, the side that wins it)
SIDE5 = [
    ("5/2b1g1/1b2g2/2b5/2bb1g3/2b5/1bg2b1/2g3/5 g", "green"),
    ("5/4b1/2g4/1b4g1/4bb3/5bb1/1gg4/3g2/5 g", "green"),
    ("5/2b1g1/1g5/2g5/3b1g3/1bb5/2g2b1/6/5 g", "green"),
    ("5/1b2b1/2b1b2/1g2b3/1g1b2g2/8/3ggg1/1b4/5 g", "blue"),
]
SIDE6 = [
    ("6/1g3g1/1gggb1g1/2gg3g1/2g1gb1g2/2g1g3g2/1g5g2/1gg1bb3/1g3bb1/3bbb1/6 b", "blue"),
    ("6/1bbbbb1/1gb3b1/1bgbb1bb1/1bbb1bbbb1/5b2b2/3b3bb1/1g3bbb1/2g3b1/5b1/6 g", "blue"),
    ("6/1g3g1/1g1gb1g1/2gg3g1/2g2b1g2/2g1g3g2/1g5g2/1gg1bb3/1g3bb1/3g1b1/6 b", "green"),
]


def prove(fen, threads, nodes=None):
    """The setup (a fresh prover) and the run of one round; ``run.cpu`` the CPU seconds
    the process got in the last round (all threads), to read its wall time against."""

    def setup():
        return (Prover(table_mb=TABLE_MB, threads=threads), Board.from_fen(fen)), {}

    def run(prover, board):
        cpu = time.process_time()
        result = prover.prove(board, nodes=nodes, interruptible=False)
        run.cpu = time.process_time() - cpu
        return result

    return setup, run


def test_prove_nodes_per_second(benchmark):
    setup, run = prove(Board(5).fen(), 1, NODES)
    result = benchmark.pedantic(run, setup=setup, rounds=3)
    assert result.nodes == NODES
    benchmark.extra_info["nodes"] = NODES
    benchmark.extra_info["nodes_per_second"] = round(NODES / benchmark.stats.stats.median)


@pytest.mark.parametrize("threads", THREADS, ids=lambda t: f"threads{t}")
def test_prove_empty_side4(benchmark, threads):
    setup, run = prove(Board(4).fen(), threads)
    result = benchmark.pedantic(run, setup=setup, rounds=3)
    assert str(result.winner) == "green"
    benchmark.extra_info["nodes"] = result.nodes
    benchmark.extra_info["cpu_seconds"] = round(run.cpu, 3)


@pytest.mark.parametrize("threads", THREADS, ids=lambda t: f"threads{t}")
@pytest.mark.parametrize(
    "fen, winner",
    SIDE5 + SIDE6,
    ids=[f"side5-{i}" for i in range(len(SIDE5))] + [f"side6-{i}" for i in range(len(SIDE6))],
)
def test_prove_middle_game(benchmark, fen, winner, threads):
    setup, run = prove(fen, threads)
    result = benchmark.pedantic(run, setup=setup, rounds=1)
    assert str(result.winner) == winner
    benchmark.extra_info["nodes"] = result.nodes
    benchmark.extra_info["cpu_seconds"] = round(run.cpu, 3)
    benchmark.extra_info["result"] = result.text()
