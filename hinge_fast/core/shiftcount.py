"""Counting the legal moves in a shift layout, every token at once (sides 4 to 6).

``count.count_moves`` visits the tokens one by one: it reads each token's twelve
ring cells from a table and fills groups a cell at a time. Here, on the boards whose
whole hex-hex fits in 128 bits (``tables.SHIFT_MAX_SIZE``), the position is first
copied to a layout where cell ``(c, r)`` is bit ``c * W + r`` (``W = 2S - 1``) of two
words, so that each direction of rules.md is one fixed shift of the whole board:

    D = (+1, 0)  (+1, +1)  (0, +1)  (-1, 0)  (-1, -1)  (0, -1)
        +W       +W+1      +1       -W       -W-1      -1

Then every rule of section 4 is a handful of shifts and ANDs over all the tokens at
once. For a token ``x`` write ``N[j] = x + D[j]`` (its neighbours, in cyclic order)
and ``C[j] = x + D[j] + D[j+1]`` (the cells two steps away between them). Around the
pivot ``N[j+1]`` a swipe's first step goes to ``N[j]``, and onward to ``C[j]``; around
the pivot ``N[j-1]`` it goes to ``N[j]`` too, and onward to ``C[j-1]``. So with
``at(S, j)`` the tokens whose ``N[j]`` is in S (the set ``S`` shifted by ``-D[j]``):

* ``pivot[j] = at(own, j+1) | at(own, j-1)``: the tokens with a first step to ``N[j]``;
* one-step ends (rule 4.3): ``pivot[j] & at(landing, j)``;
* a first step that goes on (rule 4.4): not onto an enemy token, not onto a cell
  next to two friendly groups (the merge), not a one-step end;
* onward ends at ``C[j]``: through ``N[j]`` with the pivot ``N[j+1]``, or through
  ``N[j+1]`` with the pivot ``N[j]``, onto a landing cell;
* a reversing end on ``x`` itself: any first step that goes on, and ``x`` next to
  an enemy token.

Each end gives one move per enemy group next to it (rule 4.5): with ``touch2`` and
``touch3`` the cells next to two and three enemy groups, an end set E gives
``|E| + |E & touch2| + |E & touch3|`` moves, as in ``count.py``.

Rule 4.1 (the lift) is settled before the swipes, for all tokens at once
(``lift_stuck``): a token whose friendly neighbours form two runs or more splits its
group when two of its gaps (runs of other neighbours) lie in one region of the
non-friendly cells, which one flood of the cells open to the board's edge shows for
nearly every token; a fill per token is left for the rare others. The swipes are then
counted for the tokens that may move.

The groups' touch counts (the cells next to one, two, three groups) are, for the
groups with a centre (a token next to all the others: lone tokens, every group of
two or three, most of four), the runs of their tokens around each cell, all at
once; the other groups are grown a whole ring a round (``dilate``: four shifts,
ANDed with the tokens). The count equals ``count.count_moves`` on every position (the tests
compare them), so bulk perft takes it for these sides.
"""

import numpy as np
from numba import njit

from .bits import highest_bit_index64, popcount64
from .movegen import is_eliminated
from .tables import SHIFT_COLUMN_MASKS, SHIFT_COLUMN_SHIFTS, SHIFT_EDGE, SHIFT_INTERIOR, SHIFT_MAX_SIZE

U64 = np.uint64
ZERO = (U64(0), U64(0))
ALL = (~U64(0), ~U64(0))
ONE = U64(1)
B64 = U64(64)


# A set of cells: two uint64 words (lo, hi), bit c * W + r.

@njit(cache=True)
def up(a, k):
    """Every cell of ``a`` moved ``k`` bits up (``0 < k < 64``)."""
    return (a[0] << k, (a[1] << k) | (a[0] >> (B64 - k)))


@njit(cache=True)
def down(a, k):
    """Every cell of ``a`` moved ``k`` bits down (``0 < k < 64``)."""
    return ((a[0] >> k) | (a[1] << (B64 - k)), a[1] >> k)


@njit(cache=True)
def s_and(a, b):
    return (a[0] & b[0], a[1] & b[1])


@njit(cache=True)
def s_or(a, b):
    return (a[0] | b[0], a[1] | b[1])


@njit(cache=True)
def s_andnot(a, b):
    """``a & ~b``."""
    return (a[0] & ~b[0], a[1] & ~b[1])


@njit(cache=True)
def s_any(a):
    return (a[0] | a[1]) != 0


@njit(cache=True)
def s_eq(a, b):
    return ((a[0] ^ b[0]) | (a[1] ^ b[1])) == 0


@njit(cache=True)
def s_count(a):
    return np.int64(popcount64(a[0]) + popcount64(a[1]))


