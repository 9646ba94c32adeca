"""Alpha-beta search: negamax with iterative deepening, a transposition table and
move ordering, the whole tree in numba.

    >>> from hinge_fast import Board
    >>> from hinge_fast.search import Limits
    >>> from hinge_fast.search.alphabeta import AlphaBetaSearcher
    >>> result = AlphaBetaSearcher().go(Board(), Limits(depth=2))
    >>> result.depth, result.move in Board().legal_moves
    (2, True)

How it works
------------
* **Iterative deepening** is driven from Python: one call of the numba kernel
  ``negamax`` at the root per depth, so ``progress`` can be called between depths. Depth 1
  always completes, whatever the limits, so a search always returns a legal move.
* **Negamax with principal variation search** (a null window after the first move,
  re-searched when it fails high). No pruning or reduction depends on move order, so
  the score of a fixed-depth search is exactly the depth-limited minimax value with or
  without the table (see the transposition table below).
* **Quiescence** (option ``quiescence`` = k > 0): at depth 0 the evaluation is a
  stand-pat score and, below beta, the swipes that flip k tokens or more (the moves
  the evaluation has just generated) are searched on, largest flip first, at most
  ``quiescence_plies`` plies past the depth. Below depth 0 nothing is stored in the
  table and no killer or history is updated; depth-0 results are stored with their
  true bound, so fixed-depth scores stay the same with and without the table.
* **Time use** (option ``full_time``, off by default): under a time limit a new
  depth is started whenever time is left (``starts_next_depth``), not only while it can
  finish, since an unfinished depth searches the previous best move first.
* **Scores** are centi-tokens from the side to move (``evaluate.py``). A position
  whose side to move has no legal move (eliminated or stuck) is lost: ``-(WIN -
  ply)``, so the search prefers the fastest win and the slowest loss. A swipe that
  flips the last enemy group is taken on sight (``WIN - ply - 1``). A position that
  already occurred on the current line (game history since the last placement
  included: a placement adds a token for good, so nothing before it can recur) is
  scored 0.
* **Clock**: numba has no ``time`` in nopython mode, so ``monotonic_ns`` below is an
  LLVM intrinsic that calls libc's ``clock_gettime(CLOCK_MONOTONIC)`` (the clock of
  Python's ``time.monotonic_ns``). It names the C symbol, not an address, so the
  kernels stay cacheable (``cache=True``; a ctypes function pointer would be baked
  into the code as an address and could not be cached). It costs about 35 ns and is
  read every 256 nodes, so the search stops within a millisecond or so of its
  deadline. The node limit is checked at every node.
* **Ctrl-C and stop**: each depth runs in a worker thread (the kernels release the
  GIL); the calling thread waits on an Event, and on KeyboardInterrupt (or once
  ``stop()`` was called from any thread) sets the deadline to zero, so the search
  stops within 256 nodes and returns the best move found so far.
* **Time**: the budget covers the whole ``go`` call, from its first line (kernel
  loading, root set-up) to the returned result: the kernel's deadline is the call's
  start plus the time limit minus ``RESULT_RESERVE_NS``; the buffers and table are
  allocated at the searcher's first ``go``, inside its budget, and reused after; and
  no new depth starts that surely cannot finish (one costs at least
  ``MIN_DEPTH_GROWTH`` times the one before) or once ``SOFT_TIME_FRACTION`` is used.
* **One entry kernel**: the root is a branch of the recursive ``negamax`` rather than
  a kernel of its own, because numba's cache cannot load a cached kernel that calls a
  cached recursive kernel (the second run fails with "unresolved symbol" or crashes).
* **Transposition table**: two parallel arrays ``keys`` (the 64-bit Zobrist hash) and
  ``data`` (packed: move 27 bits, bound 2, depth 7, generation 8, score 20), entries
  in buckets of two. Slot 0 is *depth-preferred* (replaced by an entry as deep or
  deeper, by the same position, or when its entry is from an older search); slot 1
  is *always-replace*. Each search has its own generation number; entries of other
  generations are treated as empty, which makes a search's result independent of the
  searches before it (no clearing needed between moves; the table is cleared only
  when the 8-bit generation wraps). A stored score cuts the search off only when it
  was searched to exactly the depth needed, which keeps fixed-depth results
  identical to a search without the table (in Hinge a position cannot recur at two
  different depths of one tree except through swipes that undo each other, so
  ``>=`` would buy almost nothing). Win/loss scores are stored relative to the node
  (``score + ply``) and converted back on retrieval. ``table_mb=0`` disables it.
* **Move ordering**: the table's move, then swipes flipping groups of two or more
  tokens (largest first), then the two killer moves of the ply, then the rest by the
  history heuristic (a cut-off adds depth² to the move's from/to counter).
* **Principal variation** from a triangular PV table, checked legal move by move.
* **The shift layout**: on sides 4 to 6 ``shift_search_depth`` runs ``negamax`` with
  both sides kept as two-word sets of ``core/shiftcount.py``, more nodes a second than
  on bitboards. ``negamax`` is written once: the few steps that depend on the layout
  (listing moves: ``shiftperft.list_moves_shift`` with the codes and the order of
  ``generate_moves``; playing one; the Zobrist key, the same keys by
  ``shift_child_hash``; the leaf evaluation; each child's table bucket prefetched a
  move ahead) are small functions chosen by the numba type of the sets, so numba
  compiles one version per layout.
* **Threads (Lazy SMP)**: with ``threads`` = T > 1 (the default: every core), T - 1
  helper threads (``_LazySMP``) search the same root at once, each with its own buffers (killers, history, PV, about 30 MB each: ``new_buffers``) and
  sharing only the transposition table, which needs no lock: an entry is stored as
  ``keys[i] = key ^ data[i]`` and accepted only when ``keys[i] ^ data[i]`` is the
  key probed, so an entry torn by two threads writing at once is refused (Hyatt and
  Mann's XOR check). Helpers skip depths as Stockfish's do (``SKIP_SIZE``) and start
  from a rotated root order, so they fill the table ahead of and beside the main
  thread. The main thread's iterative deepening decides the move; a helper that
  completed a deeper iteration replaces its result. A node limit is shared out among
  the threads; ``nodes`` counts all of them. The PV is continued from the table
  (``_pv_from_table``). With one thread a search under a node or depth limit is
  deterministic; with more, node counts, the move among equal scores and the PV vary
  from run to run, while a fixed-depth score stays the depth-limited minimax value (the table cuts off only at
  the exact depth).
* **Root scores**: with ``root_scores=True`` every root move is searched with a full
  window, so ``root_moves`` holds an exact score for each move at the last completed
  depth (slower: for analysis). Otherwise only the best move's score is exact and the
  others' are None.
"""

from __future__ import annotations

import sys
import threading
import time as _time
from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import carray, njit, types
from numba.core import cgutils
from numba.core.extending import intrinsic, overload

