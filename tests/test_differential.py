"""The fast engine against the reference on thousands of positions.

Positions come from seeded random play on every board side (early, middle and late
game, including finished games) and from seeded random fillings of the board that
play would rarely reach. At each one both implementations must give the same legal
move set, the same position after every legal move, the same game-end verdict and
the same position string.

The default run checks at least 300 positions of play (whole games, in three parts)
and 60 fillings per board side, over 2,160 in all; ``HINGE_DIFF_POSITIONS=20000 pytest -m slow tests/test_differential.py`` runs
a much longer one (the slow test checks ten times that many per side).
"""

import os
import random

import pytest

from hinge_fast import Board
from hinge_fast import reference as ref
from hinge_fast.games.positions import random_filling

SIZES = range(4, 10)
POSITIONS_PER_SIZE = int(os.environ.get("HINGE_DIFF_POSITIONS", "300"))


def compare(board: Board) -> int:
    """Assert that both implementations agree on ``board``; return the number of
    legal moves."""
    fen = board.fen()
    pos = ref.parse_position(fen)
    assert ref.format_position(pos) == fen
    ref_moves = {ref.move_name(m): m for m in ref.legal_moves(pos)}
    fast_moves = [str(m) for m in board.legal_moves]
    assert len(fast_moves) == len(set(fast_moves)), f"duplicate moves in {fen}"
    assert set(fast_moves) == set(ref_moves), (
        f"{fen}: fast-only {sorted(set(fast_moves) - set(ref_moves))}, "
        f"reference-only {sorted(set(ref_moves) - set(fast_moves))}"
    )
    outcome = board.outcome()
    fast_verdict = None if outcome is None else (outcome.winner.letter, outcome.reason)
    assert fast_verdict == ref.outcome(pos), fen
    for name, move in ref_moves.items():
        board.push_str(name)
        assert board.fen() == ref.format_position(ref.play(pos, move)), f"{fen} after {name}"
        board.pop()
    assert board.fen() == fen
    return len(fast_moves)


def random_game_positions(size: int, seed: int):
    """Every position of one seeded random game, the final one included."""
    rng = random.Random(seed)
    board = Board(size)
    while True:
        yield board
        moves = board.legal_moves
        if not moves or len(board.move_stack) >= 400:
            return
        board.push(rng.choice(moves))


def check_games(size: int, first_seed: int, positions: int) -> None:
    """Compare every position of seeded random games until ``positions`` are checked."""
    checked = 0
    seed = first_seed
    finished = 0
    while checked < positions:
        for board in random_game_positions(size, seed):
            compare(board)
            checked += 1
        finished += board.is_game_over()
        seed += 1
    assert finished > 0  # the games reached their end, late-game positions included


#: The games of a side are checked in this many parts (separate tests, from separate
#: seeds), so that pytest-xdist can share the long ones of the big boards out.
PARTS = 3


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("size", SIZES)
def test_random_games_agree(size, part):
    check_games(
        size, first_seed=1000 * size + 100 * part, positions=-(-POSITIONS_PER_SIZE // PARTS)
    )


@pytest.mark.parametrize("size", SIZES)
def test_random_fillings_agree(size):
    for seed in range(60):
        compare(random_filling(size, seed=7000 * size + seed))


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_many_random_games_agree(size):
    check_games(size, first_seed=50_000 * size, positions=10 * POSITIONS_PER_SIZE)
