"""Random playouts and move counting: ``playouts.py``, ``parallel.py``
and the ``playouts`` command.

Uniform play means uniform over the distinct legal moves (rules.md section 5). A
playout draws an index below the move count and decodes that one move, so the checks
are: (1) the count equals the number of legal moves of the reference, and decoding
every index gives each legal move exactly once (exact, on positions of every side);
(2) the indices drawn are uniform (chi-square on a position with a few moves); (3)
a seed gives the same games on 1 and on 2 threads.
"""

import random
import re

import numpy as np
import pytest

from hinge_fast import Board
from hinge_fast import reference as ref
from hinge_fast.cli import main
from hinge_fast.core import kernels, parallel
from hinge_fast.core.playouts import ELIMINATION, NO_LEGAL_MOVE, PLY_CAP, draw_below
from hinge_fast.core.sets import set_like
from hinge_fast.core.tables import MAX_MOVES, SHIFT_WORDS
from hinge_fast.games.positions import random_filling

# A tiny side-4 position with placements and swipes, and a swipe that can flip
# either of two enemy groups (so one destination gives two moves).
TINY = "4/5/2gg2/2b1b2/2g3/5/4 g"


def positions(size, count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        board = Board(size)
        plies = rng.randrange(0, 14 * size)
        while len(board.move_stack) < plies and board.legal_moves:
            board.push(rng.choice(board.legal_moves))
        yield board


def check_indices(board, codes, groups):
    own, enemy = board.own, board.enemy
    expected = sorted(ref.move_name(m) for m in ref.legal_moves(ref.parse_position(board.fen())))
    assert kernels.moves_count(board.size, own, enemy, set_like(board.size)) == len(expected), (
        board.fen()
    )
    n = kernels.uniform_moves(board.size, own, enemy, codes, groups)
    assert sorted(str(board.move_from_code(code)) for code in codes[:n]) == expected, board.fen()


@pytest.mark.parametrize("size", range(4, 10))
def test_each_index_decodes_to_a_distinct_legal_move(size):
    codes = np.zeros(MAX_MOVES, dtype=np.int64)
    groups = np.zeros((MAX_MOVES, SHIFT_WORDS), dtype=np.uint64)
    for board in positions(size, 25, seed=size):
        check_indices(board, codes, groups)
    for seed in range(10):
        check_indices(random_filling(size, seed=900 * size + seed), codes, groups)


def test_tiny_position_has_a_two_group_swipe():
    board = Board.from_fen(TINY)
    moves = [str(m) for m in board.legal_moves]
    destinations = [m.split("x")[0] for m in moves if "x" in m]
    assert len(destinations) > len(set(destinations))  # one destination, two flips


def test_first_moves_are_uniform():
    board = Board.from_fen(TINY)
    own, enemy = board.own, board.enemy
    n_legal = len(board.legal_moves)
    counts = np.zeros(n_legal, dtype=np.int64)
    games = 400 * n_legal
    assert kernels.first_move_counts(board.size, own, enemy, games, 12345, counts) == n_legal
    expected = games / n_legal
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    df = n_legal - 1
    # Far in the tail (mean df, sd sqrt(2 df)) yet well below what a missing or
    # doubled move gives (about 400 each).
    assert chi2 < df + 6 * (2 * df) ** 0.5, (chi2, counts)


def test_draw_below_stays_in_range_and_spreads_evenly():
    state = np.uint64(99)
    counts = [0, 0, 0]
    for _ in range(3000):
        state, k = draw_below(state, 3)
        counts[k] += 1  # an index outside 0..2 would raise
    assert all(900 < c < 1100 for c in counts), counts


def test_same_seed_same_games_on_any_number_of_threads():
    board = Board(6)
    own, enemy = board.own, board.enemy
    one = parallel.playouts(6, own, enemy, 300, 10_000, 7, threads=1)
    again = parallel.playouts(6, own, enemy, 300, 10_000, 7, threads=1)
    two = parallel.playouts(6, own, enemy, 300, 10_000, 7, threads=2)
    for a, b in ((one, again), (one, two)):
        assert np.array_equal(a.plies, b.plies)
        assert np.array_equal(a.winner, b.winner)
        assert np.array_equal(a.ended, b.ended)
    other = parallel.playouts(6, own, enemy, 300, 10_000, 8, threads=1)
    assert not np.array_equal(one.plies, other.plies)


def test_game_ends_are_tallied():
    board = Board(4)
    own, enemy = board.own, board.enemy
    tally = parallel.playouts(4, own, enemy, 500, 10_000, 3, threads=2)
    assert tally.count(ELIMINATION) + tally.count(NO_LEGAL_MOVE) + tally.count(PLY_CAP) == 500
    assert tally.count(PLY_CAP) == 0
    assert tally.wins(0) + tally.wins(1) == 500
    capped = parallel.playouts(4, own, enemy, 50, 5, 3, threads=1)
    assert capped.count(PLY_CAP) == 50 and set(capped.plies.tolist()) == {5}
    assert capped.wins(0) == capped.wins(1) == 0


def test_playout_from_a_finished_game():
    # Green to move with no tokens while Blue has two: Green was eliminated.
    board = Board.from_fen("4/5/6/2bb3/6/5/4 g")
    own, enemy = board.own, board.enemy
    tally = parallel.playouts(4, own, enemy, 3, 100, 0, threads=1)
    assert tally.count(ELIMINATION) == 3 and tally.wins(1) == 3 and tally.mean_plies == 0


def test_perft_threads_agree(monkeypatch):
    monkeypatch.setattr(parallel, "SMALL_TREE", 0)  # threads even for this small tree
    monkeypatch.setattr(parallel, "SMALL_BULK_TREE", 0)
    board = Board.from_fen("6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g")
    own, enemy = board.own, board.enemy
    for bulk in (True, False):
        one = parallel.perft(6, own, enemy, 3, bulk, threads=1)
        two = parallel.perft(6, own, enemy, 3, bulk, threads=2)
        assert one == two
    counts, codes = parallel.perft_divide(6, own, enemy, 2, True, threads=2)
    assert int(counts.sum()) == parallel.perft(6, own, enemy, 2, True, threads=1)
    assert len(codes) == len(board.legal_moves)


def test_command_output_matches_the_yardstick_script(capsys):
    # side_by_side.py reads "... games/s" from stderr.
    assert main(["playouts", "200", "start", "--size", "5", "--seed", "4", "--threads", "1"]) == 0
    out, err = capsys.readouterr()
    assert re.search(r"([0-9][0-9,.]*) games/s", err)
    assert re.search(r"wins: green (\d+), blue (\d+), unfinished 0", out)
    green, blue = map(int, re.search(r"wins: green (\d+), blue (\d+)", out).groups())
    assert green + blue == 200
    assert re.search(
        r"ended by elimination \d+, by no legal move \d+, by ply cap \(10,000\) 0", out
    )
    assert re.search(r"mean length [0-9.]+ plies", out)
    assert main(["playouts", "200", "start", "--size", "5", "--seed", "4", "--threads", "2"]) == 0
    out2, _ = capsys.readouterr()
    assert (
        out2.splitlines()[1:] == out.splitlines()[1:]
    )  # same games, only the thread count differs


def test_command_rejects_bad_input(capsys):
    assert main(["playouts", "0"]) == 2
    assert main(["playouts", "10", "--threads", "0"]) == 2
    assert main(["playouts", "10", "not a position"]) == 2
    err = capsys.readouterr().err
    assert err.count("error:") == 3 and "Traceback" not in err
