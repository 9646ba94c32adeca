"""Bitboard primitives for the numba kernels.

A bitboard is a tuple of four uint64 words (the layout is documented in
``geometry.py``): value types that live in registers, so the kernels never allocate
for a set operation. Every function here is ``@njit(cache=True)`` and small enough
for LLVM to inline.
"""

from llvmlite import ir
from numba import njit, types
from numba.core.extending import intrinsic
import numpy as np

U64 = np.uint64
ONE = np.uint64(1)
EMPTY = (np.uint64(0), np.uint64(0), np.uint64(0), np.uint64(0))


@intrinsic
def popcount64(typingctx, word):
    """Number of set bits of a uint64 (LLVM ``ctpop``)."""
    if not isinstance(word, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return word(word), codegen


@intrinsic
def lowest_bit_index64(typingctx, word):
    """Index of the lowest set bit of a non-zero uint64 (LLVM ``cttz``)."""
    if not isinstance(word, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return word(word), codegen


@intrinsic
def highest_bit_index64(typingctx, word):
    """Index of the highest set bit of a non-zero uint64 (63 minus LLVM ``ctlz``)."""
    if not isinstance(word, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        zeros = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(zeros.type, 63), zeros)

    return word(word), codegen


@njit(cache=True)
def bb_and(a, b):
    return (a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3])


@njit(cache=True)
def bb_or(a, b):
    return (a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3])


@njit(cache=True)
def bb_xor(a, b):
    return (a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3])


@njit(cache=True)
def bb_andnot(a, b):
    """``a & ~b``."""
    return (a[0] & ~b[0], a[1] & ~b[1], a[2] & ~b[2], a[3] & ~b[3])


@njit(cache=True)
def bb_any(a):
    return (a[0] | a[1] | a[2] | a[3]) != 0


@njit(cache=True)
def bb_count(a):
    return np.int64(popcount64(a[0]) + popcount64(a[1]) + popcount64(a[2]) + popcount64(a[3]))


@njit(cache=True)
def bb_lowest(a):
    """Index of the lowest set bit of a non-empty bitboard."""
    if a[0]:
        return np.int64(lowest_bit_index64(a[0]))
    if a[1]:
        return np.int64(64 + lowest_bit_index64(a[1]))
    if a[2]:
        return np.int64(128 + lowest_bit_index64(a[2]))
    return np.int64(192 + lowest_bit_index64(a[3]))


@njit(cache=True)
def bb_bit(cell):
    """The bitboard with only ``cell`` set."""
    word = cell >> 6
    bit = ONE << U64(cell & 63)
    z = U64(0)
    return (bit if word == 0 else z, bit if word == 1 else z, bit if word == 2 else z, bit if word == 3 else z)


@njit(cache=True)
def bb_has(a, cell):
    """Whether ``cell`` is set in ``a``."""
    # Selects, not ``a[cell >> 6]``: numba lowers a tuple index known only at run
    # time to a branchy switch, several times slower on unpredictable cells.
    w = cell >> 6
    word = a[0] if w == 0 else (a[1] if w == 1 else (a[2] if w == 2 else a[3]))
    return (word >> U64(cell & 63)) & ONE != 0


@njit(cache=True)
def bb_without(a, cell):
    """``a`` with ``cell`` cleared."""
    return bb_andnot(a, bb_bit(cell))


@njit(cache=True, inline='always')
def bb_row(array, i):
    """Row ``i`` of a uint64 ``[n, 4]`` array as a bitboard."""
    return (array[i, 0], array[i, 1], array[i, 2], array[i, 3])


@njit(cache=True, inline='always')
def bb_store(array, i, a):
    """Write bitboard ``a`` into row ``i`` of a uint64 ``[n, 4]`` array."""
    array[i, 0] = a[0]
    array[i, 1] = a[1]
    array[i, 2] = a[2]
    array[i, 3] = a[3]


@njit(cache=True)
def bb_from_array(array):
    """A uint64 ``[4]`` array as a bitboard."""
    return (array[0], array[1], array[2], array[3])


@njit(cache=True, inline='always')
def bb_pop(a):
    """``(lowest cell, a without it)`` of a non-empty bitboard: one test per word and
    the cleared word, where ``bb_lowest`` then ``bb_without`` also build the bit."""
    if a[0]:
        return np.int64(lowest_bit_index64(a[0])), (a[0] & (a[0] - ONE), a[1], a[2], a[3])
    if a[1]:
        return np.int64(64 + lowest_bit_index64(a[1])), (a[0], a[1] & (a[1] - ONE), a[2], a[3])
    if a[2]:
        return np.int64(128 + lowest_bit_index64(a[2])), (a[0], a[1], a[2] & (a[2] - ONE), a[3])
    return np.int64(192 + lowest_bit_index64(a[3])), (a[0], a[1], a[2], a[3] & (a[3] - ONE))
