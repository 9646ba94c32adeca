"""Perft: the move generator's own test and benchmark (rules.md section 8)."""

import numpy as np
from numba import njit

from .bits import bb_row, bb_store
from .movegen import generate_moves, play_with_flip
from .shiftcount import shift_count


@njit(cache=True, nogil=True)
def bulk_perft_shift(size, own, enemy, depth, work):
    """Bulk perft (``depth >= 2``): the walk of ``perft`` with the last ply counted by
    ``shiftcount.shift_count`` (every token at once, on every side), not listed. A loop
    of its own: inside ``perft``'s, next to the made leaves, the same walk measured
    slower."""
    moves = work.moves
    flips = work.flips
    enemy_groups = work.enemy_groups
    group_id = work.group_id
    stack = np.empty((depth, 2, 4), dtype=np.uint64)  # (own, enemy) of each ply
    count = np.zeros(depth, dtype=np.int64)
    next_move = np.zeros(depth, dtype=np.int64)
    bb_store(stack[0], 0, own)
    bb_store(stack[0], 1, enemy)
    last = depth - 1
    count[0] = generate_moves(size, own, enemy, moves[0], flips[0], enemy_groups, group_id, True)
    total = np.int64(0)
    ply = 0
    while ply >= 0:
        i = next_move[ply]
        if i >= count[ply]:
            ply -= 1
            continue
        next_move[ply] = i + 1
        their, ours = play_with_flip(bb_row(stack[ply], 0), bb_row(stack[ply], 1), moves[ply, i], bb_row(flips[ply], i))
        if ply + 1 == last:
            total += shift_count(size, their, ours)
        else:
            ply += 1
            bb_store(stack[ply], 0, their)
            bb_store(stack[ply], 1, ours)
            count[ply] = generate_moves(size, their, ours, moves[ply], flips[ply], enemy_groups, group_id, True)
            next_move[ply] = 0
    return total


@njit(cache=True, nogil=True)
def perft(size, own, enemy, depth, bulk, work):
    """Leaf count of the move tree ``depth`` plies deep (rules.md section 8).

    With ``bulk``, the last ply counts the legal moves without listing them
    (``shift_count``; the whole walk is ``bulk_perft_shift``'s); without,
    every leaf move is really played (the children are folded into
    ``work.leaf_checksum`` so the compiler cannot skip them). ``work`` needs
    ``depth`` plies of buffers.

    The walk is iterative, over per-ply stacks in ``work``: a recursive call per node
    would pay an atomic reference-count update for every array it passes.
    """
    if depth == 0:
        return np.int64(1)
    if bulk:
        return shift_count(size, own, enemy) if depth == 1 else bulk_perft_shift(size, own, enemy, depth, work)
    moves = work.moves
    flips = work.flips
    enemy_groups = work.enemy_groups
    group_id = work.group_id
    stack = np.empty((depth, 2, 4), dtype=np.uint64)  # (own, enemy) of each ply
    count = np.zeros(depth, dtype=np.int64)
    next_move = np.zeros(depth, dtype=np.int64)
    bb_store(stack[0], 0, own)
    bb_store(stack[0], 1, enemy)
    last = depth - 1
    count[0] = generate_moves(size, own, enemy, moves[0], flips[0], enemy_groups, group_id, True)
    total = np.int64(0)
    checksum = np.uint64(0)
    ply = 0
    while ply >= 0:
        i = next_move[ply]
        if i >= count[ply]:
            ply -= 1
            continue
        next_move[ply] = i + 1
        their, ours = play_with_flip(bb_row(stack[ply], 0), bb_row(stack[ply], 1), moves[ply, i], bb_row(flips[ply], i))
        if ply == last:
            # A leaf, really played.
            checksum ^= their[0] ^ ours[1] ^ their[2] ^ ours[3]
            total += 1
        else:
            ply += 1
            bb_store(stack[ply], 0, their)
            bb_store(stack[ply], 1, ours)
            count[ply] = generate_moves(size, their, ours, moves[ply], flips[ply], enemy_groups, group_id, True)
            next_move[ply] = 0
    work.leaf_checksum[0] ^= checksum
    return total


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
    moves, so that threads sharing the root pay Python only once per chunk."""
    for i in range(first, last):
        their, ours = play_with_flip(own, enemy, codes[i], bb_row(flips, i))
        counts[i] = perft(size, their, ours, depth - 1, bulk, work)
    return last - first
