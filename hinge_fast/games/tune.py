"""SPSA tuning of an engine's numeric options through self-play matches.

Simultaneous perturbation stochastic approximation, as fishtest tunes Stockfish: at
iteration ``k`` every parameter is pushed up or down at random by its step
``c_k`` (the same random signs ``delta`` for all of them at once); the engine with
``theta + c_k delta`` plays the engine with ``theta - c_k delta`` a few games (pairs from
one opening, colours swapped, through :func:`hinge_fast.games.match.play_match`);
then every parameter moves by ``r_k c_k result delta_i``, where ``result`` is wins
minus losses of the ``+`` side. Schedules (fishtest's): ``c_k = c / k^0.101``,
``a_k = a / (A + k)^0.602``, ``r_k = a_k / c_k^2``, with ``A = N / 10``, ``c`` and ``a``
chosen so that the last iteration uses the step ``c_end`` and the learning rate
``r_end`` given for each parameter.

    >>> from hinge_fast.games.tune import TuneSettings, parse_param, spsa
    >>> p = parse_param("mcts", "exploration=0.4,0.1,1.0,0.1")
    >>> p.name, p.start, p.low, p.high, p.c_end
    ('exploration', 0.4, 0.1, 1.0, 0.1)
    >>> result = spsa("mcts", [p], 2, TuneSettings(nodes=30, size=4, seed=1))
    >>> len(result.steps), 0.1 <= result.values["exploration"] <= 1.0
    (2, True)

With a node limit and a seed the whole run replays exactly.
"""

from __future__ import annotations

import math
import random as _random
from dataclasses import dataclass, field

from ..errors import HingeError
from ..search.registry import engine_spec
from .match import GameSettings, RunSettings, play_match
from .players import SearchPlayer

ALPHA = 0.602
GAMMA = 0.101
DEFAULT_R_END = 0.002
#: Default step at the last iteration: this fraction of the range.
DEFAULT_C_FRACTION = 0.05


@dataclass(frozen=True)
class Param:
    """One tuned option: ``start`` value in ``[low, high]``, the perturbation ``c_end``
    and learning rate ``r_end`` at the last iteration; ``type`` 'int' or 'float'
    (from the registry)."""

    name: str
    type: str
    start: float
    low: float
    high: float
    c_end: float
    r_end: float = DEFAULT_R_END

    def value(self, x: float):
        x = min(self.high, max(self.low, x))
        return int(round(x)) if self.type == "int" else x


def _number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise HingeError(f"{what} must be a number, not {text!r}") from None
    if not math.isfinite(value):
        raise HingeError(f"{what} must be a finite number, not {text!r}")
    return value


def parse_param(engine: str, text: str, r_end: float = DEFAULT_R_END) -> Param:
    """``'NAME=START,LOW,HIGH[,C_END]'`` -> a :class:`Param` of ``engine``'s option NAME
    (a number option of the registry; the range inside its bounds; START in the range;
    C_END > 0, default 5% of the range). HingeError naming what is wrong."""
    spec = engine_spec(engine)
    name, eq, rest = str(text).strip().partition("=")
    name = name.strip()
    if not eq or not name:
        raise HingeError(f"a tuned parameter looks like NAME=START,LOW,HIGH[,STEP], not {text!r}")
    option = spec.option(name)
    if option.type not in ("int", "float") or name == "seed":
        raise HingeError(f"option {name} of engine {spec.name} is not a number that can be tuned")
    parts = [p.strip() for p in rest.split(",")]
    if len(parts) not in (3, 4):
        raise HingeError(f"parameter {name} needs START,LOW,HIGH[,STEP], not {rest!r}")
    start, low, high = (
        _number(p, f"{name}'s {w}") for p, w in zip(parts, ("start", "low", "high"))
    )
    if not low < high:
        raise HingeError(f"parameter {name}: low ({low:g}) must be below high ({high:g})")
    assert option.low is not None and option.high is not None  # a number option has bounds
    if low < option.low or high > option.high:
        raise HingeError(
            f"parameter {name}: the range {low:g} to {high:g} leaves the option's bounds {option.low:g} to {option.high:g}"
        )
    if not low <= start <= high:
        raise HingeError(f"parameter {name}: start {start:g} is outside {low:g} to {high:g}")
    c_end = (
        _number(parts[3], f"{name}'s step")
        if len(parts) == 4
        else DEFAULT_C_FRACTION * (high - low)
    )
    if c_end <= 0:
        raise HingeError(f"parameter {name}: the step must be more than 0, not {c_end:g}")
    if not (r_end > 0 and math.isfinite(r_end)):
        raise HingeError(f"the learning rate must be a positive number, not {r_end!r}")
    return Param(name, option.type, start, low, high, c_end, r_end)


@dataclass(frozen=True)
class TuneSettings:
    """How the games of a tuning run are played: ``games`` per iteration (pairs from one
    opening, colours swapped), each search move limited by ``time`` seconds or
    ``nodes``, on side ``size``, from ``openings`` random plies, unfinished after
    ``max_plies``; ``seed`` of the perturbations, players and openings (None: a fresh
    one); ``options``: fixed options of both sides."""

    games: int = 2
    time: float | None = None
    nodes: int | None = None
    size: int = 6
    openings: int = 4
    max_plies: int = 400
    seed: int | None = None
    options: dict = field(default_factory=dict)