@njit(cache=True)
def s_lowest(a):
    """The lowest cell of a non-empty set, as a set."""
    if a[0]:
        return (a[0] & (~a[0] + ONE), U64(0))
    return (U64(0), a[1] & (~a[1] + ONE))


@njit(cache=True)
def adjacent(a, w):
    """Every cell next to a cell of ``a``, in four shifts: ``a+1`` and ``a-1``, then
    ``a | a+1`` moved by ``+W`` gives ``a+W`` and ``a+W+1``, and ``a | a-1`` moved by
    ``-W`` gives ``a-W`` and ``a-W-1``."""
    b = up(a, ONE)
    c = down(a, ONE)
    return s_or(s_or(b, c), s_or(up(s_or(a, b), w), down(s_or(a, c), w)))


@njit(cache=True)
def dilate(a, w):
    """``a`` and every cell next to it."""
    return s_or(a, adjacent(a, w))


@njit(cache=True, inline='always')
def to_shift_layout(size, bits):
    """The interior cells of bitboard ``bits`` (all in its word 0 on these sides) in the
    shift layout: one mask and shift per interior column."""
    word = bits[0]
    lo = U64(0)
    hi = U64(0)
    for k in range(2 * size - 3):
        column = word & SHIFT_COLUMN_MASKS[size, k]
        shift = SHIFT_COLUMN_SHIFTS[size, k]
        lo |= column << shift
        hi |= column >> (B64 - shift)
    return (lo, hi)


@njit(cache=True)
def add_to_counter(t1, t2, t3, near):
    """Add the set ``near`` to a counter per cell that stops at three: ``t1``, ``t2``,
    ``t3`` are the cells counted at least once, twice, three times."""
    return s_or(t1, near), s_or(t2, s_and(t1, near)), s_or(t3, s_and(t2, near))


@njit(cache=True)
def far_from(stones, j, w):
    """The cells ``x`` whose neighbour ``N[j]`` has a neighbour in ``stones`` two steps
    from ``x``: ``x + 2 D[j]``, ``C[j]`` or ``C[j - 1]``."""
    return s_and(at(stones, j, w), s_or(at_double(stones, j, w),
                                        s_or(at_corner(stones, j, w), at_corner(stones, (j + 5) % 6, w))))


@njit(cache=True, inline='always')
def group_touches(stones, w):
    """The cells next to at least one, two and three groups of ``stones`` (a group's
    own cells may count as next to it; the counts are exact on the other cells).

    A group with a token next to all its other tokens (a centre: lone tokens, every
    group of two or three, most of four) cannot close a ring round a cell with one
    more cell, so around any cell its tokens form one run at most: for those groups
    the counts are the runs of their tokens around each cell, all at once. The other
    groups are grown one by one, a ring a round, and added to the counter."""
    far = s_or(s_or(far_from(stones, 0, w), far_from(stones, 1, w)), far_from(stones, 2, w))
    far = s_or(far, s_or(s_or(far_from(stones, 3, w), far_from(stones, 4, w)), far_from(stones, 5, w)))
    centres = s_andnot(stones, far)
    star = s_and(stones, dilate(centres, w))
    t1, t2, t3 = run_counter(star, w)
    rest = s_andnot(stones, star)
    while s_any(rest):
        group = s_lowest(rest)
        while True:
            near = dilate(group, w)
            grown = s_and(near, stones)
            if s_eq(grown, group):
                break
            group = grown
        t1, t2, t3 = add_to_counter(t1, t2, t3, near)
        rest = s_andnot(rest, group)
    return t1, t2, t3


@njit(cache=True)
def at(a, j, w):
    """The cells ``x`` whose neighbour ``x + D[j]`` is in ``a`` (``a`` moved by ``-D[j]``)."""
    if j == 0:
        return down(a, w)
    if j == 1:
        return down(a, w + ONE)
    if j == 2:
        return down(a, ONE)
    if j == 3:
        return up(a, w)
    if j == 4:
        return up(a, w + ONE)
    return up(a, ONE)


@njit(cache=True)
def at_corner(a, j, w):
    """The cells ``x`` whose corner cell ``x + D[j] + D[j+1]`` is in ``a``. Past the top
    or bottom row of a column this reads a cell of the next column, never an interior
    one (``tables._shift_layout`` checks it), so ``a`` must hold interior cells only."""
    if j == 0:
        return down(a, w + w + ONE)  # (+2, +1)
    if j == 1:
        return down(a, w + U64(2))  # (+1, +2)
    if j == 2:
        return up(a, w - ONE)  # (-1, +1)
    if j == 3:
        return up(a, w + w + ONE)  # (-2, -1)
    if j == 4:
        return up(a, w + U64(2))  # (-1, -2)
    return down(a, w - ONE)  # (+1, -1)


