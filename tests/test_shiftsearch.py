"""Alpha-beta in the shift layout (``negamax.negamax``'s version for two-word sets, sides
4 to 6, through ``shift_search_depth``):

* its move lister (``shiftperft.list_moves_shift``) lists what ``generate_moves`` lists,
  in the same order, with the same codes and flipped groups, and what the reference
  lists (random games, random fillings with long chains, rings and ends next to two
  enemy groups, eliminated positions and a position without a legal move);
* its incremental Zobrist key (``shift_child_hash``) and move (``shift_play``) give each
  child's ``Board.zobrist_key`` and sides;
* its fixed-depth scores are the depth-limited negamax values, computed here by brute
  force, with the table and without, with one thread or two.
"""

from collections import Counter
import random

import numpy as np
import pytest

from hinge_fast import Board
from hinge_fast import reference as ref
from hinge_fast.core.geometry import geometry
from hinge_fast.core.shiftcount import to_shift_layout
from hinge_fast.core.shiftperft import GROUP_ROWS, shift_moves
from hinge_fast.core.tables import MAX_MOVES, SHIFT_MAX_SIZE
from numba import njit

from hinge_fast.search import alphabeta, layout
from hinge_fast.search import Limits
from hinge_fast.search.alphabeta import AlphaBetaSearcher
from hinge_fast.search.layout import shift_child_hash, shift_play
from hinge_fast.search.evaluate import LOST, WINNING
from hinge_fast.tools.positions import random_filling
from tests.conftest import ELIMINATED, NO_MOVE, game_positions, midgame_positions, shift_cells

SIZES = range(4, SHIFT_MAX_SIZE + 1)


def listed(board: Board, least_flip: int = 0):
    """``shift_moves`` of ``board``: (codes, flipped groups as shift-layout words)."""
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    flips = np.zeros((MAX_MOVES, 4), dtype=np.uint64)
    work = np.zeros((GROUP_ROWS + 256, 4), dtype=np.uint64)
    group_of_bit = np.zeros(256, dtype=np.int16)
    n = shift_moves(board.size, board.own, board.enemy, moves, flips, work, group_of_bit, least_flip)
    return moves[:n].copy(), flips[:n, :2].copy()


def words(a) -> tuple:
    """A set's words as unsigned Python integers (numba may hand back signed ones)."""
    return tuple(int(x) & (2**64 - 1) for x in a)


def as_set(a) -> tuple:
    """A set's words as a tuple of uint64 (numba's type for them)."""
    return tuple(np.uint64(x) for x in words(a))


def bitboard_cells(size: int, row) -> frozenset:
    coords = geometry(size).coords
    return frozenset(coords[64 * w + b] for w in range(len(row)) for b in range(64) if int(row[w]) >> b & 1)


def positions(size: int, games: int = 6, fillings: int = 60) -> list[Board]:
    boards = [b.copy() for seed in range(games) for b in game_positions(size, 31_000 * size + seed, every=1)]
    boards += [random_filling(size, seed=31_100 * size + seed) for seed in range(fillings)]
    if size == 4:
        boards += [Board.from_fen(NO_MOVE), Board.from_fen(ELIMINATED)]
    return boards


@pytest.mark.parametrize("size", SIZES)
def test_the_lister_lists_generate_moves_in_its_order_and_the_reference_moves(size):
    two_groups = 0
    for board in positions(size):
        codes, groups = listed(board)
        old_codes, old_flips = board.legal_codes, board.legal_flips
        assert list(codes) == list(old_codes), board.fen()
        got = [shift_cells(size, g) for g in groups]
        assert got == [bitboard_cells(size, row) for row in old_flips], board.fen()
        names = Counter((str(board.move_from_code(c)), cells) for c, cells in zip(codes, got))
        pos = ref.parse_position(board.fen())
        want = Counter((ref.move_name(m), frozenset(m[3]) if m[0] == "swipe" else frozenset())
                       for m in ref.legal_moves(pos))
        assert names == want, board.fen()
        ends = Counter(str(board.move_from_code(c)).split("x")[0] for c, cells in zip(codes, got) if cells)
        two_groups += sum(1 for k in ends.values() if k > 1)
        # The quiescence's lists: the swipes flipping k tokens or more, in the same order.
        for least_flip in (1, 2, 3):
            few, few_groups = listed(board, least_flip)
            keep = [i for i, cells in enumerate(got) if cells and len(cells) >= least_flip]
            assert list(few) == [codes[i] for i in keep], (board.fen(), least_flip)
            assert [shift_cells(size, g) for g in few_groups] == [got[i] for i in keep]
    assert two_groups >= 3


def test_the_lister_on_the_game_over_positions():
    assert len(listed(Board.from_fen(ELIMINATED))[0]) == 0
    assert len(listed(Board.from_fen(NO_MOVE))[0]) == 0


