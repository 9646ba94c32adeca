"""The hand-written evaluation of alpha-beta: how good a position is for the side to move.

Units are centi-tokens: one token more than the opponent, all else equal, is +100.
``evaluate`` is a numba kernel called at every leaf of the search, so it is one pass
of two move generations and two flood fills, with no allocation. On sides 4 to 6 the
search's leaves (``leaf_evaluation`` with ``shift``) take the same terms from the shift
layout instead (``shifteval.shift_terms``: every token at once, no move listed): 550 ns
a position on side 4 instead of 1,340, 680 instead of 2,310 on side 6 (the fitted
evaluation on positions of random games).

The terms (each a difference "side to move minus opponent" unless said otherwise),
with the weight constants below:

``material``  (``MATERIAL``)
    Token difference. The game is won by taking every enemy token, and a swipe
    moves tokens between colours, so this is the backbone of the score.
``tempo_flip``  (``TEMPO_FLIP``)
    Size of the largest enemy group the side to move can flip right now. It moves
    next, so it can cash this in (a flip of k tokens swings the material by 2k);
    the opponent answers afterwards, hence less than the full 200 per token.
``flippable``  (``FLIPPABLE``)
    Tokens in all the enemy groups the side to move can flip (the union of its
    swipes' flip targets): the breadth of its threats beyond the best one.
``threat``  (``THREAT``, counted against the side to move)
    Size of our largest group the opponent could flip if it were its turn. We move
    first and may defend, so this weighs less than ``tempo_flip``, but a big
    connected group with an enemy swipe next to it is a huge liability.
``threatened``  (``THREATENED``, against)
    Tokens in all our groups the opponent could flip.
``groups``  (``GROUP``)
    Number of groups. Many small groups are liabilities: each can be flipped on its
    own, and a group swipes only with a pivot of its own colour.
``singletons``  (``SINGLETON``)
    Groups of one token: they can never swipe (no pivot) and are the easy prey.
``largest``  (``LARGEST``)
    Size of the largest group: a big connected group has many swipes and pivots.
``mobility``  (``MOBILITY``)
    Number of legal moves (each side counted as if it were to move).

Threats come from the swipe generator itself (``generate_moves`` for each side; the
side not to move by swapping own and enemy), so they are exactly the flips the rules
allow next move. Two results are not scores but verdicts, returned as sentinels that
the search turns into distances: ``LOST`` when the side to move has no legal move (it
is eliminated or stuck: rules.md section 6) and ``WINNING`` when it can flip the last
enemy group now (an elimination in one).

    >>> from hinge_fast import Board
    >>> from hinge_fast.search.evaluate import evaluate_board
    >>> terms = evaluate_board(Board.from_fen("6/7/8/9/10/5g5/10/9/8/7/6 b"))
    >>> terms["material"], terms["material_score"], terms["verdict"]
    (-1, -100, None)
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from ..core.bits import bb_andnot, bb_any, bb_count, bb_lowest, bb_or, bb_row
from ..core.movegen import generate_moves, group_of, is_swipe
from ..core.tables import SHIFT_MAX_SIZE
from ..core.shiftcount import s_count
from ..core.shiftperft import list_moves_shift
from .shifteval import shift_terms, shift_terms_of
from .weights import LEAF_FITTED_BY_SIZE

# ----- weights (centi-tokens per unit of each term) ------------------------------------------
MATERIAL = 100
TEMPO_FLIP = 150
FLIPPABLE = 10
THREAT = 90
THREATENED = 15
GROUP = -10
SINGLETON = -15
LARGEST = 5
MOBILITY = 1

#: The scale of a won game (the search scores a win at ply p as ``WIN - p``).
WIN = 400_000
#: Scores beyond this are proven results, not estimates.
MATE_BOUND = WIN - 1000
#: Evaluations are clamped inside this, far below MATE_BOUND.
EVAL_LIMIT = 300_000
#: Sentinel of ``evaluate``: the side to move has no legal move (it has lost).
LOST = -WIN
#: Sentinel of ``evaluate``: the side to move can flip the last enemy group now.
WINNING = WIN

#: Term names in the order ``evaluation_terms`` returns them.
TERMS = (
    "material",
    "tempo_flip",
    "flippable",
    "threat",
    "threatened",
    "groups",
    "singletons",
    "largest",
    "mobility",
)
WEIGHTS = (MATERIAL, TEMPO_FLIP, FLIPPABLE, THREAT, THREATENED, GROUP, SINGLETON, LARGEST, MOBILITY)


@njit(cache=True)
def group_stats(size, stones):
    """``(groups, singletons, largest group)`` of one colour's tokens."""
    groups = 0
    singletons = 0
    largest = 0
    rest = stones
    while bb_any(rest):
        group = group_of(size, stones, bb_lowest(rest))
        rest = bb_andnot(rest, group)
        count = bb_count(group)
        groups += 1
        if count == 1:
            singletons += 1
        if count > largest:
            largest = count
    return groups, singletons, largest


