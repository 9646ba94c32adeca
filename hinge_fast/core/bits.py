"""The word intrinsics of the numba kernels: LLVM's bit counts on one uint64 word,
which the sets of ``sets.py`` build on."""

from llvmlite import ir
from numba import types
from numba.core.extending import intrinsic


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
