"""Monte Carlo tree search: UCT with an MCTS-Solver, the whole loop in numba.

    >>> from hinge_fast import Board
    >>> from hinge_fast.search import Limits
    >>> from hinge_fast.search.mcts import search_mcts
    >>> result = search_mcts(Board(4), Limits(nodes=200), seed=1)
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

1. **Select**: from the root, follow the child with the highest UCT value
   ``wins/visits + c * sqrt(ln(parent visits) / visits)``. Unvisited children come
   first, in the order of their prior (``expand``: swipes flipping the largest group
   first, then placements), and children proven lost are never chosen.
2. **Expand** a leaf that has been visited before (the root always): generate its
   moves and give it one child per move. A leaf visited for the first time is not
   expanded: its playout starts from it directly, so the tree grows by about one
   node per playout rather than one per legal move.
3. **Playout** (``playout``): a swipe eliminating the opponent is always played
   (rules.md section 6); otherwise, with probability ``playout_greed`` (default 1),
   the swipe flipping the largest enemy group (ties at random), and when there is
   no swipe (or the coin says so) a uniformly random legal move; up to
   ``playout_plies`` plies; a playout that reaches the cap is scored by the token
   count (more tokens wins, equal counts 0.5).
4. **Backup** the result along the path, switching perspective at every ply.

MCTS-Solver (Winands, Bjornsson, Saito 2008): ``proof[n]`` is +1 when the move into
``n`` is a proven win for its mover, -1 a proven loss, 0 unknown; ``plies[n]`` the
length of the forced line from ``n``'s position. A node whose side to move has no
legal move (generate_moves returns 0: eliminated or stuck) is proven, and so is a
node with a child move that eliminates the opponent, found at expansion. Proofs
travel up: one child proven won for its mover makes the parent proven lost for the
parent's mover; all children proven lost makes it proven won. Winning lines are the
shortest, losing ones the longest. A proven root stops the search.

Memory and the tree budget
--------------------------
``tree_nodes`` (default ``DEFAULT_TREE_NODES`` = 4,000,000, about
``NODE_BYTES`` (31) * 4e6 = 124 MB; at most ``MAX_TREE_NODES``) caps the tree. The
arrays are allocated once per search with ``np.zeros``, which the operating system
hands out lazily, so a short search touches only the pages it uses. When an
expansion does not fit, the tree stops growing for the rest of the search and
playouts go on from the leaves it has: memory never grows past the budget and the
statistics of the existing nodes keep improving. The root's children are always
stored, even when they alone exceed ``tree_nodes``.

Time
----
Numba code cannot read the clock, so ``search_mcts`` runs the iterations in chunks
sized from the measured rate (about 3 ms each, never more than the time left) and
checks the clock between chunks: the search ends within a chunk of its time limit.
A node limit counts playouts (iterations). At least one iteration always runs, so
a legal move comes back whatever the limit.
"""

from __future__ import annotations

import math
import os
import sys
import time

import numpy as np
from numba import njit

from ..core import kernels  # noqa: F401  (compile notice and stale-cache check, before our kernels)
from ..core.bits import bb_count, bb_row
from ..board import Board
from ..errors import HingeError
from ..core.movegen import generate_moves, move_target, play, play_with_flip
from ..core.tables import MAX_GROUPS, MAX_MOVES, NO_CELL
from .limits import DEFAULT_TIME, Limits
from .result import RootMove, SearchResult

#: Default cap on tree nodes (see the module docstring).
DEFAULT_TREE_NODES = 4_000_000
#: The largest tree a search may ask for (about 1.6 GB).
MAX_TREE_NODES = 50_000_000
#: Deepest tree path an iteration follows; deeper leaves are not expanded.
MAX_TREE_DEPTH = 400
#: UCT exploration constant c (tuned: docs/search-mcts.md).
DEFAULT_EXPLORATION = 0.4
#: Default playout length cap per board side: plies beyond which a playout is scored
#: by token count. Uniformly random games from the empty board last about 42 plies on
#: S=6 and 113 on S=9.
DEFAULT_PLAYOUT_PLIES_PER_CELL = 1.0
#: Probability per playout ply of the greedy move (largest flip) over a uniform one.
DEFAULT_PLAYOUT_GREED = 1.0
#: Chunk of iterations between two looks at the clock, in seconds.
CHUNK_SECONDS = 0.003
#: Seconds between two progress reports.
PROGRESS_SECONDS = 0.1

