"""Time management: how much of a clock to spend on one move.

A game under a clock gives each side a base time and an increment added after each of
its moves (``TimeControl``, written ``BASE+INC`` in seconds: ``10+0.1``); a side whose
clock runs out loses. A search under a clock gets the two clocks (``Clock``, as UCI's
``go wtime btime winc binc``) and turns them into a time for this move
(:func:`move_time`)::

    usable = remaining - the reserve (none when less is left)
    share  = usable / moves left + 3/4 of the increment - the move overhead
    time   = the share, at most half the remaining time less the overhead, at least 1 ms

``moves left`` is the clock's moves-to-go when it has one. Otherwise it is estimated from
the position (:func:`moves_left`): a game is mostly decided by the time about a third
of the board holds tokens (``END_FILL``), and on the way there each token placed takes
about one and a half plies (``PLIES_PER_TOKEN``); never fewer than ``MIN_MOVES_LEFT``
moves, so a game that goes on longer than estimated only shrinks the clock by a constant
factor per move and never runs it out. Spending by the position rather than a flat
share of the clock uses the time a flat share leaves on the clock at the end of a
game (a flat twentieth leaves 40% of the base unused after 18 moves).

``RESERVE`` is never planned for: it absorbs a search that overruns on a loaded machine
(with an increment the clock settles above it; below it a move gets three quarters of
the increment). ``MOVE_OVERHEAD`` is kept back on every move
for what the clock counts but the search does not (a process's answer going through a
pipe, the game loop).

    >>> moves_left(6, 9)
    18
    >>> move_time(1.0, 0.01, moves=18)
    0.0525
    >>> move_time(10.0, 0.1)
    0.565
    >>> move_time(0.001, 0.0)
    0.001
    >>> Clock(green_time=10, blue_time=4, green_inc=0.1, blue_inc=0.1).side(1)
    (4.0, 0.1)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..errors import HingeError

#: Moves per side a clock is made to last when neither the clock nor a position says more.
EXPECTED_MOVES = 20
#: The share of the board's cells holding tokens by which a game is mostly decided.
END_FILL = 0.35
#: Plies a game takes per token placed on the way there.
PLIES_PER_TOKEN = 1.5
#: The fewest moves of its own a side plans its clock for.
MIN_MOVES_LEFT = 8
#: The share of the increment spent on the move that earns it.
INCREMENT_SHARE = 0.75
#: Seconds of the clock never planned for.
RESERVE = 0.1
#: Seconds kept back on every move for what is not search (pipes, the game loop).
MOVE_OVERHEAD = 0.005
#: Never more than this share of the remaining time on one move.
MAX_SHARE = 0.5
#: The least time a search is given (it always completes its first step).
MIN_MOVE_TIME = 0.001
#: The longest clock, seconds (a day).
MAX_CLOCK = 24 * 3600.0

_TC = re.compile(r"\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*(?:\+\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*)?")


def _seconds(name: str, value, allow_negative: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise HingeError(f"{name} must be a number of seconds, not {value!r}")
    value = float(value)
    if not (allow_negative or value >= 0) or math.isinf(value) or value > MAX_CLOCK:
        raise HingeError(f"{name} must be from 0 to {MAX_CLOCK:.0f} seconds, not {value:g}")
    return value


@dataclass(frozen=True)
class Clock:
    """The two clocks at a move: seconds left to Green and Blue, their increments, and
    optionally the moves the side to move must still make before its clock is filled
    again (``moves_to_go``; None: the rest of the game)."""

    green_time: float
    blue_time: float
    green_inc: float = 0.0
    blue_inc: float = 0.0
    moves_to_go: int | None = None

    def __post_init__(self):
        for name in ("green_time", "blue_time", "green_inc", "blue_inc"):
            object.__setattr__(
                self,
                name,
                _seconds(name, getattr(self, name), allow_negative=name.endswith("time")),
            )
        if self.moves_to_go is not None:
            value = self.moves_to_go
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10_000:
                raise HingeError(
                    f"moves to go must be a whole number from 1 to 10000, not {value!r}"
                )

    def side(self, turn: int) -> tuple[float, float]:
        """``(remaining, increment)`` of the side ``turn`` (0 Green, 1 Blue)."""
        return (
            (self.green_time, self.green_inc) if int(turn) == 0 else (self.blue_time, self.blue_inc)
        )


def moves_left(size: int, tokens: int) -> int:
    """The moves of its own the side to move plans its clock for, on a board of side
    ``size`` holding ``tokens`` tokens (the module docstring)."""
    cells = 3 * size * (size - 1) + 1
    plies = PLIES_PER_TOKEN * (END_FILL * cells - tokens)
    return max(MIN_MOVES_LEFT, math.ceil(plies / 2))


def move_time(remaining: float, increment: float = 0.0, moves: int | None = None) -> float:
    """Seconds to search this move with ``remaining`` seconds on the clock, the
    ``increment`` to come after it and ``moves`` to plan for (the clock's moves to go,
    or :func:`moves_left`; None: ``EXPECTED_MOVES``); the formula is in the module
    docstring."""
    moves = moves if moves else EXPECTED_MOVES
    usable = max(0.0, remaining - RESERVE)
    share = usable / moves + INCREMENT_SHARE * increment - MOVE_OVERHEAD
    cap = (usable if moves == 1 else remaining * MAX_SHARE) - MOVE_OVERHEAD
    return round(max(MIN_MOVE_TIME, min(share, cap)), 6)


@dataclass(frozen=True)
class TimeControl:
    """A clock for a whole game: ``base`` seconds for each side, ``increment`` seconds
    added after each of its moves. ``str`` is the ``BASE+INC`` form.

    >>> TimeControl.parse("10+0.1")
    TimeControl(base=10.0, increment=0.1)
    >>> str(TimeControl.parse("60"))
    '60+0'
    """

    base: float
    increment: float = 0.0

    def __post_init__(self):
        object.__setattr__(self, "base", _seconds("the base time", self.base))
        object.__setattr__(self, "increment", _seconds("the increment", self.increment))
        if self.base <= 0:
            raise HingeError(f"the base time must be more than 0 seconds, not {self.base:g}")

    @classmethod
    def parse(cls, text) -> TimeControl:
        """``'BASE+INC'`` or ``'BASE'`` in seconds; HingeError otherwise."""
        m = _TC.fullmatch(str(text))
        if m is None:
            raise HingeError(
                f"a time control is BASE[+INC] in seconds, like 10+0.1 or 60, not {str(text)[:40]!r}"
            )
        return cls(float(m.group(1)), float(m.group(2) or 0.0))

    def __str__(self) -> str:
        return f"{self.base:g}+{self.increment:g}"
