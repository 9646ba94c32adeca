"""Move counting, drawing and generation in the shift layout (``shiftlayout.py``).

The kernels of perft and of the random playouts run here: the position is converted
once from the public layout, then every set operation works on whole bitboards of
``SWORDS`` words, and each neighbour relation is a fixed shift.

Swipes are found for all tokens at once. For a pivot direction ``k`` and a turn
``s`` (rules.md section 4), a token on ``x`` with a friendly pivot on ``x + D[k]``
steps first to ``y1 = x + D[k -+ 1]`` (a neighbour of x) and then onward to a
corner cell ``y2`` two steps away, or back to x: the cells of every path are fixed
offsets from x. So each rule becomes one bitboard of the tokens it allows,
``at(B, o)`` being the tokens ``x`` with ``x + o`` in ``B`` (``B`` shifted by ``-o``):

* 4.2: ``y1`` holds no enemy token;
* 4.3: ``y1`` empty, interior and touching an enemy: the swipe ends there;
* 4.4: otherwise ``y1`` is friendly, or an empty cell that does not touch two
  friendly groups (it touches the token's own group through the pivot, so touching
  a friendly token outside G is touching a second group): then step 2 to a landing
  ``y2``, or back to ``x`` if ``x`` touches an enemy;
* 4.1: the lift keeps the group connected, decided per token only for tokens whose
  friendly neighbours form two or more runs around them (one run always stays
  connected), by a flood fill.

The destinations sit in 13 bitboards of tokens, one per offset (6 neighbours, 6
corner cells two steps away, and the token's own cell), so a token reaching one cell
by two pivots is one move. A destination ``f`` next to m distinct enemy groups gives
m moves (4.5); with ``touch2`` / ``touch3`` the cells next to at least two / three
groups, a token set ``T`` of offset ``o`` holds
``popcount(T) + popcount(T & at(touch2, o)) + popcount(T & at(touch3, o))`` moves.
"""

import numpy as np
from numba import njit

from .bits import lowest_bit_index64, popcount64
from .shiftlayout import SHIFT_BOARD, SHIFT_CELL, SHIFT_INDEX, SHIFT_INTERIOR, SHIFT_WIDTH, SWORDS
from .movecode import CELL_BITS, NO_CELL

U64 = np.uint64
Z = np.uint64(0)
ONE = np.uint64(1)
SIXTY_FOUR = np.uint64(64)
SEMPTY = (Z, Z, Z, Z, Z)

# Rows of ``work.shift_sets``.
DEST = 0  # 13 rows: token sets per destination offset (0-5 neighbours, 6-11 corners, 12 own cell)
AT_ENEMY = 13  # 6 rows: at(enemy, D[j])
AT_OWN = 19  # 6 rows: at(own, D[j])
AT_LAND = 25  # 6 rows: at(landing, D[j])
AT_MERGE = 31  # 6 rows: at(cells touching two friendly groups, D[j])
AT_LAND2 = 37  # 6 rows: at(landing, corner j)
from .tables import MAX_GROUPS, SHIFT_SET_ROWS  # noqa: E402

ENEMY_GROUPS = SHIFT_SET_ROWS  # MAX_GROUPS rows each: enemy groups, the cells next to
ENEMY_TOUCH = ENEMY_GROUPS + MAX_GROUPS  # them, friendly groups, the cells next to them
OWN_GROUPS = ENEMY_TOUCH + MAX_GROUPS
OWN_TOUCH = OWN_GROUPS + MAX_GROUPS
N_OFFSETS = 13

# Encoded offsets: (sign, amount) are derived from W at run time; here, per offset
# index, the multiples of W and the units: offset = a * W + b.
_OFF_A = np.array([0, 1, 1, 0, -1, -1, 1, 2, 1, -1, -2, -1, 0], dtype=np.int64)
_OFF_B = np.array([1, 1, 0, -1, -1, 0, 2, 1, -1, -2, -1, 1, 0], dtype=np.int64)


@njit(cache=True, inline='always')
def s_and(a, b):
    return (a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3], a[4] & b[4])


@njit(cache=True, inline='always')
def s_or(a, b):
    return (a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3], a[4] | b[4])


@njit(cache=True, inline='always')
def s_xor(a, b):
    return (a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3], a[4] ^ b[4])


