"""Alpha-beta search: the driver of the recursion of ``negamax.py``, one depth at a
time, on one thread or more, and its searcher class.

    >>> from hinge_fast import Board
    >>> from hinge_fast.search import Limits
    >>> from hinge_fast.search.alphabeta import AlphaBetaSearcher
    >>> result = AlphaBetaSearcher().go(Board(), Limits(depth=2))
    >>> result.depth, result.move in Board().legal_moves
    (2, True)

The modules of the search: ``negamax.py`` (the recursion and the quiescence, the state
slots and buffers the kernels share with this driver), ``tt.py`` (the transposition table) and
``intrinsics.py`` (the clock, prefetch and unowned views); this one drives them.

* **Iterative deepening** is driven from Python: one call of the kernel
  (``negamax.search_depth``) at the root per depth, so ``progress`` can be called
  between depths. Depth 1 always completes, whatever the limits, so a search always
  returns a legal move.
* **Time use**: under a time limit a new depth is started whenever time is left
  (``starts_next_depth``), not only while it can finish: an unfinished depth searches
  the previous best move first, and a move it finds better is played, so the whole
  budget is used.
* **Ctrl-C and stop**: each depth runs in a worker thread (the kernels release the
  GIL); the calling thread waits on an Event, and on KeyboardInterrupt (or once
  ``stop()`` was called from any thread) sets the deadline to zero, so the search
  stops within ``CLOCK_EVERY`` nodes and returns the best move found so far. A move
  that the unfinished depth proved better than the previous best (which it searches
  first) is played.
* **Time**: the one-time costs (loading the side's kernels, allocating the buffers and
  table) are paid by ``prepare``, before the clock starts; the budget then covers the
  rest of the ``go`` call, root set-up to the returned result: the kernel's deadline is
  the search's start plus the time limit minus ``RESULT_RESERVE_NS``.
* **Threads (Lazy SMP)**: with ``threads`` = T > 1 (the default: every core), T - 1
  helper threads (``_LazySMP``) search the same root at once, each with its own buffers
  (killers, history, PV, about 30 MB each: ``negamax.new_buffers``) and sharing only the
  transposition table, which needs no lock (``tt.py``). Helpers skip depths as
  Stockfish's do (``SKIP_SIZE``) and start from a rotated root order, so they fill the
  table ahead of and beside the main thread. The main thread's iterative deepening
  decides the move; a helper that completed a deeper iteration replaces its result. A
  node limit is shared out among the threads; ``nodes`` counts all of them. The PV is
  continued from the table (``_pv_from_table``). With one thread a search under a node
  or depth limit is deterministic; with more, node counts, the move among equal scores
  and the PV vary from run to run; with ``selective=0`` a fixed-depth score stays
  the depth-limited minimax value (the table cuts off only at the exact depth).
* **MultiPV** (``multipv`` = K, as Stockfish's MultiPV): at each depth the root is
  searched K times with a full window, each search over the root moves the earlier
  ones did not take: line 1 is the best move, line 2 the best of the others, and so
  on. Each line gets a score at that depth, exact with ``selective=0``, and its
  principal variation (``root_moves[:K]``, best first: with the selective search a
  later line can score above an earlier one, and the lines are then sorted; the other
  root moves have no score). Depth 1 completes all its lines whatever the limits;
  with K > 1 a depth stopped part way is dropped, so every line of a result is of its
  ``depth``. K = 1 (the default) is the search for play. Helper threads (Lazy SMP)
  fill the table for the lines; with K > 1 the main thread's lines are the result.
"""

from __future__ import annotations

import threading
import time as _time
from typing import NamedTuple

import numpy as np