@njit(cache=True)
def flip_stats(moves, flips, n):
    """``(largest flippable group, tokens in all flippable groups)`` over the first
    ``n`` generated moves (swipes come first; the first placement ends them)."""
    best = 0
    union = (np.uint64(0), np.uint64(0), np.uint64(0), np.uint64(0))
    for i in range(n):
        if not is_swipe(moves[i]):
            break
        flipped = bb_row(flips, i)
        count = bb_count(flipped)
        if count > best:
            best = count
        union = bb_or(union, flipped)
    return best, bb_count(union)


@njit(cache=True)
def evaluation_terms(size, own, enemy, moves, flips, their_moves, their_flips, enemy_groups, group_id):
    """The raw terms of the module docstring, in ``TERMS`` order, plus the number of
    legal moves of the side to move (0: it has lost) and whether it can eliminate now.

    ``moves``/``flips`` and ``their_moves``/``their_flips`` are two move buffers
    (rows of the search's per-ply buffers); ``enemy_groups``/``group_id`` scratch.
    """
    n_own = generate_moves(size, own, enemy, moves, flips, enemy_groups, group_id, True)
    own_count = bb_count(own)
    enemy_count = bb_count(enemy)
    our_best, our_total = flip_stats(moves, flips, n_own)
    can_eliminate = n_own > 0 and our_best == enemy_count and enemy_count > 0
    n_their = generate_moves(size, enemy, own, their_moves, their_flips, enemy_groups, group_id, True)
    their_best, their_total = flip_stats(their_moves, their_flips, n_their)
    own_groups, own_singletons, own_largest = group_stats(size, own)
    enemy_groups_n, enemy_singletons, enemy_largest = group_stats(size, enemy)
    terms = (
        own_count - enemy_count,
        our_best,
        our_total,
        -their_best,
        -their_total,
        own_groups - enemy_groups_n,
        own_singletons - enemy_singletons,
        own_largest - enemy_largest,
        n_own - n_their,
    )
    return terms, n_own, can_eliminate


@njit(cache=True)
def evaluate(size, own, enemy, moves, flips, their_moves, their_flips, enemy_groups, group_id):
    """Score of the position for the side to move, in centi-tokens, clamped to
    ``±EVAL_LIMIT``; or the sentinel ``LOST`` (no legal move) or ``WINNING`` (can
    flip the last enemy group now). Leaves the side to move's moves in ``moves``."""
    terms, n_own, can_eliminate = evaluation_terms(
        size, own, enemy, moves, flips, their_moves, their_flips, enemy_groups, group_id
    )
    if n_own == 0:
        return np.int64(LOST)
    if can_eliminate:
        return np.int64(WINNING)
    return classic_score(terms)


@njit(cache=True)
def classic_score(terms):
    """The hand-set weighted sum of ``terms`` (``evaluation_terms``), clamped."""
    score = (
        MATERIAL * terms[0]
        + TEMPO_FLIP * terms[1]
        + FLIPPABLE * terms[2]
        + THREAT * terms[3]
        + THREATENED * terms[4]
        + GROUP * terms[5]
        + SINGLETON * terms[6]
        + LARGEST * terms[7]
        + MOBILITY * terms[8]
    )
    return np.int64(max(-EVAL_LIMIT, min(EVAL_LIMIT, score)))


