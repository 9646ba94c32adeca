"""Players: anything that picks a move in a position, for matches and games.

    >>> from hinge_fast import Board
    >>> from hinge_fast.games.players import get_player
    >>> player = get_player("greedy", seed=1)
    >>> player.choose(Board(4)) in Board(4).legal_moves
    True

Built-in specs for :func:`get_player`:

* ``random``: a uniformly random legal move;
* ``greedy``: the swipe flipping the largest enemy group (ties at random), else a
  random placement;
* every engine of the search registry (``alphabeta``, ``mcts``): its searcher
  under the limits given (``time`` seconds or ``nodes`` per move).

A spec may add search options after a colon: ``mcts:exploration=0.7,tree_nodes=100000``
(parsed and checked by the registry: a bad option or value is an error before any
game starts). Specs starting with ``cmd:`` name an external engine
program speaking the engine protocol (``cmd:hinge-fast engine -o engine=mcts``);
:data:`PLAYER_FACTORIES` and :data:`SPEC_PREFIXES` are the hooks through which other
modules add kinds of players.
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..board import Board, Move
from ..errors import HingeError
from ..search.limits import DEFAULT_TIME, Limits
from ..search.registry import REGISTRY, create_searcher, engine_spec, parse_engine_spec

if TYPE_CHECKING:
    from ..protocol.client import EngineOption


class Player:
    """Something that picks moves. Subclasses set ``name`` and define ``choose``.

    ``choose(board)`` returns a legal Move of ``board`` (which it must not change;
    it is only called while the game goes on); ``reset()`` is called before each
    new game and makes a seeded player start its sequence of choices again.
    """

    name: str = "player"

    def choose(self, board: Board) -> Move:
        raise NotImplementedError

    def reset(self, seed: int | None = None) -> None:
        """Start a new game; ``seed`` (if given) replaces the player's own seed for it."""

    def choose_timed(self, board: Board, clock) -> Move:
        """A move under a game clock (a ``hinge_fast.search.timeman.Clock``: both
        sides' time left and increments); by default ``choose(board)``, for players
        whose moves take no time worth counting."""
        return self.choose(board)

    def ready(self, board: Board) -> None:
        """Make the first move of a game under a clock cost no start-up time (load
        compiled code, start a program); nothing by default."""

    def close(self) -> None:
        """Release what the player holds (external programs); nothing by default."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class _SeededPlayer(Player):
    """A player drawing from its own seeded random generator."""

    default_name: str  # set by each subclass

    def __init__(self, seed: int | None = None, name: str | None = None):
        self.name = name or self.default_name
        self.seed = seed
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        self._rng = _random.Random(self.seed if seed is None else seed)


class RandomPlayer(_SeededPlayer):
    """A uniformly random legal move, from a seeded generator."""

    default_name = "random"

    def choose(self, board: Board) -> Move:
        moves = board.legal_moves
        if not moves:
            raise HingeError("no legal move: the game is over")
        return self._rng.choice(moves)


class GreedyPlayer(_SeededPlayer):
    """The swipe that flips the largest enemy group (ties broken at random); with no
    swipe, a random placement."""

    default_name = "greedy"

    def choose(self, board: Board) -> Move:
        codes, flips = board.legal_codes, board.legal_flips
        if len(codes) == 0:
            raise HingeError("no legal move: the game is over")
        # A placement's flip row is empty, so it flips 0 tokens.
        sizes = [sum(int(w).bit_count() for w in flips[i]) for i in range(len(codes))]
        largest = max(sizes)
        # Sorted so that the choice depends on the seed only, not on generation order.
        candidates = sorted(
            (str(board.move_from_code(codes[i])), i) for i, s in enumerate(sizes) if s == largest
        )
        return board.move_from_code(codes[self._rng.choice(candidates)[1]])


class SearchPlayer(Player):
    """A searcher of the registry (``hinge_fast.search.registry``) with fixed limits
    per move; one searcher object for the player's whole life, so its table or tree
    is allocated once. Seeded: each move gets the next seed of a generator started
    from ``seed``, so a game replays exactly under a node or depth limit."""

    def __init__(
        self,
        engine: str,
        time: float | None = None,
        nodes: int | None = None,
        seed: int | None = None,
        name: str | None = None,
        **options,
    ):
        self.engine = engine_spec(engine).name
        self.limits = Limits(time=time, nodes=nodes)  # none: the searcher's default time
        self.options = options
        self._seeded = "seed" in engine_spec(engine).option_names
        self._searcher = create_searcher(self.engine, **options)
        self.seed = seed
        self.name = name or self.engine
        self.last_result = None
        self._warm = False
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        self._rng = _random.Random(self.seed if seed is None else seed)

    def __getstate__(self):
        # sent to another process (match --concurrency) without its searcher, which
        # owns numba buffers: the copy makes its own
        state = dict(self.__dict__)
        del state["_searcher"]
        state["last_result"] = None
        state["_warm"] = False
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._searcher = create_searcher(self.engine, **self.options)

    def choose(self, board: Board) -> Move:
        return self._search(board, self.limits)

    def choose_timed(self, board: Board, clock) -> Move:
        """The searcher decides the time of the move from the clock
        (``hinge_fast.search.timeman``); a node limit, if the player has one, still holds."""
        return self._search(
            board, Limits(time=self.limits.time, nodes=self.limits.nodes, clock=clock)
        )

    def ready(self, board: Board) -> None:
        if not self._warm:
            self._searcher.go(board.copy(), Limits(nodes=1))
            self._warm = True

    def _search(self, board: Board, limits) -> Move:
        if self._seeded:
            self._searcher.seed = self._rng.getrandbits(32)
        result = self._searcher.go(board, limits)
        self.last_result = result
        if result.move is None:
            raise HingeError("no legal move: the game is over")
        return result.move


def _search_factory(engine):
    def make(*, time=None, nodes=None, seed=None, size=None, name=None, **options):
        return SearchPlayer(engine, time=time, nodes=nodes, seed=seed, name=name, **options)

    return make


def _simple_factory(cls):
    def make(*, time=None, nodes=None, seed=None, size=None, name=None, **options):
        if options:
            raise HingeError(
                f"player {cls.__name__} takes no options, not {', '.join(sorted(options))}"
            )
        return cls(seed=seed, name=name)

    return make


def _player_factories() -> dict[str, Callable[..., Player]]:
    factories = {"random": _simple_factory(RandomPlayer), "greedy": _simple_factory(GreedyPlayer)}
    factories.update((engine, _search_factory(engine)) for engine in REGISTRY)
    return factories


#: Player kinds by name: ``factory(*, time, nodes, seed, size, name, **options) -> Player``.
PLAYER_FACTORIES: dict[str, Callable[..., Player]] = _player_factories()


class EnginePlayer(Player):
    """A match player backed by an external engine process (``hinge_fast.protocol.client.Engine``).

    ``EnginePlayer("hinge-fast engine -o engine=mcts", Limits(time=0.5))``; ``name``
    defaults to the engine's ``id``; ``options`` are sent with ``options set`` once.
    ``margin``: the seconds a move may take past its time (or, under a depth or node
    limit, for the whole move) and the wait for any other answer, before the engine is
    stopped and loses the game (``protocol.client.SEARCH_MARGIN`` by default).
    ``choose(board)`` asks for a move; ``reset(seed=None)`` forgets the game the engine
    holds (a new game comes: the next ``choose`` sends ``newgame``), starts the engine
    again if it failed in the last game, and sends ``seed``; ``close()`` ends the process.
    """

    def __init__(
        self,
        cmd: list[str] | str,
        limit: Limits | None = None,
        name: str | None = None,
        options: dict | None = None,
        timeout: float | None = None,
        margin: float | None = None,
    ):
        from ..protocol.client import (  # subprocesses and threads: loaded when an external engine plays, not at start-up
            DEFAULT_TIMEOUT,
            SEARCH_MARGIN,
        )

        self._limit_given = limit is not None and not limit.unlimited
        self.limit: Limits = (
            limit if limit is not None and self._limit_given else Limits(time=DEFAULT_TIME)
        )
        self.cmd = cmd
        self.margin = SEARCH_MARGIN if margin is None else margin
        self.timeout = (
            (DEFAULT_TIMEOUT if margin is None else margin) if timeout is None else timeout
        )
        self._options = dict(options or {})
        self.restarts = 0
        self.engine = self._start()
        self.name = name or self.engine.id or self.engine.command_name
        self._engine_options: dict[str, EngineOption] | None = None

    def _start(self):
        from ..protocol.client import (
            Engine,  # subprocesses and threads: loaded when an external engine plays, not at start-up
        )

        engine = Engine.popen(self.cmd, timeout=self.timeout, margin=self.margin)
        try:
            for key, value in self._options.items():
                engine.set_option(key, value)
        except BaseException:
            engine.close()
            raise
        self._warm = False
        return engine

    def choose(self, board: Board) -> Move:
        return self._play(board, self.limit)

    def choose_timed(self, board: Board, clock) -> Move:
        """``bestmove`` with both clocks: the engine decides its time."""
        limit = self.limit if self._limit_given else Limits()
        return self._play(
            board, Limits(time=limit.time, nodes=limit.nodes, depth=limit.depth, clock=clock)
        )

    def ready(self, board: Board) -> None:
        if not self._warm:
            self._play(board, Limits(nodes=1))
            self._warm = True

    def _play(self, board: Board, limit) -> Move:
        """The engine's move; an engine that failed (whatever way) is stopped, to be
        started again for the next game."""
        from ..protocol.client import (
            EngineError,  # subprocesses and threads: loaded when an external engine plays, not at start-up
        )

        try:
            return self.engine.play(board, limit).move
        except EngineError:
            self.engine.kill()
            raise

    def reset(self, seed: int | None = None) -> None:
        """Before a new game: the engine gets the whole game again at the next
        ``choose`` (an engine that failed is started again first); ``seed`` (if given,
        and if the engine has a ``seed`` option) is sent so that a match replays exactly
        under node limits."""
        if not self.engine.alive:
            self.engine.close()
            self.engine = self._start()
            self.restarts += 1
        self.engine.forget_game()
        if seed is not None:
            if self._engine_options is None:
                self._engine_options = self.engine.options()
            if "seed" in self._engine_options:
                self.engine.set_option("seed", int(seed) % 2**63)

    def close(self) -> None:
        self.engine.close()

    def __repr__(self) -> str:
        return f"EnginePlayer({self.engine.command_name!r}, {self.limit!r})"


def engine_player_from_spec(
    rest: str, *, time=None, nodes=None, seed=None, size=None, margin=None
) -> EnginePlayer:
    """The player of a ``cmd:<command line>`` spec (:data:`SPEC_PREFIXES`):
    ``rest`` is the command line; ``time``/``nodes`` limit each move (neither: the search
    default); ``seed`` (if given) is sent as the engine's ``seed`` option; ``size`` is
    unused (the engine learns the board from ``newgame``); ``margin``: the engine's answer
    margin (:class:`EnginePlayer`).

    >>> player = engine_player_from_spec("python -m hinge_fast.cli engine", nodes=500)  # doctest: +SKIP
    """
    if not rest.strip():
        raise HingeError("cmd: needs a command line, like 'cmd:hinge-fast engine'")
    limit = Limits(time=time, nodes=nodes)
    options = {"seed": seed} if seed is not None else None
    return EnginePlayer(rest, limit=limit, options=options, margin=margin)


def _external_engine(rest, *, time=None, nodes=None, seed=None, size=None, margin=None):
    """``cmd:<command line>``: a program speaking the engine protocol (hinge_fast.protocol.client)."""
    return engine_player_from_spec(
        rest, time=time, nodes=nodes, seed=seed, size=size, margin=margin
    )


#: Spec prefixes handled by a function of the rest of the spec:
#: ``handler(rest, *, time, nodes, seed, size) -> Player``. ``cmd:`` starts an
#: external engine program.
SPEC_PREFIXES: dict[str, Callable[..., Player]] = {"cmd:": _external_engine}


def option_value(text: str):
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict]:
    """``'mcts:exploration=0.7'`` -> ``('mcts', {'exploration': 0.7})``: an engine's
    options are parsed and checked by the registry (HingeError naming a bad one).

    >>> parse_spec("mcts:exploration=0.7,tree_nodes=5000")
    ('mcts', {'exploration': 0.7, 'tree_nodes': 5000})
    """
    if not isinstance(spec, str) or not spec.strip():
        raise HingeError(f"a player is named by text such as 'mcts', not {spec!r}")
    name, _, rest = spec.strip().partition(":")
    if name.strip().lower() in REGISTRY:
        return parse_engine_spec(spec)
    options = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise HingeError(f"player option {item!r} in {spec!r} must look like name=value")
        options[key.strip()] = option_value(value.strip())
    return name.strip().lower(), options


def get_player(
    spec: str,
    *,
    time: float | None = None,
    nodes: int | None = None,
    seed: int | None = None,
    size: int | None = None,
    options: dict | None = None,
    margin: float | None = None,
) -> Player:
    """The player named by ``spec``: ``random``, ``greedy``, ``alphabeta`` or ``mcts``,
    optionally with search options (``mcts:exploration=0.7``). ``time`` (seconds) and
    ``nodes`` limit each search move (neither: the search default); ``seed`` makes
    the player's choices reproducible; ``size`` is the board side it will play on;
    ``options``: more engine options, over those of the spec (``{"tablebase": FILE}``);
    ``margin``: for an external engine (``cmd:``), its answer margin (:class:`EnginePlayer`).

    >>> get_player("mcts", nodes=500, seed=3).name
    'mcts'
    """
    extra = dict(options or {})
    if isinstance(spec, str):
        for prefix, handler in SPEC_PREFIXES.items():
            if spec.strip().lower().startswith(prefix):
                if extra:
                    raise HingeError(
                        f"options {', '.join(sorted(extra))} are for this program's engines, not for {spec.strip()!r}"
                    )
                more = {} if margin is None else {"margin": margin}
                return handler(
                    spec.strip()[len(prefix) :],
                    time=time,
                    nodes=nodes,
                    seed=seed,
                    size=size,
                    **more,
                )
    name, options = parse_spec(spec)
    factory = PLAYER_FACTORIES.get(name)
    if factory is None:
        raise HingeError(
            f"unknown player {name!r}: choose {', '.join(PLAYER_FACTORIES)} (or cmd:PROGRAM)"
        )
    label = spec.strip() if options else None
    if extra:
        if name in REGISTRY:
            spec_of = REGISTRY[name]
            extra = {key: spec_of.option(key).check(value) for key, value in extra.items()}
    return factory(time=time, nodes=nodes, seed=seed, size=size, name=label, **{**options, **extra})


@dataclass(frozen=True)
class PlayerSpec:
    """A player described rather than made: what :func:`get_player` takes, in a form
    that is sent to other processes and Ray workers, where :meth:`make` builds it.

    ``PlayerSpec("mcts", nodes=200).make()`` is ``get_player("mcts", nodes=200)``;
    ``name``: the name the player goes by (default: as :func:`get_player` names it);
    ``margin``: an external engine's answer margin.
    ``make(slot)`` hands out one player per slot and process, kept for the next
    games there (a searcher's table, an engine program: made once); a process plays
    one game at a time, so no two games running at once share a player, and ``reset``
    starts each game afresh.
    """

    spec: str
    time: float | None = None
    nodes: int | None = None
    size: int | None = None
    name: str | None = None
    margin: float | None = None

    def make(self, slot: str | None = None) -> Player:
        if slot is None:
            return get_player(
                self.spec, time=self.time, nodes=self.nodes, size=self.size, margin=self.margin
            )
        key = (slot, self.spec, self.time, self.nodes, self.size, self.margin)
        player = _MADE.get(key)
        if player is None:
            player = _MADE[key] = get_player(
                self.spec, time=self.time, nodes=self.nodes, size=self.size, margin=self.margin
            )
        return player

    @property
    def label(self) -> str:
        if self.name is not None:
            return self.name
        name, options = parse_spec(self.spec)
        return self.spec.strip() if options else name


#: Players made by PlayerSpec.make(slot) in this process, kept for later games.
_MADE: dict = {}


def close_made_players() -> None:
    """Close the players PlayerSpec.make(slot) made in this process (``cmd:`` engines stop)."""
    while _MADE:
        _, player = _MADE.popitem()
        try:
            player.close()
        except Exception:  # noqa: BLE001  (an engine that died already)
            pass
