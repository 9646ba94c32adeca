"""hinge_fast: a fast engine for the board game Hinge (Corey L. Clark, 2024).

    >>> import hinge_fast
    >>> board = hinge_fast.Board()
    >>> board.push_str("F6")
    >>> print(board.fen())
    6/7/8/9/10/5g5/10/9/8/7/6 b

The rules implemented are rules.md (shipped beside the project); see README.md.
"""

from . import search  # a callable module: hinge_fast.search(board, ...)
from .analysis import svg as _svg  # noqa: F401  (it draws Board._repr_svg_, a board in Jupyter)
from .board import Board, Color, Move, Outcome, Termination
from .errors import HingeError
from .search import Limits, SearchResult
from .version import __version__

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
    "__version__",
]
