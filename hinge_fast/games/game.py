"""One game loop for every program that plays games: the match runner, ``stats``,
``play`` and the web app (the shape of KataGo's ``cpp/program/play.h``).

    >>> from hinge_fast.games.game import play_game
    >>> from hinge_fast.games.players import get_player
    >>> game = play_game(get_player("greedy", seed=1), get_player("random", seed=2), size=4)
    >>> game.termination.value in ("elimination", "no legal move"), game.result in ("green", "blue")
    (True, True)

A game starts from a board (the empty board of side ``size`` by default; the moves
already on a given board count towards the cap) and goes on while neither side has
won, asking the player whose turn it is for a move. It ends by elimination or when
the side to move has no legal move (rules.md section 6), or as unfinished when
``max_plies`` plies have been played: never a win for either side.

Under a clock (``time_control``: a ``hinge_fast.search.timeman.TimeControl``), each
side's clock starts at the base time; a move's time is the wall time of the player's
answer (from asking to getting the move), taken off the mover's clock, and the increment
is added after it. A side whose clock is below zero after its answer loses on time
(``Termination.TIME_FORFEIT``): its late move is not played.

An external engine that fails while choosing a move (``protocol.client.EngineError``:
it crashed or ended, did not answer within its deadline, answered an illegal or
unreadable move, flooded its output) loses the game: the result's ``termination`` is
the error's, its ``detail`` the error's message.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..board import Board, Color, Move, Termination
from ..core.geometry import DEFAULT_SIZE
from ..errors import HingeError
from ..search.timeman import Clock

#: Plies after which a game is given up as unfinished.
DEFAULT_MAX_PLIES = 400

#: Set when the user asked to stop (the command line's Ctrl-C): every game loop of this
#: process raises KeyboardInterrupt before its next move. A search that returns its best
#: move when interrupted would otherwise let the game, and the match, go on.
stop_requested = threading.Event()


def check_stop() -> None:
    """KeyboardInterrupt when :data:`stop_requested` is set."""
    if stop_requested.is_set():
        raise KeyboardInterrupt


@dataclass
class GameResult:
    """A played game: ``board`` (the final position, its ``move_stack`` holding the
    whole game), ``moves`` (the moves the players made here, after the start),
    ``winner`` (None when unfinished) and ``termination``."""

    board: Board
    moves: list[Move]
    winner: Color | None
    termination: Termination
    clock_left: tuple[float, float] | None = None
    move_seconds: list[float] | None = None
    detail: str | None = None  # how an engine that forfeited failed

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
    time_control=None,
    timer: Callable[[], float] | None = None,
) -> GameResult:
    """Play a game between two players (``hinge_fast.games.players.Player``: a
    ``name`` and ``choose(board)``; reset them first for a new game).

    ``start``: the board to play on (played on in place; default a new empty board
    of side ``size``); ``max_plies``: the game is unfinished once the board's
    ``move_stack`` is this long; ``on_move(board, move)``: called after each move is
    played. A player's illegal choice raises HingeError naming the player.

    ``time_control``: play under a clock (module docstring); the players are asked
    ``choose_timed(board, clock)`` when they have it (a ``timeman.Clock`` with both
    clocks), else ``choose(board)``; ``timer``: the clock's time source (default
    ``time.perf_counter``; tests give a fake one). ``clock_left`` of the result holds
    the two clocks at the end, ``move_seconds`` the time of each move (the last one the
    late move of a time forfeit, not played).
    """
    from ..protocol.client import (
        EngineError,  # subprocesses and threads: loaded when an external engine plays, not at start-up
    )

    board = Board(size) if start is None else start
    first = len(board.move_stack)
    left: list[float] | None = None
    spent: list[float] | None = None
    clock_time = time.perf_counter if timer is None else timer  # read only under a clock
    if time_control is not None:
        left = [time_control.base, time_control.base]
        spent = []
        increment = time_control.increment

    def finished(winner, termination, detail=None):
        return GameResult(
            board,
            board.move_stack[first:],
            winner,
            termination,
            None if left is None else tuple(left),
            spent,
            detail,
        )

    while True:
        outcome = board.outcome()
        if outcome is not None:
            return finished(outcome.winner, outcome.termination)
        if len(board.move_stack) >= max_plies:
            return finished(None, Termination.MAX_PLIES)
        check_stop()
        player = green if board.turn == Color.GREEN else blue
        try:
            if left is None:
                move = player.choose(board)
            else:
                side = int(board.turn)
                clock = Clock(left[0], left[1], increment, increment)
                choose_timed = getattr(player, "choose_timed", None)
                started = clock_time()
                move = (
                    choose_timed(board, clock) if choose_timed is not None else player.choose(board)
                )
        except EngineError as e:
            return finished(board.turn.other, e.termination, str(e))
        if left is not None:
            assert spent is not None  # set with left, under a clock
            spent.append(clock_time() - started)
            left[side] -= spent[-1]
            if left[side] < 0:
                return finished(board.turn.other, Termination.TIME_FORFEIT)
            left[side] += increment
        try:
            board.push(move)
        except HingeError as e:
            raise HingeError(f"player {player.name} chose an illegal move: {e}") from None
        check_stop()
        if on_move is not None:
            on_move(board, board.move_stack[-1])
