"""The searchers by name: the one place that lists the engines.

    >>> from hinge_fast.search.registry import DEFAULT_ENGINE, ENGINES, engine_spec
    >>> DEFAULT_ENGINE, ENGINES
    ('alphabeta', ('alphabeta', 'mcts'))
    >>> spec = engine_spec("alphabeta")
    >>> spec.progress_unit, spec.honours_depth, spec.option("table_mb").default
    ('nodes', True, 64)

Each :class:`EngineSpec` names the searcher class (imported on first use, so that
reading the registry never waits for numba), its options (``OptionSpec``: type,
default, bounds and help, listed with the engine: ``alphabeta_config.py``,
``mcts_config.py``), its progress unit and whether it honours a depth limit. The command line,
the protocol's ``options`` command, the match players and ``hinge_fast.search()``
all read it; nothing else branches on an engine's name.

The default engine is alpha-beta (the fitted evaluation at the leaves and a quiescence
search: docs/search-alphabeta.md), the stronger of the two in matches (README, "How
fast, how strong").
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from ..errors import HingeError
from . import alphabeta_config, mcts_config
from .options import TABLEBASE, OptionSpec


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


_ENGINES = (
    EngineSpec(
        name="alphabeta",
        searcher="hinge_fast.search.alphabeta:AlphaBetaSearcher",
        description="alpha-beta: negamax with iterative deepening, a transposition table, move ordering, a quiescence search over big flips and a fitted evaluation; the stronger in matches",
        progress_unit="nodes",
        honours_depth=True,
        options=alphabeta_config.OPTIONS,
    ),
    EngineSpec(
        name="mcts",
        searcher="hinge_fast.search.mcts_threads:MCTSThreadsSearcher",
        description="Monte Carlo tree search (UCT with an MCTS-Solver, first-play urgency and a flip-size bias)",
        progress_unit="playouts",
        honours_depth=False,
        options=mcts_config.OPTIONS,
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
    """Every option of every engine by name (an option shared by engines, like ``threads``,
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
    hinge_fast.errors.HingeError: unknown option 'depth' of engine mcts: choose tree_nodes, exploration, fpu, prior_weight, eval_scale, widen, widen_power, seed, threads, tablebase

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
