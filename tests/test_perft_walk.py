"""Perft's walk (``core/perft.py``: children as whole sets, the last ply counted by
``swipes.uniform_count``) against the reference and against a second walk over the move
list (``moves.list_moves``, each move played by ``moves.play_move``), made and bulk, on
every side: random games' positions and random fillings (long chains, rings, ends next
to two enemy groups), eliminated positions and positions without a legal move. The
children a node lists are compared, as positions, with the reference's legal moves
played: a lost or doubled flip choice shows there first."""

from collections import Counter

import numpy as np
import pytest
from numba import njit

from hinge_fast import Board
from hinge_fast import reference as ref
from hinge_fast.core import kernels, parallel
from hinge_fast.core.moves import list_moves, play_move
from hinge_fast.core.perft import children_sets
from hinge_fast.core.sets import s_row, s_store, set_like, to_shift_words
from hinge_fast.core.tables import (
    GROUP_SLOTS,
    MAX_MOVES,
    MAX_SIZE,
    SCRATCH_ROWS,
    SHIFT_WORDS,
    workspace,
)
from hinge_fast.games.positions import random_filling
from tests.conftest import (
    ELIMINATED,
    NO_MOVE,
    QUICK_MAX_SIZE,
    S6_MID,
    S9_MID,
    game_positions,
    shift_cells,
)

SIZES = range(4, MAX_SIZE + 1)
WIDE = range(QUICK_MAX_SIZE + 1, MAX_SIZE + 1)


@njit(cache=True)
def list_walk(size, own_bits, enemy_bits, depth, like):
    """Perft over move lists: every ply listed by ``list_moves``, every move played by
    ``play_move`` (the second walk the tests below compare with)."""
    if depth == 0:
        return np.int64(1)
    words = len(like)
    moves = np.zeros((depth, MAX_MOVES), dtype=np.int64)
    flips = np.zeros((depth, MAX_MOVES, words), dtype=np.uint64)
    work = np.zeros((SCRATCH_ROWS, words), dtype=np.uint64)
    group_of_bit = np.zeros(GROUP_SLOTS, dtype=np.int16)
    stack = np.empty((depth, 2, words), dtype=np.uint64)
    count = np.zeros(depth, dtype=np.int64)
    next_move = np.zeros(depth, dtype=np.int64)
    own = to_shift_words(size, own_bits, like)
    enemy = to_shift_words(size, enemy_bits, like)
    s_store(stack[0], 0, own)
    s_store(stack[0], 1, enemy)
    count[0] = list_moves(size, own, enemy, moves[0], flips[0], work, group_of_bit, 0)
    total = np.int64(0)
    ply = 0
    while ply >= 0:
        i = next_move[ply]
        if i >= count[ply]:
            ply -= 1
            continue
        next_move[ply] = i + 1
        if ply == depth - 1:
            total += 1
            continue
        their, ours = play_move(
            size,
            s_row(stack[ply], 0, like),
            s_row(stack[ply], 1, like),
            moves[ply, i],
            s_row(flips[ply], i, like),
        )
        ply += 1
        s_store(stack[ply], 0, their)
        s_store(stack[ply], 1, ours)
        count[ply] = list_moves(size, their, ours, moves[ply], flips[ply], work, group_of_bit, 0)
        next_move[ply] = 0
    return total


def fast(board: Board, depth: int, bulk: bool) -> int:
    return int(
        kernels.perft_kernel(board.size, board.own, board.enemy, depth, bulk, workspace(depth + 1))
    )


def old(board: Board, depth: int) -> int:
    return int(list_walk(board.size, board.own, board.enemy, depth, set_like(board.size)))


def children(board: Board) -> Counter:
    """The children the walk lists, as (green cells, blue cells, side to move)."""
    to_move = np.zeros((MAX_MOVES, SHIFT_WORDS), dtype=np.uint64)
    mover = np.zeros((MAX_MOVES, SHIFT_WORDS), dtype=np.uint64)
    n = children_sets(board.size, board.own, board.enemy, to_move, mover)
    me = board.fen().split()[1]
    them = ref.other(me)
    out = Counter()
    for i in range(n):
        theirs, mine = shift_cells(board.size, to_move[i]), shift_cells(board.size, mover[i])
        green, blue = (mine, theirs) if me == "g" else (theirs, mine)
        out[(green, blue, them)] += 1
    return out


def reference_children(board: Board) -> Counter:
    pos = ref.parse_position(board.fen())
    out = Counter()
    for move in ref.legal_moves(pos):
        child = ref.play(pos, move)
        green = frozenset(c for c, v in child.tokens.items() if v == "g")
        blue = frozenset(c for c, v in child.tokens.items() if v == "b")
        out[(green, blue, child.to_move)] += 1
    return out


def positions(size: int, games: int, fillings: int, every: int) -> list[Board]:
    boards = [
        b.copy()
        for seed in range(games)
        for b in game_positions(size, 12_000 * size + seed, every=every)
    ]
    return boards + [random_filling(size, seed=12_100 * size + seed) for seed in range(fillings)]


