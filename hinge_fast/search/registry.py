"""The searchers by name: the one place that lists the engines and their options.

    >>> from hinge_fast.search.registry import DEFAULT_ENGINE, ENGINES, engine_spec
    >>> DEFAULT_ENGINE, ENGINES
    ('alphabeta', ('alphabeta', 'mcts'))
    >>> spec = engine_spec("alphabeta")
    >>> spec.progress_unit, spec.honours_depth, spec.option("table_mb").default
    ('nodes', True, 64)

Each :class:`EngineSpec` names the searcher class (imported on first use, so that
reading the registry never waits for numba), its options with type, default, bounds
and help, its progress unit and whether it honours a depth limit. The command line,
the protocol's ``options`` command, the match players and ``hinge_fast.search()``
all read it; nothing else branches on an engine's name.

The default engine is alpha-beta (the fitted evaluation at the leaves and a quiescence
search: docs/search-alphabeta.md), the stronger of the two in matches (README, "How
fast, how strong").
"""

from __future__ import annotations

import importlib
import math
import os
from dataclasses import dataclass, field

from ..errors import HingeError
from .limits import MAX_TABLE_MB

# ----- defaults and bounds of the searchers' options (the searcher modules import them)
DEFAULT_TABLE_MB = 64
MIN_TABLE_MB = 0
#: Alpha-beta's quiescence: the least flip (tokens) of a swipe searched past the
#: nominal depth (0: no quiescence), and its most plies.
DEFAULT_QUIESCENCE = 2
MAX_QUIESCENCE = 1000
DEFAULT_QUIESCENCE_PLIES = 4
MAX_QUIESCENCE_PLIES = 16
#: Alpha-beta's default leaf evaluation.
DEFAULT_EVALUATOR = "leaf-fitted"
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
#: The fitted evaluation in MCTS (``leaf-fitted``'s weights for the side,
#: ``search/weights.py``), as a win rate ``1 / (1 + exp(-score / eval_scale))``:
#: ``eval_mix`` is its share in each leaf's result, the rest a playout's. 1 (the leaf's
#: evaluation alone, no playout) on every side: docs/search-mcts.md, "How the defaults
#: were chosen".
DEFAULT_EVAL_MIX = 1.0
#: Centi-tokens of the fitted evaluation per unit of log-odds (the logistic fit of the
#: side-4 fit's scores to the tablebase's results on positions of random games: 500).
DEFAULT_EVAL_SCALE = 500.0
MAX_EVAL_SCALE = 1e6
MAX_PLAYOUT_PLIES = 100_000
#: ``seed`` -1: a fresh random seed for each search.
FRESH_SEED = -1
MAX_SEED = 2**63 - 1
#: Most search threads (one per core is the useful number; more only share the cores).
MAX_THREADS = 256
#: Most lines of MultiPV (more than the legal moves is allowed: all of them are searched).
MAX_MULTIPV = 1000


#: Environment variable that sets the default of ``threads`` (the test suite sets it to
#: 1, so that the docs' examples and the tests are reproducible node for node).
THREADS_VARIABLE = "HINGE_FAST_THREADS"


def default_threads() -> int:
    """``HINGE_FAST_THREADS`` if set to a whole number from 1 to ``MAX_THREADS``, else
    every core this process may run on (``os.sched_getaffinity``, where there is one)."""
    text = os.environ.get(THREADS_VARIABLE, "").strip()
    if text.isdigit() and 1 <= int(text) <= MAX_THREADS:
        return int(text)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


#: The default of the ``threads`` option: every core the process may use.
DEFAULT_THREADS = min(MAX_THREADS, default_threads())
#: The evaluations alpha-beta can use (``search/evaluate.py``).
EVALUATORS = ("classic", "material", "fitted", "leaf-fitted", "leaf-fitted-69")


