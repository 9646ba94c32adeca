"""Search: the searchers behind one contract (``registry.py``, ``searcher.py``).

    >>> import hinge_fast
    >>> result = hinge_fast.search_position(hinge_fast.Board(), engine="alphabeta", depth=2)
    >>> result.move in hinge_fast.Board().legal_moves
    True

``create_searcher(name, **options)`` makes a searcher object (it owns its buffers,
table or tree); ``searcher.go(board, limits, on_progress)`` searches and
``searcher.stop()`` (from any thread) ends a search early. ``search_position(...)``
below is a convenience on top: one new searcher per call. Calling this package,
``hinge_fast.search(board, ...)``, calls it too; type checkers accept only the function.
"""

from __future__ import annotations

import sys
import types

from ..board import Board
from ..errors import HingeError
from .limits import DEFAULT_TIME, Limits
from .registry import (
    DEFAULT_ENGINE,
    ENGINES,
    REGISTRY,
    check_limits,
    choose_engine,
    create_searcher,
    engine_spec,
)
from .result import RootMove, SearchResult
from .score import Score
from .searcher import Searcher

__all__ = [
    "search_position",
    "create_searcher",
    "engine_spec",
    "Searcher",
    "Limits",
    "SearchResult",
    "RootMove",
    "Score",
    "ENGINES",
    "REGISTRY",
    "DEFAULT_ENGINE",
    "DEFAULT_TIME",
]


def search_position(
    board: Board,
    engine: str | None = None,
    time: float | None = None,
    nodes: int | None = None,
    depth: int | None = None,
    seed: int | None = None,
    progress=None,
    **options,
) -> SearchResult:
    """Search ``board`` and return a :class:`SearchResult`.

    ``engine``: a name of the registry (None: ``DEFAULT_ENGINE``, alpha-beta, or with a
    ``depth`` the first engine that honours depths); ``time``
    (seconds), ``nodes``, ``depth``: limits, whichever comes first (none given:
    ``DEFAULT_TIME`` seconds; depth only for engines that honour it); ``seed``: makes
    MCTS reproducible (alpha-beta is deterministic under a node or depth limit);
    ``progress``: called with an interim SearchResult after each iteration
    (alpha-beta depth) or every tenth of a second (MCTS); ``options``: engine options
    of the registry such as ``table_mb`` (alpha-beta) or ``tree_nodes`` (MCTS).
    """
    if not isinstance(board, Board):
        raise HingeError(f"search needs a Board, not {type(board).__name__}")
    limits = Limits(time=time, nodes=nodes, depth=depth)
    engine = choose_engine(engine, limits)
    check_limits(engine, limits)
    if seed is not None:
        options["seed"] = seed
    searcher = create_searcher(engine, **options)
    return searcher.go(board, limits, progress)


class _CallableModule(types.ModuleType):
    """``hinge_fast.search`` is this package (``hinge_fast.search.mcts``...), and calling
    it, ``hinge_fast.search(board, ...)``, calls :func:`search_position`."""

    def __call__(self, *args, **kwargs) -> SearchResult:
        return search_position(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
