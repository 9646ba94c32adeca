"""The one door from the web app to the searchers: start a search in a worker thread,
get its interim results, stop it from any thread, and bound how many run at once.

Every search and every proof the app starts goes through :class:`SearchPool`: a
bounded number of slots (a semaphore taken without waiting: a full pool answers at
once, it never queues), one thread a slot, and per-search memory caps on the
alpha-beta table and the MCTS tree. Closing the pool (the server shutting down) stops
everything running and refuses what comes after.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from ..board import Board
from ..errors import HingeError
from ..search import DEFAULT_ENGINE, ENGINES, Limits, create_searcher, engine_spec
from ..solving.puzzles import proven_moves

#: Engines a person can pick in the app: the registry's, the default (the stronger) first.
ENGINE_NAMES = (DEFAULT_ENGINE,) + tuple(e for e in ENGINES if e != DEFAULT_ENGINE)
#: Memory caps of one search: alpha-beta table (MB) and MCTS tree (nodes, ``mcts.NODE_BYTES`` each).
TABLE_MB = 16
TREE_NODES = 1_000_000
#: The longest search the app runs, seconds (analysis without a limit stops there).
MAX_SECONDS = 120.0
#: The shortest: an alpha-beta search given a time far below a millisecond (1e-300 s) does
#: not end in any time a page would wait for.
MIN_SECONDS = 0.001


class PoolFull(HingeError):
    """Every search slot is taken; the request may be tried again later."""


class ServerStopping(PoolFull):
    """The server is shutting down: no search starts any more."""


@dataclass
class SearchRequest:
    engine: str
    seconds: float
    lines: int = 1  # alpha-beta's MultiPV: the lines scored exactly (an analysis's top moves)
    max_seconds: float = MAX_SECONDS  # the longest search the server runs

    def __post_init__(self):
        if not isinstance(self.engine, str) or self.engine not in ENGINE_NAMES:
            shown = (
                repr(self.engine)
                if len(repr(self.engine)) <= 40
                else repr(self.engine)[:40] + "..."
            )
            raise HingeError(f"unknown engine {shown}: choose {' or '.join(ENGINE_NAMES)}")
        seconds = self.seconds
        if (
            isinstance(seconds, bool)
            or not isinstance(seconds, (int, float))
            or not MIN_SECONDS <= seconds <= self.max_seconds
        ):
            raise HingeError(
                f"time must be from {MIN_SECONDS:g} to {self.max_seconds:g} seconds, not {seconds!r}"
            )


class RunningSearch:
    """One search: ``run(board, on_progress)`` in a worker thread, ``stop()`` from
    anywhere (the run returns its best move so far)."""

    def __init__(self, request: SearchRequest | None):
        self.request = request
        self._stopped = threading.Event()
        self._searcher = None
        self._also: list = []  # more things to stop with it (the analysis's prover)

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set()

    def stop(self) -> None:
        self._stopped.set()
        for other in [self._searcher, *self._also]:
            if other is not None:
                other.stop()

    def also_stop(self, other) -> None:
        """Stop ``other`` (anything with a ``stop()``) with this run, at once if it is
        stopped already."""
        self._also.append(other)
        if self.stopped:
            other.stop()

    def run(self, board: Board, on_progress=None, on_stage=None):
        """The SearchResult of searching ``board`` (a copy is searched).
        ``on_stage("preparing")`` is called before the engine is made ready for the
        board's side (kernels loaded, compiled the first time: this can take a while),
        ``on_stage("searching")`` once the search itself starts."""
        return _search(self, board.copy(), on_progress, on_stage or (lambda stage: None))


def prepare(searcher, board: Board) -> None:
    """Make ``searcher`` ready for ``board``'s side: its kernels loaded (compiled on
    first use) and its memory allocated; ``go`` does it too, but this way the page can
    be told."""
    board.load_kernels()
    searcher.prepare(board)


def _search(run: RunningSearch, board: Board, on_progress, on_stage):
    """The searcher contract: ``create_searcher(name, **options).go(board, limits,
    on_progress)`` with a thread-safe ``stop()``."""
    request = run.request
    assert request is not None  # a search runs with its request
    # the app's caps and wishes, given to each engine that has such an option: one
    # thread a search, so that --searches N uses N cores
    wanted = {
        "table_mb": TABLE_MB,
        "tree_nodes": TREE_NODES,
        "multipv": request.lines,
        "threads": 1,
    }
    names = engine_spec(request.engine).option_names
    options = {name: value for name, value in wanted.items() if name in names}
    on_stage("preparing")
    searcher = create_searcher(request.engine, **options)
    run._searcher = searcher
    prepare(searcher, board)
    on_stage("searching")

    def progress(result):
        # a stop that came just before ``go`` started (which clears its searcher's stop
        # flag) is passed on at the first interim result
        if run.stopped:
            searcher.stop()
        if on_progress is not None:
            on_progress(result)

    # stopped already (before the searcher existed, or while it was prepared): the
    # shortest search, which still gives a move
    seconds = MIN_SECONDS if run.stopped else request.seconds
    return searcher.go(board, Limits(time=seconds), progress)


class SearchPool:
    """At most ``limit`` searches at once, across every game of the app."""

    def __init__(self, limit: int):
        if limit < 1:
            raise HingeError(f"the number of searches at once must be at least 1, not {limit}")
        self.limit = limit
        self._slots = threading.BoundedSemaphore(limit)
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self.running: set[RunningSearch] = set()

        self.closed = False

    def acquire(self, request: SearchRequest | None) -> RunningSearch:
        """A slot for ``request`` (None: a proof, whose prover is given to the run's
        ``also_stop``), or PoolFull at once."""
        if self.closed:
            raise ServerStopping("the server is shutting down")
        if not self._slots.acquire(blocking=False):
            raise PoolFull(
                f"the server is already running {self.limit} searches, its limit (proofs count as searches); "
                "stop one or try again when one ends"
            )
        run = RunningSearch(request)
        with self._lock:
            self.running.add(run)
        return run

    def close(self) -> None:
        """Stop every search and proof, and refuse new ones (the server is stopping)."""
        self.closed = True
        self.stop_all()

    def release(self, run: RunningSearch) -> None:
        with self._lock:
            if run not in self.running:
                return
            self.running.discard(run)
            self._slots.release()
            self._idle.notify_all()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no search runs (every slot given back); False if ``timeout``
        seconds passed first."""
        with self._idle:
            return self._idle.wait_for(lambda: not self.running, timeout)

    def stop_all(self) -> None:
        with self._lock:
            runs = list(self.running)
        for run in runs:
            run.stop()


