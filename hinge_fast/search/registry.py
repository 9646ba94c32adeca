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

The default engine is alpha-beta: with the issue-12 defaults (the fitted evaluation
and a quiescence search: docs/search-alphabeta.md) it beats MCTS at 0.2 s a move, +223
(+130 to +359) in 60 games on side 6 and 40-0 on side 9 (README, "How fast, how
strong"). Until then MCTS was the default. Since session 6 its evaluation is fitted at
the search's leaves (``leaf-fitted``, about +200 Elo over ``fitted``). ``alphabeta-v1``
keeps the engine as it was (classic evaluation, no quiescence, one thread).
"""

from __future__ import annotations

import dataclasses
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
#: nominal depth (0: no quiescence, as in alphabeta-v1), and its most plies.
DEFAULT_QUIESCENCE = 2
MAX_QUIESCENCE = 1000
DEFAULT_QUIESCENCE_PLIES = 4
MAX_QUIESCENCE_PLIES = 16
#: Alpha-beta's late move reductions (off in alphabeta-v1).
DEFAULT_LMR = False
#: Alpha-beta's flip extension: the least flip (tokens) of a last-ply swipe searched a
#: ply deeper (0: none, as alphabeta-v1).
DEFAULT_FLIP_EXTENSION = 0
#: Alpha-beta's null-move pruning: the reduction R of the null move's search (0: none,
#: as alphabeta-v1).
DEFAULT_NULL_MOVE = 0
MAX_NULL_MOVE = 8
#: Alpha-beta's time use: start a new depth whenever time is left (off: not past half
#: the time, nor one that cannot finish, as alphabeta-v1).
DEFAULT_FULL_TIME = False
#: Alpha-beta's search in the shift layout on sides 4 to 6 (``alphabeta.shift_search_depth``:
#: the same tree, more nodes a second; off: the bitboard recursion, as alphabeta-v1).
DEFAULT_SHIFT_SEARCH = True
#: Alpha-beta's default leaf evaluation (alphabeta-v1 keeps ``classic``).
DEFAULT_EVALUATOR = "leaf-fitted"
DEFAULT_TREE_NODES = 4_000_000
MIN_TREE_NODES = 1
MAX_TREE_NODES = 50_000_000
DEFAULT_EXPLORATION = 0.25
MAX_EXPLORATION = 100.0
DEFAULT_PLAYOUT_GREED = 1.0
#: First-play urgency: the UCT value of an unvisited child (negative: every child is
#: visited once, in prior order, before UCT applies, as in mcts-v1).
DEFAULT_FPU = 1.0
MIN_FPU = -1.0
MAX_FPU = 100.0
#: Progressive bias: weight of the prior (flip size relative to the largest) in UCT,
#: divided by visits + 1.
DEFAULT_PRIOR_WEIGHT = 0.2
MAX_PRIOR_WEIGHT = 100.0
#: RAVE/AMAF: the equivalence parameter k of the blend weight na / (na + n + n na / k);
#: 0 turns AMAF off.
DEFAULT_RAVE = 0.0
MAX_RAVE = 1e9
#: MAST playouts: probability, at a playout ply with no greedy swipe, of the move whose
#: key (destination cell and kind) has the best mean result so far (0: uniform).
DEFAULT_MAST = 0.0
#: Connected playouts: probability, at a playout ply that places a token at random, of
#: a random placement next to one of the mover's tokens (0: uniform).
DEFAULT_PLAYOUT_CONNECT = 1.0
#: Final move choice: the unproven root move with the best lower bound
#: ``wins / visits - choice_lcb / sqrt(visits)`` (0: the most visited, as mcts-v1).
#: Off by default: 0.5 picks a winning side-4 move more often (the most visited move
#: lags when its mean falls late) but lost on side 9 at 0.05 s (docs/search-mcts.md).
DEFAULT_CHOICE_LCB = 0.0
MAX_CHOICE_LCB = 100.0
#: The lower bound of ``choice_lcb`` is taken only among the unproven moves with at least
#: ``choice_share`` times the most visited one's visits (the others follow by visits):
#: a move with few visits and a lucky mean is not played (0: every unproven move).
DEFAULT_CHOICE_SHARE = 0.0
#: Selection: each child's mean counts this many virtual visits at 50% besides its real
#: ones (0: the plain mean).
DEFAULT_VIRTUAL_VISITS = 0.0
MAX_VIRTUAL_VISITS = 1000.0
#: Playouts of the default policy on sides 4 to 6 in the shift layout
#: (``core/shiftplay.py``): the playout alone 2 to 3 times as fast, the search 1.3 to 2
#: times the playouts a second (docs/search-mcts.md); mcts-v1 has no such option and
#: keeps the move-list playouts.
DEFAULT_SHIFT_PLAYOUTS = True
#: The fitted evaluation in MCTS (``leaf-fitted``'s weights for the side,
#: ``search/weights.py``), as a win rate ``1 / (1 + exp(-score / eval_scale))``:
#: ``eval_mix`` mixes it into each playout's result (1: no playout), ``eval_prior``
#: blends it into each child's prior at expansion. -1: the side's default from
#: ``EVAL_MIX_BY_SIZE`` / ``EVAL_PRIOR_BY_SIZE`` (0 on sides not listed); mcts-v1 has no
#: such options (0).
DEFAULT_EVAL_MIX = -1.0
DEFAULT_EVAL_PRIOR = -1.0
#: Side 4 (session 11): the leaf's evaluation alone, no playout. The playouts misjudge
#: side-4 openings (docs/search-mcts.md); with the side-4 fit MCTS picks a winning move
#: in 98.8% to 99.5% of the ground truth's choice-matters positions at 1,000 playouts on
#: the tuning seeds 100 to 103 (the playouts: 96.7% to 97.3%; held out, seeds 12 to 15:
#: 98.7% to 99.5% against 96.7% to 98.0%), at about the same playouts a second.
EVAL_MIX_BY_SIZE: dict = {4: 1.0}
EVAL_PRIOR_BY_SIZE: dict = {}
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
EVALUATORS = ("classic", "material", "fitted", "leaf-fitted", "leaf-fitted-69", "leaf-fitted-4")


@dataclass(frozen=True)
class OptionSpec:
    """One searcher option: ``type`` is ``'int'``, ``'float'``, ``'bool'``, ``'enum'`` or
    ``'string'``; ``low``/``high`` bound numbers, ``choices`` lists an enum's values;
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
        if self.type == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, int) and value in (0, 1):
                return bool(value)
            if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no", "on", "off", "1", "0"):
                return value.strip().lower() in ("true", "yes", "on", "1")
            raise HingeError(f"option {self.name} must be true or false, not {value!r}")
        if self.type == "enum":
            key = str(value).strip().lower()
            if key not in self.choices:
                raise HingeError(f"option {self.name} must be one of {', '.join(self.choices)}, not {_shown(value)}")
            return key
        if isinstance(value, str):
            value = self._number(value)
        if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "__index__") and not hasattr(value, "__float__"):
            raise HingeError(f"option {self.name} must be a {'whole ' if self.type == 'int' else ''}number, not {value!r}")
        if self.type == "int":
            if isinstance(value, float) or (hasattr(value, "dtype") and getattr(value.dtype, "kind", "") == "f"):
                if value != value or not float(value).is_integer():
                    raise HingeError(f"option {self.name} must be a whole number, not {value!r}")
            value = int(value)
        else:
            value = float(value)
            if math.isnan(value):
                raise HingeError(f"option {self.name} must be a number, not {value!r}")
        if not self.low <= value <= self.high:
            raise HingeError(f"option {self.name} must be from {_num(self.low)} to {_num(self.high)}, not {_num(value)}")
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
        return self.check(text if self.type in ("enum", "bool", "string") else self._number(str(text)))

    def format(self, value) -> str:
        if self.type == "string":
            return str(value)
        if self.type == "bool":
            return "true" if value else "false"
        return _num(value)


