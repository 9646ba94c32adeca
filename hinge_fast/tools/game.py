"""One game loop for every program that plays games: the match runner, ``stats``,
``play`` and the web app (the shape of KataGo's ``cpp/program/play.h``).

    >>> from hinge_fast.tools.game import play_game
    >>> from hinge_fast.tools.players import get_player
    >>> game = play_game(get_player("greedy", seed=1), get_player("random", seed=2), size=4)
    >>> game.termination.value in ("elimination", "no legal move"), game.result in ("green", "blue")
    (True, True)

A game starts from a board (the empty board of side ``size`` by default; the moves
already on a given board count towards the cap) and goes on while neither side has
won, asking the player whose turn it is for a move. It ends by elimination or when
the side to move has no legal move (rules.md section 6), or as unfinished when
``max_plies`` plies have been played: never a win for either side.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..board import Board, Color, Move, Termination
from ..core.geometry import DEFAULT_SIZE
from ..errors import HingeError

#: Plies after which a game is given up as unfinished.
DEFAULT_MAX_PLIES = 400


@dataclass
class GameResult:
    """A played game: ``board`` (the final position, its ``move_stack`` holding the
    whole game), ``moves`` (the moves the players made here, after the start),
    ``winner`` (None when unfinished) and ``termination``."""

    board: Board
    moves: list[Move]
    winner: Color | None
    termination: Termination

    @property
    def result(self) -> str:
        """``'green'``, ``'blue'`` or ``'unfinished'`` (the words of game records)."""
        return "unfinished" if self.winner is None else str(self.winner)

    @property
    def finished(self) -> bool:
        return self.winner is not None


def play_game(
    green,
    blue,
    start: Board | None = None,
    *,
    size: int = DEFAULT_SIZE,
    max_plies: int = DEFAULT_MAX_PLIES,
    on_move: Callable[[Board, Move], None] | None = None,
) -> GameResult:
    """Play a game between two players (``hinge_fast.tools.players.Player``: a
    ``name`` and ``choose(board)``; reset them first for a new game).

    ``start``: the board to play on (played on in place; default a new empty board
    of side ``size``); ``max_plies``: the game is unfinished once the board's
    ``move_stack`` is this long; ``on_move(board, move)``: called after each move is
    played. A player's illegal choice raises HingeError naming the player.
    """
    board = Board(size) if start is None else start
    first = len(board.move_stack)
    while True:
        outcome = board.outcome()
        if outcome is not None:
            return GameResult(board, board.move_stack[first:], outcome.winner, outcome.termination)
        if len(board.move_stack) >= max_plies:
            return GameResult(board, board.move_stack[first:], None, Termination.MAX_PLIES)
        player = green if board.turn == Color.GREEN else blue
        move = player.choose(board)
        try:
            board.push(move)
        except HingeError as e:
            raise HingeError(f"player {player.name} chose an illegal move: {e}") from None
        if on_move is not None:
            on_move(board, board.move_stack[-1])
