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

The MCTS playout (``policy_playout``) plays a policy instead, from the same end sets:
the groups a swipe can flip are the enemy groups with a token next to an end, and only
those are flood-filled. It takes the largest (a group holding every enemy token is an
elimination, so "an eliminating swipe is always played" comes with it) and, over the
tied largest groups, draws one of their swipes uniformly. With no swipe: a placement
next to one of the mover's tokens (``empty & adjacent(own)``) uniformly, if any; else a
uniformly random placement (``empty & ~t1``: an empty cell next to no enemy token, since
none is next to a friendly one); none: the mover loses. The random stream is the
searcher's (``rng``, xorshift64*). The moves played are written to ``trace`` as move
codes (``movecode.py``).
"""

import numpy as np

from .codes import encode_placement, encode_swipe
from .jit import njit
from .sets import (
    adjacent,
    dilate,
    nth_bit,
    s_and,
    s_andnot,
    s_any,
    s_count,
    s_interior,
    s_lowest,
    s_or,
    s_row,
    s_store,
    s_zero,
    set_like,
    to_shift_words,
)
from .swipes import (
    END_SETS,
    cell_index,
    grow_group,
    start_cells,
    swipe_end_sets,
    uniform_code,
    uniform_count,
    uniform_nth,
    uniform_play,
)
from .tables import SHIFT_WORDS

U64 = np.uint64
#: Rows of ``policy_playout``'s scratch: the thirteen end sets, then the tied groups.
GROUPS_ROW = 16
WORK_ROWS = GROUPS_ROW + 64


def new_work() -> np.ndarray:
    """The scratch array of ``policy_playout``."""
    return np.zeros((WORK_ROWS, SHIFT_WORDS), dtype=np.uint64)


@njit(cache=True)
def rng_next(rng):
    """xorshift64* (Vigna): the next 64 random bits of the state ``rng[0]``. The MCTS
    searcher's generator too (``search/mcts.py`` imports it from here, below it), so a
    playout here steps the searcher's state as its own playouts do."""
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


# ----- the MCTS playout policy ------------------------------------------------------------------
@njit(cache=True)
def group_swipes(near, work):
    """The number of swipes ending next to a group that touches the cells ``near``
    (its dilation): one per (token, end) of the end sets, whose end cells are in
    ``work[0..12]``."""
    n = np.int64(0)
    for k in range(END_SETS):
        n += s_count(s_and(s_row(work, k, near), near))
    return n


@njit(cache=True)
def choose_swipe(w, enemy, reached, work, rng):
    """The policy's swipe: among the enemy groups next to an end cell (``reached``),
    those of the largest size, and among all their swipes one uniformly. Returns
    ``(token, end, group)`` as sets."""
    flippable = s_and(enemy, adjacent(reached, w))
    largest = 0
    tied = 0
    total = np.int64(0)
    while s_any(flippable):
        group, near = grow_group(enemy, s_lowest(flippable), w)
        flippable = s_andnot(flippable, group)
        size = s_count(group)
        if size < largest:
            continue
        if size > largest:
            largest = size
            tied = 0
            total = 0
        s_store(work, GROUPS_ROW + tied, group)
        total += group_swipes(near, work)
        tied += 1
    r = rng_below(rng, total)
    for t in range(tied):
        group = s_row(work, GROUPS_ROW + t, enemy)
        near = dilate(group, w)
        for k in range(END_SETS):
            cells = s_and(s_row(work, k, near), near)
            c = s_count(cells)
            if r < c:
                f = nth_bit(cells, r)
                return start_cells(f, k, w), f, group
            r -= c
    zero = s_zero(enemy)
    return zero, zero, zero  # cannot happen: total counts these very swipes


@njit(cache=True)
def policy_playout(size, own, enemy, cap, rng, trace, work):
    """Play the policy of the module docstring from the position ``(own, enemy)`` (sets
    of the side's words, side to move first) for at most ``cap`` plies. Returns
    ``(result, plies)``: result for the side to move at the start, 1.0 win, 0.0 loss,
    and at the cap 1.0/0.0/0.5 as it has more/fewer/as many tokens (``plies == 0`` with
    result 0: the start position is lost). The moves played go to ``trace[:plies]`` (as
    far as it reaches); ``work`` is ``new_work()``'s scratch."""
    w = U64(2 * size - 1)
    inside = s_interior(size, own)
    ply = 0
    while ply < cap:
        if not s_any(own) and s_count(enemy) >= 2:
            return (0.0 if ply % 2 == 0 else 1.0), ply  # rule 6: eliminated
        t1 = dilate(enemy, w)
        empty = s_andnot(inside, s_or(own, enemy))
        landing = s_and(empty, t1)
        reached = s_zero(own)
        if s_any(s_and(own, adjacent(own, w))) and (s_any(landing) or s_any(s_and(own, t1))):
            reached = swipe_end_sets(w, own, enemy, t1, landing, work)
        if s_any(reached):
            x, f, group = choose_swipe(w, enemy, reached, work, rng)
            if ply < trace.shape[0]:
                trace[ply] = encode_swipe(
                    cell_index(size, x), cell_index(size, f), cell_index(size, s_lowest(group))
                )
            mover = s_or(s_or(s_andnot(own, x), f), group)
            own, enemy = s_andnot(enemy, group), mover
        else:
            # Rule 3: next to a friendly token is always legal; else next to no enemy.
            cells = s_and(empty, adjacent(own, w))
            if not s_any(cells):
                cells = s_andnot(empty, t1)
                if not s_any(cells):
                    return (0.0 if ply % 2 == 0 else 1.0), ply  # no legal move: lost
            cell = nth_bit(cells, rng_below(rng, s_count(cells)))
            if ply < trace.shape[0]:
                trace[ply] = encode_placement(cell_index(size, cell))
            own, enemy = enemy, s_or(own, cell)
        ply += 1
    mine = s_count(own)
    theirs = s_count(enemy)
    result = 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
    if ply % 2 == 1:
        result = 1.0 - result
    return result, ply


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
    a = to_shift_words(size, own_bits, like)
    b = to_shift_words(size, enemy_bits, like)
    ply = 0
    while ply < max_plies:
        if not s_any(a) and s_count(b) >= 2:
            return ply, 1 - (ply & 1), ELIMINATION  # rule 6: the side to move lost
        n, placements, touch2 = uniform_count(w, inside, a, b, work)
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
    own = to_shift_words(size, own_bits, like)
    enemy = to_shift_words(size, enemy_bits, like)
    if not s_any(own) and s_count(enemy) >= 2:
        return np.int64(0)
    work = np.zeros((END_SETS, len(like)), dtype=np.uint64)
    return uniform_count(np.uint64(2 * size - 1), s_interior(size, like), own, enemy, work)[0]