def check_children(boards: list[Board]) -> None:
    two_groups = 0  # ends next to two enemy groups: two children for one (token, end)
    for board in boards:
        got = children(board)
        # A multiset: two moves may give one child (two reversing swipes flipping one
        # group), and each must be listed.
        assert got == reference_children(board), board.fen()
        moves = Counter(str(m).split("x")[0] for m in board.legal_moves if "x" in str(m))
        two_groups += sum(1 for k in moves.values() if k > 1)
    assert two_groups >= 5


@pytest.mark.parametrize("size", SIZES)
def test_children_are_the_reference_moves_played(size):
    if size <= QUICK_MAX_SIZE:
        check_children(positions(size, 6, 60, 2))
    else:  # the reference is slow on the larger sides: -m slow checks more
        check_children(positions(size, 2, 30, 8))


@pytest.mark.slow
@pytest.mark.parametrize("size", WIDE)
def test_children_are_the_reference_moves_played_on_many_wide_positions(size):
    check_children(positions(size, 8, 200, 2))


@pytest.mark.parametrize("size", SIZES)
def test_made_and_bulk_equal_the_reference_perft(size):
    boards = [Board(size)] + positions(size, 1, 3, 10)[1::4]
    for board in boards:
        pos = ref.parse_position(board.fen())
        for depth in (1, 2):
            expected = ref.perft(pos, depth)
            assert fast(board, depth, False) == expected, (board.fen(), depth)
            assert fast(board, depth, True) == expected, (board.fen(), depth)


def check_list_walk(boards: list[Board], depths) -> None:
    for board in boards:
        for depth in depths:
            expected = old(board, depth)
            assert fast(board, depth, False) == expected, (board.fen(), depth)
            assert fast(board, depth, True) == expected, (board.fen(), depth)


@pytest.mark.parametrize("size", SIZES)
def test_made_and_bulk_equal_the_list_walk(size):
    check_list_walk(positions(size, 4, 40, 6), (1, 2))
    check_list_walk(positions(size, 1, 6, 20), (3,))


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_made_and_bulk_equal_the_list_walk_on_many_positions(size):
    check_list_walk(positions(size, 20, 300, 1), (1, 2, 3))


@pytest.mark.parametrize("fen", [S6_MID, S9_MID])
def test_mid_game_trees_equal_the_list_walk(fen):
    board = Board.from_fen(fen)
    expected = old(board, 3)
    assert fast(board, 3, False) == fast(board, 3, True) == expected


def test_an_eliminated_side_has_no_move():
    board = Board.from_fen(ELIMINATED)
    assert ref.is_eliminated(ref.parse_position(ELIMINATED))
    assert children(board) == Counter()
    for depth in (1, 2, 3):
        assert fast(board, depth, False) == fast(board, depth, True) == 0


def test_eliminating_swipes_end_the_game_below_them():
    """Side 4: three of Green's swipes flip Blue's only token; those children have no
    move, the others do."""
    board = Board.from_fen("4/5/2gg2/2b4/2g3/5/4 g")
    pos = ref.parse_position(board.fen())
    finished = [m for m in ref.legal_moves(pos) if ref.is_eliminated(ref.play(pos, m))]
    assert len(finished) == 3
    for depth in (1, 2, 3):
        assert (
            fast(board, depth, False)
            == fast(board, depth, True)
            == ref.perft(pos, depth)
            == old(board, depth)
        )


def test_a_side_without_a_legal_move_has_no_child():
    board = Board.from_fen(NO_MOVE)
    pos = ref.parse_position(NO_MOVE)
    assert not ref.is_eliminated(pos) and ref.legal_moves(pos) == set()
    assert children(board) == Counter()
    for depth in (1, 2):
        assert fast(board, depth, False) == fast(board, depth, True) == 0


def test_the_empty_board_and_a_lone_token():
    for size in SIZES:
        board = Board(size)
        assert (
            fast(board, 2, False)
            == fast(board, 2, True)
            == ref.perft(ref.parse_position(board.fen()), 2)
        )


@pytest.mark.parametrize("bulk", [True, False])
def test_one_and_two_threads_count_the_same(bulk, monkeypatch):
    # No tree is too small to share: two threads really run.
    monkeypatch.setattr(parallel, "SMALL_TREE", 0)
    monkeypatch.setattr(parallel, "SMALL_BULK_TREE", 0)
    for fen, depth in ((S6_MID, 4), (S9_MID, 3)):
        board = Board.from_fen(fen)
        one = parallel.perft(board.size, board.own, board.enemy, depth, bulk, threads=1)
        two = parallel.perft(board.size, board.own, board.enemy, depth, bulk, threads=2)
        counts, _ = parallel.perft_divide(
            board.size, board.own, board.enemy, depth, bulk, threads=2
        )
        assert one == two == int(counts.sum()) == old(board, depth), fen


def test_made_leaves_are_folded_into_the_checksum():
    board = Board.from_fen(S6_MID)
    work = workspace(4)
    kernels.perft_kernel(board.size, board.own, board.enemy, 3, False, work)
    assert work.leaf_checksum[0] != 0
