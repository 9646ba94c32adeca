"""hinge_fast: a fast engine for the board game Hinge (Corey L. Clark, 2024).

    >>> import hinge_fast
    >>> board = hinge_fast.Board()
    >>> board.push_str("F6")
    >>> print(board.fen())
    6/7/8/9/10/5g5/10/9/8/7/6 b

The rules implemented are rules.md (shipped beside the project); see README.md.
"""

from . import search  # a callable module: hinge_fast.search(board, ...)
from .board import Board, Color, Move, Outcome, Termination, set_svg_drawer
from .errors import HingeError
from .search import Limits, SearchResult
from .version import __version__


def _board_svg(board: Board) -> str:
    """A board's picture for Jupyter, drawn by the picture module, which
    is imported on the first picture: its XML escaping costs start-up time."""
    from .analysis.svg import board as draw

    return draw(board)


set_svg_drawer(_board_svg)

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
