"""Perft: the move generator's own test and benchmark (rules.md section 8)."""

import numpy as np
from numba import njit

from .bits import bb_row
from .movegen import generate_moves, play_with_flip
from .shiftperft import shift_perft


@njit(cache=True, nogil=True)
def perft(size, own, enemy, depth, bulk, work):
    """Leaf count of the move tree ``depth`` plies deep (rules.md section 8), on every
    side in the shift layout (``shiftperft.py``).

    With ``bulk``, the last ply counts the legal moves without listing them; without,
    every leaf move is really played (the children are folded into
    ``work.leaf_checksum`` so the compiler cannot skip them). Returns -1 soon after
    ``work.stop[0]`` is set (by another thread).

    The walk is iterative, over per-ply stacks: a recursive call per node would pay an
    atomic reference-count update for every array it passes.
    """
    if depth == 0:
        return np.int64(1)
    return shift_perft(size, own, enemy, depth, bulk, work.leaf_checksum, work.stop)


@njit(cache=True, nogil=True)
def perft_divide(size, own, enemy, depth, bulk, work, counts):
    """Perft split by first move: writes the root moves to ``work.moves[depth-1]`` and
    each one's count to ``counts``; returns the number of root moves."""
    moves = work.moves[depth - 1]
    flips = work.flips[depth - 1]
    n = generate_moves(size, own, enemy, moves, flips, work.enemy_groups, work.group_id, True)
    for i in range(n):
        their, ours = play_with_flip(own, enemy, moves[i], bb_row(flips, i))
        counts[i] = perft(size, their, ours, depth - 1, bulk, work)
    return n


@njit(cache=True, nogil=True)
def make_unmake_loop(size, own, enemy, rounds, work):
    """Play and take back every legal move of a position ``rounds`` times (a
    benchmark of make/unmake; taking back a copy-made move is keeping the old
    words). Returns the number of legal moves and a checksum of the children, which
    keeps the compiler from skipping the work."""
    moves = work.moves[0]
    flips = work.flips[0]
    n = generate_moves(size, own, enemy, moves, flips, work.enemy_groups, work.group_id, True)
    checksum = np.uint64(0)
    for _ in range(rounds):
        for i in range(n):
            their, ours = play_with_flip(own, enemy, moves[i], bb_row(flips, i))
            checksum ^= their[0] ^ ours[0] ^ their[1] ^ ours[1]
    return n, checksum


@njit(cache=True, nogil=True)
def perft_children(size, own, enemy, depth, bulk, work, codes, flips, first, last, counts):
    """Perft ``depth - 1`` under the root moves ``first .. last - 1`` (``codes``,
    ``flips``: the root move list), into ``counts``: one call per chunk of root
    moves, so that threads sharing the root pay Python only once per chunk. Returns
    how many it counted: fewer when ``work.stop`` stopped it (that count is -1)."""
    for i in range(first, last):
        their, ours = play_with_flip(own, enemy, codes[i], bb_row(flips, i))
        counts[i] = perft(size, their, ours, depth - 1, bulk, work)
        if counts[i] < 0:
            return i - first
    return last - first
