"""MCTS on every core: root parallelisation (one tree per thread, root statistics merged).

    >>> from hinge_fast import Board
    >>> from hinge_fast.search import Limits, create_searcher
    >>> result = create_searcher("mcts", threads=2, seed=3).go(Board(5), Limits(nodes=400))
    >>> result.move in Board(5).legal_moves, result.nodes
    (True, 400)

How it works
------------
The registry's ``mcts`` engine is :class:`MCTSThreadsSearcher`. With ``threads`` = 1
it is exactly one :class:`~hinge_fast.search.mcts.MCTSSearcher` (same tree, same
random stream, same results). With ``threads`` = T > 1 it holds T independent
``MCTSSearcher`` objects, each with its own tree and random generator, and runs them
at once on the worker threads of ``core/workers.py`` while the calling thread reports
progress and heeds Ctrl-C; ``run_iterations`` is compiled ``nogil``, so they run on T
cores.

* **Seeds**: thread 0 uses the searcher's ``seed``, thread k a seed derived from it
  (``thread_seed``); with ``seed`` -1 each thread draws fresh entropy.
* **Limits**: a time limit applies to every thread; a node (playout) limit is shared
  out (thread k gets ``nodes // T`` plus one for the first ``nodes % T``), so the
  reported total is the limit. Each tree depends only on its seed and its share, so
  **with a seed and a node limit the result is reproducible for any thread count**
  (it differs between thread counts). Under a time limit the playouts per thread
  depend on timing, as with one thread.
* **Merge**: the root children of all trees, matched by move, sum their visits and
  wins; a move proven in any tree is proven (MCTS-Solver proofs are sound: shortest
  win, longest loss). Moves are ranked as in ``mcts.ranked_children``; the principal
  variation continues in the tree that visited the best move most. Without a node
  limit, a tree that proves the root stops the others.
* **Memory**: ``tree_nodes`` is the total budget: each of the T trees holds
  ``tree_nodes // T`` nodes (``NODE_BYTES`` each), so T threads use the memory of one.
  Every tree still stores its root's children whatever the budget.

Why root-parallel: it needs no locks or atomics in the tree kernel (each tree is
owned by one thread) and leaves ``mcts.py`` untouched but for ``nogil``; its gain
at equal time is measured by ``scripts/threads_bench.py`` and the 2-against-1 match
in ``docs/search-mcts.md``. Tree parallelisation with virtual loss was not built.
"""

from __future__ import annotations

import time

from ..board import Board
from ..core import workers
from ..errors import HingeError
from .limits import Limits
from .mcts import (
    MAX_DEPTH,
    PLAYOUTS,
    PROGRESS_SECONDS,
    PV_LINES,
    MCTSSearcher,
    ensure_compiled,
    new_rng,
    principal_variation,
    rank_key,
)
from .mcts_config import DEFAULT_TREE_NODES, FRESH_SEED
from .options import DEFAULT_THREADS
from .registry import check_limits, create_searcher
from .result import RootMove, SearchResult
from .score import Score
from .searcher import Searcher


def thread_seed(seed: int, k: int) -> int:
    """The seed of thread ``k`` of a searcher seeded ``seed`` (thread 0: ``seed``
    itself; -1 stays -1: fresh entropy per thread).

    >>> thread_seed(5, 0), thread_seed(-1, 3), thread_seed(5, 1) != thread_seed(6, 0)
    (5, -1, True)
    """
    if seed < 0 or k == 0:
        return seed
    return int(new_rng((seed * 0x100000001B3 + k) % 2**64)[0]) >> 1


def share(total: int, parts: int, k: int) -> int:
    """Part ``k`` of ``total`` shared out among ``parts`` (the first ``total % parts`` get one more)."""
    return total // parts + (1 if k < total % parts else 0)