@njit(cache=True)
def evaluate_material(size, own, enemy, moves, flips, their_moves, their_flips, enemy_groups, group_id):
    """The plainest evaluation: token difference (``MATERIAL`` per token), with the same
    verdicts as ``evaluate`` (``LOST``, ``WINNING``) and the same arguments. A second
    backend of the :class:`Evaluator` interface, and a baseline to measure against."""
    n = generate_moves(size, own, enemy, moves, flips, enemy_groups, group_id, True)
    if n == 0:
        return np.int64(LOST)
    enemy_count = bb_count(enemy)
    for i in range(n):
        if not is_swipe(moves[i]):
            break
        if bb_count(bb_row(flips, i)) == enemy_count:
            return np.int64(WINNING)
    return np.int64(MATERIAL * (bb_count(own) - enemy_count))


#: Terms of the fitted evaluation: ``TERMS`` plus ``tempo`` (1: the value of having the
#: move), each weighted by two fitted weights blended by the game's phase.
FITTED_TERMS = TERMS + ("tempo",)
#: Fitted weights, opening then end (``scripts/texel.py``: a logistic fit of the game
#: results of self-play on sides 6-9), in centi-tokens per unit of each term of
#: ``FITTED_TERMS``; a position with a fraction ``phase`` of its interior cells filled
#: weighs each term by ``opening * (1 - phase) + end * phase``.
FITTED_OPENING = (-616, -193, 121, -12, -51, 1175, -333, 538, -21, 1)
FITTED_END = (942, -224, 405, -252, 386, 3375, -2763, -837, 244, 482)

#: The same model fitted at the search's leaves (``leaf-fitted``): each position of the
#: self-play games replaced by the leaf of its depth-1 search's principal variation (the
#: root move and the quiescence's flips), where the search applies the evaluation.
LEAF_FITTED_OPENING = (-355, -80, 47, -81, 10, 2567, -1165, 239, -61, 487)
LEAF_FITTED_END = (821, -500, 559, -255, 432, 2322, -2120, -839, 358, 739)


@njit(cache=True)
def fitted_score(size, own, enemy, terms, weights):
    """``sum(term * (opening * (1 - phase) + end * phase))`` of the fitted evaluation;
    ``weights`` is the float64 array ``FITTED_OPENING + FITTED_END``."""
    return fitted_blend(size, bb_count(own) + bb_count(enemy), terms, weights)


@njit(cache=True)
def fitted_blend(size, tokens, terms, weights):
    """``fitted_score`` of a position holding ``tokens`` tokens."""
    cells = 3 * (size - 1) * (size - 2) + 1
    phase = tokens / cells
    k = len(terms)
    score = 0.0
    for i in range(k):
        score += terms[i] * (weights[i] * (1.0 - phase) + weights[k + 1 + i] * phase)
    score += weights[k] * (1.0 - phase) + weights[2 * k + 1] * phase  # tempo
    return np.int64(round(score))


@njit(cache=True)
def terms_score(kind, size, own, enemy, terms, n_own, can_eliminate, weights):
    """The score of ``terms`` (``evaluation_terms``' values) by the evaluation ``kind``
    (0 classic, 2 fitted with ``weights``), sentinels included."""
    return tokens_terms_score(kind, size, bb_count(own) + bb_count(enemy), terms, n_own, can_eliminate, weights)


@njit(cache=True)
def tokens_terms_score(kind, size, tokens, terms, n_own, can_eliminate, weights):
    """``terms_score`` of a position holding ``tokens`` tokens."""
    if n_own == 0:
        return np.int64(LOST)
    if can_eliminate:
        return np.int64(WINNING)
    if kind == 0:
        return classic_score(terms)
    score = fitted_blend(size, tokens, terms, weights)
    return np.int64(max(-EVAL_LIMIT, min(EVAL_LIMIT, score)))


