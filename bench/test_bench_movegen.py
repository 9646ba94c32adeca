"""Move generation, perft and make/unmake on the fixed mid-game positions.

python -m pytest bench --benchmark-enable --benchmark-columns=median,ops
"""

import numpy as np
import pytest

from hinge_fast import Board
from hinge_fast.core import kernels
from hinge_fast.core.tables import workspace
from hinge_fast.measure.benchmark import MID_GAME_S6


def sides(fen):
    board = Board.from_fen(fen)
    own, enemy = board.own, board.enemy
    return board.size, own, enemy


POSITIONS = [sides(fen) for fen in MID_GAME_S6]


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_movegen(benchmark, index):
    size, own, enemy = POSITIONS[index]
    work = workspace(1)
    args = (size, own, enemy, work.moves[0], work.flips[0], work.scratch, work.group_of_bit)
    n = benchmark(kernels.legal_moves, *args)
    assert n == len(Board.from_fen(MID_GAME_S6[index]).legal_moves)


@pytest.mark.parametrize("bulk", [True, False], ids=["bulk", "made"])
def test_perft3(benchmark, bulk):
    work = workspace(4)

    def run():
        return sum(int(kernels.perft_kernel(*p, 3, bulk, work)) for p in POSITIONS)

    benchmark(run)


def test_make_unmake(benchmark):
    work = workspace(1)
    benchmark(lambda: [kernels.make_unmake_loop(*p, 100, work) for p in POSITIONS])


def test_random_playouts(benchmark):
    size, own, enemy = sides("6/7/8/9/10/11/10/9/8/7/6 g")
    plies = np.zeros(200, dtype=np.int64)
    winner = np.zeros(200, dtype=np.int8)
    ended = np.zeros(200, dtype=np.int8)
    benchmark(kernels.random_games, size, own, enemy, 0, 200, 10_000, 1, plies, winner, ended)