@njit(cache=True)
def at_double(a, j, w):
    """The cells ``x`` whose cell two steps on, ``x + 2 D[j]``, is in ``a``; as for
    ``at_corner``, ``a`` must hold interior cells only."""
    if j == 0:
        return down(a, w + w)
    if j == 1:
        return down(a, w + w + U64(2))
    if j == 2:
        return down(a, U64(2))
    if j == 3:
        return up(a, w + w)
    if j == 4:
        return up(a, w + w + U64(2))
    return up(a, U64(2))


@njit(cache=True)
def ends_moves(ends, touch2, touch3):
    """Moves of a set of ends (rule 4.5): one per enemy group next to each."""
    return s_count(ends) + s_count(s_and(ends, touch2)) + s_count(s_and(ends, touch3))


@njit(cache=True)
def s_highest(a):
    """The highest cell of a non-empty set, as a set."""
    if a[1]:
        return (U64(0), ONE << U64(highest_bit_index64(a[1])))
    return (ONE << U64(highest_bit_index64(a[0])), U64(0))


@njit(cache=True, inline='always')
def lift_keeps_connected(own, x, w):
    """Rule 4.1 for the token ``x`` (a one-cell set): the friendly tokens without it
    hold every friendly neighbour of ``x`` in one group. Two fills grow in turn, from
    its lowest and its highest friendly neighbour: when the lift splits the group, one
    side is often small (the tail of a chain) and its fill ends first."""
    rest = s_andnot(own, x)
    neighbours = s_and(adjacent(x, w), rest)
    a = s_lowest(neighbours)
    b = s_highest(neighbours)
    while not s_any(s_and(a, b)):
        grown = s_and(dilate(a, w), rest)
        if s_eq(grown, a):
            return False  # a's side is closed, and b is not on it
        a = grown
        if s_any(s_and(a, b)):
            break
        grown = s_and(dilate(b, w), rest)
        if s_eq(grown, b):
            return False
        b = grown
    reached = s_or(a, b)
    while True:
        if s_eq(s_and(reached, neighbours), neighbours):
            return True
        grown = s_and(dilate(reached, w), rest)
        if s_eq(grown, reached):
            return False
        reached = grown


@njit(cache=True)
def run_counter(a, w):
    """The cells around which the cells of ``a`` form at least one, two, three runs (a
    run: neighbours ``N[j] .. N[k]`` in ``a``, ``N[j-1]`` and ``N[k+1]`` not; six
    neighbours in ``a`` make no run): a run starts at ``N[j]`` where ``N[j]`` is in
    ``a`` and ``N[j-1]`` is not."""
    a0 = at(a, 0, w)
    a1 = at(a, 1, w)
    a2 = at(a, 2, w)
    a3 = at(a, 3, w)
    a4 = at(a, 4, w)
    a5 = at(a, 5, w)
    r1, r2, r3 = add_to_counter(ZERO, ZERO, ZERO, s_andnot(a0, a5))
    r1, r2, r3 = add_to_counter(r1, r2, r3, s_andnot(a1, a0))
    r1, r2, r3 = add_to_counter(r1, r2, r3, s_andnot(a2, a1))
    r1, r2, r3 = add_to_counter(r1, r2, r3, s_andnot(a3, a2))
    r1, r2, r3 = add_to_counter(r1, r2, r3, s_andnot(a4, a3))
    return add_to_counter(r1, r2, r3, s_andnot(a5, a4))


@njit(cache=True)
def open_to_edge(free, edge, w):
    """The cells of ``free`` joined to ``edge`` through ``free`` (a flood, a ring a
    round: one loop for the whole board)."""
    reached = s_and(edge, free)
    while True:
        grown = s_and(dilate(reached, w), free)
        if s_eq(grown, reached):
            return reached
        reached = grown


@njit(cache=True, inline='always')
def direction(j, w, tokens, own, stop, landing, land2, land3):
    """The swipes of ``tokens`` whose first step goes to ``N[j]`` and that end there, or
    that go on to ``C[j]`` through ``N[j]`` or ``N[j + 1]``. ``j`` is a constant at every
    call (the six are written out), so each ``at`` is one shift. Returns ``(moves, the
    tokens whose first step to N[j] goes on)``."""
    before = at(own, (j + 5) % 6, w)
    here = at(own, j, w)
    after = at(own, (j + 1) % 6, w)
    pivot = s_and(tokens, s_or(after, before))  # a friendly pivot N[j + 1] or N[j - 1]
    pivot_next = s_and(tokens, s_or(at(own, (j + 2) % 6, w), here))  # first step to N[j + 1]
    goes_on = s_andnot(pivot, at(stop, j, w))
    goes_on_next = s_andnot(pivot_next, at(stop, (j + 1) % 6, w))
    one = s_and(pivot, at(landing, j, w))
    # C[j]: through N[j] around the pivot N[j + 1], or through N[j + 1] around N[j].
    through = s_or(s_and(goes_on, after), s_and(goes_on_next, here))
    corner = s_and(through, at_corner(landing, j, w))
    moves = (s_count(one) + s_count(s_and(one, at(land2, j, w))) + s_count(s_and(one, at(land3, j, w)))
             + s_count(corner) + s_count(s_and(corner, at_corner(land2, j, w)))
             + s_count(s_and(corner, at_corner(land3, j, w))))
    return moves, goes_on


