"""The one game loop (games/game.py) and the random positions (games/positions.py)."""

import random

import pytest

from hinge_fast import Board, Color, HingeError, Move
from hinge_fast.board import Termination
from hinge_fast.games.game import play_game
from hinge_fast.games.players import Player, get_player
from hinge_fast.games.positions import random_filling, random_position
from tests.conftest import MID_GAME


def test_a_game_ends_by_the_rules_and_reports_every_move():
    seen = []
    game = play_game(
        get_player("greedy", seed=1),
        get_player("random", seed=2),
        size=4,
        on_move=lambda b, m: seen.append((m, b.fen())),
    )
    assert game.finished and game.termination in (
        Termination.ELIMINATION,
        Termination.NO_LEGAL_MOVE,
    )
    assert game.board.outcome().winner == game.winner and game.result == str(game.winner)
    assert [m for m, _ in seen] == game.moves == game.board.move_stack
    replay = Board(4)
    for move, fen in seen:  # each report comes after its move, with the board then
        replay.push(move)
        assert replay.fen() == fen


def test_max_plies_counts_the_moves_already_on_the_start_board():
    start = random_position(6, 4, seed=3)
    game = play_game(
        get_player("random", seed=1), get_player("random", seed=1), start, max_plies=10
    )
    assert (game.winner, game.termination, game.result) == (
        None,
        Termination.MAX_PLIES,
        "unfinished",
    )
    assert len(game.board.move_stack) == 10 and len(game.moves) == 6


def test_a_game_from_a_finished_position_plays_nothing():
    game = play_game(None, None, Board.from_fen("6/7/8/9/10/4gg5/10/9/8/7/6 b"))
    assert (
        game.moves == []
        and game.winner == Color.GREEN
        and game.termination == Termination.ELIMINATION
    )


def test_an_illegal_choice_names_the_player():
    class Cheat(Player):
        name = "cheat"

        def choose(self, board):
            return Move.from_str("A1")  # an edge cell: never legal

    with pytest.raises(HingeError, match="player cheat chose an illegal move"):
        play_game(Cheat(), Cheat(), Board.from_fen(MID_GAME))


def test_random_position_is_seeded_and_stops_at_the_end():
    a, b = random_position(6, 12, seed=5), random_position(6, 12, seed=5)
    assert a.fen() == b.fen() and len(a.move_stack) == 12
    rng = random.Random(5)
    first, second = random_position(6, 12, rng), random_position(6, 12, rng)
    assert first.fen() == a.fen() and second.fen() != first.fen()  # a generator is drawn from
    ended = random_position(4, 10_000, seed=1)
    assert ended.is_game_over() and len(ended.move_stack) < 10_000
    start = Board.from_fen(MID_GAME)
    later = random_position(start, 3, seed=1)
    assert start.fen() == MID_GAME and len(later.move_stack) == 3  # the start board is copied


@pytest.mark.parametrize("size", range(4, 10))
def test_random_filling_is_a_valid_seeded_board(size):
    board = random_filling(size, seed=size)
    assert board.size == size and board.fen() == random_filling(size, seed=size).fen()
    assert Board.from_fen(board.fen()).fen() == board.fen()
