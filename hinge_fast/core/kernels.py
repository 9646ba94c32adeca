"""The one door to the numba kernels: import this, never the kernel modules directly,
from code that may run on a cold cache.

On import it

* prints ``hinge-fast: compiling ..., first run only`` on stderr the first time numba
  really compiles something (loading from the on-disk cache compiles nothing); the
  command line then compiles every other kernel too before it exits
  (``hinge_fast.cli.compile_the_rest``), so that the notice is true;
* checks that the cached kernels were built from today's sources and tables. Numba
  watches only each kernel's own source file: a kernel that calls a changed kernel of
  another file, or reads a changed global table, would otherwise stay stale in the
  cache. So every kernel source file and table goes into one digest, compiled into
  ``compiled_digest``; when it differs from today's, every kernel cache is dropped.

Numba's cache lives in ``hinge_fast.core.kernel_cache_dir()`` (``NUMBA_CACHE_DIR``,
set by ``hinge_fast.core`` to a per-user folder when it is not set), never inside
the installed package.
"""

import hashlib
import sys
import time
from pathlib import Path

import numpy as np

import numba
from numba import njit
from numba.core import event

from . import bits, codes, moves, perft, playouts, sets, swipes
from .codes import encode_placement, encode_swipe, is_swipe, move_from, move_target, move_to  # noqa: F401
from .moves import bitboard_flips, flipped_group, legal_moves, words, zobrist_hash  # noqa: F401
from .perft import perft as perft_kernel  # noqa: F401
from .perft import make_unmake_loop, perft_children  # noqa: F401
from .playouts import first_move_counts, moves_count, random_games, game_trace  # noqa: F401
from .swipes import uniform_moves  # noqa: F401
from .tables import TABLES_DIGEST


def _source_digest() -> np.uint64:
    """Digest of the tables and of every source file of the package holding a kernel."""
    h = hashlib.blake2b(str(int(TABLES_DIGEST)).encode(), digest_size=8)
    root = Path(__file__).resolve().parent.parent  # the whole package: search/ holds kernels too
    for path in sorted(root.rglob("*.py")):
        text = path.read_bytes()
        if b"@njit" in text or path.parent.name == "core":  # core: movecode.py is compiled by codes.py
            h.update(path.relative_to(root).as_posix().encode() + b"\0" + text)
    return np.uint64(int.from_bytes(h.digest(), "little"))


BUILD_DIGEST = _source_digest()


class _CompileNotice(event.Listener):
    """Says once, before the first real compilation, why this run is slow."""

    def __init__(self):
        self.said = False
        self.started = None

    def on_start(self, ev):
        if not self.said:
            self.said = True
            self.started = time.perf_counter()
            print(
                "hinge-fast: compiling the numba kernels, first run only: all of them, once "
                "(a few minutes); later runs load them from the cache",
                file=sys.stderr,
                flush=True,
            )

    def on_end(self, ev):
        pass


COMPILE_NOTICE = _CompileNotice()
event.register("numba:compile", COMPILE_NOTICE)


@njit(cache=True)
def compiled_digest():
    return BUILD_DIGEST


#: The cached kernels were compiled from other sources or tables: recompile them.
STALE_CACHE = compiled_digest() != BUILD_DIGEST
if STALE_CACHE:
    compiled_digest._cache.flush()
    compiled_digest.recompile()


def register_kernel_module(module):
    """Declare a module of ``@njit(cache=True)`` kernels that read the global tables,
    so that a stale on-disk cache of it is dropped. Call at the module's end."""
    if not STALE_CACHE:
        return
    for value in vars(module).values():
        if isinstance(value, numba.core.registry.CPUDispatcher):
            try:
                value._cache.flush()
            except OSError:
                pass  # a cache we cannot write is one numba will not load from either


for _module in (bits, codes, moves, perft, playouts, sets, swipes):
    register_kernel_module(_module)
