"""Board geometry for a hex-hex board of side S: cells, notation, neighbours, masks.

Coordinates are those of rules.md section 1: axial ``(c, r)`` with
``0 <= c, r <= 2S-2`` and ``|c - r| <= S-1``; ``C4`` is ``(2, 3)``.

Bit layout (the one place it is defined)
----------------------------------------
Every cell of the board, edge ring included, gets an index and a bit:

* interior cells first, sorted by ``(c, r)``: indices ``0 .. n_interior-1``;
* then the edge cells, sorted by ``(c, r)``: indices ``n_interior .. n_cells-1``.

A bitboard is ``NWORDS`` unsigned 64-bit words; cell ``i`` is bit ``i & 63`` of
word ``i >> 6``. ``NWORDS = 4`` holds 256 cells, which covers every supported side
(S=9 has 217 cells). Tokens only ever stand on interior cells, so the edge bits of a
position's colour bitboards are always zero; the edge cells have bits so that the
same masks and tests serve a swipe passing over the rim.

Because interior cells come first in ``(c, r)`` order, the lowest set bit of a group
of tokens is the group's first cell in ``(c, r)`` order: the target that rules.md
section 5 prints.

Everything here is built once per side and cached (``geometry(S)``). No numba.
"""

from __future__ import annotations

import functools
import re

import numpy as np

from ..errors import HingeError

MIN_SIZE = 4
MAX_SIZE = 9
DEFAULT_SIZE = 6
NWORDS = 4

#: Neighbour directions in cyclic order around a cell (rules.md section 1): each is
#: adjacent to the next.
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1))

_CELL_RE = re.compile(r"([A-Za-z])([0-9]{1,2})")


def check_size(size) -> int:
    """Return ``size`` as an int if it is a supported board side, else raise HingeError."""
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise HingeError(
            f"board size must be a whole number from {MIN_SIZE} to {MAX_SIZE}, not {size!r}"
        )
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise HingeError(f"board size {size} is not supported: choose {MIN_SIZE} to {MAX_SIZE}")
    return int(size)


def on_board(size: int, c: int, r: int) -> bool:
    top = 2 * size - 2
    return 0 <= c <= top and 0 <= r <= top and abs(c - r) <= size - 1


def is_edge_coord(size: int, c: int, r: int) -> bool:
    top = 2 * size - 2
    return c in (0, top) or r in (0, top) or abs(c - r) == size - 1


def coord_name(c: int, r: int) -> str:
    """``(2, 3) -> 'C4'``."""
    return f"{chr(ord('A') + c)}{r + 1}"


