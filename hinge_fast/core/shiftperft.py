"""Perft in the shift layout (every side): the walk never leaves the sets of
``shiftcount.py``.

``perft.perft`` converts the root to the shift layout (two words on sides 4 to 6,
``SHIFT_WORDS`` on 7 to 9: the type of ``like`` picks the compiled version, as in
``shiftplay.uniform_moves_in``) and walks the tree here. A node's moves are listed as
whole child positions, sets, without move codes:

* placements (rule 3): the cells of ``placements``, each child ``(enemy, own | f)``;
* swipes: ``shiftplay.swipe_end_sets`` gives the thirteen end sets ``F[k]`` of every
  friendly token at once (``shiftplay.py``'s module docstring). A swipe is a (token, end,
  enemy group next to the end) and the thirteen ends of a token are distinct cells, so
  the swipes flipping the enemy group ``G`` are exactly the cells of ``F[k] & dilate(G)``
  for each ``k``, and their tokens the cells of ``start_cells(F[k] & dilate(G), k)`` in
  the same order (the map is one shift). Each group next to an end is filled once per
  node (not once per move, as ``shiftplay.nth_group`` does); its swipes share the child's
  enemy set ``enemy & ~G``, and the mover's is ``(own | G) & ~x | f``.

A side to move with no tokens while the board holds two or more has been eliminated
(rules.md section 6): no moves.

The walk is iterative over per-ply buffers (``perft.py`` says why): the children of each
node above the last two plies are written to its ply's rows, then visited in turn; a
leaf's parent lists its children without storing them (made perft: each child is built
and folded into a checksum, so the compiler cannot skip it) or only counts them (bulk
perft: ``shiftplay.uniform_count``, faster per position than ``shift_count_in``'s count
once the position is in sets: 205 against 226 ns on S6, 659 against 879 ns on S9, on the
grandchildren of the mid-game positions of ``side_by_side.py``).
"""

import numpy as np
from numba import njit

from .shiftcount import (
    WIDE_ZERO,
    ZERO,
    adjacent,
    dilate,
    s_and,
    s_andnot,
    s_any,
    s_count,
    s_eq,
    s_interior,
    s_lowest,
    s_or,
    s_row,
    s_store,
    s_xor,
    s_zero,
    to_shift_words,
)
from .shiftplay import END_SETS, start_cells, swipe_end_sets, uniform_count
from .tables import MAX_MOVES, SHIFT_MAX_SIZE

U64 = np.uint64


@njit(cache=True, inline='always')
def fold(a):
    """The words of the set ``a`` XORed into one."""
    x = U64(0)
    for word in a:
        x ^= word
    return x


@njit(cache=True, inline='always')
def expand(w, inside, own, enemy, work, store, kids_to_move, kids_mover, first):
    """The children of ``(own, enemy)`` (``own`` to move): returns ``(n, checksum)``.

    With ``store``, child ``i`` goes to rows ``first + i`` of ``kids_to_move`` (its side
    to move: the old enemy) and ``kids_mover``; without, each child is built and XORed
    into a set (its two sets XORed together), whose words are the checksum. ``work``
    gets the end sets ``F[0..12]``. Inlined, and called with ``store`` a constant, so
    that each caller compiles only its own branch."""
    n = np.int64(0)
    made = s_zero(own)
    if not s_any(own) and s_count(enemy) >= 2:
        return n, U64(0)  # eliminated (rules.md section 6)
    empty = s_andnot(inside, s_or(own, enemy))
    t1 = dilate(enemy, w)
    near_own = adjacent(own, w)
    # Rule 3: next to no enemy token, or next to a friendly one.
    cells = s_and(empty, s_or(s_andnot(inside, t1), near_own))
    while s_any(cells):
        f = s_lowest(cells)
        cells = s_andnot(cells, f)
        mover = s_or(own, f)
        if store:
            s_store(kids_to_move, first + n, enemy)
            s_store(kids_mover, first + n, mover)
        else:
            made = s_xor(made, s_xor(enemy, mover))
        n += 1
    landing = s_and(empty, t1)
    if not (s_any(s_and(own, near_own)) and (s_any(landing) or s_any(s_and(own, t1)))):
        return n, fold(made)  # no swipe can end anywhere
    reached = swipe_end_sets(w, own, enemy, t1, landing, work)
    # The enemy groups next to an end, each filled once.
    flippable = s_and(enemy, adjacent(reached, w))
    while s_any(flippable):
        group = s_lowest(flippable)
        while True:
            near = dilate(group, w)
            grown = s_and(near, enemy)
            if s_eq(grown, group):
                break
            group = grown
        flippable = s_andnot(flippable, group)
        to_move = s_andnot(enemy, group)
        base = s_or(own, group)
        for k in range(END_SETS):
            ends = s_and(s_row(work, k, own), near)
            if not s_any(ends):
                continue
            tokens = start_cells(ends, k, w)  # the same order: one shift
            while s_any(ends):
                f = s_lowest(ends)
                x = s_lowest(tokens)
                ends = s_andnot(ends, f)
                tokens = s_andnot(tokens, x)
                mover = s_or(s_andnot(base, x), f)
                if store:
                    s_store(kids_to_move, first + n, to_move)
                    s_store(kids_mover, first + n, mover)
                else:
                    made = s_xor(made, s_xor(to_move, mover))
                n += 1
    return n, fold(made)


