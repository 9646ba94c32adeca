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

``list_moves_shift`` lists a node's moves for alpha-beta's search in the shift layout (its
``negamax`` on two-word sets) from the same end sets: move codes (``movecode.py``, cells
through ``shiftplay.CELL_OF_BIT``) and flipped groups, in ``movegen.generate_moves``'
order (the search's tree then stays the same), or only the swipes flipping enough tokens
(the quiescence's).

The walk is iterative over per-ply buffers (``perft.py`` says why): the children of each
node above the last two plies are written to its ply's rows, then visited in turn; a
leaf's parent lists its children without storing them (made perft: each child is built
and folded into a checksum, so the compiler cannot skip it) or only counts them (bulk
perft: ``shiftplay.uniform_count``, faster per position than ``shift_count_in``'s count
once the position is in sets: 205 against 226 ns on S6, 659 against 879 ns on S9, on the
grandchildren of the mid-game positions of ``side_by_side.py``).
"""

import numpy as np
from numba import literal_unroll, njit

from .bits import lowest_bit_index64
from .shiftcount import (
    SET_LIKES,
    ZERO,
    adjacent,
    dilate,
    s_and,
    s_andnot,
    s_any,
    s_count,
    s_interior,
    s_lowest,
    s_lowest_index,
    s_or,
    s_row,
    s_store,
    s_xor,
    s_zero,
    set_like,
    to_shift_layout,
    to_shift_words,
)
from .geometry import MIN_SIZE
from .movegen import encode_placement, encode_swipe
from .shiftplay import CELL_OF_BIT, END_SETS, grow_group, start_cells, swipe_end_sets, uniform_count
from .tables import MAX_MOVES, SHIFT_MAX_SIZE, SHIFT_WORDS_OF, ZOBRIST

U64 = np.uint64


@njit(cache=True, inline='always')
def fold(a):
    """The words of the set ``a`` XORed into one."""
    x = U64(0)
    for word in a:
        x ^= word
    return x


@njit(cache=True, inline='always')
def keep(store, made, n, first, kids_to_move, kids_mover, to_move, mover):
    """Child ``n`` of ``expand``: stored to row ``first + n`` (``store``), or XORed into
    ``made``. Returns ``made``."""
    if store:
        s_store(kids_to_move, first + n, to_move)
        s_store(kids_mover, first + n, mover)
        return made
    return s_xor(made, s_xor(to_move, mover))


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
        made = keep(store, made, n, first, kids_to_move, kids_mover, enemy, s_or(own, f))
        n += 1
    landing = s_and(empty, t1)
    if not (s_any(s_and(own, near_own)) and (s_any(landing) or s_any(s_and(own, t1)))):
        return n, fold(made)  # no swipe can end anywhere
    reached = swipe_end_sets(w, own, enemy, t1, landing, work)
    # The enemy groups next to an end, each filled once.
    flippable = s_and(enemy, adjacent(reached, w))
    while s_any(flippable):
        group, near = grow_group(enemy, s_lowest(flippable), w)
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
                made = keep(store, made, n, first, kids_to_move, kids_mover, to_move, s_or(s_andnot(base, x), f))
                n += 1
    return n, fold(made)


# ----- move lists in the shift layout (alpha-beta on sides 4 to 6) ------------------------------
# ``search/negamax.py`` (``shift_search_depth``) keeps a node's sides as two-word sets and
# lists its moves here, with move codes and flipped groups, in the order of
# ``movegen.generate_moves``: the tree it searches is then the same, node for node.


def _bit_of_cell():
    """``BIT_OF_CELL[size, cell]``: the shift-layout bit of an interior cell (sides up
    to ``SHIFT_MAX_SIZE``; -1 for the edge cells), the inverse of ``CELL_OF_BIT``."""
    table = np.full((SHIFT_MAX_SIZE + 1, 256), -1, dtype=np.int16)
    for size in range(MIN_SIZE, SHIFT_MAX_SIZE + 1):
        for b in range(128):
            cell = CELL_OF_BIT[size, b]
            if cell >= 0:
                table[size, cell] = b
    table.setflags(write=False)
    return table


def _flip_keys():
    """``FLIP_KEYS[size, b]``: the Zobrist change of the token on shift-layout bit ``b``
    changing colour, ``ZOBRIST[size, 0, c] ^ ZOBRIST[size, 1, c]`` of its cell ``c``."""
    table = np.zeros((SHIFT_MAX_SIZE + 1, 128), dtype=np.uint64)
    for size in range(MIN_SIZE, SHIFT_MAX_SIZE + 1):
        for b in range(128):
            cell = CELL_OF_BIT[size, b]
            if cell >= 0:
                table[size, b] = ZOBRIST[size, 0, cell] ^ ZOBRIST[size, 1, cell]
    table.setflags(write=False)
    return table


BIT_OF_CELL = _bit_of_cell()
FLIP_KEYS = _flip_keys()
#: The end sets ``E[k]`` (``shiftplay.py``) in increasing order of their end's offset
#: from the token, ``END_STEP_W[i] * W + END_STEP_1[i]`` bits: a token's ends in cell
#: order, as ``generate_moves`` lists them (the layout's bit order is the cells' order).
END_ORDER = np.array([9, 10, 4, 3, 8, 5, 12, 2, 11, 0, 1, 7, 6], dtype=np.int64)
END_STEP_W = np.array([-2, -1, -1, -1, -1, 0, 0, 0, 1, 1, 1, 1, 2], dtype=np.int64)
END_STEP_1 = np.array([-1, -2, -1, 0, 1, -1, 0, 1, -1, 0, 1, 2, 1], dtype=np.int64)
#: The six neighbour directions of ``geometry.DIRECTIONS`` in bits: ``W``, ``W+1``,
#: ``1``, ``-W``, ``-W-1``, ``-1``.
NEIGHBOUR_STEP_W = np.array([1, 1, 0, -1, -1, 0], dtype=np.int64)
NEIGHBOUR_STEP_1 = np.array([0, 1, 1, 0, -1, -1], dtype=np.int64)
#: Where ``list_moves_shift`` keeps, in its scratch ``work``, the tokens with an end of
#: each end set (in ``END_ORDER``) and the flippable enemy groups; and in
#: ``group_of_bit`` the groups' target cells.
TOKEN_ROWS = 16
GROUP_ROWS = 32
TARGET_SLOTS = 128


@njit(cache=True, inline='always')
def has_bit(a, b):
    """Whether the two-word set ``a`` holds bit ``b`` (0 to 127)."""
    word = a[0] if b < 64 else a[1]
    return (word >> U64(b & 63)) & U64(1) != U64(0)


@njit(cache=True, inline='always')
def bit_set(b):
    """The two-word set of bit ``b`` (0 to 127)."""
    if b < 64:
        return (U64(1) << U64(b), U64(0))
    return (U64(0), U64(1) << U64(b - 64))


@njit(cache=True)
def list_moves_shift(size, w, inside, own, enemy, moves, flips, work, group_of_bit, least_flip):
    """Every distinct legal move of ``own`` (to move; two-word sets, sides up to
    ``SHIFT_MAX_SIZE``), as ``movegen.generate_moves`` lists them: move codes to
    ``moves[:n]``, in the same order, and each flipped group, as a set, to columns 0
    and 1 of ``flips[:n]`` (zero for a placement). Returns n (0 when the game is over).
    With ``least_flip`` > 0, only the swipes flipping that many tokens or more, in the
    same order, and no placement (the quiescence's moves).

    The swipes' end sets come from ``shiftplay.swipe_end_sets`` (every token at once);
    each enemy group next to an end is filled once (kept, if large enough, in ``work``
    from row ``GROUP_ROWS``, its target cell in ``group_of_bit`` at ``TARGET_SLOTS`` +
    its number; its number, or -1, at each of its bits). Then, for ``generate_moves``'
    order: the friendly groups by their first cell, each group's tokens in cell order,
    each token's ends in cell order (``END_ORDER``: a 13-bit mask per token from the
    token sets of ``TOKEN_ROWS``), and at each end the enemy groups by the first
    direction (``geometry.DIRECTIONS``) in which one of their tokens lies; then the
    placements in cell order."""
    if not s_any(own) and s_count(enemy) >= 2:
        return np.int64(0)  # eliminated (rules.md section 6)
    n = np.int64(0)
    empty = s_andnot(inside, s_or(own, enemy))
    t1 = dilate(enemy, w)
    near_own = adjacent(own, w)
    landing = s_and(empty, t1)
    grouped = s_and(own, near_own)  # tokens with a friendly neighbour: the only ones with a pivot
    if s_any(grouped) and (s_any(landing) or s_any(s_and(own, t1))):
        reached = swipe_end_sets(w, own, enemy, t1, landing, work)
        flippable = s_and(enemy, adjacent(reached, w))
        kept = s_zero(own)  # the cells next to a kept group
        g = 0
        while s_any(flippable):
            group, near = grow_group(enemy, s_lowest(flippable), w)
            flippable = s_andnot(flippable, group)
            label = -1
            if s_count(group) >= least_flip:
                label = g
                s_store(work, GROUP_ROWS + g, group)
                group_of_bit[TARGET_SLOTS + g] = CELL_OF_BIT[size, s_lowest_index(group)]
                kept = s_or(kept, near)
                g += 1
            rest = group
            while s_any(rest):
                group_of_bit[s_lowest_index(rest)] = label
                rest = s_andnot(rest, s_lowest(rest))
        if g > 0:
            movers = s_zero(own)
            for i in range(END_SETS):
                k = END_ORDER[i]
                tokens = start_cells(s_and(s_row(work, k, own), kept), k, w)
                s_store(work, TOKEN_ROWS + i, tokens)
                movers = s_or(movers, tokens)
            iw = np.int64(w)
            rest = grouped
            while s_any(s_and(rest, movers)):
                group, _ = grow_group(own, s_lowest(rest), w)
                rest = s_andnot(rest, group)
                tokens = s_and(group, movers)
                while s_any(tokens):
                    x = s_lowest_index(tokens)
                    tokens = s_andnot(tokens, s_lowest(tokens))
                    from_cell = CELL_OF_BIT[size, x]
                    word = x >> 6
                    offset = U64(x & 63)
                    ends = U64(0)
                    for i in range(END_SETS):
                        ends |= ((work[TOKEN_ROWS + i, word] >> offset) & U64(1)) << U64(i)
                    while ends:
                        i = np.int64(lowest_bit_index64(ends))
                        ends &= ends - U64(1)
                        f = x + END_STEP_W[i] * iw + END_STEP_1[i]
                        to_cell = CELL_OF_BIT[size, f]
                        # Rule 4.5: one move per distinct enemy group next to f.
                        first = -1
                        second = -1
                        for j in range(6):
                            e = f + NEIGHBOUR_STEP_W[j] * iw + NEIGHBOUR_STEP_1[j]
                            if not has_bit(enemy, e):
                                continue
                            gid = np.int64(group_of_bit[e])
                            if gid < 0 or gid == first or gid == second:
                                continue
                            if first < 0:
                                first = gid
                            else:
                                second = gid
                            moves[n] = encode_swipe(from_cell, to_cell, group_of_bit[TARGET_SLOTS + gid])
                            flips[n, 0] = work[GROUP_ROWS + gid, 0]
                            flips[n, 1] = work[GROUP_ROWS + gid, 1]
                            n += 1
    if least_flip > 0:
        return n
    # Rule 3: an empty interior cell with no enemy neighbour or a friendly neighbour.
    cells = s_and(empty, s_or(s_andnot(inside, t1), near_own))
    while s_any(cells):
        moves[n] = encode_placement(CELL_OF_BIT[size, s_lowest_index(cells)])
        flips[n, 0] = U64(0)
        flips[n, 1] = U64(0)
        cells = s_andnot(cells, s_lowest(cells))
        n += 1
    return n


@njit(cache=True)
def shift_moves(size, own_bits, enemy_bits, moves, flips, work, group_of_bit, least_flip=0):
    """For tests: ``list_moves_shift`` of the bitboards ``own_bits``, ``enemy_bits``
    (``geometry.py``'s layout, sides 4 to ``SHIFT_MAX_SIZE``); ``work`` a uint64 array of
    at least ``GROUP_ROWS`` + 64 rows and 2 columns, ``group_of_bit`` int16 [256]."""
    return list_moves_shift(size, U64(2 * size - 1), s_interior(size, ZERO), to_shift_layout(size, own_bits),
                            to_shift_layout(size, enemy_bits), moves, flips, work, group_of_bit, least_flip)


@njit(cache=True, nogil=True)
def shift_perft_in(size, own_bits, enemy_bits, depth, bulk, leaf_checksum, stop, like):
    """``perft.perft`` in the shift layout of ``like``'s words (``depth >= 1``); the made
    leaves' checksum is XORed into ``leaf_checksum[0]``. Returns -1 as soon as it sees
    ``stop[0]`` set (checked at every node above the leaves' parents)."""
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
            if stop[0]:
                return np.int64(-1)
            ply += 1
            count[ply] = expand(w, inside, a, b, work, True, kids_to_move, kids_mover, ply * MAX_MOVES)[0]
            next_kid[ply] = 0
    leaf_checksum[0] ^= checksum
    return total


@njit(cache=True, nogil=True)
def shift_perft(size, own_bits, enemy_bits, depth, bulk, leaf_checksum, stop):
    """Perft (rules.md section 8) of the bitboards ``own_bits``, ``enemy_bits`` (the side
    to move first), ``depth >= 1`` plies, in the shift layout of the side's words
    (``tables.SHIFT_WORDS_OF``); -1 when stopped by ``stop[0]``."""
    total = np.int64(0)
    for like in literal_unroll(SET_LIKES):
        if len(like) == SHIFT_WORDS_OF[size]:
            total = shift_perft_in(size, own_bits, enemy_bits, depth, bulk, leaf_checksum, stop, like)
    return total


@njit(cache=True)
def shift_children_in(size, own_bits, enemy_bits, to_move, mover, like):
    """``shift_children`` in the shift layout of ``like``'s words."""
    w = U64(2 * size - 1)
    work = np.empty((END_SETS, len(like)), dtype=np.uint64)
    own = to_shift_words(size, own_bits, like)
    enemy = to_shift_words(size, enemy_bits, like)
    return expand(w, s_interior(size, like), own, enemy, work, True, to_move, mover, 0)[0]


def shift_children(size, own_bits, enemy_bits, to_move, mover):
    """For tests: the children of a position as the perft walk lists them, in the shift
    layout (``shiftplay.words(size)`` words, the first columns of each row): child ``i``
    is ``(to_move[i], mover[i])``, its side to move first. Returns their number."""
    return shift_children_in(size, own_bits, enemy_bits, to_move, mover, set_like(size))


__all__ = ["list_moves_shift", "shift_children", "shift_moves", "shift_perft"]