def _num(value) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def _shown(value, limit: int = 40) -> str:
    text = str(value)
    return repr(text if len(text) <= limit else text[:limit] + "...")


THREADS = OptionSpec("threads", "int", DEFAULT_THREADS, 1, MAX_THREADS,
                     "search threads (alpha-beta: Lazy SMP over one shared table; mcts: one tree per thread, "
                     "root statistics merged); default: every core this process may use")


def _check_tablebase(value):
    from .tablebase import check_tablebase_option

    return check_tablebase_option(value)


def _default_tablebase() -> str:
    from .tablebase import default_tablebase_option

    return default_tablebase_option()


#: The side-4 tablebase (``search/tablebase.py``): the registry's engines answer from it
#: on the side-4 positions it holds; the baselines do not have the option.
TABLEBASE = OptionSpec("tablebase", "string", _default_tablebase(),
                       help="side-4 tablebase: 'auto' (the file 'hinge-fast solve --size 4' writes, when it exists), "
                       "'off', or a file; a side-4 position in it is answered from it: fastest win, longest loss",
                       convert=_check_tablebase)


SEED = OptionSpec("seed", "int", FRESH_SEED, FRESH_SEED, MAX_SEED,
                  "random seed: the same seed and node limit give the same result; -1: a fresh one each search")


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
        raise HingeError(f"unknown option {name!r} of engine {self.name}: choose {', '.join(self.option_names)}")

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