@njit(cache=True, nogil=True)
def shift_perft_in(size, own_bits, enemy_bits, depth, bulk, leaf_checksum, like):
    """``perft.perft`` in the shift layout of ``like``'s words (``depth >= 1``); the made
    leaves' checksum is XORed into ``leaf_checksum[0]``."""
    w = U64(2 * size - 1)
    inside = s_interior(size, like)
    own = to_shift_words(size, own_bits, like)
    enemy = to_shift_words(size, enemy_bits, like)
    words = len(like)
    work = np.empty((END_SETS, words), dtype=np.uint64)
    if depth == 1:
        if bulk:
            if not s_any(own) and s_count(enemy) >= 2:
                return np.int64(0)
            return uniform_count(w, inside, own, enemy, work)[0]
        n, checksum = expand(w, inside, own, enemy, work, False, work, work, 0)
        leaf_checksum[0] ^= checksum
        return n
    # Plies 0 .. depth - 2 store their children: MAX_MOVES rows each.
    kids_to_move = np.empty(((depth - 1) * MAX_MOVES, words), dtype=np.uint64)
    kids_mover = np.empty(((depth - 1) * MAX_MOVES, words), dtype=np.uint64)
    count = np.zeros(depth - 1, dtype=np.int64)
    next_kid = np.zeros(depth - 1, dtype=np.int64)
    count[0] = expand(w, inside, own, enemy, work, True, kids_to_move, kids_mover, 0)[0]
    total = np.int64(0)
    checksum = U64(0)
    last = depth - 2  # the ply whose children are leaves' parents
    ply = 0
    while ply >= 0:
        i = next_kid[ply]
        if i >= count[ply]:
            ply -= 1
            continue
        next_kid[ply] = i + 1
        row = ply * MAX_MOVES + i
        a = s_row(kids_to_move, row, like)
        b = s_row(kids_mover, row, like)
        if ply == last:
            if bulk:
                if s_any(a) or s_count(b) < 2:
                    total += uniform_count(w, inside, a, b, work)[0]
            else:
                n, c = expand(w, inside, a, b, work, False, work, work, 0)
                total += n
                checksum ^= c
        else:
            ply += 1
            count[ply] = expand(w, inside, a, b, work, True, kids_to_move, kids_mover, ply * MAX_MOVES)[0]
            next_kid[ply] = 0
    leaf_checksum[0] ^= checksum
    return total


@njit(cache=True, nogil=True)
def shift_perft(size, own_bits, enemy_bits, depth, bulk, leaf_checksum):
    """Perft (rules.md section 8) of the bitboards ``own_bits``, ``enemy_bits`` (the side
    to move first), ``depth >= 1`` plies, in the shift layout: two words up to
    ``SHIFT_MAX_SIZE``, ``SHIFT_WORDS`` above."""
    if size <= SHIFT_MAX_SIZE:
        return shift_perft_in(size, own_bits, enemy_bits, depth, bulk, leaf_checksum, ZERO)
    return shift_perft_in(size, own_bits, enemy_bits, depth, bulk, leaf_checksum, WIDE_ZERO)


@njit(cache=True)
def shift_children_in(size, own_bits, enemy_bits, to_move, mover, like):
    """``shift_children`` in the shift layout of ``like``'s words."""
    w = U64(2 * size - 1)
    work = np.empty((END_SETS, len(like)), dtype=np.uint64)
    own = to_shift_words(size, own_bits, like)
    enemy = to_shift_words(size, enemy_bits, like)
    return expand(w, s_interior(size, like), own, enemy, work, True, to_move, mover, 0)[0]


@njit(cache=True)
def shift_children(size, own_bits, enemy_bits, to_move, mover):
    """For tests: the children of a position as the perft walk lists them, in the shift
    layout (``shiftplay.words(size)`` words, the first columns of each row): child ``i``
    is ``(to_move[i], mover[i])``, its side to move first. Returns their number."""
    if size <= SHIFT_MAX_SIZE:
        return shift_children_in(size, own_bits, enemy_bits, to_move, mover, ZERO)
    return shift_children_in(size, own_bits, enemy_bits, to_move, mover, WIDE_ZERO)


__all__ = ["shift_children", "shift_perft"]
