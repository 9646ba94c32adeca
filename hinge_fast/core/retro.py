"""Numba kernels of the side-4 solver: position indices, symmetry, reachability and
retrograde analysis (the method and the file format are in ``docs/solve.md``).

Index of a position
-------------------
The side-4 board has 19 interior cells: bits 0 to 18 of word 0 of a bitboard
(``geometry.py``). A position seen from the side to move, ``(own, enemy)``, has the
base-3 index ``sum(3**cell * digit)`` with digit 1 for an own token and 2 for an enemy
token: ``0 <= index < 3**19``. The colours do not enter it: a position and its colour
swap with the other side to move have one index and one value, so the solver keeps one
table for both sides to move and two "reachable" flags per index (bit 0: reachable with
Green to move, Green's tokens being ``own``; bit 1: with Blue to move).

The board has the 12 symmetries of the hexagon (``symmetry.py``); the rules commute
with them (``tests/test_solve.py`` checks it). The solver stores one entry per class of symmetric positions, at the class's *canonical
index*: the smallest index among its 12 images.

Value codes
-----------
One byte per canonical index: 0 is "not solved" (or unreachable); otherwise
``1 + 2 * distance + win``, ``win`` 1 when the side to move wins, ``distance`` the
number of plies to the end of the game under best play (the winner ends it as fast as
it can, the loser holds out as long as it can). Distances up to 126 fit.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .codes import is_swipe, move_from, move_to
from .jit import njit
from .moves import list_moves
from .symmetry import N_SYMMETRIES, symmetry_permutations
from .tables import (
    GROUP_SLOTS,
    MAX_MOVES,
    SCRATCH_ROWS,
    SHIFT_COLUMN_LENGTHS,
    SHIFT_COLUMN_SOURCES,
    SHIFT_COLUMN_TARGETS,
)

SIZE = 4
N_CELLS = 19
N_INDEX = 3**N_CELLS
LOW_BITS = 10
LOW_MASK = (1 << LOW_BITS) - 1
LOW_SPAN = 3**LOW_BITS
CELLS_MASK = (1 << N_CELLS) - 1
#: Value code of an unsolved or unreachable position.
UNSOLVED = 0
MAX_DISTANCE = 126
#: "No loss child seen yet" in the per-position summaries.
NO_LOSS = 255


def _index_tables():
    perms = symmetry_permutations(SIZE)
    low = np.zeros((N_SYMMETRIES, 1 << LOW_BITS), dtype=np.int64)
    high = np.zeros((N_SYMMETRIES, 1 << (N_CELLS - LOW_BITS)), dtype=np.int64)
    for s in range(N_SYMMETRIES):
        weights = 3 ** perms[s]
        for bits in range(1 << LOW_BITS):
            low[s, bits] = sum(int(weights[c]) for c in range(LOW_BITS) if bits >> c & 1)
        for bits in range(1 << (N_CELLS - LOW_BITS)):
            high[s, bits] = sum(
                int(weights[LOW_BITS + c]) for c in range(N_CELLS - LOW_BITS) if bits >> c & 1
            )
    # Decoding: the digits of index % 3**10 and of index // 3**10, as (own, enemy) bits.
    decode_low = np.zeros(LOW_SPAN, dtype=np.int64)
    for n in range(LOW_SPAN):
        own = enemy = 0
        for c in range(LOW_BITS):
            digit = n // 3**c % 3
            own |= (digit == 1) << c
            enemy |= (digit == 2) << c
        decode_low[n] = own | enemy << 32
    high_cells = N_CELLS - LOW_BITS
    decode_high = np.zeros(3**high_cells, dtype=np.int64)
    for n in range(3**high_cells):
        own = enemy = 0
        for c in range(high_cells):
            digit = n // 3**c % 3
            own |= (digit == 1) << c
            enemy |= (digit == 2) << c
        decode_high[n] = own << LOW_BITS | enemy << (32 + LOW_BITS)
    for array in (low, high, decode_low, decode_high):
        array.setflags(write=False)
    return low, high, decode_low, decode_high


#: ``SYM_LOW[s, bits]``: the sum of ``3**image(cell)`` over the cells 0..9 set in bits,
#: under symmetry s; ``SYM_HIGH`` the same for cells 10..18 (bits shifted down by 10).
SYM_LOW, SYM_HIGH, DECODE_LOW, DECODE_HIGH = _index_tables()


@njit(cache=True, inline="always")
def index_under(s, own, enemy):
    """Index of the image under symmetry ``s`` of the position ``(own, enemy)``
    (19-bit masks); ``s = 0`` is the identity."""
    return (
        SYM_LOW[s, own & LOW_MASK]
        + SYM_HIGH[s, own >> LOW_BITS]
        + 2 * (SYM_LOW[s, enemy & LOW_MASK] + SYM_HIGH[s, enemy >> LOW_BITS])
    )


@njit(cache=True)
def canonical_index(own, enemy):
    """The smallest index among the 12 images of ``(own, enemy)``."""
    best = index_under(0, own, enemy)
    for s in range(1, N_SYMMETRIES):
        v = index_under(s, own, enemy)
        if v < best:
            best = v
    return best


@njit(cache=True)
def orbit_size(own, enemy):
    """How many distinct positions the 12 symmetries make of ``(own, enemy)``: 12 over
    the number of symmetries that map it to the same image as the first one (a coset of
    its stabiliser, so as many as the symmetries that fix it)."""
    first = index_under(0, own, enemy)
    same = 1
    for s in range(1, N_SYMMETRIES):
        if index_under(s, own, enemy) == first:
            same += 1
    return N_SYMMETRIES // same


@njit(cache=True, inline="always")
def decode_index(index):
    """``(own, enemy)`` 19-bit masks of an index."""
    low = DECODE_LOW[index % LOW_SPAN]
    high = DECODE_HIGH[index // LOW_SPAN]
    both = low | high
    return both & 0xFFFFFFFF, both >> 32


@njit(cache=True, inline="always")
def _set_of(mask):
    """The cells of a mask (bit i: interior cell i) as a one-word set of the shift
    layout: each interior column is one run of bits in both."""
    word = np.uint64(0)
    for k in range(2 * SIZE - 3):
        run = (np.uint64(mask) >> np.uint64(SHIFT_COLUMN_SOURCES[SIZE, k])) & np.uint64(
            (1 << SHIFT_COLUMN_LENGTHS[SIZE, k]) - 1
        )
        word |= run << np.uint64(SHIFT_COLUMN_TARGETS[SIZE, k])
    return (word,)


@njit(cache=True, inline="always")
def _mask_of(word):
    """The inverse of ``_set_of``: a one-word set's cells as a mask."""
    mask = np.int64(0)
    for k in range(2 * SIZE - 3):
        run = (word >> np.uint64(SHIFT_COLUMN_TARGETS[SIZE, k])) & np.uint64(
            (1 << SHIFT_COLUMN_LENGTHS[SIZE, k]) - 1
        )
        mask |= np.int64(run) << SHIFT_COLUMN_SOURCES[SIZE, k]
    return mask