@dataclass(frozen=True)
class OptionSpec:
    """One searcher option: ``type`` is ``'int'``, ``'float'``, ``'enum'`` or ``'string'``; ``low``/``high`` bound numbers, ``choices`` lists an enum's values;
    ``convert(value)`` checks a string option's value (HingeError) and returns it
    normalised."""

    name: str
    type: str
    default: object
    low: float | None = None
    high: float | None = None
    help: str = ""
    choices: tuple = ()
    convert: object = None

    def check(self, value):
        """``value`` checked and converted; HingeError naming the option otherwise."""
        if self.type == "string":
            return self.convert(value) if self.convert is not None else str(value)
        if self.type == "enum":
            key = str(value).strip().lower()
            if key not in self.choices:
                raise HingeError(
                    f"option {self.name} must be one of {', '.join(self.choices)}, not {_shown(value)}"
                )
            return key
        if isinstance(value, str):
            value = self._number(value)
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            and not hasattr(value, "__index__")
            and not hasattr(value, "__float__")
        ):
            raise HingeError(
                f"option {self.name} must be a {'whole ' if self.type == 'int' else ''}number, not {value!r}"
            )
        if self.type == "int":
            if isinstance(value, float) or (
                hasattr(value, "dtype") and getattr(value.dtype, "kind", "") == "f"
            ):
                if value != value or not float(value).is_integer():
                    raise HingeError(f"option {self.name} must be a whole number, not {value!r}")
            value = int(value)
        else:
            value = float(value)
            if math.isnan(value):
                raise HingeError(f"option {self.name} must be a number, not {value!r}")
        if not self.low <= value <= self.high:
            raise HingeError(
                f"option {self.name} must be from {_num(self.low)} to {_num(self.high)}, not {_num(value)}"
            )
        return value

    def _number(self, text: str):
        text = text.strip()
        try:
            return int(text)
        except ValueError:
            pass
        if self.type == "int":
            raise HingeError(f"option {self.name} must be a whole number, not {_shown(text)}")
        try:
            return float(text)
        except ValueError:
            raise HingeError(f"option {self.name} must be a number, not {_shown(text)}") from None

    def parse(self, text: str):
        """The value written ``text`` (command line, protocol), checked."""
        return self.check(text if self.type in ("enum", "string") else self._number(str(text)))

    def format(self, value) -> str:
        if self.type == "string":
            return str(value)
        return _num(value)


def _num(value) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def _shown(value, limit: int = 40) -> str:
    text = str(value)
    return repr(text if len(text) <= limit else text[:limit] + "...")


THREADS = OptionSpec(
    "threads",
    "int",
    DEFAULT_THREADS,
    1,
    MAX_THREADS,
    "search threads (alpha-beta: Lazy SMP over one shared table; mcts: one tree per thread, "
    "root statistics merged); default: every core this process may use",
)


def _check_tablebase(value):
    from .tablebase import check_tablebase_option

    return check_tablebase_option(value)


def _default_tablebase() -> str:
    from .tablebase import default_tablebase_option

    return default_tablebase_option()


#: The side-4 tablebase (``search/tablebase.py``): the registry's engines answer from it
#: on the side-4 positions it holds.
TABLEBASE = OptionSpec(
    "tablebase",
    "string",
    _default_tablebase(),
    help="side-4 tablebase: 'auto' (the file 'hinge-fast solve --size 4' writes, when it exists), "
    "'off', or a file; a side-4 position in it is answered from it: fastest win, longest loss",
    convert=_check_tablebase,
)


SEED = OptionSpec(
    "seed",
    "int",
    FRESH_SEED,
    FRESH_SEED,
    MAX_SEED,
    "random seed: the same seed and node limit give the same result; -1: a fresh one each search",
)


@dataclass(frozen=True)
class EngineSpec:
    """A searcher in the registry."""

    name: str
    searcher: str  # "module:Class", imported by searcher_class()
    description: str
    progress_unit: str  # "nodes" or "playouts"
    honours_depth: bool
    options: tuple[OptionSpec, ...] = field(default_factory=tuple)

    def option(self, name: str) -> OptionSpec:
        for o in self.options:
            if o.name == name:
                return o
        raise HingeError(
            f"unknown option {name!r} of engine {self.name}: choose {', '.join(self.option_names)}"
        )

    @property
    def option_names(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.options)

    @property
    def defaults(self) -> dict:
        return {o.name: o.default for o in self.options}

    def searcher_class(self):
        module, _, name = self.searcher.partition(":")
        return getattr(importlib.import_module(module), name)

    def check_options(self, options: dict) -> dict:
        """All options of this engine: defaults overridden by ``options`` (checked)."""
        values = self.defaults
        for key, value in options.items():
            values[key] = self.option(key).check(value)
        return values


ALPHABETA_OPTIONS = (
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
        choices=EVALUATORS,
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
    SEED,
    THREADS,
)

MCTS_OPTIONS = (
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
        "playout_plies",
        "int",
        0,
        0,
        MAX_PLAYOUT_PLIES,
        "playout length cap in plies; 0: one per interior cell",
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
        "eval_mix",
        "float",
        DEFAULT_EVAL_MIX,
        0.0,
        1.0,
        "share of the fitted evaluation (as a win rate) in each leaf's result, the rest a playout's "
        "(1: no playout; 0: playouts alone)",
    ),
    OptionSpec(
        "eval_scale",
        "float",
        DEFAULT_EVAL_SCALE,
        1.0,
        MAX_EVAL_SCALE,
        "the evaluation's centi-tokens per unit of log-odds, for eval_mix",
    ),
    SEED,
    THREADS,
)


