"""Monte Carlo tree search: PUCT with an MCTS-Solver, the whole loop in numba.

    >>> from hinge_fast import Board
    >>> from hinge_fast.search import Limits
    >>> from hinge_fast.search.mcts import MCTSSearcher
    >>> result = MCTSSearcher(seed=1).go(Board(4), Limits(nodes=200))
    >>> result.move in Board(4).legal_moves, result.nodes
    (True, 200)

The tree
--------
The tree lives in flat numpy arrays indexed by node id (``Tree``): node 0 is the root,
and the children of a node are the consecutive ids ``first[n] .. first[n] + count[n] - 1``.
Nothing is allocated while searching: a node's children are handed out from the
preallocated arrays when it is expanded. ``wins[n] / visits[n]`` is the mean result
for the player who made the move into ``n`` (the side to move at its parent), with a
win 1, a loss 0 and an unfinished playout decided by the token count.

One iteration (``run_iterations``):

1. **Select** (PUCT, as in AlphaZero): from the root, follow the child with the
   highest value ``q + c * P * sqrt(parent visits) / (1 + visits)``, where ``q`` is the
   child's ``wins/visits``, ``c`` = ``exploration`` and ``P`` the child's share of its
   parent's policy: a softmax over the children of ``w * flip / largest flip`` (``w`` =
   ``prior_weight``; a placement flips 0), so that larger flips are tried first and
   deepened more. An unvisited child's ``q`` is its parent's win rate for the side to
   move, less ``fpu`` (first-play urgency as a reduction: 0 by default); children of
   equal prior are shuffled at expansion so that none is favoured by the generation
   order. Children proven lost are never chosen. **Progressive widening**: a node
   visited ``n`` times chooses only among its first ``ceil(widen * n ** widen_power)``
   children in prior order (swipes flipping the largest group first, then placements;
   the children proven lost not counted; ``widen`` 0: among all), so that a wide
   node's search goes deep on a few moves before it spreads over the rest.
2. **Expand** a leaf that has been visited before (the root always): generate its
   moves and give it one child per move. A leaf visited for the first time is not
   expanded: its playout starts from it directly, so the tree grows by about one
   node per playout rather than one per legal move.
3. **Evaluate** the leaf: its result is alpha-beta's fitted evaluation
   (``leaf-fitted``'s weights for the side) as a win rate ``1 / (1 + exp(-score /
   eval_scale))`` (``eval_win_rate``), with no playout: the evaluation judges a leaf
   better than a greedy playout did, and faster (docs/search-mcts.md, "How the
   defaults were chosen").
4. **Backup** the result along the path, switching perspective at every ply.

MCTS-Solver (Winands, Bjornsson, Saito 2008): ``proof[n]`` is +1 when the move into
``n`` is a proven win for its mover, -1 a proven loss, 0 unknown; ``plies[n]`` the
length of the forced line from ``n``'s position. A node whose side to move has no
legal move (eliminated or stuck) is proven, and so is a
node with a child move that eliminates the opponent, found at expansion. Proofs
travel up: one child proven won for its mover makes the parent proven lost for the
parent's mover; all children proven lost makes it proven won. Winning lines are the
shortest, losing ones the longest. A proven root stops the search.

The move played (``ranked_children``): a proven win (the shortest), else the most
visited unproven child, else the longest proven loss.

Memory and the tree budget
--------------------------
``tree_nodes`` (default ``DEFAULT_TREE_NODES`` = 4,000,000, about
``NODE_BYTES`` (35) * 4e6 = 140 MB; at most ``MAX_TREE_NODES``) caps the tree. The
arrays are allocated once per searcher object (at its first ``go``) with ``np.empty`` (every node's fields
are written when it is handed out), so a short search touches only the pages it uses. When an
expansion does not fit, the tree stops growing for the rest of the search and
playouts go on from the leaves it has: memory never grows past the budget and the
statistics of the existing nodes keep improving. The root's children are always
stored, even when they alone exceed ``tree_nodes``.

Time
----
Numba code cannot read the clock, so ``MCTSSearcher.go`` runs the iterations in chunks
sized from the measured rate (about 3 ms each, never more than the time left) and
checks the clock between chunks: the search ends within a chunk of its time limit.
A node limit counts playouts (iterations). At least one iteration always runs, so
a legal move comes back whatever the limit.
"""

from __future__ import annotations

import math
import os
import time
from typing import NamedTuple

import numpy as np