class Geometry:
    """Cell indexing and tables for one board side. Use ``geometry(S)``.

    Attributes (numpy arrays are read-only, indexed by cell index):

    ``size``, ``n_cells``, ``n_interior``
    ``coords``: ``(c, r)`` of each cell; ``names``: ``'C4'`` of each cell
    ``neighbours``: int16 ``[n_cells, 6]``, the neighbour in direction ``DIRECTIONS[k]``
    or -1 off the board
    ``neighbour_masks``: uint64 ``[n_cells, NWORDS]``, bitboard of each cell's neighbours
    ``interior_mask``, ``edge_mask``: uint64 ``[NWORDS]``
    ``swipe_ring``: int16 ``[n_cells, 12]``; the cells a swipe from x can pass or end
    on: ``[x, j]`` for j < 6 the neighbour ``N[j] = x + D[j]``, and ``[x, 6 + j]`` the
    corner cell ``C[j] = x + D[j] + D[j+1]`` two steps away between ``N[j]`` and
    ``N[j+1]`` (-1 off the board). Around the pivot ``N[k]`` a swipe steps to ``N[k-1]``
    then onward to ``C[k-1]``, or to ``N[k+1]`` then onward to ``C[k]`` (rules.md
    section 4: with ``x = p + D[i]``, ``p + D[i+-1]`` then ``p + D[i+-2]``).
    ``row_cells``: for each row ``r`` from 0 to 2S-2, the cell indices of that row in
    increasing ``c`` (position strings, drawings).
    """

    def __init__(self, size: int):
        size = check_size(size)
        self.size = size
        top = 2 * size - 2
        all_coords = [
            (c, r) for c in range(top + 1) for r in range(top + 1) if on_board(size, c, r)
        ]
        interior = [cr for cr in all_coords if not is_edge_coord(size, *cr)]
        edge = [cr for cr in all_coords if is_edge_coord(size, *cr)]
        self.coords: tuple[tuple[int, int], ...] = tuple(interior + edge)
        self.n_cells = len(self.coords)
        self.n_interior = len(interior)
        assert self.n_cells == 3 * size * (size - 1) + 1
        assert self.n_cells <= 64 * NWORDS
        self.index: dict[tuple[int, int], int] = {cr: i for i, cr in enumerate(self.coords)}
        self.names: tuple[str, ...] = tuple(coord_name(c, r) for c, r in self.coords)
        self._name_index = {name: i for i, name in enumerate(self.names)}

        n = self.n_cells
        neighbours = np.full((n, 6), -1, dtype=np.int16)
        for i, (c, r) in enumerate(self.coords):
            for k, (dc, dr) in enumerate(DIRECTIONS):
                neighbours[i, k] = self.index.get((c + dc, r + dr), -1)
        self.neighbours = neighbours

        self.neighbour_masks = np.zeros((n, NWORDS), dtype=np.uint64)
        for i in range(n):
            self.neighbour_masks[i] = self.mask_of(j for j in neighbours[i] if j >= 0)
        self.interior_mask = self.mask_of(range(self.n_interior))
        self.edge_mask = self.mask_of(range(self.n_interior, n))

        ring = np.full((n, 12), -1, dtype=np.int16)
        for x, (c, r) in enumerate(self.coords):
            for j, (dc, dr) in enumerate(DIRECTIONS):
                dc2, dr2 = DIRECTIONS[(j + 1) % 6]
                ring[x, j] = self.index.get((c + dc, r + dr), -1)
                ring[x, 6 + j] = self.index.get((c + dc + dc2, r + dr + dr2), -1)
        self.swipe_ring = ring

        self.row_cells = tuple(
            tuple(self.index[(c, r)] for c in range(top + 1) if (c, r) in self.index)
            for r in range(top + 1)
        )
        for array in (neighbours, self.neighbour_masks, self.interior_mask, self.edge_mask, ring):
            array.setflags(write=False)

    def __repr__(self) -> str:
        return f"geometry({self.size})"

    def is_interior(self, cell: int) -> bool:
        return 0 <= cell < self.n_interior

    def mask_of(self, cells) -> np.ndarray:
        """Bitboard (uint64[NWORDS]) with the given cell indices set."""
        mask = np.zeros(NWORDS, dtype=np.uint64)
        for cell in cells:
            mask[cell >> 6] |= np.uint64(1) << np.uint64(cell & 63)
        return mask

    def parse_cell(self, text: str) -> int:
        """``'C4'`` (any case) -> cell index. HingeError names the problem otherwise."""
        if not isinstance(text, str):
            raise HingeError(f"a cell is written like C4, not {text!r}")
        m = _CELL_RE.fullmatch(text.strip())
        if not m:
            raise HingeError(
                f"{text!r} is not a cell: write a column letter and a row number, like C4"
            )
        name = m.group(1).upper() + str(int(m.group(2)))
        cell = self._name_index.get(name)
        if cell is None:
            raise HingeError(f"{text.strip()} is not a cell of the side-{self.size} board")
        return cell


@functools.cache
def geometry(size: int = DEFAULT_SIZE) -> Geometry:
    """The cached :class:`Geometry` of the board of side ``size`` (4 to 9).

    >>> g = geometry(6)
    >>> g.n_cells, g.n_interior, g.names[g.parse_cell("c4")]
    (91, 61, 'C4')
    """
    return Geometry(check_size(size))