@njit(cache=True)
def leaf_evaluation(kind, size, own, enemy, moves, flips, their_moves, their_flips, enemy_groups, group_id, weights,
                    shift):
    """``(score, n, flip)``: the evaluation ``kind`` (an Evaluator's ``kernel_id``: 0
    classic, 1 material, 2 fitted with ``weights``) of the position, as ``evaluate`` and
    its siblings return it (sentinels included), the number of the side to move's legal
    moves it listed into ``moves``/``flips`` (swipes first), which the search's
    quiescence reuses, and the size of the largest enemy group the side to move can
    flip (0 for the material evaluation).

    With ``shift``, on the sides up to ``SHIFT_MAX_SIZE``, the classic and fitted
    evaluations take their terms from ``shifteval.shift_terms`` (the same values, no
    move listed, 2.4 to 3.4 times faster): then ``n`` is -1, and a caller that needs the
    moves generates them (the quiescence only when ``flip`` reaches its least flip)."""
    if kind == 1:
        n = generate_moves(size, own, enemy, moves, flips, enemy_groups, group_id, True)
        if n == 0:
            return np.int64(LOST), np.int64(n), np.int64(0)
        enemy_count = bb_count(enemy)
        for i in range(n):
            if not is_swipe(moves[i]):
                break
            if bb_count(bb_row(flips, i)) == enemy_count:
                return np.int64(WINNING), np.int64(n), np.int64(0)
        return np.int64(MATERIAL * (bb_count(own) - enemy_count)), np.int64(n), np.int64(0)
    if shift and size <= SHIFT_MAX_SIZE:
        terms, n_own, can_eliminate = shift_terms(size, own, enemy)
        score = terms_score(kind, size, own, enemy, terms, n_own, can_eliminate, weights)
        return score, np.int64(-1), np.int64(terms[1])
    terms, n_own, can_eliminate = evaluation_terms(
        size, own, enemy, moves, flips, their_moves, their_flips, enemy_groups, group_id
    )
    score = terms_score(kind, size, own, enemy, terms, n_own, can_eliminate, weights)
    return score, np.int64(n_own), np.int64(terms[1])


@njit(cache=True)
def shift_leaf_evaluation(kind, size, w, inside, own, enemy, moves, flips, work, group_of_bit, weights):
    """``leaf_evaluation`` of a position in the two-word shift layout (sides up to
    ``SHIFT_MAX_SIZE``: alpha-beta's ``negamax`` there): the same ``(score, n, flip)``.
    The material evaluation lists the moves (``shiftperft.list_moves_shift``: the
    order and codes of ``generate_moves``, flipped groups as sets); the classic and
    fitted ones take their terms from ``shifteval.shift_terms_of`` and list none (``n``
    is -1)."""
    if kind == 1:
        n = list_moves_shift(size, w, inside, own, enemy, moves, flips, work, group_of_bit, 0)
        if n == 0:
            return np.int64(LOST), np.int64(n), np.int64(0)
        enemy_count = s_count(enemy)
        for i in range(n):
            if not is_swipe(moves[i]):
                break
            if s_count((flips[i, 0], flips[i, 1])) == enemy_count:
                return np.int64(WINNING), np.int64(n), np.int64(0)
        return np.int64(MATERIAL * (s_count(own) - enemy_count)), np.int64(n), np.int64(0)
    terms, n_own, can_eliminate = shift_terms_of(size, own, enemy)
    score = tokens_terms_score(kind, size, s_count(own) + s_count(enemy), terms, n_own, can_eliminate, weights)
    return score, np.int64(-1), np.int64(terms[1])


@njit(cache=True)
def evaluate_fitted(size, own, enemy, moves, flips, their_moves, their_flips, enemy_groups, group_id, weights):
    """``evaluate`` with the fitted, phase-blended weights ``weights`` (``fitted_score``)
    in place of the hand-set constants: same terms, verdicts and arguments, plus the
    weights."""
    return leaf_evaluation(2, size, own, enemy, moves, flips, their_moves, their_flips, enemy_groups, group_id, weights,
                           False)[0]


class Evaluator:
    """A leaf evaluation alpha-beta can use: ``name`` (the ``evaluator`` option),
    ``kernel_id`` (which numba kernel the search calls at a leaf: alpha-beta's
    ``negamax`` dispatches on it, since numba cannot cache a kernel that takes another
    kernel as an argument) and ``describe(board)`` (the terms, for analysis).

    A new evaluator is a kernel with ``evaluate``'s arguments and sentinels (the
    fitted one takes its ``weights`` too: alpha-beta copies them into its buffers), a branch
    in ``negamax``'s leaf, an entry in ``EVALUATOR_BY_NAME`` and its name in the
    registry's ``EVALUATORS``.
    """

    def __init__(self, name: str, kernel_id: int, kernel, description: str, weights=None, by_size=None):
        self.name = name
        self.kernel_id = kernel_id
        self.kernel = kernel
        self.description = description
        #: The fitted evaluation's weights (float64, opening then end), else empty.
        self.weights = np.array(weights if weights is not None else (), dtype=np.float64)
        #: Weights of particular sides (``search/weights.py``), in place of ``weights``.
        self.by_size = {int(s): np.array(w, dtype=np.float64) for s, w in (by_size or {}).items()}

    def weights_for(self, size: int) -> np.ndarray:
        """The weights the search uses on side ``size``: that side's, else ``weights``."""
        return self.by_size.get(int(size), self.weights)

    def __call__(self, board) -> int:
        """The evaluation of ``board`` (centi-tokens, or the sentinels LOST/WINNING)."""
        args = evaluation_arguments(board)
        if self.kernel_id == 2:
            args = args + (self.weights_for(board.size),)
        return int(self.kernel(*args))

    def describe(self, board) -> dict:
        """``evaluate_board``'s dict for the classic evaluation; ``{'total', 'verdict'}``
        for others."""
        if self.kernel_id == 0:
            return evaluate_board(board)
        total = self(board)
        return {"total": total, "verdict": "lost" if total == LOST else "eliminates" if total == WINNING else None}

    def __repr__(self) -> str:
        return f"<Evaluator {self.name}>"