# ----- the prover ----------------------------------------------------------------------------------
#: The most nodes one request may ask the prover for (a proof of that many nodes takes a
#: second or two), and the default of the analysis and of ``/prove``.
MAX_PROVE_NODES = 100_000
DEFAULT_PROVE_NODES = 20_000
#: The prover's table per request, MB.
PROVE_TABLE_MB = 8


def check_prove_nodes(nodes, most: int = MAX_PROVE_NODES, low: int = 1) -> int:
    """``nodes`` if it is a whole number from ``low`` to ``most``, else HingeError."""
    if isinstance(nodes, bool) or not isinstance(nodes, int) or not low <= nodes <= most:
        raise HingeError(f"the prover's nodes must be from {low:,} to {most:,}, not {nodes!r}")
    return nodes


def new_prover():
    """A prover with the app's table size; its ``stop()`` ends a proof from any thread."""
    from ..search.prover import Prover

    return Prover(table_mb=PROVE_TABLE_MB)


def prove_json(board: Board, nodes: int, prover=None) -> dict:
    """The prover's result for ``board`` within ``nodes`` (``prover``, else a fresh one:
    a fresh table each time): the winner ('green', 'blue' or None), the proof's
    distance, the result in words, the side to move's proven winning moves, and the
    search's nodes and seconds."""
    if board.outcome() is not None:
        raise HingeError("nothing to prove: the game is over")
    prover = new_prover() if prover is None else prover
    result = prover.prove(board.copy(), nodes=nodes, interruptible=False)
    winner = None if result.winner is None else str(result.winner)
    # moves counted as everywhere on the page: one side's turn each; the proof's longest
    # line bounds the win's length
    text = (
        result.text()
        if winner is None
        else f"{winner.capitalize()} wins, proven within {result.distance} moves"
    )
    return {
        "winner": winner,
        "distance": result.distance,
        "text": text,
        "moves": proven_moves(board, result),
        "nodes": result.nodes,
        "seconds": round(result.seconds, 3),
    }
