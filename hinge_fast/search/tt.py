"""The transposition table of alpha-beta: one encoder (``pack_entry``) and one decoder
(``entry_*``, ``table_probe``) of its entries, shared by the kernels and the driver.

* Two parallel arrays ``keys`` (the 64-bit Zobrist key) and ``data`` (packed: move 27
  bits, bound 2, depth 7, generation 8, score 20), entries in buckets of two. Slot 0 is
  *depth-preferred* (replaced by an entry as deep or deeper, by the same position, or
  when its entry is from an older search); slot 1 is *always-replace*.
* Each search has its own generation number; entries of other generations are treated
  as empty, which makes a search's result independent of the searches before it (no
  clearing needed between moves; the table is cleared only when the 8-bit generation
  wraps). An entry is never 0: its generation is 1 to 255.
* Win/loss scores are stored relative to the node (``score + ply``) and converted back
  on retrieval.
* No lock: an entry is stored as ``keys[i] = key ^ data[i]`` and accepted only when
  ``keys[i] ^ data[i]`` is the key probed, so an entry torn by two threads writing at
  once is refused (Hyatt and Mann's XOR check). Lazy SMP's threads share one table so.

    >>> entry = pack_entry(12345, EXACT, 7, 3, -250)
    >>> int(entry_move(entry)), int(entry_bound(entry)), int(entry_depth(entry)), int(entry_generation(entry))
    (12345, 3, 7, 3)
    >>> int(entry_score(entry))
    -250
"""

from __future__ import annotations

import numpy as np

from ..core.jit import njit
from .evaluate import MATE_BOUND
from .intrinsics import prefetch, touched

# Bounds of a stored score.
UPPER = 1
LOWER = 2
EXACT = 3

U64 = np.uint64

# The fields of an entry: bit offsets and widths.
MOVE_BITS = 27
BOUND_SHIFT = 27
DEPTH_SHIFT = 29
GENERATION_SHIFT = 36
SCORE_SHIFT = 44
SCORE_OFFSET = 1 << 19


@njit(cache=True)
def pack_entry(move, bound, depth, generation, score):
    """The entry of a move code, bound, depth, generation and (node-relative) score."""
    return (
        U64(move)
        | (U64(bound) << U64(BOUND_SHIFT))
        | (U64(depth) << U64(DEPTH_SHIFT))
        | (U64(generation) << U64(GENERATION_SHIFT))
        | (U64(score + SCORE_OFFSET) << U64(SCORE_SHIFT))
    )


@njit(cache=True)
def entry_move(data):
    return np.int64(data & U64((1 << MOVE_BITS) - 1))


@njit(cache=True)
def entry_bound(data):
    return np.int64((data >> U64(BOUND_SHIFT)) & U64(3))


@njit(cache=True)
def entry_depth(data):
    return np.int64((data >> U64(DEPTH_SHIFT)) & U64(127))


@njit(cache=True)
def entry_generation(data):
    return np.int64((data >> U64(GENERATION_SHIFT)) & U64(255))


@njit(cache=True)
def entry_score(data):
    return np.int64(data >> U64(SCORE_SHIFT)) - SCORE_OFFSET


@njit(cache=True, inline="always")
def settles(bound, score, alpha, beta):
    """Whether a stored ``score`` with its ``bound`` settles the window (alpha, beta):
    an exact score, a lower bound at or above beta, or an upper bound at or below alpha."""
    return (
        bound == EXACT or (bound == LOWER and score >= beta) or (bound == UPPER and score <= alpha)
    )


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


@njit(cache=True, inline="always")
def bucket(keys, key):
    """The first slot of ``key``'s bucket of two."""
    return np.int64(key & U64(len(keys) - 1)) & ~np.int64(1)


@njit(cache=True, inline="always")
def table_probe(keys, data, key, generation):
    """The entry stored for ``key`` by the search of ``generation`` (the first of its
    bucket's two slots to hold one), or 0 when there is none."""
    slot = bucket(keys, key)
    for s in range(slot, slot + 2):
        entry = data[s]
        if keys[s] ^ entry == key and entry_generation(entry) == generation:
            return entry
    return U64(0)


@njit(cache=True)
def stored_move(keys, data, key, generation):
    """The move code of ``table_probe``'s entry (0: none), for the driver."""
    return entry_move(table_probe(keys, data, key, generation))


@njit(cache=True)
def table_store(keys, data, key, move, bound, depth, generation, score, ply):
    """Store in the bucket of ``key``: slot 0 if depth-preferred allows, else slot 1."""
    slot = bucket(keys, key)
    old = data[slot]
    if keys[slot] ^ old != key and entry_generation(old) == generation and entry_depth(old) > depth:
        slot += 1
    entry = pack_entry(move, bound, depth, generation, score_to_table(score, ply))
    # Lockless (Hyatt and Mann's XOR trick): the key is stored XORed with the data, so an
    # entry torn by two threads writing the slot at once fails the check on probing.
    data[slot] = entry
    keys[slot] = key ^ entry


@njit(cache=True, inline="always")
def prefetch_bucket(keys, data, key):
    """Prefetch the table bucket of ``key`` (its two slots share a cache line of
    ``keys`` and one of ``data``): a child's probe on entry otherwise waits for memory
    (15% of a side-4 search's time in the shift layout, measured)."""
    slot = bucket(keys, key)
    prefetch(keys.ctypes.data + 8 * slot)
    prefetch(data.ctypes.data + 8 * slot)


#: The arrays a search without a table passes to the kernels (never read: ``TABLE_ON`` 0).
NO_TABLE = (np.zeros(2, dtype=np.uint64), np.zeros(2, dtype=np.uint64))


class TranspositionTable:
    """A searcher's transposition table of ``table_mb`` megabytes (written once at
    creation, so no search pays page faults) and its generation counter."""

    @staticmethod
    def entries_for(table_mb: float) -> int:
        return 1 << max(1, int(table_mb * (1 << 20) // 16).bit_length() - 1)

    def __init__(self, table_mb: float):
        entries = self.entries_for(table_mb)
        self.keys = touched(np.zeros(entries, dtype=np.uint64))
        self.data = touched(np.zeros(entries, dtype=np.uint64))
        self.generation = 0

    def next_generation(self) -> int:
        """A fresh generation number for the next search (entries of others are ignored)."""
        generation = self.generation % 255 + 1
        if generation == 1 and self.generation:
            self.data.fill(0)  # generation numbers wrap: forget every old entry
        self.generation = generation
        return generation
