"""Positions for tests, benchmarks and scripts: seeded random play and random fillings.

>>> from hinge_fast.games.positions import random_position
>>> random_position(4, plies=6, seed=1).fen() == random_position(4, plies=6, seed=1).fen()
True
"""

from __future__ import annotations

import random as _random

from ..board import Board, Color
from ..core.fen import format_fen
from ..core.geometry import DEFAULT_SIZE, geometry
from ..errors import HingeError


def _rng(seed) -> _random.Random:
    """``seed`` as a generator: a ``random.Random`` is used (and advanced) as it is."""
    return seed if isinstance(seed, _random.Random) else _random.Random(seed)


def random_position(
    start: Board | int = DEFAULT_SIZE, plies: int = 0, seed: int | _random.Random | None = None
) -> Board:
    """The board after ``plies`` uniformly random legal moves (fewer if the game ends
    first) from ``start``: a side for its empty board, or a Board (copied, history
    kept). ``seed``: an int, or a ``random.Random`` to draw from (so that successive
    calls give successive positions).

    >>> board = random_position(6, plies=10, seed=3)
    >>> len(board.move_stack)
    10
    """
    board = Board(start) if isinstance(start, int) else start.copy()
    rng = _rng(seed)
    for _ in range(plies):
        moves = board.legal_moves
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def random_filling(size: int, seed: int | _random.Random | None = None) -> Board:
    """A board with tokens dropped at random on interior cells (density 0.2 to 0.8,
    a random share of green) and a random side to move: positions that play reaches
    rarely, such as long chains, rings and crowded rims. The position may be one no
    game reaches (singletons touching enemies, a side already eliminated).

    >>> random_filling(5, seed=1).size
    5
    """
    rng = _rng(seed)
    geo = geometry(size)
    density = rng.choice([0.2, 0.4, 0.6, 0.8])
    green_share = rng.random()
    green: list[int] = []
    blue: list[int] = []
    for cell in range(geo.n_interior):
        if rng.random() < density:
            (green if rng.random() < green_share else blue).append(cell)
    turn = Color.GREEN if rng.choice("gb") == "g" else Color.BLUE
    return Board.from_fen(format_fen(size, sorted(green), sorted(blue), turn))


def game_positions(
    size: int, games: int, seed: int | _random.Random | None = None, final: bool = False
) -> list[Board]:
    """Every position of ``games`` uniformly random games on side ``size``, in order
    (copies), each game from its empty board to its last move; with ``final`` its
    finished position too (one whose side to move has lost).

    >>> boards = game_positions(4, 2, seed=5, final=True)
    >>> boards[0].fen() == Board(4).fen(), boards[-1].is_game_over()
    (True, True)
    >>> len(game_positions(4, 2, seed=5)) == len(boards) - 2
    True
    """
    rng = _rng(seed)
    out = []
    for _ in range(games):
        board = Board(size)
        while not board.is_game_over():
            out.append(board.copy())
            board.push(rng.choice(board.legal_moves))
        if final:
            out.append(board.copy())
    return out


MAX_OPENING_ATTEMPTS = 1000


def random_opening(size: int, plies: int, rng: _random.Random) -> list:
    """``plies`` uniformly random moves from the empty board of side ``size`` that do
    not end the game (drawn again until they do not)."""
    for _ in range(MAX_OPENING_ATTEMPTS):
        board = random_position(size, plies, rng)
        if not board.is_game_over():
            return list(board.move_stack)
    raise HingeError(
        f"no {plies}-ply opening on side {size} leaves the game going after {MAX_OPENING_ATTEMPTS} tries"
    )