_ENGINES = (
    EngineSpec(
        name="alphabeta",
        searcher="hinge_fast.search.alphabeta:AlphaBetaSearcher",
        description="alpha-beta: negamax with iterative deepening, a transposition table, move ordering, a quiescence search over big flips and a fitted evaluation; the stronger in matches",
        progress_unit="nodes",
        honours_depth=True,
        options=ALPHABETA_OPTIONS + (TABLEBASE,),
    ),
    EngineSpec(
        name="mcts",
        searcher="hinge_fast.search.mcts_threads:MCTSThreadsSearcher",
        description="Monte Carlo tree search (UCT with an MCTS-Solver, first-play urgency and a flip-size bias)",
        progress_unit="playouts",
        honours_depth=False,
        options=MCTS_OPTIONS + (TABLEBASE,),
    ),
)

#: Engine specs by name.
REGISTRY: dict[str, EngineSpec] = {spec.name: spec for spec in _ENGINES}
#: Engine names, in the order they are listed to people.
ENGINES: tuple[str, ...] = tuple(spec.name for spec in _ENGINES)
#: The engine used when none is named: the stronger by measurement (README's match table).
DEFAULT_ENGINE = "alphabeta"


def engine_spec(name: str | None = None) -> EngineSpec:
    """The spec of engine ``name`` (None: the default); HingeError naming a bad name."""
    if name is None:
        name = DEFAULT_ENGINE
    spec = REGISTRY.get(str(name).strip().lower()) if isinstance(name, str) else None
    if spec is None:
        raise HingeError(f"unknown engine {name!r}: choose {', '.join(ENGINES)}")
    return spec


def all_options() -> dict[str, OptionSpec]:
    """Every option of every engine by name (an option shared by engines, like ``seed``,
    once)."""
    out: dict[str, OptionSpec] = {}
    for spec in _ENGINES:
        for o in spec.options:
            out.setdefault(o.name, o)
    return out


def create_searcher(name: str | None = None, **options):
    """A new searcher object of engine ``name`` (None: ``DEFAULT_ENGINE``) with
    ``options`` (checked against the registry: a bad name, option or value raises
    HingeError naming it).

    >>> create_searcher("alphabeta", table_mb=1).name
    'alphabeta'
    >>> create_searcher("mcts", depth=3)
    Traceback (most recent call last):
    hinge_fast.errors.HingeError: unknown option 'depth' of engine mcts: choose tree_nodes, exploration, playout_plies, fpu, prior_weight, eval_mix, eval_scale, seed, threads, tablebase

    The ``tablebase`` option is the Searcher's own (``Searcher.go`` consults the table),
    not given to the searcher class.
    """
    spec = engine_spec(name)
    values = spec.check_options(options)
    table = values.pop(TABLEBASE.name, None)
    searcher = spec.searcher_class()(**values)
    if table is not None:
        searcher.tablebase = table
    return searcher


def choose_engine(name: str | None, limits) -> str:
    """The engine to use: ``name``, or with none the default, unless the limits hold a
    depth the default does not honour: then the first engine that honours one.

    >>> from hinge_fast.search.limits import Limits
    >>> choose_engine(None, Limits(time=1)), choose_engine(None, Limits(depth=3))
    ('alphabeta', 'alphabeta')
    """
    if name is not None:
        return engine_spec(name).name
    spec = engine_spec(DEFAULT_ENGINE)
    if limits.depth is not None and not spec.honours_depth:
        return next(s.name for s in _ENGINES if s.honours_depth)
    return spec.name


def check_limits(name: str | None, limits) -> None:
    """HingeError if engine ``name`` cannot honour ``limits`` (a depth limit for an
    engine without depths)."""
    spec = engine_spec(name)
    if limits.depth is not None and not spec.honours_depth:
        honour = [s.name for s in _ENGINES if s.honours_depth]
        raise HingeError(
            f"engine {spec.name} has no depth limit: use time or nodes, or the engine {' or '.join(honour)}"
        )


def parse_engine_spec(text: str) -> tuple[str, dict]:
    """``'mcts:exploration=1.2,tree_nodes=1000'`` -> ``('mcts', {'exploration': 1.2,
    'tree_nodes': 1000})``, values parsed and checked by the registry.

    >>> parse_engine_spec("mcts:exploration=1.2")
    ('mcts', {'exploration': 1.2})
    """
    name, _, rest = str(text).strip().partition(":")
    spec = engine_spec(name)
    options = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise HingeError(f"engine option {item!r} in {text!r} must look like name=value")
        options[key.strip()] = spec.option(key.strip()).parse(value.strip())
    return spec.name, options