from ..core import kernels, workers
from ..core.geometry import geometry
from ..core.sets import set_like
from ..core.tables import workspace
from ..errors import HingeError
from .alphabeta_config import (
    DEFAULT_EVALUATOR,
    DEFAULT_QUIESCENCE,
    DEFAULT_QUIESCENCE_PLIES,
    DEFAULT_TABLE_MB,
    MAX_QUIESCENCE_PLIES,
    AlphaBetaConfig,
)
from .evaluate import MATE_BOUND, WIN, get_evaluator
from .intrinsics import clock_ns, unowned  # noqa: F401  (re-exported)
from .limits import MAX_DEPTH, Limits
from .negamax import (  # noqa: F401  (re-exported: negamax, repeated, search_depth)
    ABORTED,
    CAN_ABORT,
    DEADLINE,
    HISTORY_ROOM,
    INFINITE,
    NODE_LIMIT,
    NODES,
    ROOT_BEST,
    ROOT_COUNT,
    ROOT_DONE,
    SearchBuffers,
    SearchConfig,
    negamax,
    new_buffers,
    repeated,
    search_config,
    search_depth,
)
from .options import DEFAULT_THREADS
from .registry import create_searcher
from .result import RootMove, SearchResult
from .score import Score
from .searcher import Searcher
from .tt import (  # noqa: F401  (re-exported: the entry encoder and decoder)
    NO_TABLE,
    TranspositionTable,
    entry_bound,
    entry_depth,
    entry_generation,
    entry_move,
    entry_score,
    pack_entry,
    stored_move,
    table_store,
)

#: The word counts (``tables.SHIFT_WORDS_OF``) whose kernels this process has loaded.
_LOADED_WORDS: set[int] = set()
#: Nanoseconds kept back from a time limit for building the result after the kernel
#: stops: this fraction of the limit, at most RESULT_RESERVE_NS.
RESULT_RESERVE_NS = 5_000_000
RESULT_RESERVE_FRACTION = 0.1
#: Time limits up to this are searched in the calling thread itself, as are all
#: searches called from threads other than the main one: handing each depth to a
#: worker thread (for Ctrl-C) costs a wake-up of another thread, up to milliseconds
#: on a loaded machine. ``stop()`` works either way (it sets the kernel's deadline);
#: Ctrl-C is then noticed when the depth ends, at most this long after.
INLINE_TIME_NS = 100_000_000
#: Most worker threads running kernels at once (main searches and Lazy SMP helpers of
#: every searcher of the process); idle ones are reused.
MAX_WORKERS = 1024
#: Search buffers and tables of dropped searchers kept for the next ones (at most this
#: many of each), so that a searcher made for one call does not allocate ~100 MB.
POOL_KEEP = 4


class _Pool:
    """Buffers and tables of dropped searchers, kept (``POOL_KEEP`` of each) for the
    searchers made after them: ``hinge_fast.search`` makes a searcher per call, and
    allocating and writing ~100 MB each time took longer than a 0.01 s search. A
    table's generation counter goes with it, so a reused table's old entries are
    ignored as in any new search."""

    def __init__(self):
        self.lock = threading.Lock()
        self.free_buffers: list[SearchBuffers] = []
        self.free_tables: list[TranspositionTable] = []

    def buffers(self) -> SearchBuffers:
        with self.lock:
            if self.free_buffers:
                return self.free_buffers.pop()
        return new_buffers()

    def table(self, table_mb) -> TranspositionTable:
        entries = TranspositionTable.entries_for(table_mb)
        with self.lock:
            for i, table in enumerate(self.free_tables):
                if len(table.keys) == entries:
                    return self.free_tables.pop(i)
        return TranspositionTable(table_mb)

    def give_back(self, buffers, helper_buffers, table):
        with self.lock:
            for b in ([buffers] if buffers is not None else []) + list(helper_buffers):
                if len(self.free_buffers) < POOL_KEEP:
                    self.free_buffers.append(b)
            if table is not None and len(self.free_tables) < POOL_KEEP:
                self.free_tables.append(table)


POOL = _Pool()


def score_of(score: int) -> Score:
    """The :class:`Score` of a search score: centi-tokens, or a proven win/loss.

    >>> str(score_of(125)), str(score_of(WIN - 3)), str(score_of(-(WIN - 4)))
    ('+1.25', 'win in 3', 'loss in 4')
    """
    plies = mate_plies(int(score))
    return Score.centi(int(score)) if plies is None else Score.from_mate(plies)


def score_text(score: int) -> str:
    """``str(score_of(score))``: ``+1.25``, ``win in 3`` or ``loss in 4``."""
    return str(score_of(score))


