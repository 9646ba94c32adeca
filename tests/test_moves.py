"""The move list of the kernels (``core/moves.py``) on every side, and alpha-beta on it:

* ``list_moves`` lists exactly the reference's moves with their flipped groups (random
  games, random fillings with long chains, rings and ends next to two enemy groups,
  eliminated positions and a position without a legal move), swipes first, and with a
  least flip only the swipes flipping that many tokens, in the same order;
* ``child_key`` and ``play_move`` give each child's ``Board.zobrist_key`` and sides;
* alpha-beta's fixed-depth scores are the depth-limited negamax values, computed here
  by brute force, with the table and without, with one thread or two.
"""

import random
from collections import Counter

import numpy as np
import pytest
from numba import njit

from hinge_fast import Board
from hinge_fast import reference as ref
from hinge_fast.core.codes import is_swipe
from hinge_fast.core.geometry import MAX_SIZE, MIN_SIZE
from hinge_fast.core.moves import child_key, list_moves, play_move
from hinge_fast.core.sets import s_row, set_like, to_shift_words
from hinge_fast.core.tables import GROUP_SLOTS, MAX_MOVES, SCRATCH_ROWS, SHIFT_WORDS_OF
from hinge_fast.games.positions import random_filling
from hinge_fast.search import Limits, alphabeta
from hinge_fast.search.alphabeta import AlphaBetaSearcher
from hinge_fast.search.evaluate import LOST, WINNING
from tests.conftest import (
    ELIMINATED,
    NO_MOVE,
    QUICK_MAX_SIZE,
    game_positions,
    midgame_positions,
    shift_cells,
)

SIZES = range(MIN_SIZE, MAX_SIZE + 1)


@njit(cache=True)
def list_of(size, own_bits, enemy_bits, least_flip, moves, flips, like):
    own = to_shift_words(size, own_bits, like)
    enemy = to_shift_words(size, enemy_bits, like)
    work = np.zeros((SCRATCH_ROWS, len(like)), dtype=np.uint64)
    group_of_bit = np.zeros(GROUP_SLOTS, dtype=np.int16)
    return list_moves(size, own, enemy, moves, flips, work, group_of_bit, least_flip)


@njit(cache=True)
def child_of(size, colour, key, code, own_bits, enemy_bits, flips, i, like):
    """The child's key and sides after move ``i`` of a list, as ``negamax`` makes them."""
    own = to_shift_words(size, own_bits, like)
    enemy = to_shift_words(size, enemy_bits, like)
    flipped = s_row(flips, i, like)
    their, ours = play_move(size, own, enemy, code, flipped)
    return child_key(size, colour, key, code, flipped), their, ours


def listed(board: Board, least_flip: int = 0):
    """``list_moves`` of ``board``: (codes, flipped groups as shift-layout words)."""
    words = int(SHIFT_WORDS_OF[board.size])
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    flips = np.zeros((MAX_MOVES, words), dtype=np.uint64)
    n = list_of(board.size, board.own, board.enemy, least_flip, moves, flips, set_like(board.size))
    return moves[:n].copy(), flips[:n].copy()


def words(a) -> tuple:
    """A set's words as unsigned Python integers (numba may hand back signed ones)."""
    return tuple(int(x) & (2**64 - 1) for x in a)


def sets_of(board: Board) -> tuple:
    """The sides of ``board`` (to move, other) as sets of the shift layout."""
    like = set_like(board.size)
    return words(to_shift_words(board.size, board.own, like)), words(
        to_shift_words(board.size, board.enemy, like)
    )


