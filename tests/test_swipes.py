"""The swipe kernel (``shiftplay.swipe_end_sets``: the thirteen end sets of every
friendly token at once, in the shift layout) against the reference, token by token.

On random positions of every board side, from random play and from random fillings
(chains, rings, holes, ends next to two enemy groups), the end cells it finds for each
friendly token must be the reference's ``swipe_final_cells`` for that token, the lift of
rule 4.1 included. Every other user of the kernel (listing, counting, the n-th move,
perft, playouts) is checked against the reference in its own tests.
"""

import numpy as np
import pytest
from numba import njit

from hinge_fast import Board
from hinge_fast import reference as ref
from hinge_fast.core.geometry import DIRECTIONS
from hinge_fast.core.sets import dilate, s_and, s_andnot, s_interior, s_or, set_like, to_shift_words
from hinge_fast.core.swipes import END_SETS, swipe_end_sets
from hinge_fast.games.positions import random_filling
from tests.conftest import game_positions, shift_cells

SIZES = range(4, 10)
#: The offset of each end set's end from its token: ``N[j] = x + D[j]``, then the corner
#: cells ``C[j] = x + D[j] + D[j+1]``, then the reversing end on ``x`` itself.
END_OFFSETS = (
    list(DIRECTIONS)
    + [
        (dc + ec, dr + er)
        for (dc, dr), (ec, er) in zip(DIRECTIONS, DIRECTIONS[1:] + DIRECTIONS[:1])
    ]
    + [(0, 0)]
)


@njit
def end_sets(size, own_bits, enemy_bits, like, work):
    """``swipe_end_sets`` of a position given as bitboards: the end cells go to ``work``."""
    w = np.uint64(2 * size - 1)
    own = to_shift_words(size, own_bits, like)
    enemy = to_shift_words(size, enemy_bits, like)
    empty = s_andnot(s_interior(size, like), s_or(own, enemy))
    touch1 = dilate(enemy, w)
    swipe_end_sets(w, own, enemy, touch1, s_and(empty, touch1), work)


def check(board: Board) -> int:
    """Compare every friendly token's swipe ends on ``board``; returns how many tokens
    have one."""
    like = set_like(board.size)
    work = np.zeros((END_SETS, len(like)), dtype=np.uint64)
    end_sets(board.size, board.own, board.enemy, like, work)
    ends: dict = {}
    for k, (dc, dr) in enumerate(END_OFFSETS):
        for c, r in shift_cells(board.size, work[k]):
            ends.setdefault((c - dc, r - dr), set()).add((c, r))
    pos = ref.parse_position(board.fen())
    for cell, colour in pos.tokens.items():
        if colour != pos.to_move:
            continue
        expected = ref.swipe_final_cells(pos, cell)
        found = ends.pop(cell, set())
        assert found == expected, (
            f"{board.fen()}: token {ref.cell_name(cell)}: fast {sorted(found)}, reference {sorted(expected)}"
        )
    assert not ends, f"{board.fen()}: ends of cells without a friendly token: {ends}"
    return sum(
        1
        for cell, colour in pos.tokens.items()
        if colour == pos.to_move and ref.swipe_final_cells(pos, cell)
    )


@pytest.mark.parametrize("size", SIZES)
def test_swipe_ends_agree_on_random_fillings(size):
    assert sum(check(random_filling(size, seed=9100 * size + seed)) for seed in range(40)) > 20


@pytest.mark.parametrize("size", SIZES)
def test_swipe_ends_agree_in_random_games(size):
    checked = 0
    for seed in range(4):
        for board in game_positions(size, seed=9300 * size + seed):
            checked += check(board)
    assert checked > 20
