"""The steps of alpha-beta's ``negamax`` that depend on the layout of a node's sides.

``negamax`` is written once for two layouts: bitboards (four words, ``core/bits.py``;
every side) and the shift layout (two words, ``core/shiftcount.py``; sides 4 to
``SHIFT_MAX_SIZE``). Each step here that depends on the layout (listing the moves,
playing one, the child's Zobrist key, a move's flipped group, the leaf evaluation,
whether to prefetch a move ahead) has a version per layout (``_bitboard_...``,
``_shift_...``: plain functions of the step's arguments), a stub that runs the right one
from the interpreter, and an ``overload`` that hands numba the one for the type of the
set it is given, as shiftcount.py's primitives do. So numba compiles ``negamax`` once
per layout, chosen by the type of ``own``, each version cached as a signature of the one
kernel. Counting a set (``s_count``) works for any number of words already.

The shift layout lists its moves (``shiftperft.list_moves_shift``) with the codes and
in the order of ``generate_moves``, and ``shift_child_hash`` gives the same Zobrist keys
as ``child_hash``, so ordering ties fall the same way in both layouts.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit, types
from numba.core.extending import overload

from ..core.bits import bb_any, bb_lowest, bb_row, bb_without
from ..core.geometry import NWORDS
from ..core.movegen import generate_moves, is_swipe, move_from, move_to, play_with_flip
from ..core.shiftcount import s_andnot, s_any, s_lowest, s_lowest_index, s_or, s_xor
from ..core.shiftperft import BIT_OF_CELL, FLIP_KEYS, bit_set, list_moves_shift
from ..core.tables import SHIFT_INTERIOR, ZOBRIST
from .evaluate import leaf_evaluation, shift_leaf_evaluation

U64 = np.uint64

BITBOARD = "bitboard"
SHIFT = "shift"


def _layout(a):
    """The layout of a set by its numba type: ``SHIFT`` (two words), ``BITBOARD``
    (``NWORDS`` words), or None."""
    if isinstance(a, types.UniTuple) and isinstance(a.dtype, types.Integer):
        if a.count == 2:
            return SHIFT
        if a.count == NWORDS:
            return BITBOARD
    return None


def _by_layout(a, bitboard, shift):
    """``bitboard`` or ``shift`` (versions of a step: plain functions with the stub's
    arguments) for the layout of the set ``a``: its numba type when an overload picks
    one (None if neither), or the set itself when the stub runs in the interpreter."""
    if isinstance(a, types.Type):
        return {BITBOARD: bitboard, SHIFT: shift}.get(_layout(a))
    return shift if len(a) == 2 else bitboard


@njit(cache=True)
def child_hash(size, colour, key, move, flipped):
    """Zobrist hash after ``move`` by ``colour``: side key, from and to cells, and each
    flipped token changing colour (``key_green ^ key_blue`` per cell)."""
    key ^= ZOBRIST[size, 2, 0]
    key ^= ZOBRIST[size, colour, move_to(move)]
    if is_swipe(move):
        key ^= ZOBRIST[size, colour, move_from(move)]
        rest = flipped
        while bb_any(rest):
            c = bb_lowest(rest)
            rest = bb_without(rest, c)
            key ^= ZOBRIST[size, 0, c] ^ ZOBRIST[size, 1, c]
    return key


@njit(cache=True)
def list_moves(size, own, enemy, moves, flips, enemy_groups, group_id):
    """``generate_moves`` with the moves stored (one compiled copy for negamax's leaves)."""
    return generate_moves(size, own, enemy, moves, flips, enemy_groups, group_id, True)


@njit(cache=True)
def shift_child_hash(size, colour, key, move, flipped):
    """``child_hash`` with the flipped group a two-word shift set: each flipped token's
    change of colour from ``shiftperft.FLIP_KEYS`` (the same keys, by shift bit)."""
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
def shift_play(size, own, enemy, move, flipped):
    """``play_with_flip`` on two-word shift sets: ``(their tokens, our tokens)``."""
    to = bit_set(BIT_OF_CELL[size, move_to(move)])
    if not is_swipe(move):
        return enemy, s_or(own, to)
    mover = s_or(s_andnot(own, bit_set(BIT_OF_CELL[size, move_from(move)])), to)
    return s_xor(enemy, flipped), s_or(mover, flipped)


@njit(cache=True, inline='always')
def flips_row(flips, i):
    """The flipped group of move ``i`` of a shift-layout move list (columns 0 and 1)."""
    return (flips[i, 0], flips[i, 1])


def _bitboard_row(flips, i, like):
    return bb_row(flips, i)


def _shift_row(flips, i, like):
    return flips_row(flips, i)


def move_row(flips, i, like):
    """The group flipped by move ``i`` of a node's list (``buf.flips[ply]``), as a set of
    ``like``'s layout: a bitboard (the row's four words) or a shift set (columns 0
    and 1, where ``node_moves`` lists them)."""
    return _by_layout(like, _bitboard_row, _shift_row)(flips, i, like)


@overload(move_row, inline='always')
def _move_row(flips, i, like):
    return _by_layout(like, _bitboard_row, _shift_row)


def _bitboard_play(size, own, enemy, move, flipped):
    return play_with_flip(own, enemy, move, flipped)


def _shift_play(size, own, enemy, move, flipped):
    return shift_play(size, own, enemy, move, flipped)


def play_move(size, own, enemy, move, flipped):
    """``(their tokens, our tokens)`` after ``move`` (flipping ``flipped``), in the
    layout of ``own``: ``movegen.play_with_flip`` or ``shift_play``."""
    return _by_layout(own, _bitboard_play, _shift_play)(size, own, enemy, move, flipped)


@overload(play_move, inline='always')
def _play_move(size, own, enemy, move, flipped):
    return _by_layout(own, _bitboard_play, _shift_play)


def _bitboard_key(size, colour, key, move, flipped):
    return child_hash(size, colour, key, move, flipped)


def _shift_key(size, colour, key, move, flipped):
    return shift_child_hash(size, colour, key, move, flipped)


def child_key(size, colour, key, move, flipped):
    """The Zobrist key after ``move``, the flipped group in either layout: ``child_hash``
    or ``shift_child_hash`` (the same keys)."""
    return _by_layout(flipped, _bitboard_key, _shift_key)(size, colour, key, move, flipped)


@overload(child_key, inline='always')
def _child_key(size, colour, key, move, flipped):
    return _by_layout(flipped, _bitboard_key, _shift_key)


def _bitboard_moves(size, own, enemy, moves, flips, buf, least_flip):
    return list_moves(size, own, enemy, moves, flips, buf.enemy_groups, buf.group_id)


def _shift_moves(size, own, enemy, moves, flips, buf, least_flip):
    return list_moves_shift(size, U64(2 * size - 1), (SHIFT_INTERIOR[size, 0], SHIFT_INTERIOR[size, 1]), own, enemy,
                            moves, flips, buf.enemy_groups, buf.group_id, least_flip)


def node_moves(size, own, enemy, moves, flips, buf, least_flip):
    """List the legal moves of ``own`` (to move) into ``moves``/``flips`` (the node's
    rows of ``buf``) in ``generate_moves``' order and return their number (0: the game
    is over). Bitboards: every move (``list_moves``). Shift layout
    (``shiftperft.list_moves_shift``, the flipped groups in columns 0 and 1): every move,
    or with ``least_flip`` > 0 only the swipes flipping that many tokens or more; the
    search keeps only those in either layout."""
    return _by_layout(own, _bitboard_moves, _shift_moves)(size, own, enemy, moves, flips, buf, least_flip)


@overload(node_moves)
def _node_moves(size, own, enemy, moves, flips, buf, least_flip):
    return _by_layout(own, _bitboard_moves, _shift_moves)


def _bitboard_leaf(kind, size, own, enemy, moves, flips, buf, ply):
    return leaf_evaluation(kind, size, own, enemy, moves, flips, buf.moves[ply + 1], buf.flips[ply + 1],
                           buf.enemy_groups, buf.group_id, buf.weights, False)


def _shift_leaf(kind, size, own, enemy, moves, flips, buf, ply):
    return shift_leaf_evaluation(kind, size, U64(2 * size - 1), (SHIFT_INTERIOR[size, 0], SHIFT_INTERIOR[size, 1]),
                                 own, enemy, moves, flips, buf.enemy_groups, buf.group_id, buf.weights)


def leaf_score(kind, size, own, enemy, moves, flips, buf, ply):
    """``(score, n, flip)`` of the evaluation ``kind`` (an Evaluator's ``kernel_id``):
    ``evaluate.leaf_evaluation`` on bitboards (sides above ``SHIFT_MAX_SIZE``: its
    terms from the move lists) or ``evaluate.shift_leaf_evaluation`` in the shift
    layout. The moves it lists go to ``moves``/``flips`` (the node's rows of ``buf``),
    ``n`` is -1 when it lists none."""
    return _by_layout(own, _bitboard_leaf, _shift_leaf)(kind, size, own, enemy, moves, flips, buf, ply)


@overload(leaf_score)
def _leaf_score(kind, size, own, enemy, moves, flips, buf, ply):
    return _by_layout(own, _bitboard_leaf, _shift_leaf)


def prefetches_ahead(like) -> bool:
    """Whether the move loop, with the table on, works out the next move's child key
    and prefetches its bucket a move ahead: in the shift layout (measured faster), not
    on bitboards (not measured there)."""
    return _by_layout(like, False, True)


@overload(prefetches_ahead, inline='always')
def _prefetches_ahead(like):
    return _by_layout(like, lambda like: False, lambda like: True)


from ..core import kernels  # noqa: E402  (after the kernels above: registers them for stale-cache checks)

kernels.register_kernel_module(sys.modules[__name__])
