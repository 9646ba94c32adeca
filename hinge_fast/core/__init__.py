"""The rules core: geometry, position strings and the numba kernels.

Layer order (lowest first): ``core`` < ``reference`` < ``board`` < ``search`` <
``protocol`` < ``analysis``, ``records``, ``jobs`` < ``games`` < ``solving`` <
``measure`` < ``web`` < ``commands`` < ``cli``; see docs/architecture.md.

* ``geometry``: cells, notation, neighbours, and the bitboards a ``Board`` keeps;
* ``symmetry``: the board's 12 symmetries as permutations of cells;
* ``tables``: the kernels' global tables, indexed by board side;
* ``fen``: position strings in and out;
* the numba kernels, all on one cell layout (sets of 64-bit words in which each
  direction is one shift): ``sets`` (sets and the geometry of the rules over them),
  ``swipes`` (every token's swipes at once; counting the moves, the n-th move),
  ``moves`` (the move list, playing a move, hashing), ``perft``, ``playouts``
  (uniformly random games and the MCTS playout), ``retro`` (the side-4 solver);
  ``bits`` and ``codes`` hold their word intrinsics and move codes;
* ``jit``: the compiler's decorator and the kernel cache's folder;
* ``kernels``: the one door to the kernels (entry points by side, compile notice).

Nothing here imports numba until ``kernels`` (or a kernel module) is imported, so
parsing a position string never waits for the compiler.
"""

#: Set by the command line, in its own process only: skip numba's probe for a BLAS
#: (an import of scipy.linalg, half a second of every command's start-up) when the
#: first kernel loads; the kernels call no BLAS (``jit.py``).
QUICK_START = False
