"""Perft: the move generator's own test and benchmark (rules.md section 8).

The entry points take a position as ``Board``'s bitboards and convert it once to the
shift layout of its side (``tables.SHIFT_WORDS_OF``: the type of the sets picks the
compiled version); the walk never leaves the sets of ``sets.py``.

A node's moves are listed as whole child positions, sets, without move codes:

* placements (rule 3): the cells of ``placements`` (``swipes.frame``), each child
  ``(enemy, own | f)``;
* swipes: ``swipes.swipe_ends`` gives the thirteen end sets ``F[k]`` of every
  friendly token at once (``swipes.py``'s module docstring). A swipe is a (token, end,
  enemy group next to the end) and the thirteen ends of a token are distinct cells, so
  the swipes flipping the enemy group ``G`` are exactly the cells of ``F[k] & dilate(G)``
  for each ``k``, and their tokens the cells of ``start_cells(F[k] & dilate(G), k)`` in
  the same order (the map is one shift). Each group next to an end is filled once per
  node (``swipes.flippable``, ``sets.next_group``; not once per move, as
  ``swipes.nth_group`` does); its swipes share the child's enemy set ``enemy & ~G``,
  and the mover's is ``(own | G) & ~x | f``.

An eliminated side to move (``swipes.eliminated``, rule 6) has no moves.

The walk is iterative over per-ply buffers (a recursive call per node would pay an
atomic reference-count update for every array it passes): the children of each node
above the leaves' parents are written to the next ply's rows, then visited in turn; a
leaf's parent lists its children without storing them (made perft: each child is built and
folded into a checksum, so the compiler cannot skip it) or only counts them (bulk
perft: ``swipes.uniform_count``, measured faster per position than a count written
for perft alone: 205 against 226 ns on side 6, 659 against 879 ns on side 9).
"""

import numpy as np

from .jit import njit
from .moves import list_moves, play_move
from .sets import (
    next_group,
    s_and,
    s_andnot,
    s_any,
    s_interior,
    s_lowest,
    s_or,
    s_row,
    s_store,
    s_xor,
    s_zero,
    set_like,
    shift_sets,
)
from .swipes import (
    END_SETS,
    eliminated,
    flippable,
    frame,
    start_cells,
    swipe_ends,
    uniform_count,
)
from .tables import MAX_MOVES

U64 = np.uint64


@njit(cache=True, inline="always")
def fold(a):
    """The words of the set ``a`` XORed into one."""
    x = U64(0)
    for word in a:
        x ^= word
    return x


@njit(cache=True, inline="always")
def keep(store, made, n, first, kids_to_move, kids_mover, to_move, mover):
    """Child ``n`` of ``expand``: stored to row ``first + n`` (``store``), or XORed into
    ``made``. Returns ``made``."""
    if store:
        s_store(kids_to_move, first + n, to_move)
        s_store(kids_mover, first + n, mover)
        return made
    return s_xor(made, s_xor(to_move, mover))


@njit(cache=True, inline="always")
def expand(w, inside, own, enemy, work, store, kids_to_move, kids_mover, first):
    """The children of ``(own, enemy)`` (``own`` to move): returns ``(n, checksum)``.

    With ``store``, child ``i`` goes to rows ``first + i`` of ``kids_to_move`` (its side
    to move: the old enemy) and ``kids_mover``; without, each child is built and XORed
    into a set (its two sets XORed together), whose words are the checksum. ``work``
    gets the end sets ``F[0..12]``. Inlined, and called with ``store`` a constant, so
    that each caller compiles only its own branch."""
    n = np.int64(0)
    made = s_zero(own)
    if eliminated(own, enemy):
        return n, U64(0)
    placements, t1, landing, grouped = frame(w, inside, own, enemy)
    while s_any(placements):
        f = s_lowest(placements)
        placements = s_andnot(placements, f)
        made = keep(store, made, n, first, kids_to_move, kids_mover, enemy, s_or(own, f))
        n += 1
    reached = swipe_ends(w, own, enemy, t1, landing, grouped, work)
    seeds = flippable(w, enemy, reached)
    while s_any(seeds):
        group, near, seeds = next_group(enemy, seeds, w)
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
                made = keep(
                    store,
                    made,
                    n,
                    first,
                    kids_to_move,
                    kids_mover,
                    to_move,
                    s_or(s_andnot(base, x), f),
                )
                n += 1
    return n, fold(made)