class MCTSThreadsSearcher(Searcher):
    """The MCTS searcher of the registry (its defaults are the engine's): ``threads``
    root-parallel trees (module docstring); the other options are
    :class:`~hinge_fast.search.mcts.MCTSSearcher`'s, with ``tree_nodes`` the budget of
    all trees together."""

    name = "mcts"

    def __init__(
        self, threads=DEFAULT_THREADS, tree_nodes=DEFAULT_TREE_NODES, seed=FRESH_SEED, **options
    ):
        super().__init__()
        self.threads = int(threads)
        per_tree = max(1, tree_nodes // self.threads)
        self.searchers = [
            MCTSSearcher(tree_nodes=per_tree, seed=thread_seed(seed, k), **options)
            for k in range(self.threads)
        ]
        for searcher in self.searchers:
            searcher.share_stop(self)  # one stop event: stop() reaches every thread at once
        self.seed = seed

    @property
    def seed(self) -> int:
        """The seed of the next ``go`` (setting it reseeds every thread's tree)."""
        return self._seed

    @seed.setter
    def seed(self, seed: int) -> None:
        self._seed = int(seed)
        for k, searcher in enumerate(self.searchers):
            searcher.seed = thread_seed(self._seed, k)

    @property
    def tree(self):
        """The tree of thread 0 (the only one with ``threads=1``)."""
        return self.searchers[0].tree

    @property
    def trees(self) -> list:
        return [s.tree for s in self.searchers if s.tree is not None]

    def prepare(self, board) -> None:
        """Load the kernels of ``board``'s side (``Searcher.prepare``)."""
        ensure_compiled(board.size)

    def _go(self, board, limits, progress):
        if self.threads == 1 or not len(board.legal_codes):
            return self.searchers[0]._go(board, limits, progress)
        started = time.perf_counter()
        count = self.threads if limits.nodes is None else min(self.threads, limits.nodes)
        active = self.searchers[:count]
        parts = [
            limits
            if limits.nodes is None
            else Limits(time=limits.time, nodes=share(limits.nodes, count, k))
            for k in range(count)
        ]

        for searcher in active:
            searcher.tree_for(len(board.legal_codes))  # no tree of a previous search is reported

        def run(k):
            result = active[k]._go(board, parts[k], None)
            if limits.nodes is None and result.score.mate is not None:
                self._stop.set()  # a proven root: the other trees can stop
            return result

        def report():
            trees = [s.tree for s in active if s.tree is not None and s.tree.count[0] > 0]
            if trees:
                progress(merged_result(board, trees, time.perf_counter() - started))

        work = workers.run(
            [lambda k=k: run(k) for k in range(count)],
            self._stop.set,
            PROGRESS_SECONDS,
            tick=report if progress is not None else None,
        )
        if work.interrupted:
            raise KeyboardInterrupt
        return merged_result(board, [s.tree for s in active], time.perf_counter() - started)


def merged_result(board, trees, seconds: float) -> SearchResult:
    """One SearchResult from the root statistics of ``trees`` (all searched ``board``),
    the moves ranked as ``mcts.ranked_children`` ranks them."""
    decode = board.move_from_code
    stats: dict[int, list] = {}  # move code -> [visits, wins, proof, plies]
    order: list[int] = []
    for tree in trees:
        for c in tree.children(0):
            code = int(tree.move[c])
            entry = stats.get(code)
            if entry is None:
                entry = stats[code] = [0, 0.0, 0, 0]
                order.append(code)
            entry[0] += int(tree.visits[c])
            entry[1] += float(tree.wins[c])
            proof, plies = int(tree.proof[c]), int(tree.plies[c])
            if proof > 0 and (entry[2] <= 0 or plies < entry[3]):
                entry[2], entry[3] = 1, plies
            elif proof < 0 and entry[2] == 0 or proof < 0 and entry[2] < 0 and plies > entry[3]:
                entry[2], entry[3] = -1, plies

    def key(code):
        visits, wins, proof, plies = stats[code]
        return rank_key(proof, plies, visits, wins)

    def line(code):
        # a move's principal variation: in the tree that visited it most
        tree, node = max(
            ((t, c) for t in trees for c in t.children(0) if int(t.move[c]) == code),
            key=lambda tc: int(tc[0].visits[tc[1]]),
        )
        return principal_variation(tree, node, decode)

    ranked = sorted(order, key=key)
    root_moves = []
    score: Score | None  # None: an unvisited, unproven move
    for i, code in enumerate(ranked):
        visits, wins, proof, plies = stats[code]
        if proof:
            score = Score.from_mate(plies + 1 if proof > 0 else -(plies + 1))
        else:
            score = Score.rate(wins / visits) if visits else None
        pv = line(code) if i == 0 or score is not None and i < PV_LINES else []
        root_moves.append(RootMove(move=decode(code), score=score, visits=visits, pv=pv))
    pv = root_moves[0].pv
    top = root_moves[0]
    playouts = sum(int(t.stats[PLAYOUTS]) for t in trees)
    return SearchResult(
        move=top.move,
        score=top.score if top.score is not None else Score.rate(0.5),
        pv=pv,
        nodes=playouts,
        nps=playouts / seconds if seconds > 0 else 0.0,
        depth=max(int(t.stats[MAX_DEPTH]) for t in trees),
        seconds=seconds,
        engine="mcts",
        root_moves=root_moves,
    )


def search_mcts(
    board: Board, limits: Limits, seed: int | None = None, progress=None, **options
) -> SearchResult:
    """Search ``board`` with a new :class:`MCTSSearcher` of ``options`` and return a
    SearchResult (``search/result.py``). ``limits``: ``time`` (seconds) and/or
    ``nodes`` (playouts); no limit means ``DEFAULT_TIME``; a depth limit is refused
    (MCTS has none). ``seed``: same seed and node limit, same result. ``progress``:
    called with an interim SearchResult about every 0.1 s.

    >>> from hinge_fast import Board
    >>> r = search_mcts(Board(), Limits(nodes=2000), seed=7)
    >>> r.engine, r.nodes, r.score_text.endswith("%")
    ('mcts', 2000, True)
    """
    if not isinstance(board, Board):
        raise HingeError(f"search needs a Board, not {type(board).__name__}")
    check_limits("mcts", limits)
    if seed is not None:
        options["seed"] = seed
    return create_searcher("mcts", **options).go(board, limits, progress)
