"""Uniformly random playouts: the kernel behind ``hinge-fast playouts``.

A move is drawn by counting the legal moves, drawing an index and decoding only
that move: no move list is written. Each game draws its moves uniformly over the
distinct legal moves (rules.md section 5) from its own random stream, seeded from
``(seed, game index)`` alone. So a game's moves do not depend on which thread plays
it or on the games before it: the same seed gives the same games with any number of
threads.

Each game is played whole in the shift layout of ``sets.py`` (cell ``(c, r)`` at
bit ``c * W + r``, in as many words as the side needs: ``tables.SHIFT_WORDS_OF``), every
friendly token's swipe ends found at once as thirteen sets of cells
(``swipes.uniform_count``, ``uniform_nth``, ``uniform_play``).

The random generator of MCTS (``rng_next``, ``rng_below``: xorshift64*) is here too.
"""

import numpy as np

from .jit import njit
from .sets import s_interior, set_like, shift_sets
from .swipes import (
    END_SETS,
    eliminated,
    uniform_code,
    uniform_count,
    uniform_nth,
    uniform_play,
)

U64 = np.uint64


@njit(cache=True)
def rng_next(rng):
    """xorshift64* (Vigna): the next 64 random bits of the state ``rng[0]``: the MCTS
    searcher's generator (``search/mcts.py`` imports it from here, below it)."""
    x = rng[0]
    x ^= x >> U64(12)
    x ^= x << U64(25)
    x ^= x >> U64(27)
    rng[0] = x
    return x * U64(0x2545F4914F6CDD1D)


@njit(cache=True)
def rng_below(rng, n):
    """A uniform whole number in [0, n) (n small: the modulo bias is below 2**-50)."""
    return np.int64((rng_next(rng) >> U64(1)) % U64(n))


# ----- uniformly random games -------------------------------------------------------------------

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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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


def random_games(
    size, own, enemy, first_game, games, max_plies, seed, plies_out, winner_out, ended_out
):
    """Play games ``first_game .. first_game + games - 1`` of uniformly random legal
    moves from one position (``own``: the side to move; bitboards of ``geometry.py``).

    For game ``first_game + i`` writes to index ``i`` of the outputs: the number of
    plies, the winner (0: the side to move at the start, 1: the other side, -1: none)
    and how it ended (``ELIMINATION``, ``NO_LEGAL_MOVE``, ``PLY_CAP``). A side with no
    legal move loses (rules.md section 6). Returns the total number of plies.
    """
    return games_in(
        size,
        own,
        enemy,
        first_game,
        games,
        max_plies,
        seed,
        plies_out,
        winner_out,
        ended_out,
        set_like(size),
    )


@njit(cache=True, nogil=True)
def random_game(size, own_bits, enemy_bits, state, max_plies, work, trace, like):
    """One game of uniformly random legal moves in the shift layout of ``like``'s words
    from the random state
    ``state``: ``(plies, winner, ended)`` as ``random_games`` writes them. The moves
    played go to ``trace`` as move codes, as far as it reaches (length 0: none);
    ``work`` is ``END_SETS`` rows of as many words.

    Each ply: ``uniform_count`` counts the moves (placements, then each end set's
    (token, end, group) swipes), ``draw_below`` draws an index, ``uniform_nth`` decodes
    that one move and ``uniform_play`` plays it; the position stays in the shift layout."""
    w = np.uint64(2 * size - 1)
    inside = s_interior(size, like)
    a, b = shift_sets(size, own_bits, enemy_bits, like)
    ply = 0
    while ply < max_plies:
        if eliminated(a, b):
            return ply, 1 - (ply & 1), ELIMINATION
        n, placements, touch2, _ = uniform_count(w, inside, a, b, work)
        if n == 0:
            return ply, 1 - (ply & 1), NO_LEGAL_MOVE
        state, k = draw_below(state, n)
        x, f, group = uniform_nth(w, b, k, placements, touch2, work)
        if ply < trace.shape[0]:
            trace[ply] = uniform_code(size, x, f, group)
        a, b = uniform_play(a, b, x, f, group)
        ply += 1
    return ply, -1, PLY_CAP


@njit(cache=True, nogil=True)
def games_in(
    size, own, enemy, first_game, games, max_plies, seed, plies_out, winner_out, ended_out, like
):
    """``random_games`` in the shift layout of ``like``'s words."""
    work = np.zeros((END_SETS, len(like)), dtype=np.uint64)
    trace = np.zeros(0, dtype=np.int64)
    total = np.int64(0)
    for i in range(games):
        ply, winner, ended = random_game(
            size, own, enemy, game_seed(seed, first_game + i), max_plies, work, trace, like
        )
        plies_out[i] = ply
        winner_out[i] = winner
        ended_out[i] = ended
        total += ply
    return total


def game_trace(size, own, enemy, game, max_plies, seed, trace):
    """For tests: game ``game`` of ``seed`` as ``random_games`` plays it, its moves
    written to ``trace``: ``(plies, winner, ended)``."""
    return game_trace_in(size, own, enemy, game, max_plies, seed, trace, set_like(size))


@njit(cache=True)
def game_trace_in(size, own, enemy, game, max_plies, seed, trace, like):
    """``game_trace`` in the shift layout of ``like``'s words."""
    work = np.zeros((END_SETS, len(like)), dtype=np.uint64)
    return random_game(size, own, enemy, game_seed(seed, game), max_plies, work, trace, like)


def first_move_counts(size, own, enemy, games, seed, counts):
    """How often each move index is drawn as the first move of games ``0 ..
    games-1``, the draw ``random_games`` makes (tests of uniformity): adds to
    ``counts[k]`` for index ``k``. Returns the number of legal moves."""
    n = moves_count(size, own, enemy, set_like(size))
    first_draws(n, games, seed, counts)
    return n


@njit(cache=True)
def first_draws(n, games, seed, counts):
    """``first_move_counts``' draws among ``n`` moves."""
    for i in range(games):
        state, k = draw_below(game_seed(seed, i), n)
        counts[k] += 1


@njit(cache=True)
def moves_count(size, own_bits, enemy_bits, like):
    """The number of distinct legal moves of the side to move (0 when it is eliminated)."""
    own, enemy = shift_sets(size, own_bits, enemy_bits, like)
    if eliminated(own, enemy):
        return np.int64(0)
    work = np.zeros((END_SETS, len(like)), dtype=np.uint64)
    return uniform_count(np.uint64(2 * size - 1), s_interior(size, like), own, enemy, work)[0]
