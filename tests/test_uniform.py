"""The uniform random playouts in the shift layout (``playouts.random_game``, the
``hinge-fast playouts`` kernel: two words on sides 4 to 6, ``SHIFT_WORDS`` on sides 7
to 9) against ``reference.py``.

Uniform over the distinct legal moves (rules.md section 5) holds when the count is the
number of legal moves and the indices ``0 .. n-1`` decode to each legal move exactly
once (the draw below n is unbiased: ``test_playouts.py``). So: (1) on positions of
random games and random fillings, ``shiftplay.uniform_moves`` decodes every index and
the moves, flipped groups included, are the reference's, each once; (2) whole games
replayed through the reference are legal move by move and end as the kernel says; (3)
a seed gives the same tallies on 1 and 2 threads."""

import random
from collections import Counter

import numpy as np
import pytest

from hinge_fast import Board
from hinge_fast import reference as ref
from hinge_fast.core import kernels, parallel
from hinge_fast.core.playouts import ELIMINATION, NO_LEGAL_MOVE, PLY_CAP
from hinge_fast.core.tables import MAX_MOVES, MAX_SIZE, SHIFT_WORDS
from hinge_fast.games.positions import random_filling
from tests.conftest import QUICK_MAX_SIZE, S6_MID, S9_MID, game_positions, shift_cells

SIZES = range(4, MAX_SIZE + 1)
WIDE = range(QUICK_MAX_SIZE + 1, MAX_SIZE + 1)


def decoded_moves(board: Board) -> list:
    """Every index of the shift-layout count, decoded: (name, flipped group) pairs."""
    codes = np.zeros(MAX_MOVES, dtype=np.int64)
    groups = np.zeros((MAX_MOVES, SHIFT_WORDS), dtype=np.uint64)
    n = kernels.uniform_moves(board.size, board.own, board.enemy, codes, groups)
    return [
        (str(board.move_from_code(codes[k])), shift_cells(board.size, groups[k])) for k in range(n)
    ]


def reference_moves(board: Board) -> list:
    pos = ref.parse_position(board.fen())
    return [
        (ref.move_name(m), frozenset(m[3]) if m[0] == "swipe" else frozenset())
        for m in ref.legal_moves(pos)
    ]


def positions(size: int, games: int = 8, fillings: int = 80, every: int = 1) -> list[Board]:
    """Positions of random games (every ``every`` ply) and random fillings (long chains,
    rings, crowded rims: lift-stuck tokens and cells between three groups)."""
    boards = [
        b.copy()
        for seed in range(games)
        for b in game_positions(size, 9300 * size + seed, every=every)
    ]
    return boards + [random_filling(size, seed=9400 * size + seed) for seed in range(fillings)]


def default_positions(size: int) -> list[Board]:
    """The default suite's positions: fewer on sides 7 to 9, where the reference is slow
    (``-m slow`` runs many more there)."""
    return positions(size) if size <= QUICK_MAX_SIZE else positions(size, 3, 30, 6)


@pytest.mark.parametrize("size", SIZES)
def test_every_index_decodes_to_each_legal_move_once(size):
    check_every_index(size, default_positions(size))


@pytest.mark.slow
@pytest.mark.parametrize("size", WIDE)
def test_every_index_decodes_to_each_legal_move_once_on_many_wide_positions(size):
    check_every_index(size, positions(size, 10, 200, 2))


def check_every_index(size: int, boards: list[Board]) -> None:
    multi = Counter()  # moves sharing (from, to): an end next to two enemy groups
    swipes = 0
    for board in boards:
        got = decoded_moves(board)
        expected = reference_moves(board)
        assert len(got) == len(expected), (board.fen(), len(got), len(expected))
        assert sorted(got, key=repr) == sorted(expected, key=repr), board.fen()
        ends = Counter(name.split("x")[0] for name, _ in got if "x" in name)
        swipes += sum(ends.values())
        multi.update(k for k in ends.values() if k > 1)
    # The positions reach what the count must get right: swipes, and ends next to two
    # enemy groups. None is next to three (``shiftplay.uniform_count`` says why, and
    # counts on it).
    assert swipes > 250 and multi[2] >= 5 and multi[3] == 0


def replay(board: Board, codes, plies: int) -> ref.RefPosition:
    """Replay a game's moves through the reference, each one legal; the final position."""
    pos = ref.parse_position(board.fen())
    probe = board.copy()
    for i in range(plies):
        name = str(probe.move_from_code(codes[i]))
        by_name = {ref.move_name(m): m for m in ref.legal_moves(pos)}
        assert name in by_name, (ref.format_position(pos), name)
        pos = ref.play(pos, by_name[name])
        probe.push_str(name)
    return pos