@dataclass
class Step:
    """One SPSA iteration: the signs, the two settings played, the ``+`` side's
    wins/losses/unfinished, and the values after the update."""

    iteration: int
    delta: dict
    plus: dict
    minus: dict
    wins: int
    losses: int
    unfinished: int
    values: dict

    def line(self, iterations: int) -> str:
        """The iteration in words: which way the side that scored nudged each parameter,
        its games, and the values after the update.

        >>> Step(1, {"fpu": 1, "c": -1}, {}, {}, 2, 0, 0, {"fpu": 0.84, "c": 0.4}).line(3)
        'iter 1/3: the side with fpu up, c down won 2, lost 0, unfinished 0; now fpu=0.84 c=0.4'
        """
        nudged = ", ".join(f"{k} {'up' if d > 0 else 'down'}" for k, d in self.delta.items())
        shown = " ".join(f"{k}={_fmt(v)}" for k, v in self.values.items())
        return (
            f"iter {self.iteration}/{iterations}: the side with {nudged} won {self.wins}, lost {self.losses}, "
            f"unfinished {self.unfinished}; now {shown}"
        )


@dataclass
class TuneResult:
    engine: str
    params: list
    steps: list = field(default_factory=list)
    values: dict = field(default_factory=dict)

    @property
    def spec(self) -> str:
        """The tuned engine as a player spec: ``mcts:exploration=0.41,fpu=0.93``."""
        return self.engine + ":" + ",".join(f"{k}={_fmt(v)}" for k, v in self.values.items())


def _fmt(v) -> str:
    return str(v) if isinstance(v, int) else f"{v:.4g}"


def spsa(
    engine: str,
    params: list,
    iterations: int,
    settings: TuneSettings,
    *,
    progress=None,
    executor=None,
) -> TuneResult:
    """Tune ``params`` (from :func:`parse_param`) of ``engine`` by SPSA for ``iterations``
    iterations, each a match played as ``settings`` say (:class:`TuneSettings`);
    ``progress(step)`` after each iteration; ``executor``: where each iteration's games
    are played (``hinge_fast.jobs.executor``: processes or a Ray cluster; default here).
    Returns a :class:`TuneResult` (``values``, ``steps``)."""
    spec = engine_spec(engine)
    if not params:
        raise HingeError("tune needs at least one parameter")
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        raise HingeError(f"a parameter is named twice: {', '.join(names)}")
    for label, value, low in (
        ("iterations", iterations, 1),
        ("games per iteration", settings.games, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise HingeError(f"{label} must be a whole number of at least {low}, not {value!r}")
    fixed = dict(settings.options)
    clash = set(fixed) & set(names)
    if clash:
        raise HingeError(f"option {sorted(clash)[0]} is both fixed and tuned")
    spec.check_options(fixed)
    if settings.time is None and settings.nodes is None:
        raise HingeError("tune needs a time or a node limit per move")

    rng = _random.Random(settings.seed)
    n = iterations
    big_a = 0.1 * n
    theta = {p.name: float(p.start) for p in params}
    c0 = {p.name: p.c_end * n**GAMMA for p in params}
    a0 = {p.name: p.r_end * p.c_end**2 * (big_a + n) ** ALPHA for p in params}
    result = TuneResult(spec.name, list(params))
    for k in range(1, n + 1):
        delta = {p.name: rng.choice((-1, 1)) for p in params}
        c_k = {name: c0[name] / k**GAMMA for name in names}
        plus = {p.name: p.value(theta[p.name] + c_k[p.name] * delta[p.name]) for p in params}
        minus = {p.name: p.value(theta[p.name] - c_k[p.name] * delta[p.name]) for p in params}
        player_plus, player_minus = (
            SearchPlayer(
                spec.name,
                time=settings.time,
                nodes=settings.nodes,
                seed=rng.getrandbits(32),
                name=name,
                **fixed,
                **values,
            )
            for name, values in (("plus", plus), ("minus", minus))
        )
        match = play_match(
            player_plus,
            player_minus,
            settings.games,
            settings.size,
            rng.getrandbits(32),
            settings=GameSettings(settings.openings, max_plies=settings.max_plies),
            run=RunSettings(executor),
        )
        outcome = match.wins - match.losses
        for p in params:
            a_k = a0[p.name] / (big_a + k) ** ALPHA
            r_k = a_k / c_k[p.name] ** 2
            theta[p.name] = min(
                p.high, max(p.low, theta[p.name] + r_k * c_k[p.name] * outcome * delta[p.name])
            )
        values = {p.name: p.value(theta[p.name]) for p in params}
        step = Step(k, delta, plus, minus, match.wins, match.losses, match.unfinished, values)
        result.steps.append(step)
        result.values = values
        if progress is not None:
            progress(step)
    return result
