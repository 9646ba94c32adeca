"""The MCTS playout (``playouts.policy_playout``, every side) against the reference: every move it plays is legal and is the default policy's
(an eliminating swipe when there is one, else a swipe flipping the largest group,
else a placement next to a friendly token when there is one), its draws cover every
tied option about equally often, and its result and plies are those of its moves
replayed through ``reference.py``."""

from collections import Counter

import numpy as np
import pytest

from hinge_fast import Board
from hinge_fast import reference as ref
from hinge_fast.core.geometry import MAX_SIZE
from hinge_fast.core.playouts import new_work
from hinge_fast.core.playouts import policy_playout as playout_of_sets
from hinge_fast.core.sets import set_like, to_shift_words
from hinge_fast.games.positions import random_filling
from hinge_fast.search.mcts import default_playout_plies, new_rng
from tests.conftest import QUICK_MAX_SIZE, game_positions

SIZES = range(4, MAX_SIZE + 1)


def policy_playout(size, own_bits, enemy_bits, cap, rng, trace, work):
    """``playouts.policy_playout`` from a position given as bitboards."""
    like = set_like(size)
    return playout_of_sets(
        size,
        to_shift_words(size, own_bits, like),
        to_shift_words(size, enemy_bits, like),
        cap,
        rng,
        trace,
        work,
    )


def policy_moves(pos) -> set:
    """The names of the moves the default policy may play at ``pos`` (reference.py):
    the swipes flipping the most tokens if there is a swipe, else the placements next
    to a friendly token if there is one, else every placement."""
    moves = ref.legal_moves(pos)
    swipes = [m for m in moves if m[0] == "swipe"]
    if swipes:
        largest = max(len(m[3]) for m in swipes)
        return {ref.move_name(m) for m in swipes if len(m[3]) == largest}
    me = pos.to_move
    connected = {
        ref.move_name(m)
        for m in moves
        if any(pos.tokens.get(c) == me for c in ref.neighbours(pos.size, m[1]))
    }
    return connected or {ref.move_name(m) for m in moves}


def eliminating(pos) -> set:
    enemy = sum(1 for col in pos.tokens.values() if col != pos.to_move)
    return {ref.move_name(m) for m in ref.swipes(pos) if len(m[3]) == enemy}


def first_move(board: Board, seed: int) -> tuple:
    trace = np.zeros(4, dtype=np.int64)
    result, plies = policy_playout(
        board.size, board.own, board.enemy, 1, new_rng(seed), trace, new_work()
    )
    return result, plies, (str(board.move_from_code(trace[0])) if plies else None)


def positions(size: int) -> list[Board]:
    """Positions of random games (every third ply) and random fillings of side ``size``
    (fewer above ``QUICK_MAX_SIZE``: the reference is slow there)."""
    quick = size <= QUICK_MAX_SIZE
    boards = [
        b.copy()
        for seed in range(3 if quick else 1)
        for b in game_positions(size, 7700 * size + seed, every=3)
    ]
    return boards + [
        random_filling(size, seed=7800 * size + seed) for seed in range(12 if quick else 4)
    ]


@pytest.mark.parametrize("size", SIZES)
def test_every_first_move_is_legal_and_the_policys(size):
    checked = swipes = eliminations = 0
    for board in positions(size):
        pos = ref.parse_position(board.fen())
        legal = {ref.move_name(m) for m in ref.legal_moves(pos)}
        allowed = policy_moves(pos) if legal else set()
        wins = eliminating(pos) if legal else set()
        for seed in range(3):
            result, plies, move = first_move(board, seed)
            if not legal:  # eliminated, or no legal move: lost at once
                assert (result, plies) == (0.0, 0), board.fen()
                continue
            assert plies == 1 and move in legal, (board.fen(), move)
            assert move in allowed, (board.fen(), move, sorted(allowed))
            if wins:
                assert move in wins, (board.fen(), move)
                eliminations += 1
            swipes += "-" in move
            checked += 1
    assert checked > 30 and swipes > 10
    if size <= QUICK_MAX_SIZE:
        assert eliminations > 0