@njit(cache=True, nogil=True)
def perft_sets(size, own, enemy, depth, bulk, leaf_checksum, stop):
    """``perft`` of the position ``(own, enemy)`` (sets of the side's words,
    ``depth >= 1``); the made leaves' checksum is XORed into ``leaf_checksum[0]``.
    Returns -1 as soon as it sees ``stop[0]`` set (checked at every node above the
    leaves' parents).

    Ply ``p``'s rows hold positions ``p`` plies below the root (the root alone at ply
    0), each with its side to move first: one node is expanded in one place, and one
    leaves' parent counted or made in one, so the walk inlines each only once."""
    w = U64(2 * size - 1)
    inside = s_interior(size, own)
    like = own
    words = len(like)
    work = np.empty((END_SETS, words), dtype=np.uint64)
    kids_to_move = np.empty((depth * MAX_MOVES, words), dtype=np.uint64)
    kids_mover = np.empty((depth * MAX_MOVES, words), dtype=np.uint64)
    count = np.zeros(depth, dtype=np.int64)
    next_kid = np.zeros(depth, dtype=np.int64)
    s_store(kids_to_move, 0, own)
    s_store(kids_mover, 0, enemy)
    count[0] = 1
    total = np.int64(0)
    checksum = U64(0)
    last = depth - 1  # the ply of the leaves' parents
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
                if not eliminated(a, b):
                    total += uniform_count(w, inside, a, b, work)[0]
            else:
                n, c = expand(w, inside, a, b, work, False, work, work, 0)
                total += n
                checksum ^= c
        else:
            if stop[0]:
                return np.int64(-1)
            ply += 1
            count[ply] = expand(
                w, inside, a, b, work, True, kids_to_move, kids_mover, ply * MAX_MOVES
            )[0]
            next_kid[ply] = 0
    leaf_checksum[0] ^= checksum
    return total


@njit(cache=True, nogil=True)
def perft_in(size, own_bits, enemy_bits, depth, bulk, leaf_checksum, stop, like):
    """``perft`` in the shift layout of ``like``'s words."""
    own, enemy = shift_sets(size, own_bits, enemy_bits, like)
    return perft_sets(size, own, enemy, depth, bulk, leaf_checksum, stop)


def perft(size, own, enemy, depth, bulk, work):
    """Leaf count of the move tree ``depth`` plies deep (rules.md section 8).

    With ``bulk``, the last ply counts the legal moves without listing them; without,
    every leaf move is really played (the children are folded into
    ``work.leaf_checksum`` so the compiler cannot skip them). Returns -1 soon after
    ``work.stop[0]`` is set (by another thread).

    """
    if depth == 0:
        return 1
    return perft_in(size, own, enemy, depth, bulk, work.leaf_checksum, work.stop, set_like(size))


@njit(cache=True, nogil=True)
def children_in(
    size, own_bits, enemy_bits, depth, bulk, work, codes, flips, first, last, counts, like
):
    """``perft_children`` in the shift layout of ``like``'s words."""
    own, enemy = shift_sets(size, own_bits, enemy_bits, like)
    for i in range(first, last):
        their, ours = play_move(size, own, enemy, codes[i], s_row(flips, i, like))
        if depth == 1:
            counts[i] = 1
        else:
            counts[i] = perft_sets(
                size, their, ours, depth - 1, bulk, work.leaf_checksum, work.stop
            )
        if counts[i] < 0:
            return i - first
    return last - first


def perft_children(size, own, enemy, depth, bulk, work, codes, flips, first, last, counts):
    """Perft ``depth - 1`` under the root moves ``first .. last - 1`` (``codes``,
    ``flips``: the root move list of ``moves.legal_moves``), into ``counts``: one call
    per chunk of root moves, so that threads sharing the root pay Python only once per
    chunk. Returns how many it counted: fewer when ``work.stop`` stopped it (that count
    is -1)."""
    return children_in(
        size, own, enemy, depth, bulk, work, codes, flips, first, last, counts, set_like(size)
    )


@njit(cache=True, nogil=True)
def make_unmake_in(size, own_bits, enemy_bits, rounds, work, like):
    """``make_unmake_loop`` in the shift layout of ``like``'s words."""
    own, enemy = shift_sets(size, own_bits, enemy_bits, like)
    moves = work.moves[0]
    flips = work.flips[0]
    n = list_moves(size, own, enemy, moves, flips, work.scratch, work.group_of_bit, 0)
    checksum = np.uint64(0)
    for _ in range(rounds):
        for i in range(n):
            their, ours = play_move(size, own, enemy, moves[i], s_row(flips, i, like))
            for k in range(len(like)):
                checksum ^= their[k] ^ ours[k]
    return n, checksum


def make_unmake_loop(size, own, enemy, rounds, work):
    """Play and take back every legal move of a position ``rounds`` times (a
    benchmark of make/unmake; taking back a copy-made move is keeping the old
    words). Returns the number of legal moves and a checksum of the children, which
    keeps the compiler from skipping the work."""
    return make_unmake_in(size, own, enemy, rounds, work, set_like(size))


@njit(cache=True)
def children_sets_in(size, own_bits, enemy_bits, to_move, mover, like):
    """``children_sets`` in the shift layout of ``like``'s words."""
    w = U64(2 * size - 1)
    work = np.empty((END_SETS, len(like)), dtype=np.uint64)
    own, enemy = shift_sets(size, own_bits, enemy_bits, like)
    return expand(w, s_interior(size, like), own, enemy, work, True, to_move, mover, 0)[0]


def children_sets(size, own_bits, enemy_bits, to_move, mover):
    """For tests: the children of a position as the perft walk lists them, in the shift
    layout (``swipes.words(size)`` words, the first columns of each row): child ``i``
    is ``(to_move[i], mover[i])``, its side to move first. Returns their number."""
    return children_sets_in(size, own_bits, enemy_bits, to_move, mover, set_like(size))
