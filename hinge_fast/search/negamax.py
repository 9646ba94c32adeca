"""Alpha-beta's recursion: negamax with principal variation search, a quiescence search
and move ordering, the whole tree in numba. ``alphabeta.py`` drives it one depth at a
time (iterative deepening, threads, limits) and builds the result.

``negamax`` runs in numbered steps (the comments ``# Step n.``): past the depth, the
quiescence search (``quiescence``, a kernel of its own); the node count and the limits;
repetition and the table probe; the prunings on the static evaluation; the moves and
their ordering keys (``score_moves``); the move loop with late move and futility
pruning, principal variation search and late move reductions; the best move, PV,
killers and history; the table store. A search's constants (table generation, whether
the table is on, the game's length before the root, the evaluator, the quiescence and
the selective search) are one ``SearchConfig`` argument, the same at every node; the
``state`` array holds only what changes: node count, limits, the stop flag and the
root's bookkeeping.

* **Negamax with principal variation search** (a null window after the first move,
  re-searched when it fails high).
* **Selective search** (``config.selective``, on by default), at nodes searched with a
  null window only:
  - *null move*: from depth ``NULL_MIN_DEPTH`` on, when the static evaluation is at
    least beta, the opponent moves twice in a search ``NULL_R + depth // NULL_R_DIVISOR``
    plies shallower, and one more per ``NULL_EVAL_MARGIN`` the evaluation is above beta
    (at most ``NULL_EVAL_MAX``); if it still cannot bring the score below beta, the node
    fails high (the game has no pass: this asks whether the side to move is so far
    ahead that any move will do);
  - *late move reductions*: quiet moves (placements and single flips that are neither
    the table move nor a killer) from the ``LMR_FROM_MOVE``-th on, at depth
    ``LMR_MIN_DEPTH`` or more, are first searched ``late_move_reduction`` plies shallower
    and re-searched at full depth when they beat alpha (at nodes of the principal
    variation, one ply less is taken off);
  - *late move pruning*: at depth 1 and 2, the quiet moves after the first
    ``LMP_BASE + LMP_STEP * depth**2`` are not searched;
  - *reverse futility pruning*: at depth 1 to ``RFP_MAX_DEPTH``, a node whose static
    evaluation is at least beta + ``RFP_MARGIN`` per ply of depth fails high on it;
  - *futility pruning*: at depth 1 and 2, when the static evaluation is at most
    alpha - ``FUTILITY_MARGIN`` per ply of depth, the quiet moves are not searched
    once a move that is not lost has been.
  Each was measured alone in matches against the same engine without it
  (docs/search-alphabeta.md). With ``config.selective = 0`` nothing prunes or reduces by
  move order, so the score of a fixed-depth search is exactly the depth-limited minimax
  value with or without the table (``tt.py``): a stored score cuts the search off only
  when it was searched to exactly the depth needed (in Hinge a position cannot recur at
  two different depths of one tree except through swipes that undo each other, so
  ``>=`` would buy almost nothing).
* **Quiescence** (``config.quiescence`` = k > 0): at depth 0 the evaluation is a
  stand-pat score and, below beta, the swipes that flip k tokens or more (listed only
  when the evaluation says such a flip exists) are searched on, largest flip first, at
  most ``config.quiescence_plies`` plies past the depth. Below depth 0 the table is
  neither read nor written and no killer or history is updated; depth-0 results are
  stored with their true bound, so fixed-depth scores stay the same with and without
  the table.
* **Scores** are centi-tokens from the side to move (``evaluate.py``). A position whose
  side to move has no legal move (eliminated or stuck) is lost: ``-(WIN - ply)``, so
  the search prefers the fastest win and the slowest loss. A swipe that flips the last
  enemy group is taken on sight (``WIN - ply - 1``). A position that already occurred
  on the current line (game history since the last placement included: a placement adds
  a token for good, so nothing before it can recur) is scored 0.
* **Move ordering**: the table's move, then swipes flipping groups of two or more
  tokens (largest first), then the two killer moves of the ply, then the rest by the
  history heuristic: a cut-off adds depth² to the move's from/to counter, and when the
  move is not a big flip, takes depth² from each move searched before it at that node
  that is not one either. The
  principal variation comes from a triangular PV table.
* **Limits**: the node limit is checked at every node, the clock (``intrinsics.py``)
  every ``CLOCK_EVERY`` nodes, so the search stops within a millisecond or so of its
  deadline; the driver sets the deadline to 0 to stop it (Ctrl-C, ``stop()``).
* **One entry kernel**: the root is a branch of the recursive ``negamax`` rather than a
  kernel of its own: with older numba versions the cache could not load a cached kernel
  that called a cached recursive kernel (the second run failed with "unresolved symbol"
  or crashed); numba 0.68's loads ``search_depth`` and ``negamax``, each calling a
  recursive kernel. ``negamax`` and ``quiescence`` keep one signature each, every call
  passing the same types: whether the node follows a null move is read from the line
  of keys (a null move changes only the side-to-move key), not passed as an argument
  (a boolean argument, literal at the calls, crashed the second run).
* **One layout**: a node's sides are sets of the shift layout (``core/sets.py``)
  in the side's words; ``search_depth`` converts the root once, and the type of the
  sets picks ``negamax``'s compiled version. Moves are listed, played and hashed by
  ``core/moves.py``.
* **No reference counting in the recursion**: ``search_depth`` hands ``negamax`` views
  of the buffers and the table that numba does not reference-count
  (``intrinsics.unowned``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..core.codes import is_swipe
from ..core.jit import njit
from ..core.moves import child_key, list_moves, play_move
from ..core.sets import s_count, s_row, shift_sets
from ..core.tables import GROUP_SLOTS, MAX_MOVES, SCRATCH_ROWS, SHIFT_WORDS, ZOBRIST
from .alphabeta_config import MAX_QUIESCENCE_PLIES
from .evaluate import LOST, MATE_BOUND, WIN, WINNING, leaf_evaluation
from .intrinsics import monotonic_ns, touched, unowned
from .limits import MAX_DEPTH
from .tt import (
    EXACT,
    LOWER,
    UPPER,
    entry_bound,
    entry_depth,
    entry_move,
    entry_score,
    prefetch_bucket,
    score_from_table,
    settles,
    table_probe,
    table_store,
)

#: Scores lie strictly inside (-INFINITE, INFINITE).
INFINITE = WIN + 1
#: Plies of per-ply buffers: the deepest iteration, its quiescence, and the two rows a
#: leaf uses.
PLIES = MAX_DEPTH + MAX_QUIESCENCE_PLIES + 3
#: Room for an evaluator's weights in the buffers.
MAX_WEIGHTS = 64
#: Positions of the game before the root kept for repetition checks.
HISTORY_ROOM = 256
#: Nodes between two clock readings.
CLOCK_EVERY = 256

# Slots of the ``state`` array: the live record of a search, shared by Python and the
# kernels (the counters, the limits, and the root's bookkeeping at each depth).
NODES = 0  # positions searched so far
NODE_LIMIT = 1  # stop when NODES reaches this
DEADLINE = 2  # stop when the monotonic clock (ns) reaches this; 0 = stop now (Ctrl-C)
ABORTED = 3  # set by the kernel when it stopped before finishing the depth
CAN_ABORT = 4  # 0 during depth 1, which always completes
ROOT_COUNT = 5  # root moves in buf.moves[0]
ROOT_BEST = 6  # index of the best root move finished
ROOT_DONE = 7  # root moves finished in this depth
STATE_SLOTS = 8


class SearchConfig(NamedTuple):
    """The constants of one search, the same at every node: the kernels take them as
    one argument (``search_config`` builds it with the types of the compiled kernels)."""

    generation: int  # this search's table generation (1..255)
    table_on: int  # 1 when the transposition table is in use
    history_length: int  # game positions before the root in ``buf.line``
    evaluator: int  # kernel_id of the leaf evaluation (search/evaluate.py)
    quiescence: int  # least flip (tokens) of a swipe searched past the depth; 0: none
    quiescence_plies: int  # most plies of quiescence
    selective: int  # 1: null move, futility pruning, late move reductions and pruning


def search_config(
    generation, table_on, history_length, evaluator, quiescence, quiescence_plies, selective
) -> SearchConfig:
    """A ``SearchConfig`` of Python ints: one compiled version of the kernels, and the
    quickest for numba's dispatcher to type (numpy scalars took it about twice as long
    per call)."""
    return SearchConfig(
        int(generation),
        int(table_on),
        int(history_length),
        int(evaluator),
        int(quiescence),
        int(quiescence_plies),
        int(selective),
    )


#: Least depth at which a null move is tried, and its reduction: R = NULL_R + depth //
#: NULL_R_DIVISOR + min((evaluation - beta) // NULL_EVAL_MARGIN, NULL_EVAL_MAX).
NULL_MIN_DEPTH = 3
NULL_R = 4
NULL_R_DIVISOR = 3
NULL_EVAL_MARGIN = 600
NULL_EVAL_MAX = 3
#: Late move reductions: from this move of a node and this depth on, a quiet move is
#: searched ``late_move_reduction(depth, index)`` plies shallower first.
LMR_FROM_MOVE = 3
LMR_MIN_DEPTH = 3
#: Late move pruning: at a non-PV node of depth d <= LMP_MAX_DEPTH, quiet moves after
#: the first ``LMP_BASE + LMP_STEP * d * d`` are not searched.
LMP_MAX_DEPTH = 2
LMP_BASE = 4
LMP_STEP = 4
#: Reverse futility pruning: a non-PV node of depth d <= RFP_MAX_DEPTH whose static
#: evaluation is at least beta + RFP_MARGIN * d fails high on it.
RFP_MAX_DEPTH = 3
RFP_MARGIN = 600
#: Futility pruning: at a non-PV node of depth d <= FUTILITY_MAX_DEPTH whose static
#: evaluation is at most alpha - FUTILITY_MARGIN * d, the quiet moves are not searched.
FUTILITY_MAX_DEPTH = 2
FUTILITY_MARGIN = 1000
#: Ordering keys at or above this belong to the table move, big flips and killers, never reduced.
QUIET_BELOW = np.int64(1) << 45


@njit(cache=True, inline="always")
def late_move_reduction(depth, index):
    """Plies a quiet move at ``index`` of a node ``depth`` deep is reduced by: growing
    with the logarithms of both."""
    return np.int64(0.5 + math.log(depth) * math.log(index + 1) / 2.5)


U64 = np.uint64


class SearchBuffers(NamedTuple):
    """Everything the search kernels write, preallocated once per searcher object."""

    moves: np.ndarray  # int64 [PLIES, MAX_MOVES]: move codes per ply
    flips: np.ndarray  # uint64 [PLIES, MAX_MOVES, SHIFT_WORDS]: the set each move flips
    order: np.ndarray  # int64 [PLIES, MAX_MOVES]: ordering keys
    scratch: np.ndarray  # uint64 [SCRATCH_ROWS, SHIFT_WORDS]: the move lister's sets
    group_of_bit: np.ndarray  # int16 [GROUP_SLOTS]: the move lister's group numbers
    killers: np.ndarray  # int64 [PLIES, 2]
    history: np.ndarray  # int64 [1 << 18]: by from | to << 9
    pv: np.ndarray  # int64 [PLIES, PLIES]: triangular PV table
    pv_length: np.ndarray  # int64 [PLIES]
    line: np.ndarray  # uint64 [HISTORY_ROOM + PLIES]: hashes of the game and the current line
    root_info: np.ndarray  # int64 [3, MAX_MOVES]: per root move: score, exact (0/1), nodes
    state: np.ndarray  # int64 [STATE_SLOTS]
    weights: np.ndarray  # float64 [MAX_WEIGHTS]: the evaluator's weights (fitted evaluation)


def new_buffers() -> SearchBuffers:
    """Fresh search buffers (about 30 MB, written once so the search pays no page faults)."""
    return SearchBuffers(*(touched(a) for a in _new_buffers()))


def _new_buffers() -> SearchBuffers:
    return SearchBuffers(
        moves=np.zeros((PLIES, MAX_MOVES), dtype=np.int64),
        flips=np.zeros((PLIES, MAX_MOVES, SHIFT_WORDS), dtype=np.uint64),
        order=np.zeros((PLIES, MAX_MOVES), dtype=np.int64),
        scratch=np.zeros((SCRATCH_ROWS, SHIFT_WORDS), dtype=np.uint64),
        group_of_bit=np.zeros(GROUP_SLOTS, dtype=np.int16),
        killers=np.zeros((PLIES, 2), dtype=np.int64),
        history=np.zeros(1 << 18, dtype=np.int64),
        pv=np.zeros((PLIES, PLIES), dtype=np.int64),
        pv_length=np.zeros(PLIES, dtype=np.int64),
        line=np.zeros(HISTORY_ROOM + PLIES, dtype=np.uint64),
        root_info=np.zeros((3, MAX_MOVES), dtype=np.int64),
        state=np.zeros(STATE_SLOTS, dtype=np.int64),
        weights=np.zeros(MAX_WEIGHTS, dtype=np.float64),
    )


@njit(cache=True)
def out_of_budget(state):
    """Count a node; True when the search must stop (limits checked only past depth 1)."""
    state[NODES] += 1
    if state[ABORTED]:
        return True
    if state[CAN_ABORT] == 0:
        return False
    if state[NODES] >= state[NODE_LIMIT]:
        state[ABORTED] = 1
    elif state[NODES] % CLOCK_EVERY == 0 and monotonic_ns() >= state[DEADLINE]:
        state[ABORTED] = 1
    return state[ABORTED] != 0


@njit(cache=True)
def repeated(line, index, key):
    """Whether ``key`` occurred an even number of plies before ``line[index]``."""
    i = index - 2
    while i >= 0:
        if line[i] == key:
            return True
        i -= 2
    return False


@njit(cache=True)
def note_elimination(buf, ply, moves, flips, enemy_count, like):
    """Make the principal variation at ``ply`` the swipe (among the listed swipes,
    which come first) that flips all ``enemy_count`` enemy tokens (flipped groups of
    ``like``'s words)."""
    i = 0
    while is_swipe(moves[i]):
        if s_count(s_row(flips, i, like)) == enemy_count:
            buf.pv[ply, ply] = moves[i]
            buf.pv_length[ply] = ply + 1
            return
        i += 1


@njit(cache=True, inline="always")
def history_malus(history, moves, flips, n, depth, like):
    """A quiet move cut off after the first ``n`` moves: each of those that is not a
    big flip (they were searched and did not cut off) loses ``depth**2`` of history."""
    for j in range(n):
        move = moves[j]
        if not (is_swipe(move) and s_count(s_row(flips, j, like)) >= 2):
            history[move & 0x3FFFF] = max(
                history[move & 0x3FFFF] - depth * depth, -(np.int64(1) << 30)
            )


@njit(cache=True, inline="always")
def select_move(order, moves, flips, i, n, like):
    """One step of the selection sort of the move loop: the move of the highest key
    from ``i`` on (the first of equal ones) to place ``i`` (flipped groups: the words of
    ``like``'s layout)."""
    pick = i
    for j in range(i + 1, n):
        if order[j] > order[pick]:
            pick = j
    if pick != i:
        order[i], order[pick] = order[pick], order[i]
        moves[i], moves[pick] = moves[pick], moves[i]
        for w in range(len(like)):
            flips[i, w], flips[pick, w] = flips[pick, w], flips[i, w]


@njit(cache=True)
def score_moves(moves, flips, order, n, table_move, killer1, killer2, history, enemy_count, like):
    """The ordering keys of a node's ``n`` moves into ``order``: the table's move, then
    swipes flipping two tokens or more (largest first, then by history), the two
    killers, the rest by history. Returns the index of a swipe that flips all
    ``enemy_count`` enemy tokens (it wins at once: the keys are then unfinished), else
    -1 (flipped groups: the words of ``like``'s layout)."""
    for i in range(n):
        move = moves[i]
        if move == table_move:
            order[i] = np.int64(1) << 60
            continue
        if is_swipe(move):
            flipped = s_count(s_row(flips, i, like))
            if flipped == enemy_count:
                return i
            if flipped >= 2:
                order[i] = (np.int64(1) << 50) + (flipped << 32) + history[move & 0x3FFFF]
                continue
        if move == killer1:
            order[i] = np.int64(1) << 46
        elif move == killer2:
            order[i] = np.int64(1) << 45
        else:
            order[i] = history[move & 0x3FFFF]
    return -1


@njit(cache=True, nogil=True)
def quiescence(size, colour, own, enemy, key, depth, ply, alpha, beta, config, buf, keys, data):
    """Score of a node at or past the depth (``depth`` <= 0) for the side to move,
    within the window (alpha, beta): its evaluation stands unless a swipe flipping
    ``config.quiescence`` tokens or more, searched on (largest flip first, at most
    ``config.quiescence_plies`` plies past the depth), beats it. Arguments as
    ``negamax``'s. Only depth-0 nodes use the table; no killer or history changes."""
    state = buf.state
    buf.pv_length[ply] = ply

    # Step 1. Count the node; stop when out of budget.
    if out_of_budget(state):
        return np.int64(0)

    # Step 2. A position that occurred on the line is a draw.
    if repeated(buf.line, config.history_length + ply, key):
        return np.int64(0)

    # Step 3. Table probe (entries are stored at depth 0 and deeper only).
    if config.table_on and depth == 0:
        entry = table_probe(keys, data, key, config.generation)
        if entry != 0 and entry_depth(entry) == 0:
            score = score_from_table(entry_score(entry), ply)
            if settles(entry_bound(entry), score, alpha, beta):
                return score

    # Step 4. Static evaluation: a proven result, or the stand-pat score.
    moves = buf.moves[ply]
    flips = buf.flips[ply]
    order = buf.order[ply]
    score, n, largest_flip = static_evaluation(config, buf, size, own, enemy, moves, flips)
    proven = True
    if score == LOST:
        score = -(WIN - ply)
    elif score == WINNING:
        score = WIN - ply - 1
        if n < 0:  # the evaluation listed no move: list the eliminating swipes
            n = list_moves(
                size, own, enemy, moves, flips, buf.scratch, buf.group_of_bit, s_count(enemy)
            )
        note_elimination(buf, ply, moves, flips, s_count(enemy), own)
    else:
        proven = False

    # Step 5. The swipes flipping least_flip tokens or more, keyed by their flip. The
    # evaluation may have left the side to move's moves in the buffer, swipes first;
    # if not (n < 0) they are listed now, if a swipe flips enough (largest_flip: the
    # largest group it can flip).
    least_flip = config.quiescence
    m = 0
    if least_flip > 0 and not proven and -depth < config.quiescence_plies and score < beta:
        if n < 0:
            if largest_flip >= least_flip:
                n = list_moves(
                    size, own, enemy, moves, flips, buf.scratch, buf.group_of_bit, least_flip
                )
            else:
                n = 0
        for i in range(n):
            if not is_swipe(moves[i]):
                break
            flipped = s_count(s_row(flips, i, own))
            if flipped >= least_flip:
                moves[m] = moves[i]
                for w in range(len(own)):
                    flips[m, w] = flips[i, w]
                order[m] = flipped
                m += 1
    if m == 0:
        if config.table_on and depth == 0:
            bound = LOWER if least_flip > 0 and not proven and score >= beta else EXACT
            table_store(keys, data, key, 0, bound, 0, config.generation, score, ply)
        return score

    # Step 6. Move loop: the flips, largest first, with principal variation search,
    # over the stand-pat score.
    original_alpha = alpha
    best = score
    if best > alpha:
        alpha = best
    best_move = np.int64(0)
    line_index = config.history_length + ply + 1
    for i in range(m):
        select_move(order, moves, flips, i, m, own)
        move = moves[i]
        flipped = s_row(flips, i, own)
        their, ours = play_move(size, own, enemy, move, flipped)
        child = child_key(size, colour, key, move, flipped)
        buf.line[line_index] = child
        # The first flip with the whole window; the others with a null window, searched
        # again with the whole window when they land inside it.
        lower = -beta if i == 0 else -alpha - 1
        score = -quiescence(
            size, 1 - colour, their, ours, child, depth - 1, ply + 1, lower, -alpha,
            config, buf, keys, data,
        )  # fmt: skip
        if i > 0 and alpha < score < beta:
            score = -quiescence(
                size, 1 - colour, their, ours, child, depth - 1, ply + 1, -beta, -alpha,
                config, buf, keys, data,
            )  # fmt: skip
        if state[ABORTED]:
            return np.int64(0)
        if score > best:
            best = score
            best_move = move
            if score > alpha:
                alpha = score
                update_pv(buf.pv, buf.pv_length, ply, move)
                if score >= beta:
                    break

    # Step 7. Store a depth-0 result with its bound.
    if config.table_on and depth == 0:
        bound = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        table_store(keys, data, key, best_move, bound, 0, config.generation, best, ply)
    return best


@njit(cache=True, inline="always")
def update_pv(pv, pv_length, ply, move):
    """The principal variation at ``ply``: ``move``, then the child's."""
    pv[ply, ply] = move
    for k in range(ply + 1, pv_length[ply + 1]):
        pv[ply, k] = pv[ply + 1, k]
    pv_length[ply] = max(pv_length[ply + 1], ply + 1)


@njit(cache=True, nogil=True)
def negamax(size, colour, own, enemy, key, depth, ply, alpha, beta, config, buf, keys, data):
    """Score of the position for the side to move (``colour``: 0 green, 1 blue),
    searched ``depth`` plies deep within the window (alpha, beta).

    ``own`` and ``enemy`` are the sides as sets of the shift layout, and so are the
    flipped groups of the move lists (``core/sets.py``); ``key`` is the position's
    Zobrist key. ``config`` is the search's ``SearchConfig``; ``buf`` its
    ``SearchBuffers``, whose ``state`` holds the counters and limits; ``keys`` and
    ``data`` the transposition table (``tt.py``). At the root (ply 0), the moves are
    those the caller put in ``buf.moves[0]`` (``state[ROOT_COUNT]`` of them), searched
    in that order; each one's score, exactness and nodes go to ``buf.root_info``, the
    index of the best to ``state[ROOT_BEST]`` and the number finished to
    ``state[ROOT_DONE]``. (The root is a branch of this function rather than a function
    of its own because numba's cache cannot load a kernel that calls a recursive
    kernel.)
    """
    # Step 1. Past the depth: the quiescence search.
    if depth <= 0:
        return quiescence(
            size, colour, own, enemy, key, depth, ply, alpha, beta, config, buf, keys, data
        )

    # Step 2. Count the node; stop when out of budget.
    state = buf.state
    buf.pv_length[ply] = ply
    if out_of_budget(state):
        return np.int64(0)
    root = ply == 0
    selective = config.selective != 0
    table_on = config.table_on != 0
    moves = buf.moves[ply]
    flips = buf.flips[ply]
    order = buf.order[ply]
    table_move = np.int64(0)
    killer1 = buf.killers[ply, 0]
    killer2 = buf.killers[ply, 1]
    futile = False  # the quiet moves of this node cannot raise alpha (futility pruning)
    if root:
        # Step 3. The root: the caller's moves, in the caller's order.
        n = state[ROOT_COUNT]
        for i in range(n):
            order[i] = n - i
    else:
        # Step 3. Repetition (a draw), then the table: a stored score of exactly this
        # depth whose bound settles the window ends the node; its move is tried first.
        if repeated(buf.line, config.history_length + ply, key):
            return np.int64(0)
        if table_on:
            entry = table_probe(keys, data, key, config.generation)
            if entry != 0:
                table_move = entry_move(entry)
                if entry_depth(entry) == depth:
                    score = score_from_table(entry_score(entry), ply)
                    if settles(entry_bound(entry), score, alpha, beta):
                        return score

        # Step 4. Pruning on the static evaluation, at null-window nodes of the selective
        # search. Reverse futility: far enough above beta, the node fails high.
        # Futility: far enough below alpha, its quiet moves are not searched. Null move:
        # if the opponent, moving twice, still cannot bring the score below beta in a
        # shallower search, the node fails high.
        if selective and beta - alpha == 1 and -MATE_BOUND < beta < MATE_BOUND:
            after_null = key ^ buf.line[config.history_length + ply - 1] == ZOBRIST[size, 2, 0]
            null_move = depth >= NULL_MIN_DEPTH and not after_null
            if null_move or depth <= max(RFP_MAX_DEPTH, FUTILITY_MAX_DEPTH):
                score = static_evaluation(config, buf, size, own, enemy, moves, flips)[0]
                if score == LOST:
                    return -(WIN - ply)
                if score != WINNING:
                    if depth <= RFP_MAX_DEPTH and score - RFP_MARGIN * depth >= beta:
                        return score
                    futile = (
                        depth <= FUTILITY_MAX_DEPTH and score + FUTILITY_MARGIN * depth <= alpha
                    )
                if null_move and score != WINNING and score >= beta:
                    child = key ^ ZOBRIST[size, 2, 0]
                    buf.line[config.history_length + ply + 1] = child
                    r = NULL_R + depth // NULL_R_DIVISOR
                    r += min((score - beta) // NULL_EVAL_MARGIN, NULL_EVAL_MAX)
                    score = -negamax(
                        size, 1 - colour, enemy, own, child, depth - 1 - r, ply + 1,
                        -beta, -beta + 1, config, buf, keys, data,
                    )  # fmt: skip
                    if state[ABORTED]:
                        return np.int64(0)
                    if score >= beta:
                        return beta if score >= MATE_BOUND else score

        # Step 5. The moves and their ordering keys; a swipe that flips every enemy
        # token wins at once.
        n = list_moves(size, own, enemy, moves, flips, buf.scratch, buf.group_of_bit, 0)
        if n == 0:
            return -(WIN - ply)  # eliminated or no legal move: the side to move has lost
        winning = score_moves(
            moves, flips, order, n, table_move, killer1, killer2, buf.history, s_count(enemy), own
        )
        if winning >= 0:
            buf.pv[ply, ply] = moves[winning]
            buf.pv_length[ply] = ply + 1
            return WIN - ply - 1

    # Step 6. The move loop, best key first. The keys do not change during the loop, so
    # the next move is known before this one is searched: with the table on, it is
    # placed and its child's bucket prefetched a move ahead (the same order: each
    # selection step is the one the loop would take).
    original_alpha = alpha
    best = -INFINITE
    best_move = np.int64(0)
    line_index = config.history_length + ply + 1
    next_child = U64(0)
    for i in range(n):
        if i == 0 or not table_on:
            select_move(order, moves, flips, i, n, own)
        # Step 7. Late move pruning and futility pruning: the rest are quiet moves too
        # (the keys are sorted).
        if (
            selective
            and not root
            and depth <= LMP_MAX_DEPTH
            and beta - alpha == 1
            and i >= LMP_BASE + LMP_STEP * depth * depth
            and order[i] < QUIET_BELOW
            and best > -MATE_BOUND
        ):
            break
        if futile and order[i] < QUIET_BELOW and best > -MATE_BOUND:
            break
        move = moves[i]
        flipped = s_row(flips, i, own)
        their, ours = play_move(size, own, enemy, move, flipped)
        if i > 0 and table_on:
            child = next_child
        else:
            child = child_key(size, colour, key, move, flipped)
            if table_on:
                prefetch_bucket(keys, data, child)
        if table_on and i + 1 < n:
            select_move(order, moves, flips, i + 1, n, own)
            next_child = child_key(size, colour, key, moves[i + 1], s_row(flips, i + 1, own))
            prefetch_bucket(keys, data, next_child)
        buf.line[line_index] = child
        before = state[NODES]

        # Step 8. Principal variation search: the first move with the full window, the
        # others with a null window (late quiet ones reduced first), searched again with
        # the full window when they land inside it. A child at the depth is a quiescence
        # node, called directly (a call less per leaf).
        score = alpha + 1
        if i > 0:
            reduction = 0
            if (
                selective
                and not root
                and depth >= LMR_MIN_DEPTH
                and i >= LMR_FROM_MOVE
                and order[i] < QUIET_BELOW
            ):
                reduction = late_move_reduction(depth, i)
                if beta - alpha > 1 and reduction > 0:
                    reduction -= 1
                reduction = min(reduction, depth - 2)
            if reduction > 0:  # then depth - 1 - reduction >= 1
                score = -negamax(
                    size, 1 - colour, their, ours, child, depth - 1 - reduction, ply + 1,
                    -alpha - 1, -alpha, config, buf, keys, data,
                )  # fmt: skip
            if score > alpha:
                if depth > 1:
                    score = -negamax(
                        size, 1 - colour, their, ours, child, depth - 1, ply + 1,
                        -alpha - 1, -alpha, config, buf, keys, data,
                    )  # fmt: skip
                else:
                    score = -quiescence(
                        size, 1 - colour, their, ours, child, 0, ply + 1,
                        -alpha - 1, -alpha, config, buf, keys, data,
                    )  # fmt: skip
        exact = i == 0 or alpha < score < beta
        if exact:
            if depth > 1:
                score = -negamax(
                    size, 1 - colour, their, ours, child, depth - 1, ply + 1, -beta, -alpha,
                    config, buf, keys, data,
                )  # fmt: skip
            else:
                score = -quiescence(
                    size, 1 - colour, their, ours, child, 0, ply + 1, -beta, -alpha,
                    config, buf, keys, data,
                )  # fmt: skip
        if state[ABORTED]:
            return np.int64(0)

        # Step 9. The root's record, the best move, the PV, and at a cut-off the killers
        # and the history.
        if root:
            buf.root_info[0, i] = score
            buf.root_info[1, i] = 1 if exact else 0
            buf.root_info[2, i] = state[NODES] - before
            state[ROOT_DONE] = i + 1
        if score > best:
            best = score
            best_move = move
            if root:
                state[ROOT_BEST] = i
            if score > alpha:
                alpha = score
                update_pv(buf.pv, buf.pv_length, ply, move)
                if score >= beta:
                    big_flip = is_swipe(move) and s_count(flipped) >= 2
                    if not big_flip and move != killer1:
                        buf.killers[ply, 1] = killer1
                        buf.killers[ply, 0] = move
                    h = buf.history[move & 0x3FFFF] + depth * depth
                    buf.history[move & 0x3FFFF] = min(h, np.int64(1) << 30)
                    if not big_flip:
                        history_malus(buf.history, moves, flips, i, depth, own)
                    break

    # Step 10. Store the result with its bound.
    if table_on and not root:
        bound = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        table_store(keys, data, key, best_move, bound, depth, config.generation, best, ply)
    return best


@njit(cache=True, inline="always")
def static_evaluation(config, buf, size, own, enemy, moves, flips):
    """``leaf_evaluation`` of the search's evaluator, with the buffers' scratch rows and
    weights: (score, moves listed or -1, largest flip)."""
    return leaf_evaluation(
        config.evaluator,
        size,
        own,
        enemy,
        moves,
        flips,
        buf.scratch,
        buf.group_of_bit,
        buf.weights,
    )


@njit(cache=True, inline="always")
def unowned_buffers(buf):
    """``buf`` with every array an ``unowned`` view."""
    return SearchBuffers(
        unowned(buf.moves),
        unowned(buf.flips),
        unowned(buf.order),
        unowned(buf.scratch),
        unowned(buf.group_of_bit),
        unowned(buf.killers),
        unowned(buf.history),
        unowned(buf.pv),
        unowned(buf.pv_length),
        unowned(buf.line),
        unowned(buf.root_info),
        unowned(buf.state),
        unowned(buf.weights),
    )


@njit(cache=True, nogil=True)
def search_depth(
    size, colour, own, enemy, key, depth, ply, alpha, beta, config, buf, keys, data, like
):
    """``negamax`` of the position given as bitboards (``own``, ``enemy``: ``Board``'s
    words), converted to the shift layout of ``like``'s words, over views of the buffers
    and table that numba does not reference-count: every call of the recursion passed
    16 arrays, and their atomic reference-count updates took about a third of the
    kernel's time."""
    own, enemy = shift_sets(size, own, enemy, like)
    return negamax(
        size,
        colour,
        own,
        enemy,
        key,
        depth,
        ply,
        alpha,
        beta,
        config,
        unowned_buffers(buf),
        unowned(keys),
        unowned(data),
    )
