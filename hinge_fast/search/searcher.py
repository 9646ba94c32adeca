"""The searcher contract: an object that owns its state, entered by ``go`` and left by ``stop``.

Modelled on Stockfish's ``Engine`` (``go(limits)`` / ``stop()``, owning its options and
table) and KataGo's search object::

    >>> from hinge_fast import Board
    >>> from hinge_fast.search import Limits, create_searcher
    >>> searcher = create_searcher("mcts", seed=1)
    >>> result = searcher.go(Board(5), Limits(nodes=200))
    >>> result.engine, result.nodes
    ('mcts', 200)

Every searcher object holds its own buffers, table or tree (reused between ``go``
calls), so two searchers can run at once in one process, each on its own thread.
``stop()`` may be called from any thread: the running ``go`` returns promptly with
the best move found so far (alpha-beta always completes depth 1 first, MCTS one
iteration).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..board import Board
from ..errors import HingeError
from . import tablebase
from .limits import DEFAULT_TIME, Limits, limits_for_move
from .result import SearchResult

#: ``on_progress(result)``: called with an interim SearchResult while a search runs.
Progress = Callable[[SearchResult], None]


class Searcher:
    """Base class of the searchers. Subclasses set ``name`` (their registry name) and
    implement ``_go(board, limits, on_progress)``; options arrive checked by the
    registry (``create_searcher``) as keyword arguments."""

    name: str = ""
    #: Whether a depth limit bounds the search (alpha-beta's); if not, a depth alone is
    #: no limit.
    honours_depth: bool = False
    #: The ``tablebase`` option (``search/tablebase.py``): ``'off'``, ``'auto'`` or a
    #: file; set by ``create_searcher`` for the engines that have the option.
    tablebase: str = "off"

    def __init__(self):
        self._stop = threading.Event()
        self._busy = threading.Lock()

    def go(self, board: Board, limits: Limits, on_progress: Progress | None = None) -> SearchResult:
        """Search ``board`` (not changed) within ``limits`` and return a SearchResult.
        ``on_progress(result)`` gets interim results (after each alpha-beta depth, about
        every 0.1 s for MCTS). One ``go`` at a time per searcher object. Limits that
        bound nothing (no time, no nodes, and no depth the searcher honours) mean
        ``DEFAULT_TIME`` seconds (``default_limits``): the searchers see a bound always.
        A clock in the limits becomes a time for this move (``limits.limits_for_move``).

        With a tablebase (the ``tablebase`` option) and a side-4 position in it, the
        answer is the table's (``tablebase.tablebase_result``): no search is run.
        Otherwise ``board.load_kernels()`` and ``prepare(board)`` run first, outside the
        time limit."""
        if not isinstance(board, Board):
            raise HingeError(f"search needs a Board, not {type(board).__name__}")
        if not isinstance(limits, Limits):
            raise HingeError(f"limits must be a Limits, not {type(limits).__name__}")
        if not self._busy.acquire(blocking=False):
            raise HingeError(
                f"this {self.name} searcher is already searching: use one searcher per thread"
            )
        turn = board.turn

        def tell(result):
            result.turn = turn  # whom the score is for
            on_progress(result)

        progress = None if on_progress is None else tell
        try:
            self._stop.clear()
            if board.size == tablebase.SIDE and self.tablebase != tablebase.OFF:
                result = self._from_tablebase(board)
                if result is not None:
                    if progress is not None:
                        progress(result)
                    result.turn = turn
                    return result
            board.load_kernels()
            self.prepare(board)
            result = self._go(board, self.default_limits(limits_for_move(limits, board)), progress)
            if result is not None:
                result.turn = turn
            return result
        finally:
            self._busy.release()

    def prepare(self, board: Board) -> None:
        """Pay now the one-time costs of searching a position of ``board``'s side:
        load the kernels from numba's cache (or compile them), allocate buffers, table
        or tree. ``go`` calls it before its clock starts, so a first search (the command
        line's only one) gets all of its time; a front end may call it earlier, when it
        knows the side. Cheap once done."""

    def default_limits(self, limits: Limits) -> Limits:
        """``limits``, with ``DEFAULT_TIME`` seconds when they bound nothing this
        searcher honours.

        >>> Searcher().default_limits(Limits(depth=3))
        Limits(time=1.0, nodes=None, depth=3)
        >>> Searcher().default_limits(Limits(nodes=50))
        Limits(time=None, nodes=50, depth=None)
        """
        if (
            limits.time is None
            and limits.nodes is None
            and (limits.depth is None or not self.honours_depth)
        ):
            return Limits(time=DEFAULT_TIME, depth=limits.depth)
        return limits

    def _from_tablebase(self, board: Board) -> SearchResult | None:
        tb = tablebase.tablebase_for(self.tablebase)
        return None if tb is None else tablebase.tablebase_result(board, tb, self.name)

    def stop(self) -> None:
        """Ask the running ``go`` (if any) to return its best move so far. Thread-safe."""
        self._stop.set()

    def share_stop(self, leader: Searcher) -> None:
        """Stop whenever ``leader`` is stopped: the two share one stop event (the
        threads of a multi-threaded search each run a searcher of their own)."""
        self._stop = leader._stop

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def _go(self, board: Board, limits: Limits, on_progress: Progress | None) -> SearchResult:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
