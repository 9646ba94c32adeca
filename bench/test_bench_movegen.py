"""Move generation, perft and make/unmake on the fixed mid-game positions. Each
benchmark also checks what it timed: the legal moves, the perft counts, the moves made
and taken back, the random games played.

    python -m pytest bench/test_bench_movegen.py --benchmark-enable -n 0 --benchmark-columns=median,ops
"""

import numpy as np
import pytest

from hinge_fast import Board
from hinge_fast.core import kernels
from hinge_fast.core.playouts import ELIMINATION, NO_LEGAL_MOVE
from hinge_fast.core.tables import workspace
from hinge_fast.measure.benchmark import MID_GAME_S6


def sides(fen):
    board = Board.from_fen(fen)
    own, enemy = board.own, board.enemy
    return board.size, own, enemy


POSITIONS = [sides(fen) for fen in MID_GAME_S6]
#: perft 3 of the positions, summed (bulk and made alike; the perft tests check both
#: layers against the reference implementation).
PERFT3 = 155_324
#: Random games from the empty side-6 board, seed 1: their plies and Green's wins.
PLAYOUT_PLIES, PLAYOUT_GREEN_WINS = 8_434, 116


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

    assert benchmark(run) == PERFT3


def test_make_unmake(benchmark):
    work = workspace(1)
    done = benchmark(lambda: [kernels.make_unmake_loop(*p, 100, work) for p in POSITIONS])
    assert [int(moves) for moves, _ in done] == [
        len(Board.from_fen(f).legal_moves) for f in MID_GAME_S6
    ]


def test_random_playouts(benchmark):
    size, own, enemy = sides("6/7/8/9/10/11/10/9/8/7/6 g")
    plies = np.zeros(200, dtype=np.int64)
    winner = np.zeros(200, dtype=np.int8)
    ended = np.zeros(200, dtype=np.int8)
    total = benchmark(
        kernels.random_games, size, own, enemy, 0, 200, 10_000, 1, plies, winner, ended
    )
    assert total == plies.sum() == PLAYOUT_PLIES
    assert set(ended.tolist()) <= {ELIMINATION, NO_LEGAL_MOVE}  # none reached the cap
    assert int((winner == 0).sum()) == PLAYOUT_GREEN_WINS