@njit(cache=True, inline='always')
def s_andnot(a, b):
    return (a[0] & ~b[0], a[1] & ~b[1], a[2] & ~b[2], a[3] & ~b[3], a[4] & ~b[4])


@njit(cache=True, inline='always')
def s_any(a):
    return (a[0] | a[1] | a[2] | a[3] | a[4]) != Z


@njit(cache=True, inline='always')
def s_count(a):
    return np.int64(popcount64(a[0]) + popcount64(a[1]) + popcount64(a[2]) + popcount64(a[3]) + popcount64(a[4]))


@njit(cache=True, inline='always')
def s_lowest(a):
    if a[0]:
        return np.int64(lowest_bit_index64(a[0]))
    if a[1]:
        return np.int64(64 + lowest_bit_index64(a[1]))
    if a[2]:
        return np.int64(128 + lowest_bit_index64(a[2]))
    if a[3]:
        return np.int64(192 + lowest_bit_index64(a[3]))
    return np.int64(256 + lowest_bit_index64(a[4]))


@njit(cache=True, inline='always')
def s_bit(i):
    w = i >> 6
    b = ONE << U64(i & 63)
    return (b if w == 0 else Z, b if w == 1 else Z, b if w == 2 else Z, b if w == 3 else Z, b if w == 4 else Z)


@njit(cache=True, inline='always')
def s_has(a, i):
    w = i >> 6
    word = a[0] if w == 0 else (a[1] if w == 1 else (a[2] if w == 2 else (a[3] if w == 3 else a[4])))
    return (word >> U64(i & 63)) & ONE != Z


@njit(cache=True, inline='always')
def s_row(array, i):
    return (array[i, 0], array[i, 1], array[i, 2], array[i, 3], array[i, 4])


@njit(cache=True, inline='always')
def s_store(array, i, a):
    array[i, 0] = a[0]
    array[i, 1] = a[1]
    array[i, 2] = a[2]
    array[i, 3] = a[3]
    array[i, 4] = a[4]


@njit(cache=True, inline='always')
def s_shl(a, s):
    """``a << s`` over the five words, ``0 < s < 64``."""
    r = SIXTY_FOUR - s
    return (a[0] << s, (a[1] << s) | (a[0] >> r), (a[2] << s) | (a[1] >> r), (a[3] << s) | (a[2] >> r), (a[4] << s) | (a[3] >> r))


@njit(cache=True, inline='always')
def s_shr(a, s):
    """``a >> s`` over the five words, ``0 < s < 64``."""
    r = SIXTY_FOUR - s
    return ((a[0] >> s) | (a[1] << r), (a[1] >> s) | (a[2] << r), (a[2] >> s) | (a[3] << r), (a[3] >> s) | (a[4] << r), a[4] >> s)


@njit(cache=True, inline='always')
def s_shift(a, offset):
    """``a`` moved by ``offset`` bits (left if positive); ``offset`` not 0."""
    if offset > 0:
        return s_shl(a, U64(offset))
    return s_shr(a, U64(-offset))


@njit(cache=True, inline='always')
def s_neighbours(a, w):
    """Every cell next to a cell of ``a`` (unmasked: may include spare bits)."""
    w1 = w + ONE
    return s_or(
        s_or(s_or(s_shl(a, ONE), s_shr(a, ONE)), s_or(s_shl(a, w), s_shr(a, w))),
        s_or(s_shl(a, w1), s_shr(a, w1)),
    )


@njit(cache=True, inline='always')
def offset_of(j, w):
    return _OFF_A[j] * np.int64(w) + _OFF_B[j]


@njit(cache=True, inline='always')
def s_at(a, j, w):
    """The cells ``x`` with ``x + offset j`` in ``a`` (``a`` shifted by ``-offset``)."""
    return s_shift(a, -offset_of(j, w))


@njit(cache=True, inline='always')
def flood(seed, within, w):
    """The cells of ``within`` connected to ``seed`` (a subset of it)."""
    group = seed
    frontier = seed
    while s_any(frontier):
        frontier = s_andnot(s_and(s_neighbours(frontier, w), within), group)
        group = s_or(group, frontier)
    return group