@njit(cache=True, inline='always')
def swipes(w, tokens, own, stop, landing, land2, land3, touch1, touch2, touch3):
    """The number of swipes of ``tokens`` (friendly tokens) if the lift (rule 4.1)
    allows them all."""
    m0, g0 = direction(0, w, tokens, own, stop, landing, land2, land3)
    m1, g1 = direction(1, w, tokens, own, stop, landing, land2, land3)
    m2, g2 = direction(2, w, tokens, own, stop, landing, land2, land3)
    m3, g3 = direction(3, w, tokens, own, stop, landing, land2, land3)
    m4, g4 = direction(4, w, tokens, own, stop, landing, land2, land3)
    m5, g5 = direction(5, w, tokens, own, stop, landing, land2, land3)
    # A reversing swipe ends on x itself: x is empty then, and must touch an enemy token.
    back = s_or(s_or(s_or(g0, g1), s_or(g2, g3)), s_or(g4, g5))
    reverse = s_and(back, touch1)
    return m0 + m1 + m2 + m3 + m4 + m5 + ends_moves(reverse, touch2, touch3)


@njit(cache=True)
def lift_stuck(size, own, w):
    """The friendly tokens whose lift would split their group (rule 4.1). A token
    whose friendly neighbours form one run (or none) never does. With two runs or
    more, the runs stay joined without x only if x's gaps (the runs of its other
    neighbours) lie in as many distinct regions of the non-friendly cells (an
    Euler-characteristic count: each link between two runs closes a ring round a
    gap), so two gaps open to the edge, one region, split the group. One flood gives
    the cells open to the edge (off-board cells are open); a fill per token is left
    for the few with fewer than two open gaps."""
    runs2 = s_and(own, run_counter(own, w)[1])
    if not s_any(runs2):
        return ZERO
    inside = (SHIFT_INTERIOR[size, 0], SHIFT_INTERIOR[size, 1])
    outside = s_or(open_to_edge(s_andnot(inside, own), (SHIFT_EDGE[size, 0], SHIFT_EDGE[size, 1]), w),
                   s_andnot(ALL, inside))
    open2 = run_counter(outside, w)[1]
    stuck = s_and(runs2, open2)
    unsure = s_andnot(runs2, open2)
    while s_any(unsure):
        x = s_lowest(unsure)
        unsure = s_andnot(unsure, x)
        if not lift_keeps_connected(own, x, w):
            stuck = s_or(stuck, x)
    return stuck


@njit(cache=True)
def shift_count(size, own_bits, enemy_bits):
    """The number of distinct legal moves of the side to move (``size`` up to
    ``tables.SHIFT_MAX_SIZE``; ``own_bits``, ``enemy_bits`` bitboards of
    ``geometry.py``'s layout): the same number as ``count.count_moves``."""
    if is_eliminated(own_bits, enemy_bits):
        return np.int64(0)
    w = U64(2 * size - 1)
    own = to_shift_layout(size, own_bits)
    enemy = to_shift_layout(size, enemy_bits)
    inside = (SHIFT_INTERIOR[size, 0], SHIFT_INTERIOR[size, 1])
    touch1, touch2, touch3 = group_touches(enemy, w)
    empty = s_andnot(inside, s_or(own, enemy))
    landing = s_and(empty, touch1)
    own_touch, own_touch2, _ = group_touches(own, w)
    # Rule 3: an empty interior cell with no enemy neighbour or a friendly neighbour.
    n = s_count(s_and(empty, s_or(s_andnot(inside, touch1), own_touch)))
    if not s_any(landing) and not s_any(s_and(own, touch1)):
        return n  # no swipe can end anywhere
    # Rule 4.4: a first step goes on from neither an enemy token nor a merging cell
    # (next to two friendly groups), nor from a one-step end.
    stop = s_or(s_or(enemy, s_andnot(own_touch2, own)), landing)
    land2 = s_and(landing, touch2)
    land3 = s_and(landing, touch3)
    # Rule 4.1: a token whose lift splits its group has no swipe at all.
    movers = s_andnot(own, lift_stuck(size, own, w))
    moves = swipes(w, movers, own, stop, landing, land2, land3, touch1, touch2, touch3)
    return n + moves


__all__ = ["SHIFT_MAX_SIZE", "shift_count"]
