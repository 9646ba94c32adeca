"""The shift layout: a second bit layout, used inside the perft and playout kernels.

In the public layout (``geometry.py``) a cell's neighbours come from a table. Here
cell ``(c, r)`` is bit ``r * W + c`` of ``SWORDS`` words, with the row stride
``W = 2S``: one spare column (``c = 2S - 1``) after each row absorbs the row wraps, so
every neighbour is a fixed shift (rules.md section 1):

    D = (+1,0) (+1,+1) (0,+1) (-1,0) (-1,-1) (0,-1)  ->  +1  +W+1  +W  -1  -W-1  -W

and a whole bitboard moves one step in a direction with one multi-word shift. Bits
outside the hex-hex board (spare column, the two cut-off corners of the
parallelogram, beyond the last row) are never set in a position and are masked out
of every shifted set. ``SWORDS = 5`` words hold the largest board (S = 9: 17 rows of
18 bits). Positions enter the kernels in the public layout and are converted once at
the root (``SHIFT_INDEX``); move codes built here use shift indices
(``SHIFT_CELL`` converts back). No numba here.
"""

from __future__ import annotations

import numpy as np

from .geometry import MAX_SIZE, MIN_SIZE, geometry

SWORDS = 5
_ROWS = MAX_SIZE + 1
_BITS = 64 * SWORDS


def _build():
    width = np.zeros(_ROWS, dtype=np.uint64)
    index = np.full((_ROWS, 256), -1, dtype=np.int16)
    cell = np.full((_ROWS, _BITS), -1, dtype=np.int16)
    board = np.zeros((_ROWS, SWORDS), dtype=np.uint64)
    inside = np.zeros((_ROWS, SWORDS), dtype=np.uint64)
    for size in range(MIN_SIZE, MAX_SIZE + 1):
        geo = geometry(size)
        w = 2 * size
        width[size] = w
        assert (2 * size - 2) * w + 2 * size - 2 < _BITS
        for i, (c, r) in enumerate(geo.coords):
            bit = r * w + c
            index[size, i] = bit
            cell[size, bit] = i
            board[size, bit >> 6] |= np.uint64(1) << np.uint64(bit & 63)
            if geo.is_interior(i):
                inside[size, bit >> 6] |= np.uint64(1) << np.uint64(bit & 63)
    for a in (width, index, cell, board, inside):
        a.setflags(write=False)
    return width, index, cell, board, inside


#: Per side S: the row stride W = 2S; the shift index of each public cell index; the
#: public cell index of each shift index (-1 off the board); the board's cells and
#: its interior cells as shift-layout bitboards.
SHIFT_WIDTH, SHIFT_INDEX, SHIFT_CELL, SHIFT_BOARD, SHIFT_INTERIOR = _build()