def _alphabeta_options(evaluator, quiescence=None, threads=THREADS):
    """Alpha-beta's options; ``quiescence`` None: none of the quiescence options (the
    searcher's own default, no quiescence, as alphabeta-v1 played)."""
    options = (
        OptionSpec("table_mb", "int", DEFAULT_TABLE_MB, MIN_TABLE_MB, MAX_TABLE_MB,
                   "transposition table, MB (0: none)"),
        OptionSpec("root_scores", "bool", False,
                   help="search every root move with a full window (exact scores, for analysis)"),
        OptionSpec("evaluator", "enum", evaluator, choices=EVALUATORS, help="leaf evaluation (search/evaluate.py)"),
    )
    if quiescence is not None:
        options += (
            OptionSpec("quiescence", "int", quiescence, 0, MAX_QUIESCENCE,
                       "quiescence: past the depth, search the swipes that flip at least this many tokens (0: none)"),
            OptionSpec("quiescence_plies", "int", DEFAULT_QUIESCENCE_PLIES, 0, MAX_QUIESCENCE_PLIES,
                       "most plies of quiescence past the depth"),
            OptionSpec("lmr", "bool", DEFAULT_LMR,
                       help="late move reductions: quiet moves late in the order searched shallower first "
                       "(off: every fixed-depth score is the exact depth-limited minimax value)"),
            OptionSpec("flip_extension", "int", DEFAULT_FLIP_EXTENSION, 0, MAX_QUIESCENCE,
                       "flip extension: at the last ply of the depth, a swipe flipping at least this many tokens "
                       "is searched a ply deeper (0: none)"),
            OptionSpec("null_move", "int", DEFAULT_NULL_MOVE, 0, MAX_NULL_MOVE,
                       "null-move pruning: at a null-window node of depth 3 or more whose evaluation reaches beta, "
                       "the opponent moves twice in a search this many plies shallower, and a fail high there "
                       "cuts off (0: none)"),
            OptionSpec("full_time", "bool", DEFAULT_FULL_TIME,
                       help="under a time limit, start a new depth whenever time is left (an unfinished depth can "
                       "still find a better move); off: not once half the time is used, nor one that cannot finish"),
            OptionSpec("shift_search", "bool", DEFAULT_SHIFT_SEARCH,
                       help="on sides 4 to 6, search with the positions kept in the shift layout (every token's "
                       "swipes at once): the same tree, node for node, more nodes a second (off: the bitboard "
                       "move lists)"),
        )
    return options + (SEED, threads)


_ALPHABETA_OPTIONS = _alphabeta_options(DEFAULT_EVALUATOR, DEFAULT_QUIESCENCE)


#: The baselines search on one thread, as the engines did when they were fixed.
_ONE_THREAD = dataclasses.replace(THREADS, default=1)


