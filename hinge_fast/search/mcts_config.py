"""MCTS's options, their defaults and bounds, and the configuration its kernel takes
(no numba here: the registry and the command line read it without loading the kernels;
``mcts.py`` and ``mcts_threads.py`` import it).

    >>> MCTSConfig(0.25, 1.0, 0.2, 500.0, 2.0, 0.5).fpu
    1.0
"""

from __future__ import annotations

from typing import NamedTuple

from .options import TABLEBASE, THREADS, OptionSpec

DEFAULT_TREE_NODES = 4_000_000
MIN_TREE_NODES = 1
MAX_TREE_NODES = 50_000_000
DEFAULT_EXPLORATION = 0.25
MAX_EXPLORATION = 100.0
#: First-play urgency: the UCT value of an unvisited child (negative: every child is
#: visited once, in prior order, before UCT applies).
DEFAULT_FPU = 1.0
MIN_FPU = -1.0
MAX_FPU = 100.0
#: Progressive bias: weight of the prior (flip size relative to the largest) in UCT,
#: divided by visits + 1.
DEFAULT_PRIOR_WEIGHT = 0.2
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


def mcts_config(
    exploration,
    fpu,
    prior_weight,
    eval_scale,
    widen=DEFAULT_WIDEN,
    widen_power=DEFAULT_WIDEN_POWER,
) -> MCTSConfig:
    """``MCTSConfig`` with the types the compiled kernel expects."""
    return MCTSConfig(
        float(exploration),
        float(fpu),
        float(prior_weight),
        float(eval_scale),
        float(widen),
        float(widen_power),
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
        "UCT exploration constant c",
    ),
    OptionSpec(
        "fpu",
        "float",
        DEFAULT_FPU,
        MIN_FPU,
        MAX_FPU,
        "first-play urgency: UCT value of an unvisited child; negative: every child once first, in prior order",
    ),
    OptionSpec(
        "prior_weight",
        "float",
        DEFAULT_PRIOR_WEIGHT,
        0.0,
        MAX_PRIOR_WEIGHT,
        "progressive bias: weight of the flip-size prior, divided by visits + 1",
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