from ..board import Board
from ..core import kernels  # noqa: F401  (the compile notice, before our kernels)
from ..core.codes import is_swipe
from ..core.jit import njit
from ..core.moves import flipped_group, list_moves, play_move
from ..core.playouts import rng_below
from ..core.sets import s_count, s_row, set_like, shift_sets
from ..core.tables import GROUP_SLOTS, MAX_MOVES, SCRATCH_ROWS, SHIFT_WORDS
from .evaluate import FITTED, LOST, WINNING, get_evaluator, leaf_evaluation
from .mcts_config import (
    DEFAULT_CONFIG,
    DEFAULT_EVAL_SCALE,
    DEFAULT_EXPLORATION,
    DEFAULT_FPU,
    DEFAULT_PRIOR_WEIGHT,
    DEFAULT_TREE_NODES,
    DEFAULT_WIDEN,
    DEFAULT_WIDEN_POWER,
    FRESH_SEED,
    MCTSConfig,
    mcts_config,
)
from .result import RootMove, SearchResult
from .score import Score
from .searcher import Searcher

#: Deepest tree path an iteration follows; deeper leaves are not expanded.
MAX_TREE_DEPTH = 400
#: Chunk of iterations between two looks at the clock, in seconds.
CHUNK_SECONDS = 0.003
#: Seconds between two progress reports.
PROGRESS_SECONDS = 0.1

# stats[] slots written by run_iterations
NEXT_FREE = 0  # first unused node id
MAX_DEPTH = 1  # deepest tree ply reached
PLAYOUTS = 2  # iterations run
TREE_FULL = 3  # 1 once an expansion did not fit
N_STATS = 4

NODE_BYTES = (
    4 + 4 + 4 + 4 + 4 + 8 + 1 + 2 + 4
)  # parent, first, count, move, visits, wins, proof, plies, prior


class TreeArrays(NamedTuple):
    """The arrays of one search tree and its scratch, as the kernel takes them."""

    parent: np.ndarray  # int32 per node: its parent (-1 for the root)
    first: np.ndarray  # int32: its first child
    # int32: its number of children (0: not expanded). The name shadows tuple.count on
    # purpose (the kernel's name for the array); mypy flags any field named so.
    count: np.ndarray  # type: ignore[assignment]
    move: np.ndarray  # int32: the move code into it
    visits: np.ndarray  # int32
    wins: np.ndarray  # float64: results for the player who moved into it
    proof: np.ndarray  # int8: +1 proven win for that player, -1 proven loss, 0 unknown
    plies: np.ndarray  # int16: length of the proven line from its position
    prior: np.ndarray  # float32: its share of its parent's policy P
    stats: np.ndarray  # int64 [N_STATS]
    path: np.ndarray  # int32: the nodes of the current iteration's path
    moves: np.ndarray  # int64 [MAX_MOVES]: a node's moves at expansion
    flips: np.ndarray  # uint64 [MAX_MOVES, SHIFT_WORDS]: their flipped groups
    scratch: np.ndarray  # uint64 [SCRATCH_ROWS, SHIFT_WORDS]: the move lister's sets
    group_of_bit: np.ndarray  # int16 [GROUP_SLOTS]: the move lister's group numbers
    sizes: np.ndarray  # int32 [MAX_MOVES]: each move's flip size at expansion