@njit(cache=True, inline="always")
def _child_index(own, enemy, move, flips, i):
    """The canonical index of the child after move ``i`` of a list (``own``, ``enemy``:
    masks; the child seen from its side to move)."""
    to = np.int64(1) << move_to(move)
    if not is_swipe(move):
        return canonical_index(enemy, own | to)
    flipped = _mask_of(flips[i, 0])
    return canonical_index(
        enemy ^ flipped, (own & ~(np.int64(1) << move_from(move))) | to | flipped
    )


@njit(cache=True, inline="always")
def value_code(win, distance):
    return np.uint8(1 + 2 * distance + win)


@njit(cache=True, inline="always")
def code_win(code):
    return (code - 1) & 1


@njit(cache=True, inline="always")
def code_distance(code):
    return (code - 1) >> 1


@njit(cache=True, inline="always")
def with_child(code, win, loss):
    """``(win, loss)``: the longest win and the shortest loss among a position's solved
    children, with the child of value ``code`` counted."""
    d = code_distance(code)
    if code_win(code):
        return max(win, d), loss
    return win, min(loss, d)


# ----- reachability --------------------------------------------------------------------


@njit(cache=True, inline="always")
def _workspace():
    """One thread's move-list buffers (``moves.list_moves``): moves, flips, scratch."""
    return (
        np.empty(MAX_MOVES, dtype=np.int64),
        np.empty((MAX_MOVES, 1), dtype=np.uint64),
        np.empty((SCRATCH_ROWS, 1), dtype=np.uint64),
        np.zeros(GROUP_SLOTS, dtype=np.int16),
    )


@njit(cache=True, inline="always")
def _children(index, moves, flips, enemy_groups, group_id):
    """Decode the position of canonical ``index`` and list its moves into the buffers:
    (own mask, enemy mask, number of moves)."""
    own, enemy = decode_index(np.int64(index))
    n = list_moves(SIZE, _set_of(own), _set_of(enemy), moves, flips, enemy_groups, group_id, 0)
    return own, enemy, n