@pytest.mark.parametrize("size", SIZES)
def test_whole_games_replay_through_the_reference(size):
    if size <= QUICK_MAX_SIZE:
        check_whole_games(size, 4, 3, 6)
    else:  # the reference is slow on the larger sides: -m slow replays more
        check_whole_games(size, 1, 1, 2)


@pytest.mark.slow
@pytest.mark.parametrize("size", WIDE)
def test_whole_games_replay_through_the_reference_on_wide_sides(size):
    check_whole_games(size, 4, 3, 6)


def check_whole_games(size: int, played: int, fillings: int, games: int) -> None:
    starts = [Board(size)] + [b.copy() for b in game_positions(size, 9500 * size, every=5)][
        1 : 1 + played
    ]
    starts += [random_filling(size, seed=9600 * size + seed) for seed in range(fillings)]
    endings = Counter()
    for board in starts:
        fen = board.fen()
        plies_out = np.zeros(games, dtype=np.int64)
        winner_out = np.zeros(games, dtype=np.int8)
        ended_out = np.zeros(games, dtype=np.int8)
        kernels.random_games(
            size, board.own, board.enemy, 0, games, 10_000, 11, plies_out, winner_out, ended_out
        )
        for game in range(games):
            for cap in (10_000, 7):
                trace = np.zeros(4096, dtype=np.int64)
                plies, winner, ended = kernels.game_trace(
                    size, board.own, board.enemy, game, cap, 11, trace
                )
                if cap == 10_000:  # the very game random_games played
                    assert (plies, winner, ended) == (
                        plies_out[game],
                        winner_out[game],
                        ended_out[game],
                    ), fen
                pos = replay(board, trace, plies)
                outcome = ref.outcome(pos)
                if ended == PLY_CAP:  # even when the cap's last move ended the game
                    assert plies == cap and winner == -1, fen
                    continue
                assert outcome is not None, (fen, game, ref.format_position(pos))
                start = ref.parse_position(fen).to_move
                assert winner == (0 if outcome[0] == start else 1), (fen, game)
                assert (
                    ended
                    == {"elimination": ELIMINATION, "no legal move": NO_LEGAL_MOVE}[outcome[1]]
                ), (fen, game)
                endings[ended] += 1
    assert endings[ELIMINATION] > 0


@pytest.mark.parametrize("fen", [None, S6_MID, S9_MID])
def test_seeded_tallies_are_the_same_on_one_and_two_threads(fen):
    for size in SIZES if fen is None else (Board.from_fen(fen).size,):
        board = Board(size) if fen is None else Board.from_fen(fen)
        one = parallel.playouts(size, board.own, board.enemy, 400, 10_000, 5, threads=1)
        two = parallel.playouts(size, board.own, board.enemy, 400, 10_000, 5, threads=2)
        assert np.array_equal(one.plies, two.plies), size
        assert np.array_equal(one.winner, two.winner), size
        assert np.array_equal(one.ended, two.ended), size
        assert one.count(PLY_CAP) == 0 and one.wins(0) + one.wins(1) == 400


def test_the_draw_spreads_over_every_move():
    """The first moves of many seeded games from a side-4 position with placements,
    swipes and an end next to two groups: every legal move is drawn, about equally."""
    board = Board.from_fen("4/5/2gg2/2b1b2/2g3/5/4 g")
    n = len(board.legal_moves)
    seen = Counter()
    for game in range(300 * n):
        trace = np.zeros(1, dtype=np.int64)
        kernels.game_trace(4, board.own, board.enemy, game, 1, 3, trace)
        seen[str(board.move_from_code(trace[0]))] += 1
    assert set(seen) == {str(m) for m in board.legal_moves}
    chi2 = sum((c - 300) ** 2 / 300 for c in seen.values())
    assert chi2 < (n - 1) + 6 * (2 * (n - 1)) ** 0.5, seen


def test_random_positions_of_many_games():
    """A broader sweep: positions at random depths of many random games, every side."""
    rng = random.Random(77)
    for _ in range(60):
        size = rng.choice(list(SIZES))
        board = Board(size)
        plies = rng.randrange(0, 16 * size)
        while len(board.move_stack) < plies and board.legal_moves:
            board.push(rng.choice(board.legal_moves))
        assert sorted(decoded_moves(board), key=repr) == sorted(reference_moves(board), key=repr), (
            board.fen()
        )