@njit(cache=True, inline='always')
def label_groups(stones, w, board, scratch, groups, touches):
    """Split ``stones`` into groups (written to rows ``groups + g`` of ``scratch``,
    the cells next to each to rows ``touches + g``). Returns (number of groups, cells next to at least one,
    two, three groups)."""
    t1 = SEMPTY
    t2 = SEMPTY
    t3 = SEMPTY
    rest = stones
    n = 0
    while s_any(rest):
        group = flood(s_bit(s_lowest(rest)), stones, w)
        touch = s_and(s_neighbours(group, w), board)
        s_store(scratch, groups + n, group)
        s_store(scratch, touches + n, touch)
        t3 = s_or(t3, s_and(t2, touch))
        t2 = s_or(t2, s_and(t1, touch))
        t1 = s_or(t1, touch)
        rest = s_andnot(rest, group)
        n += 1
    return n, t1, t2, t3


@njit(cache=True, inline='always')
def to_shift(size, bb):
    """A public-layout bitboard (four words) in the shift layout."""
    out = SEMPTY
    for w in range(4):
        word = bb[w]
        while word:
            cell = 64 * w + np.int64(lowest_bit_index64(word))
            word &= word - ONE
            out = s_or(out, s_bit(np.int64(SHIFT_INDEX[size, cell])))
    return out


@njit(cache=True)
def analyse(size, own, enemy, sets):
    """Every legal move of ``own`` to move, as sets (see the module docstring).

    Writes the 13 destination token sets to rows ``DEST .. DEST+12`` of ``sets``
    (``work.shift_scratch``) and the enemy groups to rows ``ENEMY_GROUPS ..``. Returns ``(n_groups, placements,
    touch2, touch3)``; ``n_groups`` is -1 when the game is over (rules.md section 6).
    """
    if not s_any(own) and s_count(enemy) >= 2:
        return np.int64(-1), SEMPTY, SEMPTY, SEMPTY
    w = SHIFT_WIDTH[size]
    board = s_row(SHIFT_BOARD, size)
    inside = s_row(SHIFT_INTERIOR, size)
    n_groups, t1, t2, t3 = label_groups(enemy, w, board, sets, ENEMY_GROUPS, ENEMY_TOUCH)
    occupied = s_or(own, enemy)
    empty_inside = s_andnot(inside, occupied)
    landing = s_and(empty_inside, t1)
    own_near = s_and(s_neighbours(own, w), board)
    placements = s_and(empty_inside, s_or(s_andnot(inside, t1), own_near))
    for j in range(N_OFFSETS):
        s_store(sets, DEST + j, SEMPTY)
    if not (s_any(landing) or s_any(s_and(own, t1))) or s_count(own) < 2:
        return np.int64(n_groups), placements, t2, t3
    # Cells touching two friendly groups (rule 4.4's merge).
    n_own, o1, merge, o3 = label_groups(own, w, board, sets, OWN_GROUPS, OWN_TOUCH)
    x_land = s_and(own, t1)
    for j in range(6):
        s_store(sets, AT_ENEMY + j, s_at(enemy, j, w))
        s_store(sets, AT_OWN + j, s_at(own, j, w))
        s_store(sets, AT_LAND + j, s_at(landing, j, w))
        s_store(sets, AT_MERGE + j, s_at(merge, j, w))
        s_store(sets, AT_LAND2 + j, s_at(landing, 6 + j, w))
    # Tokens whose friendly neighbours form two or more runs around them.
    runs1 = SEMPTY
    runs2 = SEMPTY
    previous = s_and(own, s_row(sets, AT_OWN + 5))
    for k in range(6):
        pivot = s_and(own, s_row(sets, AT_OWN + k))  # tokens with a friendly pivot at D[k]
        starts = s_andnot(pivot, previous)
        runs2 = s_or(runs2, s_and(runs1, starts))
        runs1 = s_or(runs1, starts)
        previous = pivot
        for turn in range(2):
            if turn == 0:
                near = (k + 5) % 6  # y1 = x + D[k-1]
                corner = (k + 5) % 6  # y2 = x + D[k-1] + D[k]
            else:
                near = (k + 1) % 6  # y1 = x + D[k+1]
                corner = k  # y2 = x + D[k] + D[k+1]
            land1 = s_row(sets, AT_LAND + near)
            one_step = s_and(pivot, land1)
            s_store(sets, DEST + near, s_or(s_row(sets, DEST + near), one_step))
            go_on = s_andnot(s_andnot(pivot, s_row(sets, AT_ENEMY + near)), land1)
            go_on = s_and(go_on, s_or(s_row(sets, AT_OWN + near), s_andnot(board, s_row(sets, AT_MERGE + near))))
            s_store(sets, DEST + 6 + corner, s_or(s_row(sets, DEST + 6 + corner), s_and(go_on, s_row(sets, AT_LAND2 + corner))))
            s_store(sets, DEST + 12, s_or(s_row(sets, DEST + 12), s_and(go_on, x_land)))
    # Rule 4.1 for the tokens that need a flood fill.
    movers = SEMPTY
    for j in range(N_OFFSETS):
        movers = s_or(movers, s_row(sets, DEST + j))
    check = s_and(movers, runs2)
    while s_any(check):
        x = s_lowest(check)
        xb = s_bit(x)
        check = s_andnot(check, xb)
        g = 0
        while not s_has(s_row(sets, OWN_GROUPS + g), x):
            g += 1
        rest = s_andnot(s_row(sets, OWN_GROUPS + g), xb)
        reached = flood(s_bit(s_lowest(s_and(s_neighbours(xb, w), rest))), rest, w)
        if s_any(s_andnot(rest, reached)):
            for j in range(N_OFFSETS):
                s_store(sets, DEST + j, s_andnot(s_row(sets, DEST + j), xb))
    return np.int64(n_groups), placements, t2, t3