from ..core.bits import bb_any, bb_lowest, bb_row, bb_without
from ..errors import HingeError
from ..core.geometry import NWORDS, geometry
from ..core.movegen import generate_moves, is_swipe, move_from, move_to, play_with_flip
from ..core.shiftcount import s_andnot, s_any, s_count, s_lowest, s_lowest_index, s_or, s_xor, to_shift_layout
from ..core.shiftperft import BIT_OF_CELL, FLIP_KEYS, bit_set, list_moves_shift
from ..core.tables import MAX_GROUPS, MAX_MOVES, SHIFT_INTERIOR, SHIFT_MAX_SIZE, ZOBRIST
from .evaluate import LOST, MATE_BOUND, WIN, WINNING, get_evaluator, leaf_evaluation, shift_leaf_evaluation
from .limits import DEFAULT_TIME, MAX_DEPTH, Limits
from .registry import (  # noqa: F401  (re-exported)
    DEFAULT_EVALUATOR, DEFAULT_FULL_TIME, DEFAULT_QUIESCENCE, DEFAULT_QUIESCENCE_PLIES, DEFAULT_TABLE_MB, DEFAULT_THREADS,
    EVALUATORS, FRESH_SEED, MAX_QUIESCENCE_PLIES, MIN_TABLE_MB,
)
from .result import RootMove, SearchResult
from .score import Score
from .searcher import Searcher

#: Scores lie strictly inside (-INFINITE, INFINITE).
INFINITE = WIN + 1
#: Plies of per-ply buffers: the deepest iteration, its quiescence, and the two rows a
#: leaf uses.
PLIES = MAX_DEPTH + MAX_QUIESCENCE_PLIES + 3
#: Room for an evaluator's weights in the buffers.
MAX_WEIGHTS = 64
#: Positions of the game before the root kept for repetition checks.
HISTORY_ROOM = 256
#: Nodes between two clock readings.
CLOCK_EVERY = 256
#: After a completed depth, do not start another once this fraction of the time is used
#: (the next depth would almost never finish in the rest).
SOFT_TIME_FRACTION = 0.5
#: The least factor by which one depth's time exceeds the one before it.
MIN_DEPTH_GROWTH = 2.0
#: Nanoseconds kept back from a time limit for building the result after the kernel
#: stops: this fraction of the limit, at most RESULT_RESERVE_NS.
RESULT_RESERVE_NS = 5_000_000
RESULT_RESERVE_FRACTION = 0.1
#: Time limits up to this are searched in the calling thread itself, as are all
#: searches called from threads other than the main one: handing each depth to a
#: worker thread (for Ctrl-C) costs a wake-up of another thread, up to milliseconds
#: on a loaded machine. ``stop()`` works either way (it sets the kernel's deadline);
#: Ctrl-C is then noticed when the depth ends, at most this long after.
INLINE_TIME_NS = 100_000_000
#: Most worker threads running kernels at once (main searches and Lazy SMP helpers of
#: every searcher of the process); idle ones are reused.
MAX_WORKERS = 1024
#: Search buffers and tables of dropped searchers kept for the next ones (at most this
#: many of each), so that a searcher made for one call does not allocate ~100 MB.
POOL_KEEP = 4

# Slots of the ``state`` array shared by Python and the kernels.
NODES = 0  # positions searched so far
NODE_LIMIT = 1  # stop when NODES reaches this
DEADLINE = 2  # stop when the monotonic clock (ns) reaches this; 0 = stop now (Ctrl-C)
ABORTED = 3  # set by the kernel when it stopped before finishing the depth
GENERATION = 4  # this search's table generation (1..255)
TABLE_ON = 5  # 1 when the transposition table is in use
HISTORY_LENGTH = 6  # game positions before the root in ``line``
CAN_ABORT = 7  # 0 during depth 1, which always completes
ROOT_COUNT = 8  # root moves in buf.moves[0]
ROOT_FULL_WINDOW = 9  # 1: search every root move with a full window (exact scores)
ROOT_BEST = 10  # index of the best root move finished
ROOT_DONE = 11  # root moves finished in this depth
EVALUATOR = 12  # kernel_id of the leaf evaluation (search/evaluate.py)
QUIESCENCE = 13  # quiescence: least flip (tokens) of a swipe searched past the depth; 0: none
QUIESCENCE_PLIES = 14  # most plies of quiescence
STATE_SLOTS = 15

# Transposition table bounds.
UPPER = 1
LOWER = 2
EXACT = 3

U64 = np.uint64


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


class SearchBuffers(NamedTuple):
    """Everything the search kernels write, preallocated once per searcher object."""

    moves: np.ndarray  # int64 [PLIES, MAX_MOVES]: move codes per ply
    flips: np.ndarray  # uint64 [PLIES, MAX_MOVES, 4]: group each move flips
    order: np.ndarray  # int64 [PLIES, MAX_MOVES]: ordering keys
    enemy_groups: np.ndarray  # uint64 [MAX_GROUPS, 4]: move generator scratch
    group_id: np.ndarray  # int16 [256]: move generator scratch
    killers: np.ndarray  # int64 [PLIES, 2]
    history: np.ndarray  # int64 [1 << 18]: by from | to << 9
    pv: np.ndarray  # int64 [PLIES, PLIES]: triangular PV table
    pv_length: np.ndarray  # int64 [PLIES]
    line: np.ndarray  # uint64 [HISTORY_ROOM + PLIES]: hashes of the game and the current line
    root_info: np.ndarray  # int64 [3, MAX_MOVES]: per root move: score, exact (0/1), nodes
    state: np.ndarray  # int64 [STATE_SLOTS]
    weights: np.ndarray  # float64 [MAX_WEIGHTS]: the evaluator's weights (fitted evaluation)


def _touched(array: np.ndarray) -> np.ndarray:
    """``array`` with every page written once: np.zeros maps memory lazily, and the
    first touch of each page (a 2 MB huge page on many systems) would otherwise be
    paid inside the first timed search, tens of milliseconds for the table."""
    array.fill(0)
    return array


def new_buffers() -> SearchBuffers:
    """Fresh search buffers (about 30 MB, written once so the search pays no page faults)."""
    return SearchBuffers(*(_touched(a) for a in _new_buffers()))


def _new_buffers() -> SearchBuffers:
    return SearchBuffers(
        moves=np.zeros((PLIES, MAX_MOVES), dtype=np.int64),
        flips=np.zeros((PLIES, MAX_MOVES, NWORDS), dtype=np.uint64),
        order=np.zeros((PLIES, MAX_MOVES), dtype=np.int64),
        enemy_groups=np.zeros((MAX_GROUPS, NWORDS), dtype=np.uint64),
        group_id=np.zeros(64 * NWORDS, dtype=np.int16),
        killers=np.zeros((PLIES, 2), dtype=np.int64),
        history=np.zeros(1 << 18, dtype=np.int64),
        pv=np.zeros((PLIES, PLIES), dtype=np.int64),
        pv_length=np.zeros(PLIES, dtype=np.int64),
        line=np.zeros(HISTORY_ROOM + PLIES, dtype=np.uint64),
        root_info=np.zeros((3, MAX_MOVES), dtype=np.int64),
        state=np.zeros(STATE_SLOTS, dtype=np.int64),
        weights=np.zeros(MAX_WEIGHTS, dtype=np.float64),
    )


# ----- transposition table entries ----------------------------------------------------------


@njit(cache=True)
def pack_entry(move, bound, depth, generation, score):
    return (
        U64(move)
        | (U64(bound) << U64(27))
        | (U64(depth) << U64(29))
        | (U64(generation) << U64(36))
        | (U64(score + (1 << 19)) << U64(44))
    )


@njit(cache=True)
def entry_move(data):
    return np.int64(data & U64((1 << 27) - 1))


@njit(cache=True)
def entry_bound(data):
    return np.int64((data >> U64(27)) & U64(3))


@njit(cache=True)
def entry_depth(data):
    return np.int64((data >> U64(29)) & U64(127))


