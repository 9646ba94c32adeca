"""hinge_fast: a fast engine for the board game Hinge (Corey L. Clark, 2024).

    >>> import hinge_fast
    >>> board = hinge_fast.Board()
    >>> board.push_str("F6")
    >>> print(board.fen())
    6/7/8/9/10/5g5/10/9/8/7/6 b

The rules, in the project's words: docs/rules.md; the guide: README.md.
"""

from . import search  # the package; calling it calls search_position
from .board import Board, Color, Move, Outcome, Termination, set_svg_drawer
from .errors import HingeError
from .search import Limits, SearchResult, search_position
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
    "search_position",
    "__version__",
]