@njit(cache=True)
def expand_layer(reach, queue, queue_len, following, following_len):
    """Breadth-first search of one layer (one total token count) of the move graph.

    ``queue[:queue_len]`` holds the layer's entries found so far, each
    ``2 * canonical index + side`` (side 0: Green to move, 1: Blue to move), each
    (index, side) once. ``reach[index]`` bits 0 and 1 are the reachable flags, bits 2
    and 3 "already expanded". Swipes keep the token count: their children join
    ``queue``; placements add a token: theirs join ``following`` (the next layer).
    Returns ``(queue_len, following_len)``; single-threaded.
    """
    moves, flips, enemy_groups, group_id = _workspace()
    head = 0
    while head < queue_len:
        index = np.int64(queue[head] >> 1)
        head += 1
        flags = np.int64(reach[index])
        todo = (flags & 3) & ~(flags >> 2)
        if todo == 0:
            continue
        reach[index] = np.uint8(flags | (todo << 2))
        own, enemy, n = _children(index, moves, flips, enemy_groups, group_id)
        for i in range(n):
            child = _child_index(own, enemy, moves[i], flips, i)
            swipe = is_swipe(moves[i])
            for side in range(2):
                if not (todo >> side) & 1:
                    continue
                child_side = 1 - side
                old = np.int64(reach[child])
                if (old >> child_side) & 1:
                    continue
                reach[child] = np.uint8(old | (1 << child_side))
                entry = np.uint32(2 * child + child_side)
                if swipe:
                    queue[queue_len] = entry
                    queue_len += 1
                else:
                    following[following_len] = entry
                    following_len += 1
    return queue_len, following_len


@njit(cache=True)
def distinct_classes(reach, entries):
    """The canonical indices of a layer's entries, each once (sorted)."""
    out = np.empty(len(entries), dtype=np.uint32)
    n = 0
    for e in entries:
        index = e >> 1
        side = e & 1
        # An index reachable with both sides to move appears twice: keep side 0's.
        if side == 0 or not (reach[index] & 1):
            out[n] = index
            n += 1
    result = out[:n].copy()
    result.sort()
    return result


# ----- retrograde analysis ----------------------------------------------------------------

CHUNK = 4096


