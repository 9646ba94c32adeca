"""Low-level helpers of the alpha-beta kernels: LLVM intrinsics numba lacks, views that
numba does not reference-count, and memory written once before a timed search.

* **Clock**: numba has no ``time`` in nopython mode, so ``monotonic_ns`` is an LLVM
  intrinsic that calls libc's ``clock_gettime(CLOCK_MONOTONIC)`` (the clock of Python's
  ``time.monotonic_ns``). It names the C symbol, not an address, so the kernels stay
  cacheable (``cache=True``; a ctypes function pointer would be baked into the code as
  an address and could not be cached). It costs about 35 ns.
* **Prefetch**: ``prefetch`` asks the processor for a cache line ahead of use (LLVM's
  ``llvm.prefetch``).
* **Unowned views**: ``unowned`` makes a view of an array from its address
  (``numba.carray`` of ``void_pointer``), without a meminfo: passing it to a call costs
  no atomic reference-count update.

    >>> import time
    >>> abs(clock_ns() - time.monotonic_ns()) < 1_000_000_000
    True
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import carray, types
from numba.core import cgutils
from numba.core.extending import intrinsic

from ..core.jit import njit


@intrinsic
def monotonic_ns(typingctx):
    """Nanoseconds of ``CLOCK_MONOTONIC`` (libc ``clock_gettime``; the clock of
    ``time.monotonic_ns``), callable in nopython mode and cacheable."""
    sig = types.int64()

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        i32 = ir.IntType(32)
        timespec = ir.LiteralStructType([i64, i64])
        fnty = ir.FunctionType(i32, [i32, timespec.as_pointer()])
        clock_gettime = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        ts = cgutils.alloca_once(builder, timespec)
        builder.call(clock_gettime, [ir.Constant(i32, 1), ts])  # 1 = CLOCK_MONOTONIC on Linux
        seconds = builder.load(cgutils.gep_inbounds(builder, ts, 0, 0))
        nanoseconds = builder.load(cgutils.gep_inbounds(builder, ts, 0, 1))
        return builder.add(builder.mul(seconds, ir.Constant(i64, 1_000_000_000)), nanoseconds)

    return sig, codegen


@njit(cache=True, nogil=True)
def clock_ns():
    """``monotonic_ns`` as a plain kernel (for tests: compare with time.monotonic_ns)."""
    return monotonic_ns()


@intrinsic
def prefetch(typingctx, address):
    """Ask the processor to load the cache line at ``address`` (an integer) ahead of
    use (LLVM's ``llvm.prefetch``: a read, high locality); no effect on results."""
    sig = types.void(address)

    def codegen(context, builder, signature, args):
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [cgutils.voidptr_t, i32, i32, i32])
        fn = builder.module.declare_intrinsic("llvm.prefetch", [cgutils.voidptr_t], fnty)
        ptr = builder.inttoptr(args[0], cgutils.voidptr_t)
        builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def void_pointer(typingctx, address):
    """The address (an integer) as a ``void*``, for ``numba.carray``."""
    sig = types.voidptr(address)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return sig, codegen


@njit(cache=True, inline="always")
def unowned(a):
    """A view of ``a`` that numba does not reference-count (no meminfo): passing it to a
    call costs no atomic increment and decrement. The caller keeps ``a`` alive."""
    return carray(void_pointer(a.ctypes.data), a.shape, a.dtype)


def touched(array: np.ndarray) -> np.ndarray:
    """``array`` with every page written once: np.zeros maps memory lazily, and the
    first touch of each page (a 2 MB huge page on many systems) would otherwise be
    paid inside the first timed search, tens of milliseconds for the table."""
    array.fill(0)
    return array
