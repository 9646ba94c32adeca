"""The one door to the numba kernels: import this, never the kernel modules directly,
from code that may run on a cold cache.

A command compiles only the kernels it runs, for the board side it runs on: each entry
point below takes the side and picks the compiled version of that side's word count
(``sets.set_like``), so nothing of the other sides is compiled. Numba caches each
compiled kernel on disk (``jit.kernel_cache_dir()``); the next run loads it.

On import this registers ``COMPILE_NOTICE``, which says on stderr, before numba first
really compiles something in this process (loading from the cache compiles nothing),
what it compiles and about how long it takes, and on a terminal shows the kernels
compiled so far; it also removes from the cache the kernels of earlier builds of this
install (``jit.prune_stale_kernels``), which numba would keep forever. ``hinge-fast
warmup`` compiles everything ahead, on every core.
"""

from __future__ import annotations

import sys

from numba.core import event

from .codes import encode_placement, encode_swipe, is_swipe, move_from, move_target, move_to  # noqa: F401
from .jit import kernel_cache_dir, prune_stale_kernels  # noqa: F401
from .moves import bitboard_flips, flipped_group, group_labels, legal_moves, words, zobrist_hash  # noqa: F401
from .perft import make_unmake_loop, perft_children  # noqa: F401
from .perft import perft as perft_kernel  # noqa: F401
from .playouts import first_move_counts, game_trace, moves_count, random_games  # noqa: F401
from .swipes import uniform_moves  # noqa: F401
from .tables import SHIFT_WORDS_OF

#: The board sides of each word count of the shift layout.
SIDES_OF_WORDS = {
    n: [s for s in range(len(SHIFT_WORDS_OF)) if SHIFT_WORDS_OF[s] == n]
    for n in sorted(set(int(x) for x in SHIFT_WORDS_OF if x))
}
#: About the most seconds one command compiles for one side on a 2-core machine (a
#: search and the move generator it calls: ``scripts/first_move.py``, docs/performance.md).
SEARCH_COMPILE_SECONDS = 25


def sides_text(word_count: int) -> str:
    """``'side 4'``, ``'sides 5 and 6'``: the sides whose sets have ``word_count`` words."""
    return sides_listed(SIDES_OF_WORDS.get(word_count, []))


def sides_listed(sides: list[int]) -> str:
    """``'side 4'``, ``'sides 4, 5 and 6'``."""
    if len(sides) == 1:
        return f"side {sides[0]}"
    return "sides " + ", ".join(map(str, sides[:-1])) + f" and {sides[-1]}"


def _words_of(args) -> int | None:
    """The word count of the last set (a tuple of 64-bit words: an entry kernel's
    ``like``) among a kernel's argument types, or None."""
    for a in reversed(tuple(args)):
        count = getattr(a, "count", None)
        dtype = getattr(a, "dtype", None)
        if (
            count is not None
            and getattr(dtype, "bitwidth", 0) == 64
            and type(a).__name__ == "UniTuple"
        ):
            return int(count)
    return None


class CompileNotice(event.Listener):
    """Says once a process, before numba's first real compilation, what is compiled
    and about how long it takes; on a terminal, a progress line counts the kernels
    compiled (cleared when the compiling ends). ``compiled`` counts every kernel
    version this process compiled (the tests read it: after ``warmup``, 0)."""

    def __init__(self):
        self.said = False
        self.compiled = 0
        self.names: list[str] = []
        self._depth = 0
        self._bar = None

    def on_start(self, ev):
        self._depth += 1
        if not self.said:
            self.said = True
            prune_stale_kernels()  # a new build compiles: its predecessors' kernels go
            words = _words_of(ev.data.get("args", ()))
            where = f" for {sides_text(words)}" if words else ""
            print(
                f"hinge-fast: compiling the kernels this command runs{where}, once (up to "
                f"{SEARCH_COMPILE_SECONDS} s; 'hinge-fast warmup' compiles them all ahead)",
                file=sys.stderr,
                flush=True,
            )
        if self._bar is None and sys.stderr.isatty():
            from tqdm import tqdm

            self._bar = tqdm(
                desc="hinge-fast: compiling", unit=" kernels", leave=False, file=sys.stderr
            )

    def on_end(self, ev):
        self._depth -= 1
        self.compiled += 1
        dispatcher = ev.data.get("dispatcher")
        name = getattr(getattr(dispatcher, "py_func", None), "__qualname__", "?")
        self.names.append(name)
        if self._bar is not None:
            self._bar.set_postfix_str(name, refresh=False)
            self._bar.update(1)
            if self._depth == 0:
                self._bar.close()
                self._bar = None


COMPILE_NOTICE = CompileNotice()
event.register("numba:compile", COMPILE_NOTICE)