# stats[] slots written by run_iterations
NEXT_FREE = 0  # first unused node id
MAX_DEPTH = 1  # deepest tree ply reached
PLAYOUTS = 2  # iterations run
PLAYOUT_PLIES = 3  # plies played in playouts
TREE_FULL = 4  # 1 once an expansion did not fit
N_STATS = 5

NODE_BYTES = 4 + 4 + 4 + 4 + 4 + 8 + 1 + 2  # parent, first, count, move, visits, wins, proof, plies


class Tree:
    """The preallocated arrays of one search tree (see the module docstring)."""

    def __init__(self, capacity: int):
        self.parent = np.zeros(capacity, dtype=np.int32)
        self.first = np.zeros(capacity, dtype=np.int32)
        self.count = np.zeros(capacity, dtype=np.int32)
        self.move = np.zeros(capacity, dtype=np.int32)
        self.visits = np.zeros(capacity, dtype=np.int32)
        self.wins = np.zeros(capacity, dtype=np.float64)
        self.proof = np.zeros(capacity, dtype=np.int8)
        self.plies = np.zeros(capacity, dtype=np.int16)
        self.stats = np.zeros(N_STATS, dtype=np.int64)
        self.path = np.zeros(MAX_TREE_DEPTH + 2, dtype=np.int32)
        self.moves = np.zeros(MAX_MOVES, dtype=np.int64)
        self.flips = np.zeros((MAX_MOVES, 4), dtype=np.uint64)
        self.enemy_groups = np.zeros((MAX_GROUPS, 4), dtype=np.uint64)
        self.group_id = np.zeros(256, dtype=np.int16)
        self.sizes = np.zeros(MAX_MOVES, dtype=np.int32)
        self.parent[0] = -1
        self.stats[NEXT_FREE] = 1

    def children(self, node: int) -> range:
        first = int(self.first[node])
        return range(first, first + int(self.count[node]))


# ----- kernels ------------------------------------------------------------------------------
@njit(cache=True)
def seed_random(seed):
    """Seed numba's own generator (separate from NumPy's) for this thread."""
    np.random.seed(seed)


@njit(cache=True)
def playout(size, own, enemy, cap, greed, moves, flips, enemy_groups, group_id):
    """Play random moves from (own, enemy) for at most ``cap`` plies.

    Returns ``(result, plies)``: result for the side to move at the start, 1.0 win,
    0.0 loss, and when the cap is reached 1.0/0.0/0.5 as it has more/fewer/as many
    tokens. A swipe that eliminates the opponent is always played; otherwise, with
    probability ``greed``, the swipe flipping the largest group (if there is a
    swipe; ties at random), else a uniformly random move. ``plies == 0`` with result 0 means the
    start position itself is lost (no legal move).
    """
    ply = 0
    while ply < cap:
        n = generate_moves(size, own, enemy, moves, flips, enemy_groups, group_id, True)
        if n == 0:
            return (0.0 if ply % 2 == 0 else 1.0), ply
        choice = -1
        for i in range(n):  # swipes come first: look for one flipping every enemy token
            if move_target(moves[i]) == NO_CELL:
                break
            if flips[i, 0] == enemy[0] and flips[i, 1] == enemy[1] and flips[i, 2] == enemy[2] and flips[i, 3] == enemy[3]:
                choice = i
                break
        if choice < 0 and greed > 0.0 and move_target(moves[0]) != NO_CELL and np.random.random() < greed:
            largest = 0
            ties = 0
            for i in range(n):
                if move_target(moves[i]) == NO_CELL:
                    break
                flipped = bb_count(bb_row(flips, i))
                if flipped > largest:
                    largest = flipped
                    choice = i
                    ties = 1
                elif flipped == largest:
                    ties += 1  # reservoir sampling: each tied swipe equally likely
                    if np.random.randint(0, ties) == 0:
                        choice = i
        if choice < 0:
            choice = np.random.randint(0, n)
        own, enemy = play_with_flip(own, enemy, moves[choice], bb_row(flips, choice))
        ply += 1
    mine = bb_count(own)
    theirs = bb_count(enemy)
    result = 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
    if ply % 2 == 1:
        result = 1.0 - result
    return result, ply


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


