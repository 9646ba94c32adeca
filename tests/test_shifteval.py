"""The shift-layout evaluation terms (``search/shifteval.py``: alpha-beta's leaves on
sides 4 to 6) against the move-list terms of ``evaluate.evaluation_terms``.

* ``shift_terms`` returns exactly ``evaluation_terms``' terms, number of moves and
  elimination verdict on thousands of positions of random games (of random length,
  from the empty board) and random fillings of sides 4, 5 and 6, among them positions
  where a side has no move, is eliminated, can eliminate, or has tokens the lift
  (rule 4.1) forbids to swipe;
* ``leaf_evaluation`` gives the same score and largest flip with and without ``shift``
  for the classic and fitted evaluations.
"""

import random

import numpy as np
import pytest

from hinge_fast import Board
from hinge_fast.core.shiftcount import lift_stuck, to_shift_layout
from hinge_fast.search.evaluate import (
    EVALUATOR_BY_NAME,
    LOST,
    WINNING,
    evaluation_arguments,
    evaluation_terms,
    leaf_evaluation,
)
from hinge_fast.search.shifteval import shift_terms
from hinge_fast.tools.positions import random_filling

SIZES = (4, 5, 6)


def random_game_positions(size: int, seed: int, games: int) -> list[Board]:
    """Every position of ``games`` random games, each stopped at a random ply (0 to
    200: many end before, at a won position)."""
    rng = random.Random(seed)
    boards = []
    for _ in range(games):
        board = Board(size)
        stop = rng.randrange(0, 201)
        boards.append(board.copy())
        while board.legal_moves and len(board.move_stack) < stop:
            board.push(rng.choice(board.legal_moves))
            boards.append(board.copy())
    return boards


def compare(boards) -> dict:
    """Assert the shift terms equal the move-list terms on every board; returns how
    many boards had each feature."""
    seen = {"positions": 0, "no move": 0, "eliminated": 0, "can eliminate": 0, "lift-blocked": 0,
            "their no move": 0}
    for board in boards:
        old_terms, old_n, old_elim = evaluation_terms(*evaluation_arguments(board))
        new_terms, new_n, new_elim = shift_terms(board.size, board.own, board.enemy)
        assert (tuple(int(t) for t in new_terms), int(new_n), bool(new_elim)) == (
            tuple(int(t) for t in old_terms), int(old_n), bool(old_elim)), board.fen()
        w = np.uint64(2 * board.size - 1)
        own = tuple(np.uint64(x) for x in to_shift_layout(board.size, board.own))
        stuck = lift_stuck(board.size, own, w)
        seen["positions"] += 1
        seen["no move"] += old_n == 0
        seen["eliminated"] += board.token_count(board.turn) == 0 and board.token_count(board.turn.other) >= 2
        seen["can eliminate"] += bool(old_elim)
        seen["lift-blocked"] += bool(int(stuck[0]) | int(stuck[1]))
        seen["their no move"] += int(old_n) - int(old_terms[8]) == 0
    return seen


@pytest.mark.parametrize("size", SIZES)
def test_shift_terms_equal_the_move_list_terms_in_random_games(size):
    seen = compare(random_game_positions(size, seed=1200 + size, games=160 if size == 4 else 60))
    assert seen["positions"] > 1000
    for feature in ("no move", "can eliminate", "lift-blocked"):
        assert seen[feature] > 0, (feature, seen)


@pytest.mark.parametrize("size", SIZES)
def test_shift_terms_equal_the_move_list_terms_on_random_fillings(size):
    seen = compare(random_filling(size, seed=1300 * size + seed) for seed in range(1500))
    for feature in ("no move", "eliminated", "can eliminate", "lift-blocked", "their no move"):
        assert seen[feature] > 0, (feature, seen)


def test_shift_terms_on_hand_made_positions():
    """A side with no token (eliminated), a side whose only swipe the lift forbids, and
    a swipe that flips the whole enemy."""
    fens = [
        "4/5/6/2bb3/6/5/4 g",  # green has no token: eliminated
        "4/5/6/2bb3/6/5/4 b",  # blue to move, green has none
        "4/5/2gg2/2b1b2/2g3/5/4 g",
        "4/3b1/3bb1/1bbbbb1/2b1g1/3g1/4 g",  # green eliminates in one
    ]
    for fen in fens:
        compare([Board.from_fen(fen)])
    old = evaluation_terms(*evaluation_arguments(Board.from_fen(fens[0])))
    assert int(old[1]) == 0
    assert bool(evaluation_terms(*evaluation_arguments(Board.from_fen(fens[3])))[2])


@pytest.mark.parametrize("name", ["classic", "fitted", "leaf-fitted"])
def test_leaf_evaluation_with_and_without_shift(name):
    """The same score either way; the shift path lists no move (n = -1), the move-list
    path says how many it listed."""
    evaluator = EVALUATOR_BY_NAME[name]
    weights = np.zeros(64, dtype=np.float64)
    weights[: len(evaluator.weights)] = evaluator.weights
    sentinels = 0
    boards = [b for size in SIZES for b in random_game_positions(size, seed=1400 + size, games=8)]
    boards += [random_filling(size, seed=1500 + seed) for size in SIZES for seed in range(100)]
    for board in boards:
        args = evaluation_arguments(board)
        old, n_old, flip_old = leaf_evaluation(evaluator.kernel_id, *args, weights, False)
        new, n_new, flip_new = leaf_evaluation(evaluator.kernel_id, *args, weights, True)
        assert (old, flip_old) == (new, flip_new), board.fen()
        assert n_new == -1 and n_old == len(board.legal_moves)
        assert flip_old == max((sum(int(w).bit_count() for w in row) for row in board.legal_flips), default=0)
        sentinels += old in (LOST, WINNING)
    assert 0 < sentinels < len(boards)
