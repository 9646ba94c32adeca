"""The evaluation's terms from sets (``search/terms.py``, alpha-beta's leaves on every
side) against the same terms computed here from move lists and groups:

* ``board_terms`` returns exactly ``list_terms``' terms, number of moves and
  elimination verdict on thousands of positions of random games (of random length,
  from the empty board) and random fillings, fewer on the larger sides, among them
  positions where a side has no move, is eliminated, can eliminate, or has tokens the
  lift (rule 4.1) forbids to swipe;
* ``leaf_evaluation`` lists the moves only for the material evaluation, and its
  largest flip is the largest group a listed swipe flips.
"""

import random

import numpy as np
import pytest

from hinge_fast import Board
from hinge_fast.core.geometry import MAX_SIZE, MIN_SIZE
from hinge_fast.core.sets import set_like, to_shift_words
from hinge_fast.games.positions import random_filling
from hinge_fast.search.evaluate import EVALUATOR_BY_NAME, LOST, WINNING, evaluate_board
from hinge_fast.search.terms import board_terms
from tests.conftest import QUICK_MAX_SIZE, lift_stuck

SIZES = range(MIN_SIZE, MAX_SIZE + 1)


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


def flip_stats(board: Board) -> tuple:
    """(largest group a swipe flips, tokens of all the groups swipes flip) of the side
    to move."""
    flips = [
        row for code, row in zip(board.legal_codes, board.legal_flips) if any(int(w) for w in row)
    ]
    union = 0
    best = 0
    for row in flips:
        bits = sum(int(w) << (64 * k) for k, w in enumerate(row))
        best = max(best, bits.bit_count())
        union |= bits
    return best, union.bit_count()


def group_stats(board: Board, colour) -> tuple:
    groups = board.groups(colour)
    return (
        len(groups),
        sum(1 for g in groups if len(g) == 1),
        max((len(g) for g in groups), default=0),
    )


def list_terms(board: Board) -> tuple:
    """The terms of ``evaluate.py``'s docstring from move lists: the side to move's, and
    the other side's as if it were to move."""
    fen, turn = board.fen().rsplit(" ", 1)
    other = Board.from_fen(fen + " " + ("b" if turn == "g" else "g"))
    n_own, n_their = len(board.legal_codes), len(other.legal_codes)
    our_best, our_total = flip_stats(board)
    their_best, their_total = flip_stats(other)
    own_groups = group_stats(board, board.turn)
    enemy_groups = group_stats(board, board.turn.other)
    enemy_count = board.token_count(board.turn.other)
    terms = (
        board.token_count(board.turn) - enemy_count,
        our_best,
        our_total,
        -their_best,
        -their_total,
        own_groups[0] - enemy_groups[0],
        own_groups[1] - enemy_groups[1],
        own_groups[2] - enemy_groups[2],
        n_own - n_their,
    )
    return terms, n_own, n_own > 0 and our_best == enemy_count and enemy_count > 0


def compare(boards) -> dict:
    """Assert the terms from sets equal the terms from move lists on every board;
    returns how many boards had each feature."""
    seen = {
        "positions": 0,
        "no move": 0,
        "eliminated": 0,
        "can eliminate": 0,
        "lift-blocked": 0,
        "their no move": 0,
    }
    for board in boards:
        old_terms, old_n, old_elim = list_terms(board)
        new_terms, new_n, new_elim = board_terms(board.size, board.own, board.enemy)
        assert (tuple(int(t) for t in new_terms), int(new_n), bool(new_elim)) == (
            tuple(int(t) for t in old_terms),
            int(old_n),
            bool(old_elim),
        ), board.fen()
        w = np.uint64(2 * board.size - 1)
        stuck = lift_stuck(
            board.size, to_shift_words(board.size, board.own, set_like(board.size)), w
        )
        seen["positions"] += 1
        seen["no move"] += old_n == 0
        seen["eliminated"] += (
            board.token_count(board.turn) == 0 and board.token_count(board.turn.other) >= 2
        )
        seen["can eliminate"] += bool(old_elim)
        seen["lift-blocked"] += any(int(word) for word in stuck)
        seen["their no move"] += int(old_n) - int(old_terms[8]) == 0
    return seen


@pytest.mark.parametrize("size", SIZES)
def test_the_terms_equal_the_move_list_terms_in_random_games(size):
    games = 160 if size == 4 else 60 if size <= QUICK_MAX_SIZE else 6
    seen = compare(random_game_positions(size, seed=1200 + size, games=games))
    assert seen["positions"] > (1000 if size <= QUICK_MAX_SIZE else 100)
    for feature in ("no move", "can eliminate", "lift-blocked"):
        assert seen[feature] > 0, (feature, seen)


@pytest.mark.parametrize("size", SIZES)
def test_the_terms_equal_the_move_list_terms_on_random_fillings(size):
    seen = compare(
        random_filling(size, seed=1300 * size + seed)
        for seed in range(1500 if size <= QUICK_MAX_SIZE else 200)
    )
    features = ("no move", "eliminated", "can eliminate", "lift-blocked", "their no move")
    for feature in features if size <= QUICK_MAX_SIZE else ("lift-blocked",):
        assert seen[feature] > 0, (feature, seen)


def test_the_terms_on_hand_made_positions():
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
    assert int(board_terms(4, *sides(fens[0]))[1]) == 0
    assert bool(board_terms(4, *sides(fens[3]))[2])
    assert evaluate_board(Board.from_fen(fens[3]))["verdict"] == "eliminates"


def sides(fen: str) -> tuple:
    board = Board.from_fen(fen)
    return board.own, board.enemy


@pytest.mark.parametrize("name", ["classic", "material", "fitted", "leaf-fitted"])
def test_evaluations_keep_their_verdicts(name):
    """Every evaluation says ``LOST`` exactly when the side to move has no legal move
    and ``WINNING`` exactly when a swipe flips every enemy token."""
    evaluator = EVALUATOR_BY_NAME[name]
    sentinels = 0
    boards = [b for size in SIZES for b in random_game_positions(size, seed=1400 + size, games=4)]
    boards += [random_filling(size, seed=1500 + seed) for size in SIZES for seed in range(40)]
    for board in boards:
        score = evaluator(board)
        _, n_own, can_eliminate = list_terms(board)
        assert (score == LOST) == (n_own == 0), board.fen()
        assert (score == WINNING) == (n_own > 0 and bool(can_eliminate)), board.fen()
        sentinels += score in (LOST, WINNING)
    assert 0 < sentinels < len(boards)
