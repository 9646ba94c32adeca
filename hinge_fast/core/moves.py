"""Legal moves as a list: move codes and flipped groups, for the searchers and the board.

Every kernel keeps a position as two sets of the shift layout (``sets.py``), the
side to move's tokens ``own`` and the other side's ``enemy``, in as many words as the
side needs; the type of the sets picks the compiled version. Playing a move returns the
next position already seen from the other side, ``(enemy', own')``, so no kernel needs
to know which colour is which. A move is one int64 code (``movecode.py``) naming cells
of ``geometry.py``; ``tables.CELL_OF_BIT`` and ``tables.BIT_OF_CELL`` map them to the
layout's bits.

``list_moves`` takes the swipes from the frame of ``swipes.py`` (the thirteen end sets
of every friendly token at once, the lift of rule 4.1 applied) and fills each enemy
group next to an end once. The list is in a fixed order, the one ``Board.legal_moves``
and the searchers' ties rely on: the friendly groups by their first cell, each group's
tokens in cell order, each token's ends in cell order (``END_ORDER``), at each end the
enemy groups by the first direction (``geometry.DIRECTIONS``) in which one of their
tokens lies; then the placements in cell order. Swipes come first, so a caller that wants
only swipes stops at the first placement.
"""

import numpy as np

from .bits import lowest_bit_index64
from .codes import encode_placement, encode_swipe, is_swipe, move_from, move_target, move_to
from .jit import njit
from .sets import (
    grow_group,
    next_group,
    s_and,
    s_andnot,
    s_any,
    s_bit,
    s_count,
    s_has,
    s_interior,
    s_lowest,
    s_lowest_index,
    s_or,
    s_row,
    s_store,
    s_xor,
    s_zero,
    set_like,
    shift_sets,
    to_shift_words,
)
from .swipes import END_SETS, eliminated, flippable, frame, start_cells, swipe_ends, words
from .tables import BIT_OF_CELL, CELL_OF_BIT, FLIP_KEYS, SHIFT_WORDS, SHIFT_WORDS_OF, ZOBRIST

U64 = np.uint64

#: The end sets ``E[k]`` (``swipes.py``) in increasing order of their end's offset
#: from the token, ``END_STEP_W[i] * W + END_STEP_1[i]`` bits: a token's ends in cell
#: order (the layout's bit order is the cells' order).
END_ORDER = np.array([9, 10, 4, 3, 8, 5, 12, 2, 11, 0, 1, 7, 6], dtype=np.int64)
END_STEP_W = np.array([-2, -1, -1, -1, -1, 0, 0, 0, 1, 1, 1, 1, 2], dtype=np.int64)
END_STEP_1 = np.array([-1, -2, -1, 0, 1, -1, 0, 1, -1, 0, 1, 2, 1], dtype=np.int64)
#: The six neighbour directions of ``geometry.DIRECTIONS`` in bits: ``W``, ``W+1``,
#: ``1``, ``-W``, ``-W-1``, ``-1``.
NEIGHBOUR_STEP_W = np.array([1, 1, 0, -1, -1, 0], dtype=np.int64)
NEIGHBOUR_STEP_1 = np.array([0, 1, 1, 0, -1, -1], dtype=np.int64)
#: Where ``list_moves`` keeps, in its scratch ``work`` (``tables.SCRATCH_ROWS`` rows),
#: the tokens with an end of each end set (in ``END_ORDER``) and the flippable enemy
#: groups; and in ``group_of_bit`` (``tables.GROUP_SLOTS``) each group's target cell,
#: after one slot per bit of the layout.
TOKEN_ROWS = 16
GROUP_ROWS = 32
TARGET_SLOTS = 64 * SHIFT_WORDS


@njit(cache=True)
def list_moves(size, own, enemy, moves, flips, work, group_of_bit, least_flip):
    """Every distinct legal move of ``own`` (to move): move codes to ``moves[:n]`` in
    the module's order, each flipped group, as a set, to ``flips[:n]`` (its first words;
    zero for a placement). Returns n (0 when the game is over). With ``least_flip`` > 0,
    only the swipes flipping that many tokens or more, in the same order, and no
    placement (the quiescence's moves).

    Each enemy group next to an end is filled once (kept, if large enough, in ``work``
    from row ``GROUP_ROWS``, its target cell in ``group_of_bit`` at ``TARGET_SLOTS`` +
    its number; its number, or -1, at each of its bits)."""
    if eliminated(own, enemy):
        return np.int64(0)
    w = U64(2 * size - 1)
    n = np.int64(0)
    placements, t1, landing, grouped = frame(w, s_interior(size, own), own, enemy)
    reached = swipe_ends(w, own, enemy, t1, landing, grouped, work)
    if s_any(reached):
        seeds = flippable(w, enemy, reached)
        kept = s_zero(own)  # the cells next to a kept group
        g = 0
        while s_any(seeds):
            group, near, seeds = next_group(enemy, seeds, w)
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
                group, _, rest = next_group(own, rest, w)
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
                            if not s_has(enemy, e):
                                continue
                            gid = np.int64(group_of_bit[e])
                            if gid < 0 or gid == first or gid == second:
                                continue
                            if first < 0:
                                first = gid
                            else:
                                second = gid
                            moves[n] = encode_swipe(
                                from_cell, to_cell, group_of_bit[TARGET_SLOTS + gid]
                            )
                            s_store(flips, n, s_row(work, GROUP_ROWS + gid, own))
                            n += 1
    if least_flip > 0:
        return n
    cells = placements
    zero = s_zero(own)
    while s_any(cells):
        moves[n] = encode_placement(CELL_OF_BIT[size, s_lowest_index(cells)])
        s_store(flips, n, zero)
        cells = s_andnot(cells, s_lowest(cells))
        n += 1
    return n