def mate_plies(score: int) -> int | None:
    """Plies to a proven win (>0) or loss (<0), else None."""
    if score >= MATE_BOUND:
        return WIN - score
    if score <= -MATE_BOUND:
        return -(WIN + score)
    return None


def _clear_history(history, size) -> None:
    """Zero the part of the history table a search on side ``size`` can read or write:
    it is indexed by ``from | to << 9`` (``move & 0x3FFFF``), and every cell index is
    below ``n_cells``. (The whole 2 MB table took about 0.1 ms to clear, 1% of a 0.01 s
    search; side 4 uses 37 << 9 entries of it.)"""
    history[: geometry(size).n_cells << 9].fill(0)


def _history_hashes(board) -> list[int]:
    """Hashes of the game positions before ``board`` since its last placement, oldest
    first (a placement adds a token for good, so nothing earlier can recur)."""
    start = 0
    for i, move in enumerate(board.move_stack):
        if not move.is_swipe:
            start = i + 1
    return board.history_keys()[start:][-HISTORY_ROOM:]


class RootCall(NamedTuple):
    """The arguments of ``negamax.search_depth`` that stay the same for every depth of
    one search and thread: the root position, the search's constants, the thread's
    buffers and the table."""

    size: int
    colour: int
    own: np.ndarray
    enemy: np.ndarray
    key: np.uint64
    config: SearchConfig
    buf: SearchBuffers
    keys: np.ndarray
    data: np.ndarray
    like: tuple


def search_root(call: RootCall, depth: int):
    """The root of ``call`` searched ``depth`` plies deep with a full window."""
    return search_depth(
        call.size,
        call.colour,
        call.own,
        call.enemy,
        call.key,
        depth,
        0,
        -INFINITE,
        INFINITE,
        call.config,
        call.buf,
        call.keys,
        call.data,
        call.like,
    )


def _search_interruptible(call, depth, should_stop):
    """``search_root(call, depth)`` on a worker thread (``core/workers.py``); Ctrl-C in
    the calling thread, or ``should_stop()`` turning true (polled every 5 ms), stops it
    through the buffers' deadline. Returns ``(score, interrupted)``."""
    state = call.buf.state

    def halt():
        state[DEADLINE] = 0  # the kernel reads it every CLOCK_EVERY nodes

    work = workers.run([lambda: search_root(call, depth)], halt, 0.005, should_stop)
    return work.results[0], work.stopped


