"""What the engines' options have in common: ``OptionSpec`` (an option's type,
default, bounds and help, and its check) and the options every engine takes
(``threads``, ``tablebase``). Each engine's own options and defaults are with the
engine (``alphabeta_config.py``, ``mcts_config.py``); ``registry.py`` lists the engines.

    >>> THREADS.check("2"), THREADS.parse("3")
    (2, 3)
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

from ..errors import HingeError
from .tablebase import check_tablebase_option, default_tablebase_option

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


#: The side-4 tablebase (``search/tablebase.py``): the registry's engines answer from it
#: on the side-4 positions it holds.
TABLEBASE = OptionSpec(
    "tablebase",
    "string",
    default_tablebase_option(),
    help="side-4 tablebase: 'auto' (the file 'hinge-fast solve --size 4' writes, when it exists), "
    "'off', or a file; a side-4 position in it is answered from it: fastest win, longest loss",
    convert=check_tablebase_option,
)