class Tree:
    """The preallocated arrays of one search tree (see the module docstring)."""

    # TreeArrays' fields, set as attributes by __init__ (setattr, which mypy cannot follow)
    parent: np.ndarray
    first: np.ndarray
    count: np.ndarray
    move: np.ndarray
    visits: np.ndarray
    wins: np.ndarray
    proof: np.ndarray
    plies: np.ndarray
    prior: np.ndarray
    stats: np.ndarray
    path: np.ndarray
    moves: np.ndarray
    flips: np.ndarray
    scratch: np.ndarray
    group_of_bit: np.ndarray
    sizes: np.ndarray

    def __init__(self, capacity: int):
        # np.empty, not np.zeros: every field of a node is written when it is handed out
        # (the root's by reset, a child's at its parent's expansion). np.zeros would cost
        # a memset of the whole budget whenever the allocator reuses freed heap memory
        # (tens of milliseconds for the default budget, measured in a searcher's second
        # thread), where np.empty touches only the pages the search uses.
        self.arrays = TreeArrays(
            parent=np.empty(capacity, dtype=np.int32),
            first=np.empty(capacity, dtype=np.int32),
            count=np.empty(capacity, dtype=np.int32),
            move=np.empty(capacity, dtype=np.int32),
            visits=np.empty(capacity, dtype=np.int32),
            wins=np.empty(capacity, dtype=np.float64),
            proof=np.empty(capacity, dtype=np.int8),
            plies=np.empty(capacity, dtype=np.int16),
            prior=np.empty(capacity, dtype=np.float32),
            stats=np.zeros(N_STATS, dtype=np.int64),
            path=np.zeros(MAX_TREE_DEPTH + 2, dtype=np.int32),
            moves=np.zeros(MAX_MOVES, dtype=np.int64),
            flips=np.zeros((MAX_MOVES, SHIFT_WORDS), dtype=np.uint64),
            scratch=np.zeros((SCRATCH_ROWS, SHIFT_WORDS), dtype=np.uint64),
            group_of_bit=np.zeros(GROUP_SLOTS, dtype=np.int16),
            sizes=np.zeros(MAX_MOVES, dtype=np.int32),
        )
        for name, array in zip(TreeArrays.__annotations__, self.arrays):
            setattr(self, name, array)
        self.reset()

    def reset(self) -> None:
        """Make the tree a lone unvisited root (children are written when expanded)."""
        for array in (
            self.count,
            self.visits,
            self.wins,
            self.proof,
            self.plies,
            self.first,
            self.move,
            self.prior,
        ):
            array[0] = 0
        self.stats[:] = 0
        self.parent[0] = -1
        self.stats[NEXT_FREE] = 1

    def children(self, node: int) -> range:
        first = int(self.first[node])
        return range(first, first + int(self.count[node]))


# ----- kernels ------------------------------------------------------------------------------
U64 = np.uint64


def new_rng(seed: int) -> np.ndarray:
    """A generator state for ``rng_next`` (xorshift64*, in ``core/playouts.py``): one
    uint64 word, from ``seed`` through splitmix64 (so that nearby seeds give unrelated
    streams, and never the state 0).
    Each searcher has its own, so searchers in one process never share a stream."""
    z = (int(seed) + 0x9E3779B97F4A7C15) % 2**64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
    z ^= z >> 31
    return np.array([z or 0x9E3779B97F4A7C15], dtype=np.uint64)


@njit(cache=True)
def eval_win_rate(size, own, enemy, scale, weights, t):
    """``(p, lost)``: the fitted evaluation (``evaluate.leaf_evaluation``, kind 2 with
    ``weights``) of the position as a probability that its side to move wins,
    ``1 / (1 + exp(-score / scale))``; its verdicts exactly: 1 when it can eliminate
    now, 0 with ``lost`` True when it has no legal move."""
    score = leaf_evaluation(
        FITTED, size, own, enemy, t.moves, t.flips, t.scratch, t.group_of_bit, weights
    )[0]
    if score == LOST:
        return 0.0, True
    if score == WINNING:
        return 1.0, False
    return 1.0 / (1.0 + math.exp(-score / scale)), False


@njit(cache=True)
def settle_proof(node, first, count, proof, plies):
    """Recompute the proof of an expanded ``node`` from its children; True if proven."""
    any_win = False
    all_lost = True
    shortest_win = 1 << 14
    longest_loss = 0
    for c in range(first[node], first[node] + count[node]):
        if proof[c] > 0:
            any_win = True
            if plies[c] < shortest_win:
                shortest_win = plies[c]
        elif proof[c] == 0:
            all_lost = False
        elif plies[c] > longest_loss:
            longest_loss = plies[c]
    if any_win:
        proof[node] = -1  # its side to move wins: a loss for whoever moved into it
        plies[node] = min(shortest_win + 1, 32000)
        return True
    if all_lost and count[node] > 0:
        proof[node] = 1
        plies[node] = min(longest_loss + 1, 32000)
        return True
    return False