@njit(cache=True, parallel=True)
def summarise_layer(values, classes, swipe_count, min_loss, max_win, resolved):
    """First pass over a layer: the children in the layer above (placements) are
    solved; note for each position the best of them (``min_loss``: the shortest loss
    of a child, ``max_win``: the longest win of a child) and how many swipe children
    it has (``swipe_count``; those stay in the layer). A position without swipes is
    solved here: ``resolved[i]`` gets its value code (written to ``values`` by the
    caller, so that this pass does not depend on thread timing)."""
    n_items = len(classes)
    n_chunks = (n_items + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        moves, flips, enemy_groups, group_id = _workspace()
        for item in range(chunk * CHUNK, min(n_items, (chunk + 1) * CHUNK)):
            own, enemy, n = _children(classes[item], moves, flips, enemy_groups, group_id)
            loss = NO_LOSS
            win = -1
            swipes = 0
            for i in range(n):
                if is_swipe(moves[i]):
                    swipes += 1
                    continue
                code = values[_child_index(own, enemy, moves[i], flips, i)]
                d = code_distance(code)
                if code_win(code):
                    win = max(win, d)
                else:
                    loss = min(loss, d)
            swipe_count[item] = swipes
            min_loss[item] = loss
            max_win[item] = win
            if swipes == 0:
                if loss != NO_LOSS:
                    resolved[item] = value_code(1, loss + 1)
                else:
                    # All children win for the opponent, or no legal move at all (loss in 0).
                    resolved[item] = value_code(0, win + 1)


@njit(cache=True, parallel=True)
def list_swipe_children(classes, items, offsets, edges):
    """Second pass: the canonical indices of the swipe children of ``classes[items]``
    into ``edges[offsets[k]:offsets[k + 1]]``."""
    n_items = len(items)
    n_chunks = (n_items + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        moves, flips, enemy_groups, group_id = _workspace()
        for k in range(chunk * CHUNK, min(n_items, (chunk + 1) * CHUNK)):
            own, enemy, n = _children(classes[items[k]], moves, flips, enemy_groups, group_id)
            at = offsets[k]
            for i in range(n):
                if not is_swipe(moves[i]):
                    continue
                edges[at] = _child_index(own, enemy, moves[i], flips, i)
                at += 1


@njit(cache=True, parallel=True)
def retrograde_round(values, classes, items, offsets, edges, min_loss, max_win, round_number, done):
    """One round of the layer's retrograde analysis over the unsolved ``items``.

    Invariant: before round r, every position of the layer whose distance is below r
    is solved. A position is solved in round r when its value is certain: all its
    children are solved (a win in the shortest loss of a child plus one, else a loss
    in the longest win plus one), or some child is a loss in ``d <= r`` (a win in
    d + 1: an unsolved child has distance r or more, so nothing shorter can appear).
    Each solution is exact, so the order in which the threads see each other's writes
    changes when a position is solved, never its value.

    Marks ``done[k]``; returns (positions solved, the smallest loss distance among the
    unsolved positions' children, or NO_LOSS; 1 if a distance overflowed).
    """
    n_items = len(items)
    n_chunks = (n_items + CHUNK - 1) // CHUNK
    solved = np.zeros(n_chunks, dtype=np.int64)
    next_loss = np.full(n_chunks, NO_LOSS, dtype=np.int64)
    overflow = np.zeros(n_chunks, dtype=np.int64)
    for chunk in prange(n_chunks):
        for k in range(chunk * CHUNK, min(n_items, (chunk + 1) * CHUNK)):
            if done[k]:
                continue
            item = items[k]
            loss = np.int64(min_loss[item])
            win = np.int64(max_win[item])
            open_children = 0
            for e in range(offsets[k], offsets[k + 1]):
                code = values[edges[e]]
                if code == UNSOLVED:
                    open_children += 1
                    continue
                win, loss = with_child(code, win, loss)
            code = np.uint8(0)
            if loss != NO_LOSS and (loss <= round_number or open_children == 0):
                if loss + 1 > MAX_DISTANCE:
                    overflow[chunk] = 1
                    continue
                code = value_code(1, loss + 1)
            elif open_children == 0:
                if win + 1 > MAX_DISTANCE:
                    overflow[chunk] = 1
                    continue
                code = value_code(0, win + 1)
            if code != 0:
                values[classes[item]] = code
                done[k] = True
                solved[chunk] += 1
            elif loss < next_loss[chunk]:
                next_loss[chunk] = loss
    return solved.sum(), next_loss.min(), overflow.max()


@njit(cache=True, parallel=True)
def layer_tally(reach, values, classes, out):
    """Add a layer's counts to ``out``: per side to move (0 Green, 1 Blue), positions
    (board, side to move), wins, losses, unsolved; each class counts its orbit size."""
    n_items = len(classes)
    n_chunks = (n_items + CHUNK - 1) // CHUNK
    part = np.zeros((n_chunks, 2, 4), dtype=np.int64)
    for chunk in prange(n_chunks):
        for item in range(chunk * CHUNK, min(n_items, (chunk + 1) * CHUNK)):
            index = np.int64(classes[item])
            own, enemy = decode_index(index)
            size = orbit_size(own, enemy)
            code = values[index]
            for side in range(2):
                if (reach[index] >> side) & 1:
                    part[chunk, side, 0] += size
                    if code == UNSOLVED:
                        part[chunk, side, 3] += size
                    elif code_win(code):
                        part[chunk, side, 1] += size
                    else:
                        part[chunk, side, 2] += size
    for chunk in range(n_chunks):
        out += part[chunk]


@njit(cache=True, parallel=True)
def count_inconsistent(values, classes):
    """How many of ``classes`` break the rule that defines the table: a position's
    code is the shortest win over its moves (a child lost in d: a win in d + 1), else
    the longest loss (every child won in d: a loss in max d + 1; no move: a loss in 0),
    every child solved. A table with no inconsistency and finite distances is exact
    (induction on the distance), so this checks the retrograde analysis from outside."""
    n_items = len(classes)
    n_chunks = (n_items + CHUNK - 1) // CHUNK
    bad = np.zeros(n_chunks, dtype=np.int64)
    for chunk in prange(n_chunks):
        moves, flips, enemy_groups, group_id = _workspace()
        for item in range(chunk * CHUNK, min(n_items, (chunk + 1) * CHUNK)):
            index = np.int64(classes[item])
            own, enemy, n = _children(index, moves, flips, enemy_groups, group_id)
            loss = NO_LOSS
            win = -1
            unsolved = False
            for i in range(n):
                code = values[_child_index(own, enemy, moves[i], flips, i)]
                if code == UNSOLVED:
                    unsolved = True
                    break
                win, loss = with_child(code, win, loss)
            expected = value_code(1, loss + 1) if loss != NO_LOSS else value_code(0, win + 1)
            if unsolved or values[index] != expected:
                bad[chunk] += 1
    return bad.sum()
