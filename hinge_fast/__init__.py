"""hinge_fast: a fast engine for the board game Hinge (Corey L. Clark, 2024).

    >>> import hinge_fast
    >>> board = hinge_fast.Board()
    >>> board.push_str("F6")
    >>> print(board.fen())
    6/7/8/9/10/5g5/10/9/8/7/6 b

The rules, in the project's words: docs/rules.md; the guide: README.md.
"""

from . import search  # the package; calling it calls search_position
from .board import Board, Color, Move, Outcome, Termination
from .errors import HingeError
from .search import Limits, SearchResult, search_position

__version__ = "0.2.0"

__all__ = [
    "Board",
    "Color",
    "Move",
    "Outcome",
    "Termination",
    "HingeError",
    "Limits",
    "SearchResult",
    "search",
    "search_position",
    "__version__",
]