class AlphaBetaSearcher(Searcher):
    """The alpha-beta searcher (registry name ``alphabeta``; its defaults are the
    engine's). It owns its buffers and transposition table, allocated at its first
    ``go`` and reused by every ``go`` after.

    ``table_mb``: table size (0: none); ``multipv``: the lines searched at each depth,
    each with an exact score (module docstring, "MultiPV"; more than the legal moves:
    all of them); ``evaluator``: the leaf evaluation (``search/evaluate.py``); ``quiescence``, ``quiescence_plies``: the
    quiescence search (module docstring); ``threads``: Lazy SMP helper threads plus this one
    (module docstring, "Threads"); ``selective``: null move, futility pruning (both
    kinds), late move reductions and late move pruning (``negamax.py``); off, the
    search is full width and a fixed-depth score is the depth-limited minimax value.
    They are kept as ``config`` (an ``AlphaBetaConfig``) for the searcher's life. With
    one thread, under a node or depth limit, the same position gives the same result.

    >>> from hinge_fast import Board
    >>> AlphaBetaSearcher(table_mb=1, threads=1).go(Board(size=4), Limits(depth=1)).depth
    1
    """

    name = "alphabeta"
    honours_depth = True

    def __init__(
        self,
        table_mb=DEFAULT_TABLE_MB,
        multipv=1,
        evaluator=DEFAULT_EVALUATOR,
        threads=DEFAULT_THREADS,
        quiescence=DEFAULT_QUIESCENCE,
        quiescence_plies=DEFAULT_QUIESCENCE_PLIES,
        selective=1,
    ):
        super().__init__()
        if int(multipv) < 1:
            raise HingeError(f"multipv must be at least 1, not {multipv!r}")
        self.evaluator = get_evaluator(evaluator)
        self.config = AlphaBetaConfig(
            table_mb=table_mb,
            multipv=int(multipv),
            evaluator=self.evaluator.name,
            quiescence=int(quiescence),
            quiescence_plies=min(int(quiescence_plies), MAX_QUIESCENCE_PLIES),
            selective=bool(selective),
            threads=int(threads),
        )
        self.helper_buffers: list[SearchBuffers] = []  # one per helper thread (Lazy SMP)
        self.buffers: SearchBuffers | None = None  # allocated by the first go, in its budget
        self.table: TranspositionTable | None = None
        self.root_list = workspace(1)  # the root's moves, listed by every go

    @property
    def threads(self) -> int:
        return self.config.threads

    def stop(self) -> None:
        super().stop()
        for buffers in [self.buffers] + self.helper_buffers:
            if buffers is not None:
                buffers.state[DEADLINE] = 0  # the kernel reads it every CLOCK_EVERY nodes

    def prepare(self, board) -> None:
        """Allocate the buffers and table (once) and load the kernels of ``board``'s
        side (once a process): ``Searcher.prepare``."""
        if self.buffers is None:
            self.buffers = POOL.buffers()
            if self.config.table_mb > 0:
                self.table = POOL.table(self.config.table_mb)
        while len(self.helper_buffers) < self.threads - 1:
            self.helper_buffers.append(POOL.buffers())
        words = len(set_like(board.size))
        if words not in _LOADED_WORDS:
            # Each kernel once for this word count: a search of no root move, the root's
            # list and a table read.
            buf = self.buffers
            buf.state[:] = 0
            keys, data = (self.table.keys, self.table.data) if self.table is not None else NO_TABLE
            search_depth(
                board.size,
                0,
                board.own,
                board.enemy,
                np.uint64(0),
                1,
                0,
                -INFINITE,
                INFINITE,
                search_config(1, 0, 0, 0, 0, 0, 0),
                buf,
                keys,
                data,
                set_like(board.size),
            )
            root = self.root_list
            kernels.legal_moves(
                board.size,
                board.own,
                board.enemy,
                root.moves[0],
                root.flips[0],
                root.scratch,
                root.group_of_bit,
            )
            stored_move(keys, data, np.uint64(0), 1)
            _LOADED_WORDS.add(words)

    def _go(self, board, limits, progress):
        return _search(self, board, limits, progress, _time.monotonic_ns())

    def __del__(self):
        # The buffers and table go back to the pool for the next searcher.
        try:
            POOL.give_back(self.buffers, self.helper_buffers, self.table)
        except Exception:  # interpreter shutdown: nothing to keep
            pass


def search_alphabeta(board, limits: Limits, progress=None, **options) -> SearchResult:
    """Alpha-beta search of ``board`` within ``limits`` by a new searcher with
    ``options`` (see :class:`AlphaBetaSearcher`); returns a SearchResult.
    ``progress(result)`` is called after each completed depth.

    >>> from hinge_fast import Board
    >>> search_alphabeta(Board(size=5), Limits(depth=1)).depth
    1
    """
    return create_searcher("alphabeta", **options).go(board, limits, progress)