def _mcts_options(exploration, playout_greed, fpu, prior_weight, threads=THREADS, rave=DEFAULT_RAVE,
                  mast=DEFAULT_MAST, playout_connect=DEFAULT_PLAYOUT_CONNECT, choice_lcb=DEFAULT_CHOICE_LCB,
                  choice_share=DEFAULT_CHOICE_SHARE, virtual_visits=DEFAULT_VIRTUAL_VISITS,
                  shift_playouts=DEFAULT_SHIFT_PLAYOUTS, evaluation=True):
    """MCTS's options; ``shift_playouts`` None: no such option (the searcher's own
    default, off, as mcts-v1 played); ``evaluation`` False: none of the evaluation's
    options (off, as mcts-v1 played)."""
    shift = () if shift_playouts is None else (
        OptionSpec("shift_playouts", "bool", shift_playouts,
                   help="playouts of the default policy (playout_greed 1, playout_connect 1, mast 0) on sides 4 to 6 "
                   "in the shift layout, every token's swipes at once: the same moves, more playouts a second "
                   "(off: the move-list playouts)"),
    )
    if evaluation:
        shift += (
            OptionSpec("eval_mix", "float", DEFAULT_EVAL_MIX, -1.0, 1.0,
                       "share of the fitted evaluation (as a win rate) in each playout's result (1: no playout); "
                       "-1: the side's default (side 4: see docs/search-mcts.md; 0 elsewhere)"),
            OptionSpec("eval_prior", "float", DEFAULT_EVAL_PRIOR, -1.0, 1.0,
                       "share of the fitted evaluation of a child (as a win rate) in its prior, the rest the "
                       "flip-size prior; -1: the side's default (side 4: see docs/search-mcts.md; 0 elsewhere)"),
            OptionSpec("eval_scale", "float", DEFAULT_EVAL_SCALE, 1.0, MAX_EVAL_SCALE,
                       "the evaluation's centi-tokens per unit of log-odds, for eval_mix and eval_prior"),
        )
    return (
        OptionSpec("tree_nodes", "int", DEFAULT_TREE_NODES, MIN_TREE_NODES, MAX_TREE_NODES,
                   "MCTS tree capacity, nodes (about 43 bytes each)"),
        OptionSpec("exploration", "float", exploration, 0.0, MAX_EXPLORATION, "UCT exploration constant c"),
        OptionSpec("playout_plies", "int", 0, 0, MAX_PLAYOUT_PLIES,
                   "playout length cap in plies; 0: one per interior cell"),
        OptionSpec("playout_greed", "float", playout_greed, 0.0, 1.0,
                   "probability per playout ply of the largest-flip swipe"),
        OptionSpec("fpu", "float", fpu, MIN_FPU, MAX_FPU,
                   "first-play urgency: UCT value of an unvisited child; negative: every child once first, in prior order"),
        OptionSpec("prior_weight", "float", prior_weight, 0.0, MAX_PRIOR_WEIGHT,
                   "progressive bias: weight of the flip-size prior, divided by visits + 1"),
        OptionSpec("rave", "float", rave, 0.0, MAX_RAVE,
                   "RAVE: AMAF statistics by destination cell, blended in with weight na / (na + n + n na / rave); 0: off"),
        OptionSpec("mast", "float", mast, 0.0, 1.0,
                   "MAST playouts: probability of the move with the best mean result by destination cell, "
                   "instead of a uniformly random one (0: off)"),
        OptionSpec("playout_connect", "float", playout_connect, 0.0, 1.0,
                   "playouts: probability of a random placement next to one of the mover's tokens, "
                   "instead of any random placement (0: off)"),
        OptionSpec("choice_lcb", "float", choice_lcb, 0.0, MAX_CHOICE_LCB,
                   "final move: the best mean - choice_lcb / sqrt(visits) among unproven moves "
                   "(0: the most visited)"),
        OptionSpec("choice_share", "float", choice_share, 0.0, 1.0,
                   "final move: choice_lcb's bound only among unproven moves with at least this share of "
                   "the most visited move's visits (0: all)"),
        OptionSpec("virtual_visits", "float", virtual_visits, 0.0, MAX_VIRTUAL_VISITS,
                   "selection: a child's mean counts this many virtual visits at 50% besides its real ones "
                   "(0: the plain mean)"),
    ) + shift + (
        SEED,
        threads,
    )