@njit(cache=True, nogil=True)  # nogil: one tree per thread runs in parallel (mcts_threads.py)
def run_iterations(
    size, root_own_bits, root_enemy_bits, iterations, config, t, rng, eval_weights, like
):
    """Run up to ``iterations`` select-expand-playout-backup iterations on the tree
    ``t`` (``TreeArrays``) from the root given as bitboards (``Board``'s words), in the
    shift layout of ``like``'s words. Returns how many ran (fewer once the root is
    proven). ``config``: ``MCTSConfig``; a leaf's result is its ``eval_win_rate``."""
    exploration, fpu, prior_weight, eval_scale, widen, widen_power = config
    parent, first, count, move, visits, wins, proof, plies, prior = (
        t.parent,
        t.first,
        t.count,
        t.move,
        t.visits,
        t.wins,
        t.proof,
        t.plies,
        t.prior,
    )
    stats, path, moves, flips, sizes = t.stats, t.path, t.moves, t.flips, t.sizes
    root_own, root_enemy = shift_sets(size, root_own_bits, root_enemy_bits, like)
    capacity = parent.shape[0]
    done = 0
    for _ in range(iterations):
        if proof[0] != 0:
            break
        node = 0
        own = root_own
        enemy = root_enemy
        depth = 0
        path[0] = 0
        newly_proven = False
        while proof[node] == 0:
            n_children = count[node]
            if n_children == 0:
                if visits[node] == 0 and node != 0:
                    break  # first visit: playout from here
                if stats[TREE_FULL] != 0 or depth >= MAX_TREE_DEPTH:
                    break
                n = list_moves(size, own, enemy, moves, flips, t.scratch, t.group_of_bit, 0)
                if n == 0:
                    proof[node] = 1  # side to move has no move: it lost
                    plies[node] = 0
                    newly_proven = True
                    break
                start = stats[NEXT_FREE]
                if start + n > capacity:
                    stats[TREE_FULL] = 1
                    break
                # Prior order: swipes by flipped-group size (largest first), then
                # placements; unvisited children are tried in this order.
                largest = 0
                for i in range(n):
                    if not is_swipe(moves[i]):
                        sizes[i] = 0
                    else:
                        sizes[i] = s_count(s_row(flips, i, own))
                        if sizes[i] > largest:
                            largest = sizes[i]
                c = start
                enemy_count = s_count(enemy)
                total = 0.0
                for s in range(largest, -1, -1):
                    block = c
                    # The policy's weight of a flip of s (before normalising).
                    weight = math.exp(prior_weight * (s / largest if largest > 0 else 0.0))
                    for i in range(n):
                        if sizes[i] != s:
                            continue
                        parent[c] = node
                        first[c] = 0
                        count[c] = 0
                        move[c] = moves[i]
                        visits[c] = 0
                        wins[c] = 0.0
                        plies[c] = 0
                        prior[c] = weight
                        total += weight
                        # A swipe flipping every enemy token eliminates them: won.
                        proof[c] = 1 if s > 0 and s == enemy_count else 0
                        c += 1
                    # Unvisited children of equal prior are tried first to last: shuffle
                    # them (Fisher-Yates), so that no cell is favoured by the generation
                    # order.
                    for j in range(c - 1, block, -1):
                        k = block + rng_below(rng, j - block + 1)
                        m = move[j]
                        move[j] = move[k]
                        move[k] = m
                for c in range(start, start + n):
                    prior[c] /= total
                first[node] = start
                count[node] = n
                stats[NEXT_FREE] = start + n
                if proof[start] > 0:
                    settle_proof(node, first, count, proof, plies)
                    newly_proven = True
                    break
                n_children = n
            # PUCT selection among children not proven lost, the first `window` of
            # them in prior order (progressive widening).
            sqrt_n = math.sqrt(max(visits[node], 1))
            # An unvisited child's q: the win rate of the side to move here, less fpu.
            unvisited_q = (1.0 - wins[node] / visits[node] if visits[node] > 0 else 0.5) - fpu
            window = n_children
            if widen > 0.0:
                window = int(math.ceil(widen * max(visits[node], 1) ** widen_power))
            best = -1
            best_value = -math.inf
            for c in range(first[node], first[node] + n_children):
                if proof[c] < 0:
                    continue
                if window == 0:
                    break
                window -= 1
                q = wins[c] / visits[c] if visits[c] > 0 else unvisited_q
                value = q + exploration * prior[c] * sqrt_n / (1 + visits[c])
                if value > best_value:
                    best_value = value
                    best = c
            if best < 0:
                break  # cannot happen: a node with every child lost is itself proven
            code = np.int64(move[best])
            own, enemy = play_move(size, own, enemy, code, flipped_group(size, own, enemy, code))
            node = best
            depth += 1
            path[depth] = node
        if depth > stats[MAX_DEPTH]:
            stats[MAX_DEPTH] = depth
        # Result for the player who moved into `node`.
        if proof[node] != 0:
            reward = 1.0 if proof[node] > 0 else 0.0
        else:
            # The fitted evaluation of the leaf for its side to move.
            result, lost = eval_win_rate(size, own, enemy, eval_scale, eval_weights, t)
            if lost:
                proof[node] = 1
                plies[node] = 0
                newly_proven = True
            reward = 1.0 - result
        for d in range(depth, -1, -1):
            n_ = path[d]
            visits[n_] += 1
            wins[n_] += reward
            reward = 1.0 - reward
        if newly_proven:
            for d in range(depth - 1, -1, -1):
                if proof[path[d]] != 0 or not settle_proof(path[d], first, count, proof, plies):
                    break
        done += 1
    stats[PLAYOUTS] += done
    return done


