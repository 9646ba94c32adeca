"""The read-only tables of the numba kernels, for every supported side at once.

Each table is one numpy array whose first index is the board side S, built from
``geometry.py`` (which documents the bit layout). The kernels read them as global
constants: numba bakes global arrays into the compiled code, so a kernel pays no
reference counting to reach them, which passing arrays as arguments would cost on
every call. No numba import here: building tables never compiles anything.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

import numpy as np

from .geometry import DIRECTIONS, MAX_SIZE, MIN_SIZE, NWORDS, geometry
from .movecode import NO_CELL as _NO_CELL

#: Room for one bit per cell: the bitboard width, more than the cells of the largest
#: supported board (217 for S=9). Per-cell and per-token scratch arrays have this length.
MAX_CELLS = 64 * NWORDS
#: Room for the legal moves of any position on any supported board. A move is
#: (from, to, group); ``to`` is empty and ``from`` is within two steps, so a board
#: with n interior cells has fewer than n * 13 * 3 swipes plus n placements.
MAX_MOVES = 8192
#: Deepest line a kernel keeps per-ply buffers for (perft, search).
MAX_PLY = 128
#: Kept here for older imports; the move code is laid out in ``movecode.py``.
NO_CELL = _NO_CELL


SIZES = range(MIN_SIZE, MAX_SIZE + 1)
_ROWS = MAX_SIZE + 1  # tables are indexed by the side S itself; rows below MIN_SIZE stay empty
_CELLS = MAX_CELLS


def _stack(build, shape, dtype, fill=0):
    out = np.full((_ROWS, *shape), fill, dtype=dtype)
    for size in SIZES:
        part = build(geometry(size))
        out[(size, *(slice(0, n) for n in part.shape))] = part
    out.setflags(write=False)
    return out


#: The shift layout of ``sets.py``: cell ``(c, r)`` is bit ``c * W + r`` (``W =
#: 2S - 1``), so every neighbour is a fixed shift (``+W``, ``+W+1``, ``+1``, ``-W``,
#: ``-W-1``, ``-1`` for the directions of rules.md). No spare cells are needed: a shift
#: from a cell at the top or bottom of its column wraps into the next column only where
#: the hex-hex has no cell (its corners at ``(0, 2S-2)`` and ``(2S-2, 0)`` are off the
#: board), which ``_shift_layout`` checks for every interior cell and every offset a
#: count reads.
#: The words of the shift layout of each side S: the fewest 64-bit words that hold its
#: ``(2S - 1)**2`` bits (1 for S = 4, 2 for S = 5 and 6, 3, 4 and 5 for S = 7, 8 and 9),
#: so that no side pays for the words of a larger one; ``SHIFT_WORDS`` is the largest.
SHIFT_WORDS_OF = np.array(
    [0] * MIN_SIZE + [-(-((2 * s - 1) ** 2) // 64) for s in range(MIN_SIZE, MAX_SIZE + 1)],
    dtype=np.int64,
)
SHIFT_WORDS = int(SHIFT_WORDS_OF.max())
SHIFT_WORDS_OF.setflags(write=False)
#: Most interior columns of a side.
_SHIFT_COLUMNS = 2 * MAX_SIZE - 3


def _shift_layout(geo):
    """``(interior, edge, column sources, column targets, column lengths)`` of the shift
    layout for side ``geo.size``: the interior cells of column c (``c = 1 .. 2S-3``) are
    one run of bits of the bitboard (interior cells come first, by ``(c, r)``), from bit
    ``source[k]`` on, ``length[k]`` of them, and one run in the shift layout, from bit
    ``target[k]`` on."""
    size = geo.size
    width = 2 * size - 1
    interior = np.zeros(SHIFT_WORDS, dtype=np.uint64)
    sources = np.full(_SHIFT_COLUMNS, -1, dtype=np.int64)
    targets = np.zeros(_SHIFT_COLUMNS, dtype=np.int64)
    lengths = np.zeros(_SHIFT_COLUMNS, dtype=np.int64)
    for i in range(geo.n_interior):
        c, r = geo.coords[i]
        bit = c * width + r
        interior[bit >> 6] |= np.uint64(1) << np.uint64(bit & 63)
        if sources[c - 1] < 0:
            sources[c - 1] = i
            targets[c - 1] = bit
        assert bit - i == targets[c - 1] - sources[c - 1], "a column is one run in both layouts"
        lengths[c - 1] += 1
    # Every offset a count reads from an interior cell: the six neighbours exactly (no
    # wrap), the six corner cells and the six cells two steps straight on exactly or,
    # past the top or bottom row, a bit that holds no interior cell (a count reads
    # only interior cells there).
    at_bit = {c * width + r: (c, r) for (c, r) in geo.coords}
    inside = set(geo.coords[: geo.n_interior])
    corners = tuple(
        (dc + ec, dr + er)
        for (dc, dr), (ec, er) in zip(DIRECTIONS, DIRECTIONS[1:] + DIRECTIONS[:1])
    )
    doubles = tuple((2 * dc, 2 * dr) for dc, dr in DIRECTIONS)  # two steps straight on
    offsets = DIRECTIONS + corners + doubles
    for c, r in inside:
        for k, (dc, dr) in enumerate(offsets):
            read = at_bit.get((c + dc) * width + r + dr)
            if k < 6 or (c + dc, r + dr) in geo.index:
                assert read == (c + dc, r + dr)
            else:
                assert read not in inside
    assert width * width <= 64 * SHIFT_WORDS_OF[size]
    assert 2 * width + 2 < 64, "every shift is below a word"
    # The edge: the interior cells with a neighbour that is not interior.
    edge = np.zeros(SHIFT_WORDS, dtype=np.uint64)
    for c, r in inside:
        if any((c + dc, r + dr) not in inside for dc, dr in DIRECTIONS):
            bit = c * width + r
            edge[bit >> 6] |= np.uint64(1) << np.uint64(bit & 63)
    return interior, edge, np.maximum(sources, 0), targets, lengths


def _shift_tables():
    interior = np.zeros((_ROWS, SHIFT_WORDS), dtype=np.uint64)
    edge = np.zeros((_ROWS, SHIFT_WORDS), dtype=np.uint64)
    sources = np.zeros((_ROWS, _SHIFT_COLUMNS), dtype=np.int64)
    targets = np.zeros((_ROWS, _SHIFT_COLUMNS), dtype=np.int64)
    lengths = np.zeros((_ROWS, _SHIFT_COLUMNS), dtype=np.int64)
    for size in SIZES:
        interior[size], edge[size], sources[size], targets[size], lengths[size] = _shift_layout(
            geometry(size)
        )
    tables = (interior, edge, sources, targets, lengths)
    for table in tables:
        table.setflags(write=False)
    return tables


#: Per side S: the interior cells in the shift layout (``SHIFT_WORDS`` words; a side
#: uses its first ``SHIFT_WORDS_OF[S]``), the edge (the interior cells next to a cell
#: off the interior: a flood from there reaches what is open to the outside), and for
#: each interior column its first bit in the bitboard and in the shift layout and its
#: length.
SHIFT_INTERIOR, SHIFT_EDGE, SHIFT_COLUMN_SOURCES, SHIFT_COLUMN_TARGETS, SHIFT_COLUMN_LENGTHS = (
    _shift_tables()
)


def _bit_maps():
    """``CELL_OF_BIT[S, b]``: the cell index (``geometry.py``) of shift-layout bit ``b``
    (-1: no interior cell there); ``BIT_OF_CELL[S, cell]``: its inverse (-1 for the
    edge cells, which never hold a token)."""
    cell_of_bit = np.full((_ROWS, 64 * SHIFT_WORDS), -1, dtype=np.int16)
    bit_of_cell = np.full((_ROWS, _CELLS), -1, dtype=np.int16)
    for size in SIZES:
        geo = geometry(size)
        width = 2 * size - 1
        for i in range(geo.n_interior):
            c, r = geo.coords[i]
            cell_of_bit[size, c * width + r] = i
            bit_of_cell[size, i] = c * width + r
    cell_of_bit.setflags(write=False)
    bit_of_cell.setflags(write=False)
    return cell_of_bit, bit_of_cell


CELL_OF_BIT, BIT_OF_CELL = _bit_maps()


def _zobrist_keys():
    rng = np.random.Generator(np.random.PCG64(0x48696E6765))
    keys = rng.integers(0, 2**63, size=(_ROWS, 3, _CELLS), dtype=np.uint64)
    keys = keys * np.uint64(2) + np.uint64(1)
    keys.setflags(write=False)
    return keys


#: Zobrist keys per side S: ``[S, 0, cell]`` a green token, ``[S, 1, cell]`` a blue
#: one, ``[S, 2, 0]`` Blue to move.
ZOBRIST = _zobrist_keys()


def _flip_keys():
    """``FLIP_KEYS[S, b]``: the change of the Zobrist key when the token on shift-layout
    bit ``b`` changes colour, ``ZOBRIST[S, 0, c] ^ ZOBRIST[S, 1, c]`` of its cell ``c``."""
    table = np.zeros((_ROWS, 64 * SHIFT_WORDS), dtype=np.uint64)
    for size in SIZES:
        for b in range(64 * SHIFT_WORDS):
            cell = CELL_OF_BIT[size, b]
            if cell >= 0:
                table[size, b] = ZOBRIST[size, 0, cell] ^ ZOBRIST[size, 1, cell]
    table.setflags(write=False)
    return table


FLIP_KEYS = _flip_keys()


def _digest() -> np.uint64:
    h = hashlib.blake2b(digest_size=8)
    for array in (
        ZOBRIST,
        SHIFT_INTERIOR,
        SHIFT_EDGE,
        SHIFT_WORDS_OF,
        SHIFT_COLUMN_SOURCES,
        SHIFT_COLUMN_TARGETS,
        SHIFT_COLUMN_LENGTHS,
        CELL_OF_BIT,
        BIT_OF_CELL,
        FLIP_KEYS,
    ):
        h.update(array.tobytes())
    return np.uint64(int.from_bytes(h.digest(), "little"))


#: Fingerprint of every table above. Numba freezes global arrays into its on-disk
#: cache and only notices changes to a kernel's own source file, so the kernels
#: compare this with the value they were compiled with (``kernels.py``).
TABLES_DIGEST = _digest()


#: Rows of the scratch sets of the move lister (``moves.list_moves``): its end
#: sets and token sets, then one row per enemy group it may flip (two groups are never
#: neighbours, so a colour has fewer groups than a third of the cells, plus one).
SCRATCH_ROWS = 32 + 128
#: Length of the lister's per-bit group numbers: one per bit of the layout, then one
#: target cell per group.
GROUP_SLOTS = 64 * SHIFT_WORDS + 128


class Workspace(NamedTuple):
    """Scratch buffers a kernel writes into, so that no hot loop allocates: the one
    scratch type of the core kernels (``workspace()`` makes one, sized from the
    constants above). Not shared between threads: one per thread."""

    moves: np.ndarray  # int64 [plies, MAX_MOVES]: move codes per ply
    flips: np.ndarray  # uint64 [plies, MAX_MOVES, SHIFT_WORDS]: the group each swipe flips, a set
    scratch: np.ndarray  # uint64 [SCRATCH_ROWS, SHIFT_WORDS]: the move lister's sets
    group_of_bit: np.ndarray  # int16 [GROUP_SLOTS]: the move lister's group numbers
    leaf_checksum: np.ndarray  # uint64 [1]: perft folds the leaf positions it makes in here
    stop: (
        np.ndarray
    )  # uint8 [1]: perft returns -1 soon after it becomes non-zero (shared by threads)


def workspace(plies: int = 16, stop: np.ndarray | None = None) -> Workspace:
    """Fresh scratch buffers for kernels reaching ``plies`` deep (perft depth + 1)."""
    plies = max(1, min(plies, MAX_PLY))
    return Workspace(
        moves=np.zeros((plies, MAX_MOVES), dtype=np.int64),
        flips=np.zeros((plies, MAX_MOVES, SHIFT_WORDS), dtype=np.uint64),
        scratch=np.zeros((SCRATCH_ROWS, SHIFT_WORDS), dtype=np.uint64),
        group_of_bit=np.zeros(GROUP_SLOTS, dtype=np.int16),
        leaf_checksum=np.zeros(1, dtype=np.uint64),
        stop=np.zeros(1, dtype=np.uint8) if stop is None else stop,
    )
