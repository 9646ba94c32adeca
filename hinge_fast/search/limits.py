"""One limits object for every searcher: time, nodes, depth."""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..board import Color
from ..errors import HingeError
from .timeman import Clock, move_time, moves_left


def physical_memory_mb() -> int:
    """Megabytes of memory of this machine (a large number where unknown)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
    except (AttributeError, ValueError, OSError):
        return 2**20


#: The largest alpha-beta transposition table: half the machine's memory (a larger
#: one would only get the engine killed), and never more than 64 GB.
MAX_TABLE_MB = max(64, min(1 << 16, physical_memory_mb() // 2))
MAX_TIME = 24 * 3600.0
MAX_NODES = 10**12
MAX_DEPTH = 64


@dataclass(frozen=True, repr=False)
class Limits:
    """When a search must stop: whichever limit is reached first.

    ``time``: seconds of wall clock (the search stops within 5% plus a few
    milliseconds); ``nodes``: positions searched (alpha-beta) or playouts (MCTS);
    ``depth``: plies of iterative deepening (alpha-beta only; MCTS ignores it);
    ``clock``: the two game clocks (a ``timeman.Clock``), from which the searcher
    decides the time of this move (``timeman.move_time``).
    With no limit at all, a search uses ``DEFAULT_TIME`` seconds.

    >>> Limits(time=0.5)
    Limits(time=0.5, nodes=None, depth=None)
    """

    time: float | None = None
    nodes: int | None = None
    depth: int | None = None
    clock: Clock | None = None

    def __repr__(self) -> str:
        text = f"Limits(time={self.time!r}, nodes={self.nodes!r}, depth={self.depth!r}"
        return text + (")" if self.clock is None else f", clock={self.clock!r})")

    def __post_init__(self):
        if self.clock is not None and not isinstance(self.clock, Clock):
            raise HingeError(f"clock must be a Clock, not {type(self.clock).__name__}")
        if self.time is not None:
            if (
                isinstance(self.time, bool)
                or not isinstance(self.time, (int, float))
                or self.time != self.time
            ):
                raise HingeError(f"time must be a number of seconds, not {self.time!r}")
            if not 0 < self.time <= MAX_TIME:
                raise HingeError(
                    f"time must be more than 0 and at most {MAX_TIME:.0f} seconds, not {self.time}"
                )
            object.__setattr__(self, "time", float(self.time))
        for name, high in (("nodes", MAX_NODES), ("depth", MAX_DEPTH)):
            value = getattr(self, name)
            if value is None:
                continue
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                and not hasattr(value, "__index__")
            ):
                raise HingeError(f"{name} must be a whole number, not {value!r}")
            if not 1 <= int(value) <= high:
                raise HingeError(f"{name} must be from 1 to {high}, not {value}")
            object.__setattr__(self, name, int(value))

    @property
    def unlimited(self) -> bool:
        return (
            self.time is None and self.nodes is None and self.depth is None and self.clock is None
        )


#: Seconds a search takes when it is given no limit.
DEFAULT_TIME = 1.0


def limits_for_move(limits: Limits, board) -> Limits:
    """``limits`` with its clock (if any) turned into a time for the side to move on
    ``board``: ``timeman.move_time`` for the clock's moves to go or, without them, the
    position's ``timeman.moves_left``; or the limits' own time if that is shorter.
    Limits without a clock come back as they are."""
    clock = limits.clock
    if clock is None:
        return limits
    remaining, increment = clock.side(board.turn)
    tokens = board.token_count(Color.GREEN) + board.token_count(Color.BLUE)
    time = move_time(remaining, increment, clock.moves_to_go or moves_left(board.size, tokens))
    if limits.time is not None:
        time = min(time, limits.time)
    return Limits(time=time, nodes=limits.nodes, depth=limits.depth)