def replay(board: Board, codes, plies: int, cap: int) -> float:
    """Replay the playout's moves through the reference, checking that each is legal
    and the policy's; returns the result for the side to move at the start by the
    reference: the winner if the game ended before the cap, else the token count."""
    pos = ref.parse_position(board.fen())
    start = pos.to_move
    probe = board.copy()
    for i in range(plies):
        name = str(probe.move_from_code(codes[i]))
        by_name = {ref.move_name(m): m for m in ref.legal_moves(pos)}
        assert name in by_name, (ref.format_position(pos), name)
        assert name in policy_moves(pos), (ref.format_position(pos), name)
        pos = ref.play(pos, by_name[name])
        probe.push_str(name)
    if plies < cap:
        outcome = ref.outcome(pos)
        assert outcome is not None, ref.format_position(pos)
        return 1.0 if outcome[0] == start else 0.0
    mine = sum(1 for col in pos.tokens.values() if col == start)
    theirs = len(pos.tokens) - mine
    return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5


@pytest.mark.parametrize("size", SIZES)
def test_whole_playouts_agree_with_the_reference(size):
    cap = default_playout_plies(size)
    ended = capped = 0
    starts = [Board(size)] + [b.copy() for b in game_positions(size, 7900 * size, every=4)][
        : 6 if size <= QUICK_MAX_SIZE else 2
    ]
    starts += [
        random_filling(size, seed=8000 * size + seed)
        for seed in range(3 if size <= QUICK_MAX_SIZE else 1)
    ]
    for k, board in enumerate(starts):
        for seed in range(2):
            trace = np.zeros(4096, dtype=np.int64)
            result, plies = policy_playout(
                size, board.own, board.enemy, cap, new_rng(100 * k + seed), trace, new_work()
            )
            assert result == replay(board, trace, plies, cap), board.fen()
            ended += plies < cap
            capped += plies == cap
    assert ended > 0


def test_a_short_cap_scores_by_token_count():
    board = Board(5)
    trace = np.zeros(64, dtype=np.int64)
    for seed in range(6):
        for cap in (1, 2, 5):
            result, plies = policy_playout(
                5, board.own, board.enemy, cap, new_rng(seed), trace, new_work()
            )
            assert plies == cap
            assert result == replay(board, trace, plies, cap)


def draws(fen: str, n: int) -> Counter:
    """The first moves of ``n`` one-ply playouts from ``fen``, one random stream."""
    board = Board.from_fen(fen)
    rng = new_rng(2024)
    trace = np.zeros(4, dtype=np.int64)
    work = new_work()
    seen = Counter()
    for _ in range(n):
        policy_playout(board.size, board.own, board.enemy, 1, rng, trace, work)
        seen[str(board.move_from_code(trace[0]))] += 1
    return seen


def tied_positions() -> list[str]:
    """Positions of random games (sides 4 to 6) where the policy has 3 or more moves to
    choose from, swipes and placements, and where the largest flips belong to two groups
    or more (so that a draw over groups instead of over swipes would show)."""
    found = {"swipes": [], "groups": [], "placements": []}
    for size in range(4, QUICK_MAX_SIZE + 1):
        for board in (
            b.copy() for seed in range(4) for b in game_positions(size, 8100 * size + seed, every=1)
        ):
            pos = ref.parse_position(board.fen())
            if not ref.legal_moves(pos):
                continue
            allowed = policy_moves(pos)
            if len(allowed) < 3:
                continue
            swipes = [m for m in ref.swipes(pos) if ref.move_name(m) in allowed]
            if not swipes:
                found["placements"].append(board.fen())
            elif len({m[3] for m in swipes}) > 1 and len(swipes) > len({m[3] for m in swipes}):
                found["groups"].append(board.fen())
            else:
                found["swipes"].append(board.fen())
    return found["swipes"][:3] + found["groups"][:3] + found["placements"][:3]


def test_draws_cover_every_tied_option_evenly():
    """Each move the policy may play comes about equally often: 300 draws per option,
    each seen between 0.7 and 1.3 times its share (a fixed random stream). A draw of a
    group first and then one of its swipes would favour the swipes of groups with few."""
    fens = tied_positions()
    assert len(fens) >= 7
    for fen in fens:
        allowed = policy_moves(ref.parse_position(fen))
        n = 300 * len(allowed)
        seen = draws(fen, n)
        assert set(seen) == allowed, fen
        share = n / len(allowed)
        assert all(0.7 * share < count < 1.3 * share for count in seen.values()), (fen, seen)