def _search(searcher, board, limits, progress, start):
    listed = searcher.root_list
    n_root = int(
        kernels.legal_moves(
            board.size,
            board.own,
            board.enemy,
            listed.moves[0],
            listed.flips[0],
            listed.scratch,
            listed.group_of_bit,
        )
    )
    codes, flips = listed.moves[0, :n_root], listed.flips[0, :n_root]
    if n_root == 0:
        return SearchResult(move=None, score=Score.loss(0), engine="alphabeta")
    buf = searcher.buffers
    if searcher.table is not None:
        keys, data = searcher.table.keys, searcher.table.data
        generation = searcher.table.next_generation()
    else:
        (keys, data), generation = NO_TABLE, 1
    own, enemy = board.own, board.enemy
    colour = int(board.turn)
    root_key = np.uint64(board.zobrist_key)
    history = _history_hashes(board)
    buf.line[: len(history)] = np.array(history, dtype=np.uint64)
    buf.line[len(history)] = root_key
    _clear_history(buf.history, board.size)
    buf.killers.fill(0)
    state = buf.state
    state[:] = 0
    options = searcher.config
    config = search_config(
        generation,
        searcher.table is not None,
        len(history),
        searcher.evaluator.kernel_id,
        options.quiescence,
        options.quiescence_plies,
        options.selective,
    )
    weights = searcher.evaluator.weights_for(board.size)  # side 4 has its own (search/weights.py)
    buf.weights[: len(weights)] = weights

    root = RootOrder(codes.copy(), flips.copy(), np.zeros(n_root, dtype=np.int64))
    call = RootCall(
        board.size, colour, own, enemy, root_key, config, buf, keys, data, set_like(board.size)
    )
    state[ROOT_COUNT] = n_root
    state[NODES] = 0
    threads = searcher.threads
    state[NODE_LIMIT] = _node_share(limits.nodes, threads, 0)
    budget_ns = max(1, int(limits.time * 1e9)) if limits.time is not None else None
    # The deadline leaves room for building the result after the kernel stops.
    reserve = min(RESULT_RESERVE_NS, int(RESULT_RESERVE_FRACTION * budget_ns)) if budget_ns else 0
    state[DEADLINE] = start + budget_ns - reserve if budget_ns else np.iinfo(np.int64).max
    if searcher.stopping:
        state[DEADLINE] = 0
    plan = Plan(start, limits.depth or MAX_DEPTH, budget_ns)
    helpers = _LazySMP(searcher, call, root, limits, plan.max_depth) if threads > 1 else None
    try:
        return _main_search(searcher, board, progress, call, root, plan, helpers)
    finally:
        if helpers is not None:
            helpers.finish()


class RootOrder(NamedTuple):
    """The root's moves, their flipped groups and the nodes each took at the last
    depth, in search order (the lines found so far first); reordered in place."""

    moves: np.ndarray
    flips: np.ndarray
    nodes: np.ndarray

    def reorder(self, order) -> None:
        self.moves[:] = self.moves[order]
        self.flips[:] = self.flips[order]
        self.nodes[:] = self.nodes[order]


class Plan(NamedTuple):
    """A search's fixed bounds: its start (monotonic ns), deepest depth and time budget
    (ns, None: no time limit)."""

    start: int
    max_depth: int
    budget_ns: int | None


