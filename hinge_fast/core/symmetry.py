"""The 12 symmetries of the board: the hexagon's 6 rotations, each with or without a
reflection, as permutations of the interior cells (cell indices of ``geometry.py``).
The rules commute with them (``tests/test_solve.py`` checks it), so the side-4 solver
keeps one entry per class of symmetric positions, df-pn one table entry, and a book
one opening.

    >>> from hinge_fast.core.symmetry import symmetry_permutations
    >>> symmetry_permutations(4).shape
    (12, 19)
"""

from __future__ import annotations

import numpy as np

from .geometry import geometry

N_SYMMETRIES = 12


def symmetry_permutations(size: int) -> np.ndarray:
    """int64 ``[12, n_interior]``: the image of each interior cell under each symmetry.

    In centred axial coordinates ``(q, s) = (c - S + 1, r - S + 1)`` a turn by 60
    degrees maps direction k to direction k+1: ``(q, s) -> (q - s, q)``; the
    reflection ``(q, s) -> (s, q)`` maps the directions onto themselves in reverse
    cyclic order.
    """
    geo = geometry(size)
    centre = size - 1
    perms = np.zeros((N_SYMMETRIES, geo.n_interior), dtype=np.int64)
    for reflect in range(2):
        for turn in range(6):
            for cell in range(geo.n_interior):
                c, r = geo.coords[cell]
                q, s = c - centre, r - centre
                if reflect:
                    q, s = s, q
                for _ in range(turn):
                    q, s = q - s, q
                perms[reflect * 6 + turn, cell] = geo.index[(q + centre, s + centre)]
    return perms