@njit(cache=True)
def entry_generation(data):
    return np.int64((data >> U64(36)) & U64(255))


@njit(cache=True)
def entry_score(data):
    return np.int64(data >> U64(44)) - (1 << 19)


@njit(cache=True)
def score_to_table(score, ply):
    """Win/loss scores count plies from the root; the table stores them from the node."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


@njit(cache=True)
def score_from_table(score, ply):
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score


@njit(cache=True)
def table_store(keys, data, key, move, bound, depth, generation, score, ply):
    """Store in the bucket of ``key``: slot 0 if depth-preferred allows, else slot 1."""
    slot = np.int64(key & U64(len(keys) - 1)) & ~np.int64(1)
    old = data[slot]
    if keys[slot] ^ old != key and entry_generation(old) == generation and entry_depth(old) > depth:
        slot += 1
    entry = pack_entry(move, bound, depth, generation, score_to_table(score, ply))
    # Lockless (Hyatt and Mann's XOR trick): the key is stored XORed with the data, so an
    # entry torn by two threads writing the slot at once fails the check on probing.
    data[slot] = entry
    keys[slot] = key ^ entry


# ----- search ---------------------------------------------------------------------------------


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
def out_of_budget(state):
    """Count a node; True when the search must stop (limits checked only past depth 1)."""
    state[NODES] += 1
    if state[ABORTED]:
        return True
    if state[CAN_ABORT] == 0:
        return False
    if state[NODES] >= state[NODE_LIMIT]:
        state[ABORTED] = 1
    elif state[NODES] % CLOCK_EVERY == 0 and monotonic_ns() >= state[DEADLINE]:
        state[ABORTED] = 1
    return state[ABORTED] != 0


@njit(cache=True)
def repeated(line, index, key):
    """Whether ``key`` occurred an even number of plies before ``line[index]``."""
    i = index - 2
    while i >= 0:
        if line[i] == key:
            return True
        i -= 2
    return False


@njit(cache=True)
def list_moves(size, own, enemy, moves, flips, enemy_groups, group_id):
    """``generate_moves`` with the moves stored (one compiled copy for negamax's leaves)."""
    return generate_moves(size, own, enemy, moves, flips, enemy_groups, group_id, True)


# ----- the steps that depend on the layout of the sides ---------------------------------------
# ``negamax`` is written once for two layouts of a node's sides: bitboards (four words,
# ``core/bits.py``; every side) and the shift layout (two words, ``core/shiftcount.py``;
# sides 4 to SHIFT_MAX_SIZE). Each step below that depends on
# the layout has a version per layout (``_bitboard_...``, ``_shift_...``: plain functions
# of the step's arguments), a stub that runs the right one from the interpreter, and an
# ``overload`` that hands numba the one for the type of the set it is given, as
# shiftcount.py's primitives do. So numba compiles ``negamax`` once per layout, chosen
# by the type of ``own``, each version cached as a signature of the one kernel.
# Counting a set (``s_count``) works for any number of words already.

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


@njit(cache=True, inline='always')
def prefetch_bucket(keys, data, key):
    """Prefetch the table bucket of ``key`` (its two slots share a cache line of
    ``keys`` and one of ``data``): a child's probe on entry otherwise waits for memory
    (15% of a side-4 search's time in the shift layout, measured)."""
    slot = np.int64(key & U64(len(keys) - 1)) & ~np.int64(1)
    prefetch(keys.ctypes.data + 8 * slot)
    prefetch(data.ctypes.data + 8 * slot)


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


def _bitboard_leaf(size, own, enemy, moves, flips, buf, ply):
    return leaf_evaluation(buf.state[EVALUATOR], size, own, enemy, moves, flips, buf.moves[ply + 1], buf.flips[ply + 1],
                           buf.enemy_groups, buf.group_id, buf.weights, False)


def _shift_leaf(size, own, enemy, moves, flips, buf, ply):
    return shift_leaf_evaluation(buf.state[EVALUATOR], size, U64(2 * size - 1),
                                 (SHIFT_INTERIOR[size, 0], SHIFT_INTERIOR[size, 1]), own, enemy, moves, flips,
                                 buf.enemy_groups, buf.group_id, buf.weights)


def leaf_score(size, own, enemy, moves, flips, buf, ply):
    """``(score, n, flip)`` of ``evaluate.leaf_evaluation`` (bitboards, sides above
    ``SHIFT_MAX_SIZE``: its terms from the move lists) or
    ``evaluate.shift_leaf_evaluation`` (shift layout) for the evaluator
    ``state[EVALUATOR]``: the moves it lists go to ``moves``/``flips`` (the node's rows
    of ``buf``), ``n`` is -1 when it lists none."""
    return _by_layout(own, _bitboard_leaf, _shift_leaf)(size, own, enemy, moves, flips, buf, ply)


@overload(leaf_score)
def _leaf_score(size, own, enemy, moves, flips, buf, ply):
    return _by_layout(own, _bitboard_leaf, _shift_leaf)


def prefetches_ahead(like) -> bool:
    """Whether the move loop, with the table on, works out the next move's child key
    and prefetches its bucket a move ahead: in the shift layout (measured faster in
    session 11), not on bitboards (not measured there)."""
    return _by_layout(like, False, True)


@overload(prefetches_ahead, inline='always')
def _prefetches_ahead(like):
    return _by_layout(like, lambda like: False, lambda like: True)


@njit(cache=True)
def note_elimination(buf, ply, moves, flips, enemy_count, like):
    """Make the principal variation at ``ply`` the swipe (among the listed swipes,
    which come first) that flips all ``enemy_count`` enemy tokens (flipped groups in
    ``like``'s layout)."""
    i = 0
    while is_swipe(moves[i]):
        if s_count(move_row(flips, i, like)) == enemy_count:
            buf.pv[ply, ply] = moves[i]
            buf.pv_length[ply] = ply + 1
            return
        i += 1


@njit(cache=True, inline='always')
def select_move(order, moves, flips, i, n, like):
    """One step of the selection sort of the move loop: the move of the highest key
    from ``i`` on (the first of equal ones) to place ``i`` (flipped groups: the words of
    ``like``'s layout)."""
    pick = i
    for j in range(i + 1, n):
        if order[j] > order[pick]:
            pick = j
    if pick != i:
        order[i], order[pick] = order[pick], order[i]
        moves[i], moves[pick] = moves[pick], moves[i]
        for w in range(len(like)):
            flips[i, w], flips[pick, w] = flips[pick, w], flips[i, w]


@njit(cache=True, nogil=True)
def negamax(size, colour, own, enemy, key, depth, ply, alpha, beta, buf, keys, data):
    """Score of the position for the side to move (``colour``: 0 green, 1 blue),
    searched ``depth`` plies deep within the window (alpha, beta).

    ``own`` and ``enemy`` are the sides in either layout: bitboards, or two-word sets of
    the shift layout (sides 4 to ``SHIFT_MAX_SIZE``; ``shift_search_depth``). The steps
    that depend on it (``node_moves``, ``play_move``, ``child_key``, ``leaf_score``,
    ``move_row``, ``prefetches_ahead``) are chosen by their type, so numba compiles this
    once per layout; the moves come in the same order with the same codes either way.
    The flipped groups of ``buf.flips`` are in the same layout: bitboard rows, or columns 0
    and 1.

    At ply 0 (the root) the moves are not generated but taken, in order, from
    ``buf.moves[0, :state[ROOT_COUNT]]`` and ``buf.flips[0]``; each finished root
    move's score, exactness and node count go to ``buf.root_info``, the index of the
    best to ``state[ROOT_BEST]`` and the number finished to ``state[ROOT_DONE]``. (The
    root is a branch of this function rather than a function of its own because
    numba's cache cannot load a kernel that calls a recursive kernel.)
    """
    state = buf.state
    buf.pv_length[ply] = ply
    stand_pat = np.int64(0)
    if out_of_budget(state):
        return np.int64(0)
    root = ply == 0
    moves = buf.moves[ply]
    flips = buf.flips[ply]
    order = buf.order[ply]
    generation = state[GENERATION]
    table_move = np.int64(0)
    killer1 = buf.killers[ply, 0]
    killer2 = buf.killers[ply, 1]
    if root:
        n = state[ROOT_COUNT]
        for i in range(n):
            order[i] = n - i  # the caller's order
    else:
        if repeated(buf.line, state[HISTORY_LENGTH] + ply, key):
            return np.int64(0)
        if state[TABLE_ON]:
            slot = np.int64(key & U64(len(keys) - 1)) & ~np.int64(1)
            for s in range(slot, slot + 2):
                entry = data[s]
                if keys[s] ^ entry == key and entry_generation(entry) == generation:
                    table_move = entry_move(entry)
                    if entry_depth(entry) == depth:
                        score = score_from_table(entry_score(entry), ply)
                        bound = entry_bound(entry)
                        if bound == EXACT or (bound == LOWER and score >= beta) or (bound == UPPER and score <= alpha):
                            return score
                    break

        n = -1
        if depth <= 0:
            score, n, largest_flip = leaf_score(size, own, enemy, moves, flips, buf, ply)
            proven = True
            if score == LOST:
                score = -(WIN - ply)
            elif score == WINNING:
                score = WIN - ply - 1
                if n < 0:  # the evaluation listed no move: list them (the shift layout: the eliminating swipes only)
                    n = node_moves(size, own, enemy, moves, flips, buf, s_count(enemy))
                note_elimination(buf, ply, moves, flips, s_count(enemy), own)
            else:
                proven = False
            least_flip = state[QUIESCENCE]
            if least_flip > 0 and not proven and -depth < state[QUIESCENCE_PLIES] and score < beta:
                # Quiescence: the score stands unless a swipe flipping least_flip tokens
                # or more (searched on, largest first) beats it. The evaluation may have
                # left the side to move's moves in the buffer, swipes first; if it took
                # its terms from the shift layout (n < 0) they are listed now, if a swipe
                # flips enough (largest_flip: the largest group it can flip).
                if n < 0:
                    if largest_flip >= least_flip:
                        n = node_moves(size, own, enemy, moves, flips, buf, least_flip)
                    else:
                        n = 0
                m = 0
                for i in range(n):
                    if not is_swipe(moves[i]):
                        break
                    flipped = s_count(move_row(flips, i, own))
                    if flipped >= least_flip:
                        moves[m] = moves[i]
                        for w in range(len(own)):
                            flips[m, w] = flips[i, w]
                        order[m] = flipped
                        m += 1
                n = m
            else:
                n = 0
            if n == 0:
                if state[TABLE_ON] and depth == 0:
                    bound = LOWER if least_flip > 0 and not proven and score >= beta else EXACT
                    table_store(keys, data, key, 0, bound, 0, generation, score, ply)
                return score
            stand_pat = score
        if n < 0:
            n = node_moves(size, own, enemy, moves, flips, buf, 0)
            if n == 0:
                return -(WIN - ply)  # eliminated or no legal move: the side to move has lost

            # Ordering keys; a swipe that flips every enemy token wins at once.
            enemy_count = s_count(enemy)
            for i in range(n):
                move = moves[i]
                if move == table_move:
                    order[i] = np.int64(1) << 60
                    continue
                if is_swipe(move):
                    flipped = s_count(move_row(flips, i, own))
                    if flipped == enemy_count:
                        buf.pv[ply, ply] = move
                        buf.pv_length[ply] = ply + 1
                        return WIN - ply - 1
                    if flipped >= 2:
                        order[i] = (np.int64(1) << 50) + (flipped << 32) + buf.history[move & 0x3FFFF]
                        continue
                if move == killer1:
                    order[i] = np.int64(1) << 46
                elif move == killer2:
                    order[i] = np.int64(1) << 45
                else:
                    order[i] = buf.history[move & 0x3FFFF]

    full_window = root and state[ROOT_FULL_WINDOW] != 0
    original_alpha = alpha
    best = -INFINITE
    if depth <= 0 and not root:  # quiescence: the evaluation stands unless a flip beats it
        best = stand_pat
        if best > alpha:
            alpha = best
    best_move = np.int64(0)
    line_index = state[HISTORY_LENGTH] + ply + 1
    # The keys do not change during the loop, so the next move is known before this one
    # is searched: with the table on (and ``prefetches_ahead``), it is placed and its
    # child's bucket prefetched a move ahead (the same order: each selection step is the
    # one the loop would take).
    ahead = state[TABLE_ON] != 0 and prefetches_ahead(own)
    next_child = U64(0)
    for i in range(n):
        # Selection sort, one step at a time: most nodes cut off after a move or two.
        if i == 0 or not ahead:
            select_move(order, moves, flips, i, n, own)
        move = moves[i]
        flipped = move_row(flips, i, own)
        their, ours = play_move(size, own, enemy, move, flipped)
        if i > 0 and ahead:
            child = next_child
        else:
            child = child_key(size, colour, key, move, flipped)
            if ahead:
                prefetch_bucket(keys, data, child)
        if ahead and i + 1 < n:
            select_move(order, moves, flips, i + 1, n, own)
            next_child = child_key(size, colour, key, moves[i + 1], move_row(flips, i + 1, own))
            prefetch_bucket(keys, data, next_child)
        buf.line[line_index] = child
        before = state[NODES]
        exact = True
        big_flip = is_swipe(move) and s_count(flipped) >= 2
        if i == 0 or full_window:
            score = -negamax(size, 1 - colour, their, ours, child, depth - 1, ply + 1, -beta, -alpha, buf, keys, data)
        else:
            score = -negamax(size, 1 - colour, their, ours, child, depth - 1, ply + 1, -alpha - 1, -alpha, buf, keys,
                             data)
            exact = False
            if alpha < score < beta:
                score = -negamax(size, 1 - colour, their, ours, child, depth - 1, ply + 1, -beta, -alpha, buf, keys,
                                 data)
                exact = True
        if state[ABORTED]:
            return np.int64(0)
        if root:
            buf.root_info[0, i] = score
            buf.root_info[1, i] = 1 if exact else 0
            buf.root_info[2, i] = state[NODES] - before
            state[ROOT_DONE] = i + 1
        if score > best:
            best = score
            best_move = move
            if root:
                state[ROOT_BEST] = i
            if score > alpha:
                alpha = score
                buf.pv[ply, ply] = move
                for k in range(ply + 1, buf.pv_length[ply + 1]):
                    buf.pv[ply, k] = buf.pv[ply + 1, k]
                buf.pv_length[ply] = max(buf.pv_length[ply + 1], ply + 1)
                if score >= beta:
                    if depth <= 0:
                        break  # quiescence: no killers or history
                    if not big_flip and move != killer1:
                        buf.killers[ply, 1] = killer1
                        buf.killers[ply, 0] = move
                    h = buf.history[move & 0x3FFFF] + depth * depth
                    buf.history[move & 0x3FFFF] = min(h, np.int64(1) << 30)
                    break
        if full_window:
            alpha = -INFINITE  # every root move gets a full window, hence an exact score

    if state[TABLE_ON] and not root and depth >= 0:
        bound = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        table_store(keys, data, key, best_move, bound, depth, generation, best, ply)
    return best


@intrinsic
def void_pointer(typingctx, address):
    """The address (an integer) as a ``void*``, for ``numba.carray``."""
    sig = types.voidptr(address)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return sig, codegen


@njit(cache=True, inline='always')
def unowned(a):
    """A view of ``a`` that numba does not reference-count (no meminfo): passing it to a
    call costs no atomic increment and decrement. The caller keeps ``a`` alive."""
    return carray(void_pointer(a.ctypes.data), a.shape, a.dtype)


@njit(cache=True, inline='always')
def unowned_buffers(buf):
    """``buf`` with every array an ``unowned`` view."""
    return SearchBuffers(unowned(buf.moves), unowned(buf.flips), unowned(buf.order), unowned(buf.enemy_groups),
                         unowned(buf.group_id), unowned(buf.killers), unowned(buf.history), unowned(buf.pv),
                         unowned(buf.pv_length), unowned(buf.line), unowned(buf.root_info), unowned(buf.state),
                         unowned(buf.weights))


@njit(cache=True, nogil=True)
def search_depth(size, colour, own, enemy, key, depth, ply, alpha, beta, buf, keys, data):
    """``negamax`` on bitboards over views of the buffers and table that numba does not
    reference-count: every call of the recursion passed 16 arrays, and their atomic
    reference-count updates took about a third of the kernel's time."""
    return negamax(size, colour, own, enemy, key, depth, ply, alpha, beta, unowned_buffers(buf), unowned(keys),
                   unowned(data))


@njit(cache=True, nogil=True)
def shift_search_depth(size, colour, own, enemy, key, depth, ply, alpha, beta, buf, keys, data):
    """``search_depth`` in the shift layout (sides 4 to ``SHIFT_MAX_SIZE``): the sides
    (bitboards) and the root moves' flipped groups (rows of ``buf.flips[0]``, which the
    driver writes before each depth) are converted to two-word sets first, so numba
    runs ``negamax``'s shift-layout version."""
    flips = buf.flips[0]
    for i in range(buf.state[ROOT_COUNT]):
        group = to_shift_layout(size, flips[i])
        for word in range(NWORDS):
            flips[i, word] = U64(0)
        flips[i, 0] = group[0]
        flips[i, 1] = group[1]
    return negamax(size, colour, to_shift_layout(size, own), to_shift_layout(size, enemy), key, depth, ply, alpha,
                   beta, unowned_buffers(buf), unowned(keys), unowned(data))


def depth_kernel(size):
    """The kernel searching one depth on side ``size``: ``shift_search_depth`` on sides
    up to ``SHIFT_MAX_SIZE``, else ``search_depth``."""
    return shift_search_depth if size <= SHIFT_MAX_SIZE else search_depth


# ----- Python driver --------------------------------------------------------------------------

_NO_TABLE = (np.zeros(2, dtype=np.uint64), np.zeros(2, dtype=np.uint64))


class TranspositionTable:
    """A searcher's transposition table of ``table_mb`` megabytes (written once at
    creation, so no search pays page faults) and its generation counter."""

    @staticmethod
    def entries_for(table_mb: float) -> int:
        return 1 << max(1, int(table_mb * (1 << 20) // 16).bit_length() - 1)

    def __init__(self, table_mb: float):
        entries = self.entries_for(table_mb)
        self.keys = _touched(np.zeros(entries, dtype=np.uint64))
        self.data = _touched(np.zeros(entries, dtype=np.uint64))
        self.generation = 0

    def next_generation(self) -> int:
        """A fresh generation number for the next search (entries of others are ignored)."""
        generation = self.generation % 255 + 1
        if generation == 1 and self.generation:
            self.data.fill(0)  # generation numbers wrap: forget every old entry
        self.generation = generation
        return generation


class _Pool:
    """Buffers and tables of dropped searchers, kept (``POOL_KEEP`` of each) for the
    searchers made after them: ``hinge_fast.search`` makes a searcher per call, and
    allocating and writing ~100 MB each time took longer than a 0.01 s search. A
    table's generation counter goes with it, so a reused table's old entries are
    ignored as in any new search."""

    def __init__(self):
        self.lock = threading.Lock()
        self.free_buffers: list[SearchBuffers] = []
        self.free_tables: list[TranspositionTable] = []

    def buffers(self) -> SearchBuffers:
        with self.lock:
            if self.free_buffers:
                return self.free_buffers.pop()
        return new_buffers()

    def table(self, table_mb) -> TranspositionTable:
        entries = TranspositionTable.entries_for(table_mb)
        with self.lock:
            for i, table in enumerate(self.free_tables):
                if len(table.keys) == entries:
                    return self.free_tables.pop(i)
        return TranspositionTable(table_mb)

    def give_back(self, buffers, helper_buffers, table):
        with self.lock:
            for b in ([buffers] if buffers is not None else []) + list(helper_buffers):
                if len(self.free_buffers) < POOL_KEEP:
                    self.free_buffers.append(b)
            if table is not None and len(self.free_tables) < POOL_KEEP:
                self.free_tables.append(table)


POOL = _Pool()


def score_of(score: int) -> Score:
    """The :class:`Score` of a search score: centi-tokens, or a proven win/loss.

    >>> str(score_of(125)), str(score_of(WIN - 3)), str(score_of(-(WIN - 4)))
    ('+1.25', 'win in 3', 'loss in 4')
    """
    plies = mate_plies(int(score))
    return Score.centi(int(score)) if plies is None else Score.from_mate(plies)


def score_text(score: int) -> str:
    """``str(score_of(score))``: ``+1.25``, ``win in 3`` or ``loss in 4``."""
    return str(score_of(score))


def mate_plies(score: int) -> int | None:
    """Plies to a proven win (>0) or loss (<0), else None."""
    if score >= MATE_BOUND:
        return WIN - score
    if score <= -MATE_BOUND:
        return -(WIN + score)
    return None


def _clear_history(history, size) -> None:
    """Zero the part of the history table a search on side ``size`` can read or write:
    it is indexed by ``from | to << 9`` (``move & 0x3FFFF``), and every cell index is
    below ``n_cells``. (The whole 2 MB table took about 0.1 ms to clear, 1% of a 0.01 s
    search; side 4 uses 37 << 9 entries of it.)"""
    history[: geometry(size).n_cells << 9].fill(0)


def _history_hashes(board) -> list[int]:
    """Hashes of the game positions before ``board`` since its last placement, oldest
    first (a placement adds a token for good, so nothing earlier can recur)."""
    start = 0
    for i, move in enumerate(board.move_stack):
        if not move.is_swipe:
            start = i + 1
    return board.history_keys()[start:][-HISTORY_ROOM:]


_WORKERS_LOCK = threading.Lock()
_WORKERS = None


def _workers():
    """The process's pool of worker threads for the kernels (started on first use and
    reused: starting a thread for each depth cost about 0.4 ms, a lot of 0.01 s)."""
    global _WORKERS
    with _WORKERS_LOCK:
        if _WORKERS is None:
            from concurrent.futures import ThreadPoolExecutor

            _WORKERS = ThreadPoolExecutor(max_workers=MAX_WORKERS, thread_name_prefix="hinge-fast alpha-beta")
        return _WORKERS


def _run_interruptible(kernel, args, state, should_stop):
    """Run ``kernel(*args)`` in a worker thread (of ``_workers``); Ctrl-C (in the main
    thread), or ``should_stop()`` turning true (polled every 5 ms), stops it through
    ``state``. Returns ``(result, interrupted)``."""
    box = {}
    done = threading.Event()

    def target():
        try:
            box["result"] = kernel(*args)
        except BaseException as e:  # handed to the caller's thread
            box["error"] = e
        finally:
            done.set()

    _workers().submit(target)
    interrupted = False
    # An Event, not Thread.join: a join interrupted by Ctrl-C can leave the thread
    # looking finished before it is.
    while not done.is_set():
        try:
            done.wait(0.005)
            if not done.is_set() and should_stop():
                interrupted = True
                state[DEADLINE] = 0
        except KeyboardInterrupt:
            interrupted = True
            state[DEADLINE] = 0
    if "error" in box:
        raise box["error"]
    return box["result"], interrupted


class AlphaBetaSearcher(Searcher):
    """The alpha-beta searcher (registry name ``alphabeta``; its defaults are the
    engine's). It owns its buffers and transposition table, allocated at its first
    ``go`` and reused by every ``go`` after.

    ``table_mb``: table size (0: none); ``root_scores``: search every root move with a
    full window so each gets an exact score (for analysis); ``evaluator``: the leaf
    evaluation (``search/evaluate.py``); ``quiescence``, ``quiescence_plies``: the
    quiescence search (module docstring); ``full_time``: under a time limit, start a
    depth whenever time is left (``starts_next_depth``); ``seed``: accepted and unused
    (alpha-beta is deterministic with one thread: under a node or depth limit the same
    position gives the same result); ``threads``: Lazy SMP helper threads plus this one
    (module docstring, "Threads").

    >>> from hinge_fast import Board
    >>> AlphaBetaSearcher(table_mb=1, threads=1).go(Board(size=4), Limits(depth=1)).depth
    1
    """

    name = "alphabeta"

    def __init__(self, table_mb=DEFAULT_TABLE_MB, root_scores=False, evaluator=DEFAULT_EVALUATOR, seed=FRESH_SEED,
                 threads=DEFAULT_THREADS, quiescence=DEFAULT_QUIESCENCE, quiescence_plies=DEFAULT_QUIESCENCE_PLIES,
                 full_time=DEFAULT_FULL_TIME):
        super().__init__()
        self.full_time = bool(full_time)
        self.quiescence = int(quiescence)
        self.quiescence_plies = min(int(quiescence_plies), MAX_QUIESCENCE_PLIES)
        self.threads = int(threads)
        self.helper_buffers: list[SearchBuffers] = []  # one per helper thread (Lazy SMP)
        self.table_mb = table_mb
        self.root_scores = bool(root_scores)
        self.evaluator = get_evaluator(evaluator)
        self.buffers: SearchBuffers | None = None  # allocated by the first go, in its budget
        self.table: TranspositionTable | None = None

    def stop(self) -> None:
        super().stop()
        for buffers in [self.buffers] + self.helper_buffers:
            if buffers is not None:
                buffers.state[DEADLINE] = 0  # the kernel reads it every CLOCK_EVERY nodes

    def _go(self, board, limits, progress):
        start = _time.monotonic_ns()
        if limits.unlimited:
            limits = Limits(time=DEFAULT_TIME)
        if self.buffers is None:
            self.buffers = POOL.buffers()
            if self.table_mb > 0:
                self.table = POOL.table(self.table_mb)
        while len(self.helper_buffers) < self.threads - 1:
            self.helper_buffers.append(POOL.buffers())
        return _search(self, board, limits, progress, start)

    def __del__(self):
        # The buffers and table go back to the pool for the next searcher.
        try:
            POOL.give_back(self.buffers, self.helper_buffers, self.table)
        except Exception:  # interpreter shutdown: nothing to keep
            pass


def search_alphabeta(board, limits: Limits, seed=None, progress=None, **options) -> SearchResult:
    """Alpha-beta search of ``board`` within ``limits`` by a new searcher with
    ``options`` (see :class:`AlphaBetaSearcher`); returns a SearchResult.
    ``progress(result)`` is called after each completed depth.

    >>> from hinge_fast import Board
    >>> search_alphabeta(Board(size=5), Limits(depth=1)).depth
    1
    """
    from .registry import create_searcher

    if seed is not None:
        options["seed"] = seed
    return create_searcher("alphabeta", **options).go(board, limits, progress)


def _search(searcher, board, limits, progress, start):
    codes, flips = board.legal_codes, board.legal_flips
    n_root = len(codes)
    if n_root == 0:
        return SearchResult(move=None, score=Score.loss(0), engine="alphabeta")
    buf = searcher.buffers
    root_scores = searcher.root_scores
    if searcher.table is not None:
        keys, data = searcher.table.keys, searcher.table.data
        generation = searcher.table.next_generation()
    else:
        (keys, data), generation = _NO_TABLE, 1
    own, enemy = board.own, board.enemy
    colour = int(board.turn)
    root_key = np.uint64(board.zobrist_key)
    history = _history_hashes(board)
    buf.line[: len(history)] = np.array(history, dtype=np.uint64)
    buf.line[len(history)] = root_key
    _clear_history(buf.history, board.size)
    buf.killers.fill(0)
    state = buf.state
    state[:] = 0
    state[GENERATION] = generation
    state[TABLE_ON] = 1 if searcher.table is not None else 0
    state[HISTORY_LENGTH] = len(history)
    state[EVALUATOR] = searcher.evaluator.kernel_id
    state[QUIESCENCE] = searcher.quiescence
    state[QUIESCENCE_PLIES] = searcher.quiescence_plies
    weights = searcher.evaluator.weights_for(board.size)  # side 4 has its own (search/weights.py)
    buf.weights[: len(weights)] = weights

    root_moves = codes.copy()
    root_flips = flips.copy()
    root_nodes = np.zeros(n_root, dtype=np.int64)
    state[ROOT_FULL_WINDOW] = 1 if root_scores else 0
    max_depth = limits.depth or MAX_DEPTH
    args = (board.size, colour, own, enemy, root_key, 1, 0, -INFINITE, INFINITE, buf, keys, data)

    # Load (or compile) the kernel: a call with no root move. Its time counts.
    state[ROOT_COUNT] = 0
    depth_kernel(board.size)(*args)
    state[ROOT_COUNT] = n_root
    state[NODES] = 0
    threads = searcher.threads
    state[NODE_LIMIT] = _node_share(limits.nodes, threads, 0)
    budget_ns = int(limits.time * 1e9) if limits.time else None
    # The deadline leaves room for building the result after the kernel stops.
    reserve = min(RESULT_RESERVE_NS, int(RESULT_RESERVE_FRACTION * budget_ns)) if budget_ns else 0
    state[DEADLINE] = start + budget_ns - reserve if budget_ns else np.iinfo(np.int64).max
    if searcher.stopping:
        state[DEADLINE] = 0
    helpers = _LazySMP(searcher, buf, root_moves, root_flips, args, limits, max_depth) if threads > 1 else None
    try:
        return _main_search(searcher, board, limits, progress, start, buf, root_moves, root_flips, root_nodes,
                            args, max_depth, budget_ns, helpers)
    finally:
        if helpers is not None:
            helpers.finish()


def _main_search(searcher, board, limits, progress, start, buf, root_moves, root_flips, root_nodes, args, max_depth,
                 budget_ns, helpers):
    """The main thread's iterative deepening (the only thread with ``threads=1``)."""
    root_scores = searcher.root_scores
    state = buf.state
    n_root = len(root_moves)
    kernel = depth_kernel(board.size)

    result = None
    interrupted = False
    inline = threading.current_thread() is not threading.main_thread() or (
        budget_ns is not None and budget_ns <= INLINE_TIME_NS)
    depth_started = _time.monotonic_ns()
    try:
        for depth in range(1, max_depth + 1):
            state[CAN_ABORT] = 0 if depth == 1 else 1
            state[ROOT_DONE] = 0
            state[ROOT_BEST] = 0
            buf.moves[0, :n_root] = root_moves
            buf.flips[0, :n_root] = root_flips
            depth_args = args[:5] + (depth,) + args[6:]
            if inline:
                best = kernel(*depth_args)
                interrupted |= searcher.stopping
            else:
                best, stopped = _run_interruptible(kernel, depth_args, state, lambda: searcher.stopping)
                interrupted |= stopped
            now = _time.monotonic_ns()
            seconds = (now - start) / 1e9
            pv_codes = buf.pv[0, : buf.pv_length[0]].copy()
            if helpers is not None:
                pv_codes = _pv_from_table(board, pv_codes, args[10], args[11], int(state[GENERATION]), depth)
            best_index, done = int(state[ROOT_BEST]), int(state[ROOT_DONE])
            if state[ABORTED]:
                # A move finished in the unfinished depth that beats the previous best
                # (which is searched first) is better at this depth: take it.
                if done > 0 and best_index > 0 and result is not None:
                    score = int(buf.root_info[0, best_index])
                    move = board.move_from_code(root_moves[best_index])
                    # The new best move carries the score it earned at this depth, so the
                    # result's move, score and first root move agree; the other moves with
                    # an exact score at this depth follow (high to low), then the rest with
                    # their scores of the depth before (RootMove.depth says which).
                    root_list = [RootMove(move=move, score=score_of(score), visits=int(buf.root_info[2, best_index]),
                                          depth=depth)]
                    fresh = sorted(
                        (-int(buf.root_info[0, i]), i) for i in range(done) if i != best_index and buf.root_info[1, i]
                    )
                    for _, i in fresh:
                        root_list.append(RootMove(move=board.move_from_code(root_moves[i]),
                                                  score=score_of(int(buf.root_info[0, i])),
                                                  visits=int(buf.root_info[2, i]), depth=depth))
                    seen = {rm.move for rm in root_list}
                    result = result()
                    root_list += [rm for rm in result.root_moves if rm.move not in seen]
                    # Its line was searched to this depth in full: report the depth.
                    made = _result(board, root_moves[best_index], score, pv_codes, _all_nodes(state, helpers), seconds,
                                   depth, root_list)
                    result = lambda made=made: made  # noqa: E731
                    if progress is not None:
                        progress(made)
                break
            root_score = buf.root_info[0, :n_root].copy()
            root_exact = buf.root_info[1, :n_root] != 0
            root_nodes[:] = buf.root_info[2, :n_root]
            # The result is built only when needed (progress, or the end): building one
            # costs a millisecond or so, a lot of a 0.01 s search with several depths.
            result = _lazy_result(board, root_moves.copy(), best_index, int(best), pv_codes, _all_nodes(state, helpers),
                                  seconds, depth, root_score, root_exact, root_nodes.copy())
            if progress is not None:
                progress(result())
            plies = mate_plies(int(best))
            if interrupted or searcher.stopping or plies is not None and abs(plies) <= depth:
                break  # a result proven within the horizon cannot change with depth
            if state[NODES] >= state[NODE_LIMIT]:
                break
            if budget_ns and not starts_next_depth(now - start, now - depth_started, budget_ns, searcher.full_time):
                break
            depth_started = now
            # Next depth: best move first, then the others by the effort they took (with
            # exact scores for every move, simply by score).
            if root_scores:
                order = np.argsort(-root_score, kind="stable")
            else:
                order = np.argsort(-root_nodes, kind="stable")
                order = np.concatenate(([best_index], order[order != best_index]))
            root_moves[:] = root_moves[order]
            root_flips[:] = root_flips[order]
            root_nodes[:] = root_nodes[order]
    except KeyboardInterrupt:
        # Ctrl-C while a depth ran in this thread (``inline``): the best move of the
        # depths done (none done: the interrupt goes on).
        if result is None:
            raise
    result = result()
    if helpers is not None:
        helpers.finish()
        deeper = helpers.deeper_than(result.depth, board)
        if deeper is not None:
            result = deeper  # a helper completed a deeper iteration than the main thread
    seconds = (_time.monotonic_ns() - start) / 1e9
    result.nodes = _all_nodes(state, helpers)
    result.seconds = seconds
    result.nps = result.nodes / seconds if seconds > 0 else 0.0
    return result


def starts_next_depth(used_ns, depth_ns, budget_ns, full_time=False) -> bool:
    """Whether a time-limited search starts another depth, ``used_ns`` into a budget of
    ``budget_ns``, the last depth having taken ``depth_ns``.

    By default no depth is started once ``SOFT_TIME_FRACTION`` of the budget is used, or
    when it surely cannot finish (a depth costs at least ``MIN_DEPTH_GROWTH`` times the
    one before it: measured 2 to 10 times). With ``full_time`` (the ``full_time`` option)
    one is started whenever time is left: an unfinished depth searches the previous best
    move first, and a move it finds better is played, so the rest of a fixed time per
    move is used rather than thrown away.

    >>> starts_next_depth(60, 30, 100), starts_next_depth(60, 30, 100, full_time=True)
    (False, True)
    """
    if full_time:
        return used_ns < budget_ns
    return used_ns <= SOFT_TIME_FRACTION * budget_ns and used_ns + MIN_DEPTH_GROWTH * depth_ns <= budget_ns


def _lazy_result(board, root_moves, best_index, best, pv_codes, nodes, seconds, depth, root_score, root_exact,
                 root_nodes):
    """A function making (once) the SearchResult of a completed depth."""
    made = []

    def make():
        if not made:
            made.append(_result(board, root_moves[best_index], best, pv_codes, nodes, seconds, depth,
                                _root_list(board, root_moves, root_score, root_exact, root_nodes, best_index, depth)))
        return made[0]

    return make


def _all_nodes(state, helpers) -> int:
    """Nodes searched by the main thread and the helpers."""
    return int(state[NODES]) + (helpers.nodes() if helpers is not None else 0)


def _node_share(nodes, threads, k) -> int:
    """Thread ``k``'s part of a node limit (no limit: the largest int64)."""
    if not nodes:
        return np.iinfo(np.int64).max
    return max(1, nodes // threads + (1 if k < nodes % threads else 0))


#: Stockfish's depth skipping for Lazy SMP helpers (by helper index modulo 20): helper
#: i skips depth d when ((d + SKIP_PHASE[i]) // SKIP_SIZE[i]) is odd, so the helpers
#: spread over the depths around the main thread's.
SKIP_SIZE = (1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4)
SKIP_PHASE = (0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7)


def _skips(helper: int, depth: int) -> bool:
    i = (helper - 1) % len(SKIP_SIZE)
    return depth > 1 and ((depth + SKIP_PHASE[i]) // SKIP_SIZE[i]) % 2 == 1


class _LazySMP:
    """Helper threads of one search: each runs its own iterative deepening on the root
    with its own buffers (``searcher.helper_buffers``), skipping depths (``SKIP_SIZE``)
    and starting from a rotated root order, and shares only the transposition table,
    written and read without locks (``table_store``: the XOR check). ``finish`` stops
    them (deadline 0: within ``CLOCK_EVERY`` nodes) and joins them."""

    def __init__(self, searcher, buf, root_moves, root_flips, args, limits, max_depth):
        self.done = threading.Event()
        self.keys, self.data, self.generation = args[10], args[11], int(buf.state[GENERATION])
        self.buffers = searcher.helper_buffers[: searcher.threads - 1]
        self.completed = [None] * len(self.buffers)  # per helper: its deepest completed iteration
        n_root = len(root_moves)
        length = int(buf.state[HISTORY_LENGTH]) + 1
        self.kernel = depth_kernel(args[0])
        self.threads = []
        for h, hbuf in enumerate(self.buffers, start=1):
            hbuf.line[:length] = buf.line[:length]
            _clear_history(hbuf.history, args[0])
            hbuf.killers.fill(0)
            hs = hbuf.state
            hs[:] = 0
            for slot in (GENERATION, TABLE_ON, HISTORY_LENGTH, EVALUATOR, DEADLINE, QUIESCENCE, QUIESCENCE_PLIES):
                hs[slot] = buf.state[slot]
            hbuf.weights[:] = buf.weights
            hs[ROOT_COUNT] = n_root
            hs[CAN_ABORT] = 1
            hs[NODE_LIMIT] = _node_share(limits.nodes, searcher.threads, h)
            shift = h * n_root // searcher.threads
            moves, flips = np.roll(root_moves, -shift), np.roll(root_flips, -shift, axis=0)
            hargs = args[:9] + (hbuf,) + args[10:]
            self.threads.append((h, hbuf, hargs, moves, flips, max_depth))
        self.threads = [_workers().submit(self._run, *job) for job in self.threads]

    def _run(self, h, hbuf, hargs, moves, flips, max_depth):
        state = hbuf.state
        n = len(moves)
        nodes = np.zeros(n, dtype=np.int64)
        for depth in range(1, max_depth + 1):
            if self.done.is_set() or state[ABORTED]:
                return
            if _skips(h, depth):
                continue
            state[ROOT_DONE] = 0
            state[ROOT_BEST] = 0
            hbuf.moves[0, :n] = moves
            hbuf.flips[0, :n] = flips
            best = self.kernel(*(hargs[:5] + (depth,) + hargs[6:]))
            if state[ABORTED]:
                return
            best_index = int(state[ROOT_BEST])
            nodes[:] = hbuf.root_info[2, :n]
            self.completed[h - 1] = (depth, int(best), moves.copy(), hbuf.root_info[:, :n].copy(), best_index,
                                     hbuf.pv[0, : hbuf.pv_length[0]].copy())
            plies = mate_plies(int(best))
            if plies is not None and abs(plies) <= depth:
                return
            order = np.argsort(-nodes, kind="stable")
            order = np.concatenate(([best_index], order[order != best_index]))
            moves[:] = moves[order]
            flips[:] = flips[order]
            nodes[:] = nodes[order]

    def finish(self):
        """Stop the helpers and wait for them (a few hundred nodes each)."""
        self.done.set()
        for hbuf in self.buffers:
            hbuf.state[DEADLINE] = 0
        for thread in self.threads:
            thread.result()

    def nodes(self) -> int:
        return sum(int(hbuf.state[NODES]) for hbuf in self.buffers)

    def deeper_than(self, depth: int, board) -> SearchResult | None:
        """The result of the deepest iteration a helper completed, if deeper than ``depth``."""
        done = [c for c in self.completed if c is not None and c[0] > depth]
        if not done:
            return None
        d, best, moves, info, best_index, pv = max(done, key=lambda c: c[0])
        root_list = _root_list(board, moves, info[0], info[1] != 0, info[2], best_index, d)
        if len(pv) == 0 or pv[0] != moves[best_index]:
            pv = moves[best_index : best_index + 1]
        pv = _pv_from_table(board, pv, self.keys, self.data, self.generation, d)
        return _result(board, moves[best_index], best, pv, 0, 0.0, d, root_list)


def _result(board, code, score, pv_codes, nodes, seconds, depth, root_list) -> SearchResult:
    score = int(score)
    move = board.move_from_code(code)
    return SearchResult(
        move=move,
        score=score_of(score),
        pv=_legal_line(board, list(pv_codes) if len(pv_codes) and pv_codes[0] == code else [code]),
        nodes=nodes,
        nps=nodes / seconds if seconds > 0 else 0.0,
        depth=depth,
        seconds=seconds,
        engine="alphabeta",
        root_moves=root_list,
    )


def _pv_from_table(board, codes, keys, data, generation, length):
    """``codes`` continued, up to ``length`` moves, by the moves the table holds for
    this search (``generation``). With helper threads the table often holds an exact
    entry at a PV node, whose cut-off leaves the main thread's triangular PV short."""
    if len(keys) <= 2 or len(codes) >= length:
        return codes
    line = [int(c) for c in codes]
    copy = board.copy()
    for code in line:
        move = copy.move_from_code(code)
        if not copy.is_legal(move):
            return codes
        copy.push(move)
    mask = len(keys) - 1
    while len(line) < length:
        key = copy.zobrist_key
        slot = key & mask & ~1
        code = 0
        for s in (slot, slot + 1):
            entry = int(data[s])
            if int(keys[s]) ^ entry == key and (entry >> 36) & 255 == generation:
                code = entry & ((1 << 27) - 1)
                break
        if not code:
            break
        try:
            move = copy.move_from_code(code)
        except (HingeError, IndexError, ValueError):
            break
        if not copy.is_legal(move):
            break
        copy.push(move)
        line.append(code)
    return np.array(line, dtype=np.int64)


def _legal_line(board, codes) -> list:
    """The moves of ``codes`` as long as each is legal in turn."""
    line = []
    copy = board.copy()
    for code in codes:
        move = copy.move_from_code(code)
        if not copy.is_legal(move):
            break
        copy.push(move)
        line.append(move)
    return line


def _root_list(board, root_moves, root_score, exact, root_nodes, best_index, depth) -> list[RootMove]:
    """Every root move, best first, then those with exact scores (high to low), then
    the rest in search order."""
    entries = []
    raw = []
    for i, code in enumerate(root_moves):
        score = int(root_score[i]) if exact[i] else None
        raw.append(score)
        entries.append(RootMove(move=board.move_from_code(code), score=None if score is None else score_of(score),
                                visits=int(root_nodes[i]), depth=depth if score is not None else 0))
    best = entries[best_index]
    rest = [(e, r) for i, (e, r) in enumerate(zip(entries, raw)) if i != best_index]
    scored = [e for e, r in sorted(((e, r) for e, r in rest if r is not None), key=lambda item: -item[1])]
    return [best] + scored + [e for e, r in rest if r is None]


from ..core import kernels  # noqa: E402  (after the kernels above: registers them for stale-cache checks)

kernels.register_kernel_module(sys.modules[__name__])