@njit(cache=True, inline='always')
def moves_of_offset(size, j, tokens, t2, t3):
    """How many moves the tokens ``tokens`` of destination offset ``j`` make."""
    n = s_count(tokens)
    if s_any(t2):
        w = SHIFT_WIDTH[size]
        n += s_count(s_and(tokens, s_at(t2, j, w)) if j < 12 else s_and(tokens, t2))
        if s_any(t3):
            n += s_count(s_and(tokens, s_at(t3, j, w)) if j < 12 else s_and(tokens, t3))
    return n


@njit(cache=True)
def count(size, own, enemy, sets, offset_moves):
    """The number of distinct legal moves; leaves in ``sets`` and ``offset_moves``
    (``work.shift_scratch``, ``work.offset_moves``) what ``nth`` needs. Returns
    ``(n, n_groups, placements, touch2, touch3)``."""
    n_groups, placements, t2, t3 = analyse(size, own, enemy, sets)
    if n_groups < 0:
        return np.int64(0), n_groups, placements, t2, t3
    n = s_count(placements)
    for j in range(N_OFFSETS):
        tokens = s_row(sets, DEST + j)
        if s_any(tokens):
            m = moves_of_offset(size, j, tokens, t2, t3)
            offset_moves[j] = m
            n += m
        else:
            offset_moves[j] = 0
    return n, n_groups, placements, t2, t3


@njit(cache=True, inline='always')
def s_nth_bit(a, k):
    for w in range(SWORDS):
        word = (a[0] if w == 0 else (a[1] if w == 1 else (a[2] if w == 2 else (a[3] if w == 3 else a[4]))))
        bits = np.int64(popcount64(word))
        if k < bits:
            for _ in range(k):
                word &= word - ONE
            return np.int64(64 * w + lowest_bit_index64(word))
        k -= bits
    return np.int64(-1)


@njit(cache=True)
def nth(size, own, enemy, k, counted, sets, offset_moves):
    """Move number ``k`` of the position ``count`` counted: ``(code, flipped)`` in
    the shift layout. Placements first (in bit order), then offset by offset, token
    by token, enemy group by enemy group."""
    n, n_groups, placements, t2, t3 = counted
    n_place = s_count(placements)
    if k < n_place:
        to = s_nth_bit(placements, k)
        return to | (to << CELL_BITS) | (NO_CELL << (2 * CELL_BITS)), SEMPTY
    k -= n_place
    j = 0
    while k >= offset_moves[j]:
        k -= offset_moves[j]
        j += 1
    w = SHIFT_WIDTH[size]
    offset = offset_of(j, w) if j < 12 else np.int64(0)
    tokens = s_row(sets, DEST + j)
    while True:
        x = s_lowest(tokens)
        tokens = s_andnot(tokens, s_bit(x))
        f = x + offset
        here = 1 + np.int64(s_has(t2, f)) + np.int64(s_has(t3, f))
        if k < here:
            break
        k -= here
    for g in range(n_groups):
        if s_has(s_row(sets, ENEMY_TOUCH + g), f):
            if k == 0:
                flipped = s_row(sets, ENEMY_GROUPS + g)
                return x | (f << CELL_BITS) | (s_lowest(flipped) << (2 * CELL_BITS)), flipped
            k -= 1
    return np.int64(-1), SEMPTY


