"""Uniformly random playouts: the kernel behind ``hinge-fast playouts``.

A move is drawn by counting the legal moves, drawing an index and decoding only
that move (``count.py``): no move list is written. Each game draws its moves uniformly over the distinct legal moves (rules.md section
5) from its own random stream, seeded from ``(seed, game index)`` alone. So a game's
moves do not depend on which thread plays it or on the games before it: the same
seed gives the same games with any number of threads.
"""

import numpy as np
from numba import njit

from .count import count_moves, nth_move
from .movegen import is_eliminated, play_with_flip

#: How a game ended (``ended`` output of ``random_games``).
ELIMINATION = 0  # a swipe took the last token of the side to move
NO_LEGAL_MOVE = 1  # the side to move had tokens but no legal move (rules.md section 6)
PLY_CAP = 2  # ``max_plies`` ran out: unfinished

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@njit(cache=True, inline='always')
def splitmix64(state):
    """One step of splitmix64: ``(next state, output)``."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return state, z ^ (z >> _S31)


@njit(cache=True)
def game_seed(seed, game):
    """The starting state of game ``game``'s random stream under ``seed``."""
    state, z = splitmix64(np.uint64(seed) ^ (np.uint64(game) * _MIX2))
    state, z = splitmix64(z)
    return z


@njit(cache=True, inline='always')
def draw_below(state, n):
    """A uniform integer in ``[0, n)`` for ``0 < n < 2**32``, without bias (Lemire's
    multiply-and-reject): ``(next state, value)``."""
    bound = np.uint64(n)
    state, r = splitmix64(state)
    m = (r & _LOW32) * bound
    if (m & _LOW32) < bound:
        threshold = ((_LOW32 + np.uint64(1)) - bound) % bound
        while (m & _LOW32) < threshold:
            state, r = splitmix64(state)
            m = (r & _LOW32) * bound
    return state, np.int64(m >> _S32)


@njit(cache=True, nogil=True)
def random_games(size, own, enemy, first_game, games, max_plies, seed, work, plies_out, winner_out, ended_out):
    """Play games ``first_game .. first_game + games - 1`` of uniformly random legal
    moves from one position (``own``: the side to move).

    For game ``first_game + i`` writes to index ``i`` of the outputs: the number of
    plies, the winner (0: the side to move at the start, 1: the other side, -1: none)
    and how it ended (``ELIMINATION``, ``NO_LEGAL_MOVE``, ``PLY_CAP``). A side with no
    legal move loses (rules.md section 6). Returns the total number of plies.
    """
    total = np.int64(0)
    for i in range(games):
        state = game_seed(seed, first_game + i)
        a = own
        b = enemy
        ply = 0
        winner = -1
        ended = PLY_CAP
        while ply < max_plies:
            counted = count_moves(size, a, b, work)
            n = counted[0]
            if n == 0:
                winner = 1 - (ply & 1)  # the side to move lost
                ended = ELIMINATION if is_eliminated(a, b) else NO_LEGAL_MOVE
                break
            state, k = draw_below(state, n)
            code, flipped = nth_move(size, a, b, k, counted, work)
            a, b = play_with_flip(a, b, code, flipped)
            ply += 1
        plies_out[i] = ply
        winner_out[i] = winner
        ended_out[i] = ended
        total += ply
    return total


@njit(cache=True)
def first_move_counts(size, own, enemy, games, seed, work, counts):
    """How often each move index is drawn as the first move of games ``0 ..
    games-1``, the draw ``random_games`` makes (tests of uniformity): adds to
    ``counts[k]`` for the move ``count.nth_move`` decodes from index ``k``. Returns the
    number of legal moves."""
    counted = count_moves(size, own, enemy, work)
    n = counted[0]
    for i in range(games):
        state = game_seed(seed, i)
        state, k = draw_below(state, n)
        counts[k] += 1
    return n
