"""The hand-written evaluation of alpha-beta: how good a position is for the side to move.

Units are centi-tokens: one token more than the opponent, all else equal, is +100.
``leaf_evaluation`` is a numba kernel called at every leaf of the search. It takes
its terms from sets of cells (``terms.position_terms``: every token at once, no
move listed), with no allocation: listing both sides' moves and filling every group a
cell at a time took 2.4 to 3.4 times as long.

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

Threats come from the swipes themselves (the end cells of each side's swipes, the side
not to move by swapping own and enemy), so they are exactly the flips the rules allow
next move. Two results are not scores but verdicts, returned as sentinels that
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

import numpy as np

from ..core.codes import is_swipe
from ..core.jit import njit
from ..core.moves import list_moves
from ..core.sets import s_count, s_row, set_like, shift_sets
from ..core.tables import GROUP_SLOTS, MAX_MOVES, SCRATCH_ROWS
from .terms import board_terms, position_terms
from .weights import EVALUATORS

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
#: The evaluations' ``kernel_id`` (``weights.EVALUATORS``): the branch of ``leaf_evaluation``.
CLASSIC, MATERIAL_ONLY, FITTED = 0, 1, 2

#: Term names in the order ``terms.position_terms`` returns them.
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
def classic_score(terms):
    """The hand-set weighted sum of ``terms`` (``terms.position_terms``), clamped."""
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


#: Terms of the fitted evaluation: ``TERMS`` plus ``tempo`` (1: the value of having the
#: move), each weighted by two fitted weights blended by the game's phase.
FITTED_TERMS = TERMS + ("tempo",)


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
def tokens_terms_score(kind, size, tokens, terms, n_own, can_eliminate, weights):
    """The score of ``terms`` (``terms.position_terms``'s values) of a position
    holding ``tokens`` tokens by the evaluation ``kind`` (0 classic, 2 fitted with
    ``weights``), sentinels included."""
    if n_own == 0:
        return np.int64(LOST)
    if can_eliminate:
        return np.int64(WINNING)
    if kind == CLASSIC:
        return classic_score(terms)
    score = fitted_blend(size, tokens, terms, weights)
    return np.int64(max(-EVAL_LIMIT, min(EVAL_LIMIT, score)))


@njit(cache=True)
def leaf_evaluation(kind, size, own, enemy, moves, flips, work, group_of_bit, weights):
    """``(score, n, flip)`` of a position in the shift layout: the evaluation ``kind``
    (an Evaluator's ``kernel_id``: 0 classic, 1 material, 2 fitted with ``weights``),
    centi-tokens clamped to ``±EVAL_LIMIT`` or the sentinels ``LOST`` (no legal move)
    and ``WINNING`` (can flip the last enemy group now); ``n`` the number of the side
    to move's legal moves it listed into ``moves``/``flips`` (swipes first; -1 when it
    listed none), which the search's quiescence reuses; ``flip`` the size of the largest
    enemy group the side to move can flip (0 for the material evaluation).

    The material evaluation lists the moves (``moves.list_moves``); the classic and
    fitted ones take their terms from ``terms.position_terms`` and list none."""
    if kind == MATERIAL_ONLY:
        n = list_moves(size, own, enemy, moves, flips, work, group_of_bit, 0)
        if n == 0:
            return np.int64(LOST), np.int64(n), np.int64(0)
        enemy_count = s_count(enemy)
        for i in range(n):
            if not is_swipe(moves[i]):
                break
            if s_count(s_row(flips, i, own)) == enemy_count:
                return np.int64(WINNING), np.int64(n), np.int64(0)
        return np.int64(MATERIAL * (s_count(own) - enemy_count)), np.int64(n), np.int64(0)
    terms, n_own, can_eliminate = position_terms(size, own, enemy)
    score = tokens_terms_score(
        kind, size, s_count(own) + s_count(enemy), terms, n_own, can_eliminate, weights
    )
    return score, np.int64(-1), np.int64(terms[1])


@njit(cache=True)
def evaluation_in(kind, size, own_bits, enemy_bits, weights, like):
    """``leaf_evaluation``'s score of a position given as bitboards (``Board``'s words),
    in the shift layout of ``like``'s words."""
    words = len(like)
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    flips = np.empty((MAX_MOVES, words), dtype=np.uint64)
    work = np.empty((SCRATCH_ROWS, words), dtype=np.uint64)
    group_of_bit = np.empty(GROUP_SLOTS, dtype=np.int16)
    own, enemy = shift_sets(size, own_bits, enemy_bits, like)
    return leaf_evaluation(kind, size, own, enemy, moves, flips, work, group_of_bit, weights)[0]


class Evaluator:
    """A leaf evaluation alpha-beta can use: ``name`` (the ``evaluator`` option),
    ``kernel_id`` (which branch of ``leaf_evaluation`` the search takes at a leaf: numba
    cannot cache a kernel that takes another kernel as an argument), ``weights`` (the
    fitted ones: alpha-beta copies them into its buffers) and ``describe(board)`` (the
    terms, for analysis).

    A new evaluator is a branch of ``leaf_evaluation`` with its sentinels and an entry
    in ``weights.EVALUATORS``.
    """

    def __init__(self, name: str, kernel_id: int, description: str, weights=None, by_size=None):
        self.name = name
        self.kernel_id = kernel_id
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
        weights = self.weights_for(board.size)
        if len(weights) == 0:
            weights = np.zeros(1, dtype=np.float64)
        return int(
            evaluation_in(
                self.kernel_id, board.size, board.own, board.enemy, weights, set_like(board.size)
            )
        )

    def describe(self, board) -> dict:
        """``evaluate_board``'s dict for the classic evaluation; ``{'total', 'verdict'}``
        for others."""
        if self.kernel_id == CLASSIC:
            return evaluate_board(board)
        total = self(board)
        return {
            "total": total,
            "verdict": "lost" if total == LOST else "eliminates" if total == WINNING else None,
        }

    def __repr__(self) -> str:
        return f"<Evaluator {self.name}>"


#: The evaluations by name (``weights.EVALUATORS`` lists them).
EVALUATOR_BY_NAME = {kind.name: Evaluator(*kind) for kind in EVALUATORS}


def get_evaluator(name: str = "classic") -> Evaluator:
    """The evaluator named ``name`` (an Evaluator passes through)."""
    from ..errors import HingeError

    if isinstance(name, Evaluator):
        return name
    evaluator = EVALUATOR_BY_NAME.get(str(name).lower())
    if evaluator is None:
        raise HingeError(f"unknown evaluator {name!r}: choose {', '.join(EVALUATOR_BY_NAME)}")
    return evaluator


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
    terms, n_own, can_eliminate = board_terms(board.size, board.own, board.enemy)
    out: dict = {}
    for name, weight, value in zip(TERMS, WEIGHTS, terms):
        out[name] = int(value)
        out[name + "_score"] = int(weight * value)
    total = int(
        tokens_terms_score(
            0, board.size, 0, terms, n_own, can_eliminate, np.zeros(1, dtype=np.float64)
        )
    )
    out["verdict"] = "lost" if total == LOST else "eliminates" if total == WINNING else None
    out["total"] = total
    return out
