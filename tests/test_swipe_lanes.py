"""The per-token swipe kernel (``movegen.swipe_lanes``: every pivot and turn of a token
as byte-lane arithmetic on the codes of its twelve ring cells) against the reference.

On random positions of every board side, from random play and from random fillings,
the end cells it finds for each friendly token must be the reference's
``swipe_final_cells`` for that token, the lift of rule 4.1 included.
"""

import numpy as np
import pytest

from hinge_fast import Board
from hinge_fast import reference as ref
from hinge_fast.core import kernels
from hinge_fast.core.geometry import geometry
from hinge_fast.core.tables import MAX_CELLS, NWORDS, workspace
from hinge_fast.tools.positions import random_filling
from tests.conftest import game_positions

SIZES = range(4, 10)


def cells_of(row) -> set[int]:
    return {64 * w + b for w in range(NWORDS) for b in range(64) if int(row[w]) >> b & 1}


def check(board: Board, work) -> int:
    """Compare every friendly token's swipe ends on ``board``; returns how many tokens."""
    geo = geometry(board.size)
    pos = ref.parse_position(board.fen())
    ends = np.zeros((MAX_CELLS, NWORDS), dtype=np.uint64)
    kernels.swipe_ends(board.size, board.own, board.enemy, work, ends)
    tokens = sorted(cells_of(board.own))
    for x in tokens:
        fast = {geo.coords[c] for c in cells_of(ends[x])}
        expected = ref.swipe_final_cells(pos, geo.coords[x])
        assert fast == expected, f"{board.fen()}: token {geo.names[x]}: fast {sorted(fast)}, reference {sorted(expected)}"
    return len(tokens)


@pytest.mark.parametrize("size", SIZES)
def test_swipe_ends_agree_on_random_fillings(size):
    work = workspace(1)
    assert sum(check(random_filling(size, seed=9100 * size + seed), work) for seed in range(40)) > 0


@pytest.mark.parametrize("size", SIZES)
def test_swipe_ends_agree_in_random_games(size):
    work = workspace(1)
    checked = 0
    for seed in range(4):
        for board in game_positions(size, seed=9300 * size + seed):
            checked += check(board, work)
    assert checked > 50
