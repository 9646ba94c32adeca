"""The rules core: geometry, position strings and the numba kernels.

Layer order (lowest first): ``core`` < ``reference`` < ``board`` < ``search`` <
``protocol`` < ``tools`` < ``web`` < ``commands`` < ``cli``; see docs/architecture.md.

* ``geometry``: cells, notation, neighbours, and the bitboards a ``Board`` keeps;
* ``tables``: the kernels' global tables, indexed by board side;
* ``fen``: position strings in and out;
* the numba kernels, all on one cell layout (sets of 64-bit words in which each
  direction is one shift): ``sets`` (sets and the geometry of the rules over them),
  ``swipes`` (every token's swipes at once; counting the moves, the n-th move),
  ``moves`` (the move list, playing a move, hashing), ``perft``, ``playouts``
  (uniformly random games and the MCTS playout), ``retro`` (the side-4 solver);
  ``bits`` and ``codes`` hold their word intrinsics and move codes;
* ``kernels``: the one door to the kernels (compile notice, stale-cache check).

Nothing here imports numba until ``kernels`` (or a kernel module) is imported, so
parsing a position string never waits for the compiler.
"""

import os as _os
from pathlib import Path as _Path


def kernel_cache_dir() -> _Path:
    """Where numba keeps the compiled kernels: ``NUMBA_CACHE_DIR`` if set, else
    ``hinge-fast/numba`` in the user's cache folder (``XDG_CACHE_HOME`` or ``~/.cache``).

    Never inside the installed package: pip leaves a cache folder behind when it
    replaces an install, and a leftover ``hinge_fast/__pycache__`` without its
    ``__init__.py`` would be imported as an empty namespace package.
    """
    return _Path(_os.environ["NUMBA_CACHE_DIR"])


if not _os.environ.get("NUMBA_CACHE_DIR"):
    # Chosen before numba is imported (numba reads it once, at import).
    _base = _os.environ.get("XDG_CACHE_HOME") or _os.path.join(_os.path.expanduser("~"), ".cache")
    _os.environ["NUMBA_CACHE_DIR"] = _os.path.join(_base, "hinge-fast", "numba")