_ENGINES = (
    EngineSpec(
        name="alphabeta",
        searcher="hinge_fast.search.alphabeta:AlphaBetaSearcher",
        description="alpha-beta: negamax with iterative deepening, a transposition table, move ordering, a quiescence search over big flips and a fitted evaluation; the stronger in matches",
        progress_unit="nodes",
        honours_depth=True,
        options=_ALPHABETA_OPTIONS + (TABLEBASE,),
    ),
    EngineSpec(
        name="mcts",
        searcher="hinge_fast.search.mcts_threads:MCTSThreadsSearcher",
        description="Monte Carlo tree search (UCT with an MCTS-Solver, first-play urgency and a flip-size bias)",
        progress_unit="playouts",
        honours_depth=False,
        options=_mcts_options(DEFAULT_EXPLORATION, DEFAULT_PLAYOUT_GREED, DEFAULT_FPU, DEFAULT_PRIOR_WEIGHT) + (TABLEBASE,),
    ),
)

#: Fixed baselines: the engines as they stood when issue 12 began (same searcher
#: classes, their options pinned to the values of then), so that every gain is
#: measured against the same opponent. Selectable by name (players, matches,
#: ``create_searcher``, ``--engine``); not listed in ENGINES.
_BASELINES = (
    EngineSpec(
        name="alphabeta-v1",
        searcher="hinge_fast.search.alphabeta:AlphaBetaSearcher",
        description="baseline: alpha-beta as of issue 12's start",
        progress_unit="nodes",
        honours_depth=True,
        options=_alphabeta_options("classic", None, threads=_ONE_THREAD),
    ),
    EngineSpec(
        name="mcts-v1",
        searcher="hinge_fast.search.mcts_threads:MCTSThreadsSearcher",
        description="baseline: MCTS as of issue 12's start (plain UCT, every child once first, no bias)",
        progress_unit="playouts",
        honours_depth=False,
        options=_mcts_options(0.4, 1.0, -1.0, 0.0, threads=_ONE_THREAD, rave=0.0, mast=0.0,
                              playout_connect=0.0, choice_lcb=0.0, choice_share=0.0, virtual_visits=0.0,
                              shift_playouts=None, evaluation=False),
    ),
)

#: Engine specs by name (the baselines last).
REGISTRY: dict[str, EngineSpec] = {spec.name: spec for spec in _ENGINES + _BASELINES}
#: Engine names, in the order they are listed to people (the baselines apart).
ENGINES: tuple[str, ...] = tuple(spec.name for spec in _ENGINES)
#: The fixed baselines' names.
BASELINE_ENGINES: tuple[str, ...] = tuple(spec.name for spec in _BASELINES)
#: The engine used when none is named: the stronger by measurement (README's match table).
DEFAULT_ENGINE = "alphabeta"


def engine_spec(name: str | None = None) -> EngineSpec:
    """The spec of engine ``name`` (None: the default); HingeError naming a bad name."""
    if name is None:
        name = DEFAULT_ENGINE
    spec = REGISTRY.get(str(name).strip().lower()) if isinstance(name, str) else None
    if spec is None:
        raise HingeError(f"unknown engine {name!r}: choose {', '.join(ENGINES)} or a baseline ({', '.join(BASELINE_ENGINES)})")
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
    hinge_fast.errors.HingeError: unknown option 'depth' of engine mcts: choose tree_nodes, exploration, playout_plies, playout_greed, fpu, prior_weight, rave, mast, playout_connect, choice_lcb, choice_share, virtual_visits, shift_playouts, eval_mix, eval_prior, eval_scale, seed, threads, tablebase

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
        raise HingeError(f"engine {spec.name} has no depth limit: use time or nodes, or the engine {' or '.join(honour)}")


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