# ----- Python side ------------------------------------------------------------------------------
#: The word counts (``tables.SHIFT_WORDS_OF``) whose kernels this process has loaded.
_LOADED_WORDS: set[int] = set()


def ensure_compiled(size: int = 4) -> None:
    """Load (or compile) the kernels of side ``size``'s word count, once a process,
    before a timed search starts."""
    words = len(set_like(size))
    if words not in _LOADED_WORDS:
        board = Board(size)
        _run(
            Tree(64),
            board,
            1,
            DEFAULT_CONFIG,
            new_rng(0),
            get_evaluator("leaf-fitted").weights_for(size),
        )
        len(board.legal_codes)  # the move list's kernel
        _LOADED_WORDS.add(words)


def _run(tree, board, iterations, config: MCTSConfig, rng, weights):
    return int(
        run_iterations(
            board.size,
            board.own,
            board.enemy,
            iterations,
            config,
            tree.arrays,
            rng,
            weights,
            set_like(board.size),
        )
    )


class MCTSSearcher(Searcher):
    """One MCTS tree searched in the calling thread (the registry's ``mcts`` runs one or
    more of them: ``mcts_threads.py``; the defaults are the engine's). It owns its tree
    (allocated at the first ``go`` and reused, grown only when a root has more moves
    than it holds) and its random generator (``new_rng``): two searchers never share
    state.

    ``tree_nodes``: tree budget in nodes (module docstring); ``exploration``: PUCT
    constant c; ``fpu``, ``prior_weight``: first-play urgency and the policy's weight;
    ``eval_scale``: the scale of the fitted evaluation's win rate at a leaf;
    ``widen``, ``widen_power``: progressive widening (these six
    are the kernel's ``config``, an ``MCTSConfig``, fixed for the searcher's life);
    ``seed``: each ``go`` starts the generator from it
    (-1: from fresh entropy), so the same seed and node limit give the same result.

    >>> from hinge_fast import Board
    >>> from hinge_fast.search import Limits
    >>> r = MCTSSearcher(seed=7).go(Board(), Limits(nodes=2000))
    >>> r.engine, r.nodes, str(r.score).endswith("%")
    ('mcts', 2000, True)
    """

    name = "mcts"

    def __init__(
        self,
        tree_nodes=DEFAULT_TREE_NODES,
        exploration=DEFAULT_EXPLORATION,
        seed=FRESH_SEED,
        fpu=DEFAULT_FPU,
        prior_weight=DEFAULT_PRIOR_WEIGHT,
        eval_scale=DEFAULT_EVAL_SCALE,
        widen=DEFAULT_WIDEN,
        widen_power=DEFAULT_WIDEN_POWER,
    ):
        super().__init__()
        self.config = mcts_config(exploration, fpu, prior_weight, eval_scale, widen, widen_power)
        self.tree_nodes = tree_nodes
        self.seed = seed
        self.tree: Tree | None = None

    def prepare(self, board) -> None:
        """Load the kernels of ``board``'s side (``Searcher.prepare``)."""
        ensure_compiled(board.size)

    def tree_for(self, n_root: int) -> Tree:
        capacity = max(self.tree_nodes, 1 + n_root)
        if self.tree is None or len(self.tree.parent) < capacity:
            self.tree = Tree(capacity)
        else:
            self.tree.reset()
        return self.tree

    def _go(self, board, limits, progress):
        started = time.perf_counter()
        time_limit = limits.time
        node_limit = limits.nodes
        seed = self.seed if self.seed >= 0 else int.from_bytes(os.urandom(8), "little") >> 1
        rng = new_rng(seed)

        n_root = len(board.legal_codes)
        if n_root == 0:
            return SearchResult(
                None, Score.loss(0), [], 0, 0.0, 0, time.perf_counter() - started, "mcts", []
            )
        tree = self.tree_for(n_root)
        eval_weights = get_evaluator("leaf-fitted").weights_for(board.size)

        deadline = None if time_limit is None else started + time_limit
        done = 0
        chunk = 8
        next_report = started + PROGRESS_SECONDS
        while True:
            todo = chunk if node_limit is None else min(chunk, node_limit - done)
            done += _run(tree, board, todo, self.config, rng, eval_weights)
            now = time.perf_counter()
            if (
                tree.proof[0] != 0
                or (node_limit is not None and done >= node_limit)
                or self.stopping
            ):
                break
            if deadline is not None:
                left = deadline - now
                if left <= 0:
                    break
                rate = done / max(now - started, 1e-6)
                chunk = max(1, int(rate * min(CHUNK_SECONDS, left)))
            else:
                rate = done / max(now - started, 1e-6)
                chunk = max(1, int(rate * CHUNK_SECONDS))
            if progress is not None and now >= next_report:
                progress(_result(board, tree, now - started))
                next_report = now + PROGRESS_SECONDS
        return _result(board, tree, time.perf_counter() - started)