@njit(cache=True, inline="always")
def play_move(size, own, enemy, move, flipped):
    """``(their tokens, our tokens)`` after ``move`` by ``own``, flipping the set
    ``flipped`` (empty for a placement)."""
    to = s_bit(BIT_OF_CELL[size, move_to(move)], own)
    if not is_swipe(move):
        return enemy, s_or(own, to)
    mover = s_or(s_andnot(own, s_bit(BIT_OF_CELL[size, move_from(move)], own)), to)
    return s_xor(enemy, flipped), s_or(mover, flipped)


@njit(cache=True)
def flipped_group(size, own, enemy, move):
    """The enemy group ``move`` flips (found from its target cell); empty for a placement."""
    if not is_swipe(move):
        return s_zero(own)
    target = s_bit(BIT_OF_CELL[size, move_target(move)], own)
    return grow_group(enemy, target, U64(2 * size - 1))[0]


@njit(cache=True)
def child_key(size, colour, key, move, flipped):
    """The Zobrist key after ``move`` by ``colour`` (0 green, 1 blue) flipping the set
    ``flipped``: the side to move's key, the from and to cells, and each flipped token
    changing colour (``tables.FLIP_KEYS``)."""
    key ^= ZOBRIST[size, 2, 0]
    key ^= ZOBRIST[size, colour, move_to(move)]
    if is_swipe(move):
        key ^= ZOBRIST[size, colour, move_from(move)]
        rest = flipped
        while s_any(rest):
            key ^= FLIP_KEYS[size, s_lowest_index(rest)]
            rest = s_andnot(rest, s_lowest(rest))
    return key


@njit(cache=True)
def position_key(size, green, blue, blue_to_move):
    """The Zobrist key of a position (sets of any word count): one key per token, and
    one for Blue to move."""
    key = ZOBRIST[size, 2, 0] if blue_to_move else U64(0)
    for colour in range(2):
        rest = green if colour == 0 else blue
        while s_any(rest):
            key ^= ZOBRIST[size, colour, CELL_OF_BIT[size, s_lowest_index(rest)]]
            rest = s_andnot(rest, s_lowest(rest))
    return key


@njit(cache=True)
def moves_in(size, own_bits, enemy_bits, moves, flips, work, group_of_bit, like):
    """``list_moves`` of the bitboards ``own_bits``, ``enemy_bits`` (``geometry.py``'s
    cells) in the shift layout of ``like``'s words."""
    own, enemy = shift_sets(size, own_bits, enemy_bits, like)
    return list_moves(size, own, enemy, moves, flips, work, group_of_bit, 0)


def legal_moves(size, own_bits, enemy_bits, moves, flips, work, group_of_bit):
    """The legal moves of a position given as bitboards (``Board``'s words): codes to
    ``moves``, flipped groups (shift-layout sets, ``SHIFT_WORDS_OF[size]`` words) to the
    rows of ``flips``. Returns their number (0: the game is over). Compiles for side
    ``size``'s word count only."""
    return moves_in(size, own_bits, enemy_bits, moves, flips, work, group_of_bit, set_like(size))


@njit(cache=True)
def labels_in(size, bits, labels, like):
    """``group_labels`` in the shift layout of ``like``'s words."""
    w = U64(2 * size - 1)
    stones = to_shift_words(size, bits, like)
    g = 0
    while s_any(stones):
        group, _, stones = next_group(stones, stones, w)
        while s_any(group):
            labels[CELL_OF_BIT[size, s_lowest_index(group)]] = g
            group = s_andnot(group, s_lowest(group))
        g += 1
    return g


def group_labels(size, bits, labels):
    """The groups of the tokens of the bitboard ``bits``: ``labels[cell]`` is its group's
    number, from 0 in the order of the groups' lowest cells (untouched where there is no
    token). Returns the number of groups. The flood fill of the move generator
    (``sets.grow_group``), a ring of cells a round."""
    return labels_in(size, bits, labels, set_like(size))


@njit(cache=True)
def key_in(size, green_bits, blue_bits, blue_to_move, like):
    green, blue = shift_sets(size, green_bits, blue_bits, like)
    return position_key(size, green, blue, blue_to_move)


def zobrist_hash(size, green_bits, blue_bits, blue_to_move):
    """The Zobrist key of a position given as bitboards (``Board``'s words)."""
    return key_in(size, green_bits, blue_bits, blue_to_move, set_like(size))


@njit(cache=True)
def bitboard_flips(size, moves, sets, n, out):
    """The flipped groups of a move list (``sets``: rows of shift-layout sets, as
    ``list_moves`` writes them) as bitboards of cell indices (``geometry.py``), to the
    rows ``out[:n]`` (zero for a placement): the face ``Board.legal_flips`` shows."""
    for i in range(n):
        for k in range(out.shape[1]):
            out[i, k] = U64(0)
        if not is_swipe(moves[i]):
            continue
        for w in range(SHIFT_WORDS_OF[size]):
            word = sets[i, w]
            while word:
                cell = CELL_OF_BIT[size, 64 * w + np.int64(lowest_bit_index64(word))]
                word &= word - U64(1)
                out[i, cell >> 6] |= U64(1) << U64(cell & 63)


__all__ = [
    "bitboard_flips",
    "child_key",
    "flipped_group",
    "group_labels",
    "legal_moves",
    "list_moves",
    "play_move",
    "position_key",
    "set_like",
    "words",
    "zobrist_hash",
]