@pytest.mark.parametrize("size", SIZES)
def test_incremental_keys_and_moves_give_each_child(size):
    for board in positions(size, games=3, fillings=20):
        codes, groups = listed(board)
        own = tuple(np.uint64(x) for x in words(to_shift_layout(size, board.own)))
        enemy = tuple(np.uint64(x) for x in words(to_shift_layout(size, board.enemy)))
        key = np.uint64(board.zobrist_key)
        for code, group in zip(codes, groups):
            flipped = (group[0], group[1])
            child = board.copy()
            child.push(board.move_from_code(code))
            assert int(shift_child_hash(size, int(board.turn), key, code, flipped)) == child.zobrist_key
            their, ours = shift_play(size, own, enemy, code, flipped)
            assert (words(their), words(ours)) == (words(to_shift_layout(size, child.own)),
                                                   words(to_shift_layout(size, child.enemy)))


def bitboards(board: Board) -> tuple:
    """The sides (to move, other) as bitboards."""
    return as_set(board.own), as_set(board.enemy)


def shift_sets(board: Board) -> tuple:
    """The sides (to move, other) as two-word sets of the shift layout."""
    return as_set(to_shift_layout(board.size, board.own)), as_set(to_shift_layout(board.size, board.enemy))


@njit(cache=True)
def layout_steps(size, colour, key, code, own, enemy, flips, i):
    """The steps of ``negamax`` that depend on the layout, compiled for the type of
    ``own``: the move's flipped group (row ``i`` of ``flips``), the child's key and sides."""
    flipped = layout.move_row(flips, i, own)
    their, ours = layout.play_move(size, own, enemy, code, flipped)
    return layout.child_key(size, colour, key, code, flipped), their, ours, layout.prefetches_ahead(own)


@pytest.mark.parametrize("size", SIZES)
def test_the_search_steps_pick_their_layout_by_the_type_of_the_sets(size):
    """``negamax`` is one function: given bitboards (four words) its steps play and key
    moves as ``play_with_flip`` and ``child_hash`` do, given two-word sets as
    ``shift_play`` and ``shift_child_hash``; both give each child."""
    for board in positions(size, games=2, fillings=5):
        codes, groups = listed(board)
        shift_flips = np.zeros((len(codes) + 1, 4), dtype=np.uint64)
        shift_flips[: len(codes), :2] = groups
        layouts = [bitboards(board) + (board.legal_flips, bitboards, False),
                   shift_sets(board) + (shift_flips, shift_sets, True)]
        key = np.uint64(board.zobrist_key)
        for own, enemy, flips, sides, ahead in layouts:
            for i, code in enumerate(codes):
                child = board.copy()
                child.push(board.move_from_code(code))
                got_key, their, ours, looks_ahead = layout_steps(size, int(board.turn), key, code, own, enemy, flips, i)
                assert int(got_key) == child.zobrist_key
                assert (words(their), words(ours)) == tuple(words(s) for s in sides(child))
                assert looks_ahead == ahead


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


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("evaluator", ["classic", "leaf-fitted"])
def test_fixed_depth_root_scores_are_the_minimax_values(size, evaluator):
    """With every root move searched in a full window and no quiescence, each root
    move's score at the depth reached (2, or 1 when a move wins at once: a proven
    result stops the deepening) is its brute-force negamax value, with the table and
    without."""
    from hinge_fast.search.evaluate import get_evaluator

    ev = get_evaluator(evaluator)
    for board in midgame_positions(size, 2, seed=90 + size, min_ply=4, max_ply=16 if size == 4 else 24):
        for table_mb in (0, 1):
            searcher = AlphaBetaSearcher(threads=1, quiescence=0, root_scores=True, evaluator=evaluator,
                                         table_mb=table_mb)
            result = searcher.go(board.copy(), Limits(depth=2))
            want = {}
            for move in board.legal_moves:
                board.push(move)
                want[str(move)] = -minimax(board, result.depth - 1, 1, ev)
                board.pop()
            got = {str(r.move): r.score for r in result.root_moves}
            assert got == {name: alphabeta.score_of(v) for name, v in want.items()}, (board.fen(), table_mb)
            assert result.score == alphabeta.score_of(max(want.values()))


def test_fixed_depth_scores_agree_with_a_game_history_and_helper_threads():
    """Repetitions along the line (the game's positions since the last placement count)
    and Lazy SMP helpers: a fixed-depth score is the depth-limited value whatever the
    number of threads, and one thread repeats itself node for node."""
    board = Board(size=4)
    rng = random.Random(5)
    while len(board.move_stack) < 14 and not board.is_game_over():
        board.push(rng.choice(board.legal_moves))
    one = AlphaBetaSearcher(threads=1).go(board.copy(), Limits(depth=4))
    again = AlphaBetaSearcher(threads=1).go(board.copy(), Limits(depth=4))
    two = AlphaBetaSearcher(threads=2).go(board.copy(), Limits(depth=4))
    assert (one.move, one.score, one.pv, one.nodes) == (again.move, again.score, again.pv, again.nodes)
    assert two.score == one.score and two.move in board.legal_moves
