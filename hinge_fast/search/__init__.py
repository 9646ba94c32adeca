"""Search: alpha-beta and MCTS behind one entry point.

    >>> import hinge_fast
    >>> result = hinge_fast.search(hinge_fast.Board(), engine="alphabeta", depth=2)
    >>> result.move in hinge_fast.Board().legal_moves
    True
"""

from __future__ import annotations

import sys
import types

from ..board import Board
from ..errors import HingeError
from .limits import DEFAULT_TIME, Limits
from .result import RootMove, SearchResult

ENGINES = ("alphabeta", "mcts")

__all__ = ["search", "Limits", "SearchResult", "RootMove", "ENGINES", "DEFAULT_TIME"]


def search(
    board: Board,
    engine: str = "alphabeta",
    time: float | None = None,
    nodes: int | None = None,
    depth: int | None = None,
    seed: int | None = None,
    progress=None,
    **options,
) -> SearchResult:
    """Search ``board`` and return a :class:`SearchResult`.

    ``engine``: ``'alphabeta'`` or ``'mcts'``; ``time`` (seconds), ``nodes``,
    ``depth``: limits, whichever comes first (none given: ``DEFAULT_TIME`` seconds);
    ``seed``: makes MCTS reproducible (alpha-beta is deterministic under a node or
    depth limit); ``progress``: called with an interim SearchResult after each
    iteration (alpha-beta depth) or every tenth of a second (MCTS); ``options``:
    engine options such as ``table_mb`` (alpha-beta) or ``tree_nodes`` (MCTS).
    """
    if not isinstance(board, Board):
        raise HingeError(f"search needs a Board, not {type(board).__name__}")
    limits = Limits(time=time, nodes=nodes, depth=depth)
    if limits.unlimited:
        limits = Limits(time=DEFAULT_TIME)
    if engine == "alphabeta":
        from .alphabeta import search_alphabeta

        return search_alphabeta(board, limits, seed=seed, progress=progress, **options)
    if engine == "mcts":
        from .mcts import search_mcts

        return search_mcts(board, limits, seed=seed, progress=progress, **options)
    raise HingeError(f"unknown engine {engine!r}: choose {' or '.join(ENGINES)}")


class _CallableModule(types.ModuleType):
    """``hinge_fast.search`` is both this package (``hinge_fast.search.mcts``...) and
    the function above (``hinge_fast.search(board, ...)``): calling the module calls
    ``search``."""

    def __call__(self, *args, **kwargs):
        return search(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