def _main_search(searcher, board, progress, call, root, plan, helpers):
    """The main thread's iterative deepening (the only thread with ``threads=1``): at
    each depth, ``multipv`` lines, each a search of the root moves not yet taken by an
    earlier line (module docstring, "MultiPV")."""
    buf = call.buf
    state = buf.state
    root_moves, root_flips, root_nodes = root
    start, max_depth, budget_ns = plan
    n_root = len(root_moves)
    n_lines = min(searcher.config.multipv, n_root)

    result = None
    interrupted = False
    inline = threading.current_thread() is not threading.main_thread() or (
        budget_ns is not None and budget_ns <= INLINE_TIME_NS
    )
    try:
        for depth in range(1, max_depth + 1):
            lines = []  # (code, score, pv codes, nodes) of each line done at this depth
            root_nodes[:] = 0
            for k in range(n_lines):
                count = n_root - k
                state[CAN_ABORT] = 0 if depth == 1 else 1  # depth 1 completes, every line of it
                state[ROOT_COUNT] = count
                state[ROOT_DONE] = 0
                state[ROOT_BEST] = 0
                buf.moves[0, :count] = root_moves[k:]
                buf.flips[0, :count] = root_flips[k:]
                if inline:
                    best = search_root(call, depth)
                    interrupted |= searcher.stopping
                else:
                    best, stopped = _search_interruptible(call, depth, lambda: searcher.stopping)
                    interrupted |= stopped
                seconds = (_time.monotonic_ns() - start) / 1e9
                pv_codes = buf.pv[0, : buf.pv_length[0]].copy()
                pv_codes = _pv_from_table(
                    board, pv_codes, call.keys, call.data, int(call.config.generation), depth
                )
                best_index, done = k + int(state[ROOT_BEST]), int(state[ROOT_DONE])
                if state[ABORTED]:
                    # One line: a move finished in the unfinished depth that beats the
                    # previous best (which is searched first) is better at this depth:
                    # take it, with the score it earned at this depth (its line was
                    # searched to this depth in full). Several lines: the unfinished
                    # depth is dropped, so that every line reported is of one depth.
                    if n_lines == 1 and done > 0 and best_index > 0 and result is not None:
                        line = (
                            int(root_moves[best_index]),
                            int(buf.root_info[0, best_index]),
                            pv_codes,
                            int(buf.root_info[2, best_index]),
                        )
                        made = _build_result(
                            board,
                            [line],
                            [],
                            _all_nodes(state, helpers),
                            seconds,
                            depth,
                            previous=result(),
                        )
                        result = lambda made=made: made  # noqa: E731
                        if progress is not None:
                            progress(made)
                    break
                root_nodes[k:] += buf.root_info[2, :count]
                lines.append(
                    (int(root_moves[best_index]), int(best), pv_codes, int(root_nodes[best_index]))
                )
                # The line's move goes to place k, the others keep their order.
                root.reorder(
                    np.concatenate(
                        (
                            np.arange(k),
                            [best_index],
                            np.arange(k, best_index),
                            np.arange(best_index + 1, n_root),
                        )
                    )
                )
            if len(lines) < n_lines:
                break  # the depth was not finished
            if n_lines > 1:
                # Every line is searched with a full window, but what the selective search
                # prunes depends on the window, so a later line can score above an earlier
                # one: the lines are listed best first (a stable sort, as Stockfish's MultiPV).
                by_score = sorted(range(n_lines), key=lambda j: -lines[j][1])
                lines = [lines[j] for j in by_score]
                root.reorder(
                    np.concatenate((by_score, np.arange(n_lines, n_root))).astype(np.int64)
                )
            now = _time.monotonic_ns()
            others = list(zip(root_moves[n_lines:].tolist(), root_nodes[n_lines:].tolist()))
            # The result is built only when needed (progress, or the end): building one
            # costs a millisecond or so, a lot of a 0.01 s search with several depths.
            result = _lazy_result(
                board, lines, others, _all_nodes(state, helpers), (now - start) / 1e9, depth
            )
            if progress is not None:
                progress(result())
            if interrupted or searcher.stopping:
                break
            plies = [mate_plies(line[1]) for line in lines]
            if all(p is not None and abs(p) <= depth for p in plies):
                break  # results proven within the horizon cannot change with depth
            if state[NODES] >= state[NODE_LIMIT]:
                break
            if budget_ns and not starts_next_depth(now - start, budget_ns):
                break
            # Next depth: the lines first, in their order, then the others by the effort
            # they took.
            order = n_lines + np.argsort(-root_nodes[n_lines:], kind="stable")
            root.reorder(np.concatenate((np.arange(n_lines), order)))
    except KeyboardInterrupt:
        # Ctrl-C while a depth ran in this thread (``inline``): the best move of the
        # depths done (none done: the interrupt goes on).
        if result is None:
            raise
    result = result()
    if helpers is not None:
        helpers.finish()
        deeper = helpers.deeper_than(result.depth, board) if n_lines == 1 else None
        if deeper is not None:
            result = deeper  # a helper completed a deeper iteration than the main thread
    seconds = (_time.monotonic_ns() - start) / 1e9
    result.nodes = _all_nodes(state, helpers)
    result.seconds = seconds
    result.nps = result.nodes / seconds if seconds > 0 else 0.0
    return result


def starts_next_depth(used_ns, budget_ns) -> bool:
    """Whether a time-limited search starts another depth, ``used_ns`` into a budget of
    ``budget_ns``: whenever time is left. An unfinished depth searches the previous
    best move first, and a move it finds better is played, so the rest of the time is
    used rather than thrown away (measured against stopping once half the time was used
    or when the next depth surely could not finish: 0.0 Elo, -48.5 to +48.5, over 200
    games at 0.05 s a move; the same share of won side-4 positions solved).

    >>> starts_next_depth(60, 100), starts_next_depth(100, 100)
    (True, False)
    """
    return used_ns < budget_ns


def _lazy_result(board, lines, others, nodes, seconds, depth):
    """A function making (once) the SearchResult of a completed depth (``_build_result``)."""
    made = []

    def make():
        if not made:
            made.append(_build_result(board, lines, others, nodes, seconds, depth))
        return made[0]

    return make


