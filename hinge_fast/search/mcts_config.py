"""MCTS's options, their defaults and bounds, and the configuration its kernel takes
(no numba here: the registry and the command line read it without loading the kernels;
``mcts.py`` and ``mcts_threads.py`` import it).

    >>> DEFAULT_CONFIG.exploration, DEFAULT_CONFIG.prior_weight
    (1.0, 1.0)
"""

from __future__ import annotations

from typing import NamedTuple

from .options import TABLEBASE, THREADS, OptionSpec

DEFAULT_TREE_NODES = 4_000_000
MIN_TREE_NODES = 1
MAX_TREE_NODES = 50_000_000
#: PUCT's exploration constant c.
DEFAULT_EXPLORATION = 1.0
MAX_EXPLORATION = 100.0
#: First-play urgency: an unvisited child's q is its parent's win rate for the side to
#: move less ``fpu``.
DEFAULT_FPU = 0.0
MIN_FPU = -1.0
MAX_FPU = 1.0
#: The policy: a softmax over a node's children of ``prior_weight`` times the flip size
#: relative to the largest flip there (a placement flips 0).
DEFAULT_PRIOR_WEIGHT = 1.0
MAX_PRIOR_WEIGHT = 100.0
#: A leaf's result is the fitted evaluation (``leaf-fitted``'s weights for the side,
#: ``search/weights.py``) as a win rate ``1 / (1 + exp(-score / eval_scale))``:
#: centi-tokens per unit of log-odds (the logistic fit of the side-4 fit's scores to the
#: tablebase's results on positions of random games: 500).
DEFAULT_EVAL_SCALE = 500.0
MAX_EVAL_SCALE = 1e6
#: Progressive widening: a node visited n times selects among its first
#: ``ceil(widen * n ** widen_power)`` children in prior order (0: among all of them).
DEFAULT_WIDEN = 2.0
MAX_WIDEN = 1000.0
DEFAULT_WIDEN_POWER = 0.5
#: ``seed`` -1: a fresh random seed for each search.
FRESH_SEED = -1
MAX_SEED = 2**63 - 1


class MCTSConfig(NamedTuple):
    """The constants of a search, as the kernel takes them (``MCTSSearcher`` says what
    they mean); built once per searcher."""

    exploration: float
    fpu: float
    prior_weight: float
    eval_scale: float
    widen: float
    widen_power: float


def mcts_config(exploration, fpu, prior_weight, eval_scale, widen, widen_power) -> MCTSConfig:
    """``MCTSConfig`` with the types the compiled kernel expects."""
    return MCTSConfig(
        float(exploration),
        float(fpu),
        float(prior_weight),
        float(eval_scale),
        float(widen),
        float(widen_power),
    )


#: The engine's defaults.
DEFAULT_CONFIG = mcts_config(
    DEFAULT_EXPLORATION,
    DEFAULT_FPU,
    DEFAULT_PRIOR_WEIGHT,
    DEFAULT_EVAL_SCALE,
    DEFAULT_WIDEN,
    DEFAULT_WIDEN_POWER,
)

SEED = OptionSpec(
    "seed",
    "int",
    FRESH_SEED,
    FRESH_SEED,
    MAX_SEED,
    "random seed: the same seed and node limit give the same result; -1: a fresh one each search",
)

OPTIONS = (
    OptionSpec(
        "tree_nodes",
        "int",
        DEFAULT_TREE_NODES,
        MIN_TREE_NODES,
        MAX_TREE_NODES,
        "MCTS tree capacity, nodes (about 35 bytes each)",
    ),
    OptionSpec(
        "exploration",
        "float",
        DEFAULT_EXPLORATION,
        0.0,
        MAX_EXPLORATION,
        "PUCT exploration constant c",
    ),
    OptionSpec(
        "fpu",
        "float",
        DEFAULT_FPU,
        MIN_FPU,
        MAX_FPU,
        "first-play urgency: an unvisited child's value is its parent's win rate less fpu",
    ),
    OptionSpec(
        "prior_weight",
        "float",
        DEFAULT_PRIOR_WEIGHT,
        0.0,
        MAX_PRIOR_WEIGHT,
        "the policy: a softmax over the children of prior_weight * flip size / largest flip",
    ),
    OptionSpec(
        "eval_scale",
        "float",
        DEFAULT_EVAL_SCALE,
        1.0,
        MAX_EVAL_SCALE,
        "the fitted evaluation's centi-tokens per unit of log-odds: a leaf's result is "
        "1 / (1 + exp(-score / eval_scale))",
    ),
    OptionSpec(
        "widen",
        "float",
        DEFAULT_WIDEN,
        0.0,
        MAX_WIDEN,
        "progressive widening: a node visited n times selects among its first "
        "ceil(widen * n^widen_power) children in prior order; 0: among all",
    ),
    OptionSpec(
        "widen_power",
        "float",
        DEFAULT_WIDEN_POWER,
        0.0,
        1.0,
        "progressive widening: the power of a node's visits in its number of selectable children",
    ),
    SEED,
    THREADS,
    TABLEBASE,
)