@njit(cache=True)
def generate(size, own, enemy, sets, moves, flips):
    """Every legal move: codes (shift indices) to ``moves``, flipped groups to
    ``flips``. Returns the number of moves (0 when the game is over)."""
    n_groups, placements, t2, t3 = analyse(size, own, enemy, sets)
    if n_groups < 0:
        return 0
    n = 0
    w = SHIFT_WIDTH[size]
    for j in range(N_OFFSETS):
        tokens = s_row(sets, DEST + j)
        offset = offset_of(j, w) if j < 12 else np.int64(0)
        while s_any(tokens):
            x = s_lowest(tokens)
            tokens = s_andnot(tokens, s_bit(x))
            f = x + offset
            for g in range(n_groups):
                if s_has(s_row(sets, ENEMY_TOUCH + g), f):
                    flipped = s_row(sets, ENEMY_GROUPS + g)
                    moves[n] = x | (f << CELL_BITS) | (s_lowest(flipped) << (2 * CELL_BITS))
                    s_store(flips, n, flipped)
                    n += 1
    while s_any(placements):
        to = s_lowest(placements)
        placements = s_andnot(placements, s_bit(to))
        moves[n] = to | (to << CELL_BITS) | (NO_CELL << (2 * CELL_BITS))
        n += 1
    return n


@njit(cache=True, inline='always')
def play(own, enemy, move, flipped):
    """The next position, from the opponent's side: ``(their tokens, our tokens)``."""
    to = (move >> CELL_BITS) & NO_CELL
    if (move >> (2 * CELL_BITS)) == NO_CELL:
        return enemy, s_or(own, s_bit(to))
    mover = s_or(s_andnot(own, s_bit(move & NO_CELL)), s_bit(to))
    return s_xor(enemy, flipped), s_or(mover, flipped)


@njit(cache=True)
def public_code(size, move, flipped):
    """A move code of the shift layout (and the group it flips) as a public move
    code (``movecode.py``): cells renumbered, the target the group's first cell in
    ``(c, r)`` order."""
    frm = np.int64(SHIFT_CELL[size, move & NO_CELL])
    to = np.int64(SHIFT_CELL[size, (move >> CELL_BITS) & NO_CELL])
    target = (move >> (2 * CELL_BITS)) & NO_CELL
    if target != NO_CELL:
        target = np.int64(1 << 30)
        rest = flipped
        while s_any(rest):
            cell = s_lowest(rest)
            rest = s_andnot(rest, s_bit(cell))
            target = min(target, np.int64(SHIFT_CELL[size, cell]))
    return frm | (to << CELL_BITS) | (target << (2 * CELL_BITS))


@njit(cache=True)
def count_public(size, own, enemy, work):
    """The number of legal moves of a public-layout position (tests)."""
    return count(size, to_shift(size, own), to_shift(size, enemy), work.shift_scratch, work.offset_moves)[0]


@njit(cache=True)
def moves_by_index(size, own, enemy, work, codes):
    """Decode every index ``0 .. n-1`` with ``nth`` into public move codes; returns
    n (tests: the indices must give each legal move exactly once)."""
    a = to_shift(size, own)
    b = to_shift(size, enemy)
    counted = count(size, a, b, work.shift_scratch, work.offset_moves)
    n = counted[0]
    for k in range(n):
        code, flipped = nth(size, a, b, k, counted, work.shift_scratch, work.offset_moves)
        codes[k] = public_code(size, code, flipped)
    return n


@njit(cache=True)
def generate_public(size, own, enemy, work, codes):
    """``generate`` into public move codes (tests)."""
    n = generate(size, to_shift(size, own), to_shift(size, enemy), work.shift_scratch, work.moves[0], work.shift_flips[0])
    for i in range(n):
        codes[i] = public_code(size, work.moves[0, i], s_row(work.shift_flips[0], i))
    return n
