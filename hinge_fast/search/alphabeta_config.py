"""Alpha-beta's options, their defaults and bounds, and the configuration a search is
built from (no numba here: the registry and the command line read it without loading
the kernels; ``alphabeta.py`` and ``negamax.py`` import it).

    >>> AlphaBetaConfig().quiescence, AlphaBetaConfig().evaluator
    (2, 'leaf-fitted')
"""

from __future__ import annotations

from typing import NamedTuple

from .limits import MAX_TABLE_MB
from .options import TABLEBASE, THREADS, OptionSpec
from .weights import EVALUATORS

DEFAULT_TABLE_MB = 64
MIN_TABLE_MB = 0
#: The quiescence search: the least flip (tokens) of a swipe searched past the nominal
#: depth (0: no quiescence), and its most plies.
DEFAULT_QUIESCENCE = 2
MAX_QUIESCENCE = 1000
DEFAULT_QUIESCENCE_PLIES = 4
MAX_QUIESCENCE_PLIES = 16
#: The default leaf evaluation (``weights.EVALUATORS``).
DEFAULT_EVALUATOR = "leaf-fitted"
#: Most lines of MultiPV (more than the legal moves is allowed: all of them are searched).
MAX_MULTIPV = 1000


class AlphaBetaConfig(NamedTuple):
    """A searcher's options, fixed for its life (``AlphaBetaSearcher`` says what they
    mean)."""

    table_mb: int = DEFAULT_TABLE_MB
    multipv: int = 1
    evaluator: str = DEFAULT_EVALUATOR
    quiescence: int = DEFAULT_QUIESCENCE
    quiescence_plies: int = DEFAULT_QUIESCENCE_PLIES
    selective: bool = True
    threads: int = 1


OPTIONS = (
    OptionSpec(
        "table_mb",
        "int",
        DEFAULT_TABLE_MB,
        MIN_TABLE_MB,
        MAX_TABLE_MB,
        "transposition table, MB (0: none)",
    ),
    OptionSpec(
        "multipv",
        "int",
        1,
        1,
        MAX_MULTIPV,
        "lines searched at each depth, each with an exact score and its line (MultiPV; 1: play)",
    ),
    OptionSpec(
        "evaluator",
        "enum",
        DEFAULT_EVALUATOR,
        choices=tuple(kind.name for kind in EVALUATORS),
        help="leaf evaluation (search/evaluate.py)",
    ),
    OptionSpec(
        "quiescence",
        "int",
        DEFAULT_QUIESCENCE,
        0,
        MAX_QUIESCENCE,
        "quiescence: past the depth, search the swipes that flip at least this many tokens (0: none)",
    ),
    OptionSpec(
        "quiescence_plies",
        "int",
        DEFAULT_QUIESCENCE_PLIES,
        0,
        MAX_QUIESCENCE_PLIES,
        "most plies of quiescence past the depth",
    ),
    OptionSpec(
        "selective",
        "int",
        1,
        0,
        1,
        "1: null move, futility pruning, late move reductions and pruning; 0: full width (fixed-depth scores are the minimax values)",
    ),
    THREADS,
    TABLEBASE,
)