@njit(cache=True)
def run_iterations(
    size, root_own, root_enemy, iterations, playout_cap, exploration, greed,
    parent, first, count, move, visits, wins, proof, plies, stats, path,
    moves, flips, enemy_groups, group_id, sizes,
):  # fmt: skip
    """Run up to ``iterations`` select-expand-playout-backup iterations on the tree.
    Returns how many ran (fewer once the root is proven)."""
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
                n = generate_moves(size, own, enemy, moves, flips, enemy_groups, group_id, True)
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
                    if move_target(moves[i]) == NO_CELL:
                        sizes[i] = 0
                    else:
                        sizes[i] = bb_count(bb_row(flips, i))
                        if sizes[i] > largest:
                            largest = sizes[i]
                c = start
                enemy_count = bb_count(enemy)
                for s in range(largest, -1, -1):
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
                        # A swipe flipping every enemy token eliminates them: won.
                        proof[c] = 1 if s > 0 and s == enemy_count else 0
                        c += 1
                first[node] = start
                count[node] = n
                stats[NEXT_FREE] = start + n
                if proof[start] > 0:
                    settle_proof(node, first, count, proof, plies)
                    newly_proven = True
                    break
                n_children = n
            # UCT selection among children not proven lost.
            log_n = math.log(max(visits[node], 1))
            best = -1
            best_value = -1.0
            for c in range(first[node], first[node] + n_children):
                if proof[c] < 0:
                    continue
                if visits[c] == 0:
                    best = c
                    break
                value = wins[c] / visits[c] + exploration * math.sqrt(log_n / visits[c])
                if value > best_value:
                    best_value = value
                    best = c
            if best < 0:
                break  # cannot happen: a node with every child lost is itself proven
            own, enemy = play(size, own, enemy, np.int64(move[best]))
            node = best
            depth += 1
            path[depth] = node
        if depth > stats[MAX_DEPTH]:
            stats[MAX_DEPTH] = depth
        # Result for the player who moved into `node`.
        if proof[node] != 0:
            reward = 1.0 if proof[node] > 0 else 0.0
        else:
            result, ply = playout(size, own, enemy, playout_cap, greed, moves, flips, enemy_groups, group_id)
            stats[PLAYOUT_PLIES] += ply
            if ply == 0 and result == 0.0 and playout_cap > 0:
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


kernels.register_kernel_module(sys.modules[__name__])


# ----- Python side ------------------------------------------------------------------------------
_compiled = False


def _ensure_compiled():
    """Load (or compile) the kernels before a timed search starts."""
    global _compiled
    if not _compiled:
        board = Board(4)
        tree = Tree(64)
        own, enemy = board._sides()
        _run(tree, board.size, own, enemy, 1, 8, DEFAULT_EXPLORATION, 0.5)
        seed_random(0)
        _compiled = True


def _run(tree, size, own, enemy, iterations, playout_cap, exploration, greed):
    return int(
        run_iterations(
            size, own, enemy, iterations, playout_cap, exploration, greed,
            tree.parent, tree.first, tree.count, tree.move, tree.visits, tree.wins, tree.proof, tree.plies,
            tree.stats, tree.path, tree.moves, tree.flips, tree.enemy_groups, tree.group_id, tree.sizes,
        )
    )  # fmt: skip