def _mate(tree, c):
    """Plies to the proven end after the move into ``c``, signed for its mover."""
    if tree.proof[c] == 0:
        return None
    length = int(tree.plies[c]) + 1
    return length if tree.proof[c] > 0 else -length


def rank_key(proof: int, plies: int, visits: int, wins: float, tie: int = 0) -> tuple:
    """Sort key of a move, best first: proven wins (shortest first, then ``tie``), then
    unproven by visits and then win rate, then proven losses (longest first)."""
    rate = wins / visits if visits else 0.0
    if proof > 0:
        return (0, plies, tie, 0.0)
    if proof < 0:
        return (2, -plies, -visits, -rate)
    return (1, 0, -visits, -rate)


def ranked_children(tree, node) -> list[int]:
    """Children of ``node``, best first (``rank_key``); equal proven wins by move code,
    independent of the children's shuffled order."""

    def key(c):
        return rank_key(
            int(tree.proof[c]),
            int(tree.plies[c]),
            int(tree.visits[c]),
            float(tree.wins[c]),
            int(tree.move[c]),
        )

    return sorted(tree.children(node), key=key)


def principal_variation(tree, node: int, decode) -> list:
    """The moves (``decode``d) from the tree's ``node`` down: at each node the child the
    final-move rule ranks first (``ranked_children``), stopping at a leaf, at a child
    neither visited nor proven, or at ``MAX_TREE_DEPTH`` moves."""
    pv = []
    while True:
        pv.append(decode(tree.move[node]))
        if tree.count[node] == 0 or len(pv) >= MAX_TREE_DEPTH:
            return pv
        node = ranked_children(tree, node)[0]
        if tree.visits[node] == 0 and tree.proof[node] == 0:
            return pv


#: Root moves given their principal variation (``RootMove.pv``), best first (the top
#: five an analysis lists by default; each line walks the tree: 50 lines of a side-9 tree
#: took 0.14 s to build, against 4 ms for five).
PV_LINES = 5


def _result(board: Board, tree: Tree, seconds: float) -> SearchResult:
    decode = board.move_from_code
    ranked = ranked_children(tree, 0)
    root_moves = []
    for i, c in enumerate(ranked):
        visits = int(tree.visits[c])
        rate = float(tree.wins[c] / visits) if visits else None
        mate = _mate(tree, c)
        if mate is not None:
            rate = 1.0 if mate > 0 else 0.0
        score = (
            Score.from_mate(mate)
            if mate is not None
            else None
            if rate is None
            else Score.rate(rate)
        )
        line = (
            principal_variation(tree, c, decode)
            if i == 0 or score is not None and i < PV_LINES
            else []
        )
        root_moves.append(RootMove(move=decode(tree.move[c]), score=score, visits=visits, pv=line))
    pv = root_moves[0].pv
    top = root_moves[0]
    score = top.score if top.score is not None else Score.rate(0.5)
    playouts = int(tree.stats[PLAYOUTS])
    return SearchResult(
        move=top.move,
        score=score,
        pv=pv,
        nodes=playouts,
        nps=playouts / seconds if seconds > 0 else 0.0,
        depth=int(tree.stats[MAX_DEPTH]),
        seconds=seconds,
        engine="mcts",
        root_moves=root_moves,
    )