EVALUATOR_BY_NAME = {
    "classic": Evaluator("classic", 0, evaluate, "the weighted terms above"),
    "material": Evaluator("material", 1, evaluate_material, "token difference only"),
    "fitted": Evaluator("fitted", 2, evaluate_fitted, "the terms above plus tempo, weights fitted to self-play "
                        "results and blended by phase", FITTED_OPENING + FITTED_END),
    "leaf-fitted": Evaluator("leaf-fitted", 2, evaluate_fitted, "the fitted evaluation's model fitted at the "
                             "leaves of depth-1 searches; per-side weights from search/weights.py if any",
                             LEAF_FITTED_OPENING + LEAF_FITTED_END, LEAF_FITTED_BY_SIZE),
    "leaf-fitted-69": Evaluator("leaf-fitted-69", 2, evaluate_fitted, "leaf-fitted's sides 6-9 fit on every side",
                                LEAF_FITTED_OPENING + LEAF_FITTED_END),
}


def get_evaluator(name: str = "classic") -> Evaluator:
    """The evaluator named ``name`` (an Evaluator passes through)."""
    from ..errors import HingeError

    if isinstance(name, Evaluator):
        return name
    evaluator = EVALUATOR_BY_NAME.get(str(name).lower())
    if evaluator is None:
        raise HingeError(f"unknown evaluator {name!r}: choose {', '.join(EVALUATOR_BY_NAME)}")
    return evaluator


def evaluation_arguments(board):
    """The arguments of ``evaluation_terms`` (and ``evaluate``) for ``board``, with fresh
    move and group buffers: for scripts and tests that evaluate one position."""
    from ..core.tables import MAX_GROUPS, MAX_MOVES

    moves = np.zeros((2, MAX_MOVES), dtype=np.int64)
    flips = np.zeros((2, MAX_MOVES, 4), dtype=np.uint64)
    enemy_groups = np.zeros((MAX_GROUPS, 4), dtype=np.uint64)
    group_id = np.zeros(256, dtype=np.int16)
    return (board.size, board.own, board.enemy, moves[0], flips[0], moves[1], flips[1], enemy_groups, group_id)


def evaluate_board(board) -> dict:
    """The evaluation of ``board`` term by term, from the side to move's view.

    Returns ``{term: raw value}`` for each name in ``TERMS``, ``{term + '_score':
    weighted value}``, ``'total'`` (what the search sees at a leaf, in centi-tokens)
    and ``'verdict'``: ``None``, ``'lost'`` (no legal move) or ``'eliminates'`` (can
    flip the last enemy group now).

    >>> from hinge_fast import Board
    >>> evaluate_board(Board())["total"]
    0
    """
    args = evaluation_arguments(board)
    terms, n_own, can_eliminate = evaluation_terms(*args)
    out: dict = {}
    for name, weight, value in zip(TERMS, WEIGHTS, terms):
        out[name] = int(value)
        out[name + "_score"] = int(weight * value)
    total = int(evaluate(*args))
    out["verdict"] = "lost" if total == LOST else "eliminates" if total == WINNING else None
    out["total"] = total
    return out


from ..core import kernels  # noqa: E402  (after the kernels above: registers them for stale-cache checks)

kernels.register_kernel_module(sys.modules[__name__])