def _whole(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise HingeError(f"{name} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise HingeError(f"{name} must be from {low} to {high}, not {value}")
    return int(value)


def _number(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or value != value:
        raise HingeError(f"{name} must be a number, not {value!r}")
    if not low <= value <= high:
        raise HingeError(f"{name} must be from {low} to {high}, not {value}")
    return float(value)


def default_playout_plies(size: int) -> int:
    """Default playout cap for board side ``size`` (one ply per interior cell... times
    ``DEFAULT_PLAYOUT_PLIES_PER_CELL``)."""
    return max(8, int(DEFAULT_PLAYOUT_PLIES_PER_CELL * 3 * (size - 1) * (size - 2) + 1))


def search_mcts(
    board: Board,
    limits: Limits,
    seed: int | None = None,
    progress=None,
    tree_nodes: int = DEFAULT_TREE_NODES,
    exploration: float = DEFAULT_EXPLORATION,
    playout_plies: int | None = None,
    playout_greed: float = DEFAULT_PLAYOUT_GREED,
    **options,
) -> SearchResult:
    """Search ``board`` with MCTS and return a SearchResult (``search/result.py``).

    ``limits``: ``time`` (seconds) and/or ``nodes`` (playouts); depth is ignored and
    no limit means ``DEFAULT_TIME``. ``seed``: same seed and node limit, same result.
    ``progress``: called with an interim SearchResult about every 0.1 s.
    ``tree_nodes``: tree budget in nodes (module docstring); ``exploration``: UCT
    constant c; ``playout_plies``: playout cap (default ``default_playout_plies``);
    ``playout_greed``: probability per playout ply of the largest-flip swipe.

    >>> from hinge_fast import Board
    >>> r = search_mcts(Board(), Limits(nodes=2000), seed=7)
    >>> r.engine, r.nodes, r.score_text.endswith("%")
    ('mcts', 2000, True)
    """
    if options:
        name = sorted(options)[0]
        raise HingeError(f"unknown MCTS option {name!r}: choose tree_nodes, exploration, playout_plies or playout_greed")
    if not isinstance(board, Board):
        raise HingeError(f"search needs a Board, not {type(board).__name__}")
    tree_nodes = _whole("tree_nodes", tree_nodes, 1, MAX_TREE_NODES)
    exploration = _number("exploration", exploration, 0.0, 100.0)
    playout_greed = _number("playout_greed", playout_greed, 0.0, 1.0)
    playout_plies = default_playout_plies(board.size) if playout_plies is None else _whole("playout_plies", playout_plies, 1, 100_000)
    time_limit = limits.time
    node_limit = limits.nodes
    if time_limit is None and node_limit is None:
        time_limit = DEFAULT_TIME
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    seed = _whole("seed", seed, -(2**63), 2**64 - 1) % 2**32

    _ensure_compiled()
    started = time.perf_counter()
    n_root = len(board._generate()[0])
    if n_root == 0:
        return SearchResult(None, 0.0, "loss in 0", [], 0, 0.0, 0, time.perf_counter() - started, "mcts", None, [])
    tree = Tree(max(tree_nodes, 1 + n_root))
    own, enemy = board._sides()
    seed_random(seed)

    deadline = None if time_limit is None else started + time_limit
    done = 0
    chunk = 8
    next_report = started + PROGRESS_SECONDS
    while True:
        todo = chunk if node_limit is None else min(chunk, node_limit - done)
        done += _run(tree, board.size, own, enemy, todo, playout_plies, exploration, playout_greed)
        now = time.perf_counter()
        if tree.proof[0] != 0 or (node_limit is not None and done >= node_limit):
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


def _ranked(tree, node) -> list[int]:
    """Children of ``node``, best first: proven wins (shortest first), then by visits
    and win rate, then unproven, then proven losses (longest first)."""

    def key(c):
        proof = int(tree.proof[c])
        visits = int(tree.visits[c])
        rate = tree.wins[c] / visits if visits else 0.0
        if proof > 0:
            return (0, int(tree.plies[c]), 0, 0.0)
        if proof < 0:
            return (2, -int(tree.plies[c]), -visits, -rate)
        return (1, 0, -visits, -rate)

    return sorted(tree.children(node), key=key)


def _result(board: Board, tree: Tree, seconds: float) -> SearchResult:
    decode = board._decode
    ranked = _ranked(tree, 0)
    root_moves = []
    for c in ranked:
        visits = int(tree.visits[c])
        rate = float(tree.wins[c] / visits) if visits else None
        mate = _mate(tree, c)
        if mate is not None:
            rate = 1.0 if mate > 0 else 0.0
        root_moves.append(RootMove(move=decode(tree.move[c]), score=None, win_rate=rate, visits=visits, mate=mate))
    best = ranked[0]
    pv = []
    node = best
    while True:
        pv.append(decode(tree.move[node]))
        if tree.count[node] == 0 or len(pv) >= MAX_TREE_DEPTH:
            break
        node = _ranked(tree, node)[0]
        if tree.visits[node] == 0 and tree.proof[node] == 0:
            break
    top = root_moves[0]
    mate = top.mate
    if mate is not None:
        score = 1.0 if mate > 0 else 0.0
        text = f"win in {mate}" if mate > 0 else f"loss in {-mate}"
    else:
        score = top.win_rate if top.win_rate is not None else 0.5
        text = f"{100 * score:.1f}%"
    playouts = int(tree.stats[PLAYOUTS])
    return SearchResult(
        move=top.move,
        score=score,
        score_text=text,
        pv=pv,
        nodes=playouts,
        nps=playouts / seconds if seconds > 0 else 0.0,
        depth=int(tree.stats[MAX_DEPTH]),
        seconds=seconds,
        engine="mcts",
        mate=mate,
        root_moves=root_moves,
    )