def positions(size: int, games: int = 6, fillings: int = 60) -> list[Board]:
    """Random games' positions and random fillings: all of them on the sides up to
    ``QUICK_MAX_SIZE``, a third above (the reference is slow there)."""
    if size > QUICK_MAX_SIZE:
        games, fillings = max(1, games // 3), max(1, fillings // 3)
    boards = [
        b.copy()
        for seed in range(games)
        for b in game_positions(size, 31_000 * size + seed, every=1)
    ]
    if size > QUICK_MAX_SIZE:
        boards = boards[::4]
    boards += [random_filling(size, seed=31_100 * size + seed) for seed in range(fillings)]
    if size == 4:
        boards += [Board.from_fen(NO_MOVE), Board.from_fen(ELIMINATED)]
    return boards


@pytest.mark.parametrize("size", SIZES)
def test_the_list_is_the_reference_moves_swipes_first(size):
    two_groups = 0
    for board in positions(size):
        codes, groups = listed(board)
        assert list(codes) == list(board.legal_codes), board.fen()
        got = [shift_cells(size, g) for g in groups]
        names = Counter((str(board.move_from_code(c)), cells) for c, cells in zip(codes, got))
        pos = ref.parse_position(board.fen())
        want = Counter(
            (ref.move_name(m), frozenset(m[3]) if m[0] == "swipe" else frozenset())
            for m in ref.legal_moves(pos)
        )
        assert names == want, board.fen()
        kinds = [bool(is_swipe(c)) for c in codes]
        assert kinds == sorted(kinds, reverse=True), board.fen()  # swipes first
        ends = Counter(
            str(board.move_from_code(c)).split("x")[0] for c, cells in zip(codes, got) if cells
        )
        two_groups += sum(1 for k in ends.values() if k > 1)
        # The quiescence's lists: the swipes flipping k tokens or more, in the same order.
        for least_flip in (1, 2, 3):
            few, few_groups = listed(board, least_flip)
            keep = [i for i, cells in enumerate(got) if cells and len(cells) >= least_flip]
            assert list(few) == [codes[i] for i in keep], (board.fen(), least_flip)
            assert [shift_cells(size, g) for g in few_groups] == [got[i] for i in keep]
    if size <= QUICK_MAX_SIZE:
        assert two_groups >= 3


def test_the_list_on_the_game_over_positions():
    assert len(listed(Board.from_fen(ELIMINATED))[0]) == 0
    assert len(listed(Board.from_fen(NO_MOVE))[0]) == 0


@pytest.mark.parametrize("size", SIZES)
def test_incremental_keys_and_moves_give_each_child(size):
    for board in positions(size, games=3, fillings=20):
        codes, groups = listed(board)
        key = np.uint64(board.zobrist_key)
        for i, code in enumerate(codes):
            child = board.copy()
            child.push(board.move_from_code(code))
            got_key, their, ours = child_of(
                size, int(board.turn), key, code, board.own, board.enemy, groups, i, set_like(size)
            )
            assert int(got_key) == child.zobrist_key, board.fen()
            assert (words(their), words(ours)) == sets_of(child), board.fen()


def minimax(board: Board, depth: int, ply: int, evaluator) -> int:
    """The depth-limited negamax value alpha-beta promises without quiescence, computed
    here by brute force on ``Board``: a side with no legal move has lost (``-(WIN -
    ply)``), a side that can flip every enemy token wins at once (``WIN - ply - 1``), a
    leaf is the evaluator's score (with the same two verdicts)."""
    moves = board.legal_moves
    if not moves:
        return -(alphabeta.WIN - ply)
    enemy_tokens = board.token_count(board.turn.other)
    if any(sum(int(w).bit_count() for w in row) == enemy_tokens for row in board.legal_flips):
        return alphabeta.WIN - ply - 1
    if depth == 0:
        score = evaluator(board)
        if score == LOST:
            return -(alphabeta.WIN - ply)
        if score == WINNING:
            return alphabeta.WIN - ply - 1
        return score
    best = -alphabeta.INFINITE
    for move in moves:
        board.push(move)
        best = max(best, -minimax(board, depth - 1, ply + 1, evaluator))
        board.pop()
    return best


@pytest.mark.parametrize("size", range(MIN_SIZE, QUICK_MAX_SIZE + 1))
@pytest.mark.parametrize("evaluator", ["classic", "leaf-fitted"])
def test_every_root_move_as_a_multipv_line_scores_its_minimax_value(size, evaluator):
    """With every root move a MultiPV line, full width and no quiescence, each root
    move's score at the depth reached (2, or 1 when a move wins at once: a proven
    result stops the deepening) is its brute-force negamax value, with the table and
    without."""
    from hinge_fast.search.evaluate import get_evaluator

    ev = get_evaluator(evaluator)
    for board in midgame_positions(
        size, 2, seed=90 + size, min_ply=4, max_ply=16 if size == 4 else 24
    ):
        for table_mb in (0, 1):
            searcher = AlphaBetaSearcher(
                threads=1,
                quiescence=0,
                multipv=1000,
                evaluator=evaluator,
                selective=0,
                table_mb=table_mb,
            )
            result = searcher.go(board.copy(), Limits(depth=2))
            want = {}
            for move in board.legal_moves:
                board.push(move)
                want[str(move)] = -minimax(board, result.depth - 1, 1, ev)
                board.pop()
            got = {str(r.move): r.score for r in result.root_moves}
            assert got == {name: alphabeta.score_of(v) for name, v in want.items()}, (
                board.fen(),
                table_mb,
            )
            assert result.score == alphabeta.score_of(max(want.values()))


def test_fixed_depth_scores_agree_with_a_game_history_and_helper_threads():
    """Repetitions along the line (the game's positions since the last placement count)
    and Lazy SMP helpers: a fixed-depth score of the full-width search is the
    depth-limited value whatever the number of threads, and one thread repeats itself
    node for node."""
    board = Board(size=4)
    rng = random.Random(5)
    while len(board.move_stack) < 14 and not board.is_game_over():
        board.push(rng.choice(board.legal_moves))
    one = AlphaBetaSearcher(threads=1, selective=0).go(board.copy(), Limits(depth=4))
    again = AlphaBetaSearcher(threads=1, selective=0).go(board.copy(), Limits(depth=4))
    two = AlphaBetaSearcher(threads=2, selective=0).go(board.copy(), Limits(depth=4))
    assert (one.move, one.score, one.pv, one.nodes) == (
        again.move,
        again.score,
        again.pv,
        again.nodes,
    )
    assert two.score == one.score and two.move in board.legal_moves


#: Root moves checked against minimax on each of the larger sides.
SAMPLED_LINES = 12


@pytest.mark.parametrize("size", range(QUICK_MAX_SIZE + 1, MAX_SIZE + 1))
def test_every_root_move_as_a_multipv_line_scores_its_minimax_value_on_the_larger_sides(size):
    """The same on one middle game of each side above ``QUICK_MAX_SIZE``, whose sets
    take three to five words: every root move gets a line, and ``SAMPLED_LINES`` of
    them, drawn at random, are checked against minimax (all of them: a hundred
    thousand evaluations in Python on side 9)."""
    from hinge_fast.search.evaluate import get_evaluator

    ev = get_evaluator("classic")
    board = midgame_positions(size, 1, seed=190 + size, min_ply=6, max_ply=20)[0]
    searcher = AlphaBetaSearcher(
        threads=1, quiescence=0, multipv=1000, evaluator="classic", selective=0
    )
    result = searcher.go(board.copy(), Limits(depth=2))
    scores = {str(r.move): r.score for r in result.root_moves}
    assert sorted(scores) == sorted(str(m) for m in board.legal_moves)
    assert all(r.depth == result.depth for r in result.root_moves)
    for move in random.Random(size).sample(board.legal_moves, SAMPLED_LINES):
        board.push(move)
        want = -minimax(board, result.depth - 1, 1, ev)
        board.pop()
        assert scores[str(move)] == alphabeta.score_of(want), move