def _all_nodes(state, helpers) -> int:
    """Nodes searched by the main thread and the helpers."""
    return int(state[NODES]) + (helpers.nodes() if helpers is not None else 0)


def _node_share(nodes, threads, k) -> int:
    """Thread ``k``'s part of a node limit (no limit: the largest int64)."""
    if not nodes:
        return np.iinfo(np.int64).max
    return max(1, nodes // threads + (1 if k < nodes % threads else 0))


#: Stockfish's depth skipping for Lazy SMP helpers (by helper index modulo 20): helper
#: i skips depth d when ((d + SKIP_PHASE[i]) // SKIP_SIZE[i]) is odd, so the helpers
#: spread over the depths around the main thread's.
SKIP_SIZE = (1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4)
SKIP_PHASE = (0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7)


def _skips(helper: int, depth: int) -> bool:
    i = (helper - 1) % len(SKIP_SIZE)
    return depth > 1 and ((depth + SKIP_PHASE[i]) // SKIP_SIZE[i]) % 2 == 1


class _LazySMP:
    """Helper threads of one search: each runs its own iterative deepening on the root
    with its own buffers (``searcher.helper_buffers``), skipping depths (``SKIP_SIZE``)
    and starting from a rotated root order, and shares only the transposition table,
    written and read without locks (``table_store``: the XOR check). ``finish`` stops
    them (deadline 0: within ``CLOCK_EVERY`` nodes) and joins them."""

    def __init__(self, searcher, call, root, limits, max_depth):
        buf = call.buf
        self.done = threading.Event()
        self.keys, self.data, self.generation = call.keys, call.data, int(call.config.generation)
        self.buffers = searcher.helper_buffers[: searcher.threads - 1]
        self.completed = [None] * len(self.buffers)  # per helper: its deepest completed iteration
        n_root = len(root.moves)
        length = int(call.config.history_length) + 1
        jobs = []
        for h, hbuf in enumerate(self.buffers, start=1):
            hbuf.line[:length] = buf.line[:length]
            _clear_history(hbuf.history, call.size)
            hbuf.killers.fill(0)
            hs = hbuf.state
            hs[:] = 0
            hs[DEADLINE] = buf.state[DEADLINE]
            hbuf.weights[:] = buf.weights
            hs[ROOT_COUNT] = n_root
            hs[CAN_ABORT] = 1
            hs[NODE_LIMIT] = _node_share(limits.nodes, searcher.threads, h)
            shift = h * n_root // searcher.threads
            moves, flips = np.roll(root.moves, -shift), np.roll(root.flips, -shift, axis=0)
            hcall = RootCall(
                call.size,
                call.colour,
                call.own,
                call.enemy,
                call.key,
                call.config,
                hbuf,
                call.keys,
                call.data,
                call.like,
            )
            jobs.append(
                lambda h=h, hcall=hcall, moves=moves, flips=flips: self._run(
                    h, hcall, moves, flips, max_depth
                )
            )
        self.work = workers.start(jobs, self.stop)

    def _run(self, h, call, moves, flips, max_depth):
        hbuf = call.buf
        state = hbuf.state
        n = len(moves)
        nodes = np.zeros(n, dtype=np.int64)
        for depth in range(1, max_depth + 1):
            if self.done.is_set() or state[ABORTED]:
                return
            if _skips(h, depth):
                continue
            state[ROOT_DONE] = 0
            state[ROOT_BEST] = 0
            hbuf.moves[0, :n] = moves
            hbuf.flips[0, :n] = flips
            best = search_root(call, depth)
            if state[ABORTED]:
                return
            best_index = int(state[ROOT_BEST])
            nodes[:] = hbuf.root_info[2, :n]
            self.completed[h - 1] = (
                depth,
                int(best),
                moves.copy(),
                hbuf.root_info[:, :n].copy(),
                best_index,
                hbuf.pv[0, : hbuf.pv_length[0]].copy(),
            )
            plies = mate_plies(int(best))
            if plies is not None and abs(plies) <= depth:
                return
            order = np.argsort(-nodes, kind="stable")
            order = np.concatenate(([best_index], order[order != best_index]))
            moves[:] = moves[order]
            flips[:] = flips[order]
            nodes[:] = nodes[order]

    def stop(self):
        """Make the helpers end (deadline 0: within ``CLOCK_EVERY`` nodes)."""
        self.done.set()
        for hbuf in self.buffers:
            hbuf.state[DEADLINE] = 0

    def finish(self):
        """Stop the helpers and wait for them (a few hundred nodes each)."""
        self.work.stop()
        self.work.wait()

    def nodes(self) -> int:
        return sum(int(hbuf.state[NODES]) for hbuf in self.buffers)

    def deeper_than(self, depth: int, board) -> SearchResult | None:
        """The result of the deepest iteration a helper completed, if deeper than ``depth``."""
        done = [c for c in self.completed if c is not None and c[0] > depth]
        if not done:
            return None
        d, best, moves, info, best_index, pv = max(done, key=lambda c: c[0])
        if len(pv) == 0 or pv[0] != moves[best_index]:
            pv = moves[best_index : best_index + 1]
        pv = _pv_from_table(board, pv, self.keys, self.data, self.generation, d)
        others = [(int(moves[i]), int(info[2, i])) for i in range(len(moves)) if i != best_index]
        return _build_result(
            board, [(int(moves[best_index]), best, pv, int(info[2, best_index]))], others, 0, 0.0, d
        )


def _build_result(board, lines, others, nodes, seconds, depth, previous=None) -> SearchResult:
    """The SearchResult of a search to ``depth``: ``lines`` holds ``(code, score, pv
    codes, nodes)`` of the moves scored at this depth, best first (the first is the
    move played; each line's moves are kept as long as they are legal), ``others``
    ``(code, nodes)`` of the root moves without a score, listed after them. With
    ``previous`` (the last completed depth's result, after an unfinished depth) its root
    moves stand in for ``others``, with their scores of that depth (``RootMove.depth``
    says which)."""
    listed = [
        RootMove(
            move=board.move_from_code(code),
            score=score_of(score),
            visits=visits,
            depth=depth,
            pv=_legal_line(board, list(pv) if len(pv) and pv[0] == code else [code]),
        )
        for code, score, pv, visits in lines
    ]
    if previous is None:
        listed += [
            RootMove(move=board.move_from_code(code), visits=visits) for code, visits in others
        ]
    else:
        seen = {rm.move for rm in listed}
        listed += [rm for rm in previous.root_moves if rm.move not in seen]
    best = listed[0]
    # the callers' ``lines`` is never empty, and score_of gave its first line a Score
    assert best.score is not None
    return SearchResult(
        move=best.move,
        score=best.score,
        pv=best.pv,
        nodes=nodes,
        nps=nodes / seconds if seconds > 0 else 0.0,
        depth=depth,
        seconds=seconds,
        engine="alphabeta",
        root_moves=listed,
    )


def _pv_from_table(board, codes, keys, data, generation, length):
    """``codes`` continued, up to ``length`` moves, by the moves the table holds for
    this search (``generation``). An exact table entry at a PV node cuts the search
    off there and leaves the triangular PV short: often with helper threads, and in
    MultiPV lines after the first, whose moves earlier lines searched."""
    if len(keys) <= 2 or len(codes) >= length:
        return codes
    line = [int(c) for c in codes]
    copy = board.copy()
    for code in line:
        move = copy.move_from_code(code)
        if not copy.is_legal(move):
            return codes
        copy.push(move)
    while len(line) < length:
        code = int(stored_move(keys, data, np.uint64(copy.zobrist_key), generation))
        if not code:
            break
        try:
            move = copy.move_from_code(code)
        except (HingeError, IndexError, ValueError):
            break
        if not copy.is_legal(move):
            break
        copy.push(move)
        line.append(code)
    return np.array(line, dtype=np.int64)


def _legal_line(board, codes) -> list:
    """The moves of ``codes`` as long as each is legal in turn."""
    line = []
    copy = board.copy()
    for code in codes:
        if not np.any(copy.legal_codes == code):
            break
        line.append(copy.move_from_code(code))
        copy.play_code(code)
    return line
