"""The move generator's one frame: the sets every consumer needs, and the swipes of
every token at once (every side).

The position stays in the shift layout of ``sets.py`` (cell ``(c, r)`` is bit
``c * W + r``, each direction one fixed shift), and each step computes only what it
needs, as sets of cells. Each rule has one implementation here, and every consumer
(``moves.list_moves``, the perft walk's ``perft.expand``, the uniform playouts of
``playouts.py`` through ``uniform_count`` and ``uniform_nth``, and the evaluation's
``search/terms.py``) is built on it:

1. ``eliminated``: rule 6, a side to move without tokens while the board holds two or
   more has lost.
2. ``frame``: the placements (rule 3), ``t1 = dilate(enemy)``, the landing cells (the
   empty interior ones in it) and the tokens with a pivot.
3. ``swipe_ends``: whether any swipe can exist, then ``swipe_end_sets``, the swipe
   ends of every friendly token at once (rules 4.1 to 4.4), kept apart by offset:
   ``E[j]`` (j < 6) the tokens with a one-step end on ``N[j]``, ``E[6 + j]`` those with
   an onward end on ``C[j]``, ``E[12]`` those with a reversing end on themselves;
   tokens that the lift (rule 4.1) forbids are taken out. Each set moved by its offset
   is the set of end cells ``F[k]``.
4. Rule 4.5, one move per enemy group next to an end: a swipe is a token, an end and
   an enemy group next to the end, and for one token its thirteen offsets are
   thirteen distinct cells, so the swipes ending next to a group ``g`` number
   ``sum_k |F[k] & dilate(g)|``, each (token, end) once. The groups to flip are those
   of ``flippable``'s tokens, walked one at a time by ``sets.next_group`` (the one
   flood fill, ``sets.grow_group``), by the move list and the perft walk; a count
   needs only the ends next to two groups (``swipe_count``).

The moves of a position can then be counted and the n-th one decoded without a list
(``uniform_count``, ``uniform_nth``): what the uniformly random playouts draw from.

Move orders. ``moves.list_moves``'s order is the canonical one (``Board.legal_moves``
and the searchers' ties rely on it: the module's docstring gives it). The perft walk
only counts and folds its children, in the order cheapest for it: placements, then
each flippable group's swipes by end set. The uniform playouts number the moves
placements first (in cell order), then end set by end set (``uniform_nth``): the n-th
move in that order is decoded from the counts of the end sets alone, where the
canonical order would need the whole list (on 200 positions of random side-9 games,
one process: 1.9 to 2.4 microseconds a position to list the moves, 0.7 to 0.75 to count
them and decode one). The index a seed draws names a move in this order, so a seed plays the
same games on every version that keeps it.
"""

import numpy as np

from .codes import encode_placement, encode_swipe
from .jit import njit
from .sets import (
    add_to_counter,
    adjacent,
    at,
    at_corner,
    dilate,
    direction_primitive,
    group_touches_at,
    grow_group,
    lift_stuck_among,
    next_group,
    nth_bit,
    run_counter,
    s_and,
    s_andnot,
    s_any,
    s_count,
    s_interior,
    s_lowest,
    s_lowest_index,
    s_or,
    s_row,
    s_store,
    s_zero,
    set_like,
    shift_sets,
)
from .tables import CELL_OF_BIT, SHIFT_WORDS_OF

U64 = np.uint64
ONE = U64(1)
#: Rows ``E[0..12]`` of a scratch array ``work`` that ``swipe_end_sets`` fills (the
#: tokens with an end at each offset; then their end cells ``F[0..12]``).
END_SETS = 13


# A swipe's end cells from its token and back, per end set ``E[k]``: each one shift,
# written out for a constant ``k`` (``sets.direction_primitive``).
#: ``a`` moved by ``D[j]`` (the inverse of ``sets.at``: ``D[j + 3] = -D[j]``).
STEP_SHIFTS = tuple(f"at(a, {(j + 3) % 6}, w)" for j in range(6))
#: ``a`` moved by ``D[j] + D[j + 1]`` (the inverse of ``sets.at_corner``: the opposite
#: corner, ``D[j + 3] + D[j + 4]``; the cells must land inside the words).
STEP_CORNER_SHIFTS = tuple(f"at_corner(a, {(j + 3) % 6}, w)" for j in range(6))

end_cells = direction_primitive(
    "end_cells",
    STEP_SHIFTS + STEP_CORNER_SHIFTS + ("a",),
    """The end cells of the tokens ``a`` of end set ``E[k]``.""",
)
start_cells = direction_primitive(
    "start_cells",
    tuple(f"at(a, {j}, w)" for j in range(6))
    + tuple(f"at_corner(a, {j}, w)" for j in range(6))
    + ("a",),
    """The tokens whose end of set ``E[k]`` is in ``a`` (the inverse of
    ``end_cells``).""",
)


@njit(cache=True, inline="always")
def direction_ends(j, w, own, stop, landing):
    """The friendly tokens with a one-step end on ``N[j]``, with an onward end on
    ``C[j]``, whose first step to ``N[j]`` goes on, and whose run of friendly
    neighbours starts at ``N[j]``: ``sets.direction`` with the end sets kept.
    Inlined, and called with ``j`` a constant (the six calls written out), so that each
    ``at`` is one shift."""
    before = at(own, (j + 5) % 6, w)
    here = at(own, j, w)
    after = at(own, (j + 1) % 6, w)
    pivot = s_and(own, s_or(after, before))
    pivot_next = s_and(own, s_or(at(own, (j + 2) % 6, w), here))
    goes_on = s_andnot(pivot, at(stop, j, w))
    goes_on_next = s_andnot(pivot_next, at(stop, (j + 1) % 6, w))
    one = s_and(pivot, at(landing, j, w))
    through = s_or(s_and(goes_on, after), s_and(goes_on_next, here))
    corner = s_and(through, at_corner(landing, j, w))
    return one, corner, goes_on, s_and(own, s_andnot(here, before))


@njit(cache=True, inline="always")
def end_set(work, k, tokens, stuck, w):
    """Store the end cells of end set ``E[k]`` (``tokens``, the stuck ones taken out) to
    ``work[k]`` and return them (``k`` a constant at every call)."""
    f = end_cells(s_andnot(tokens, stuck), k, w)
    s_store(work, k, f)
    return f


@njit(cache=True)
def swipe_end_sets(w, own, enemy, t1, landing, work):
    """Write the end cells ``F[k]`` of the end sets ``E[k]`` of the friendly tokens'
    legal swipes (tokens the lift forbids taken out) to ``work[0..12]``. Returns their
    union (empty: no swipe). The six directions and thirteen sets are written out, so
    that every shift is by a constant offset (a loop over them took twice the time)."""
    # Rule 4.4: a first step goes on from neither an enemy token nor a merging cell
    # (next to two friendly groups), nor from a one-step end. A cell next to two groups
    # has two runs of friendly neighbours or more (two groups' tokens are never
    # neighbours): the groups are grown only when such a cell could be a first step.
    merging = s_andnot(run_counter(own, w)[1], s_or(s_or(own, enemy), landing))
    if s_any(merging):
        merging = s_and(group_touches_at(own, merging, w)[1], merging)
    stop = s_or(s_or(enemy, merging), landing)
    o0, c0, g0, s0 = direction_ends(0, w, own, stop, landing)
    o1, c1, g1, s1 = direction_ends(1, w, own, stop, landing)
    o2, c2, g2, s2 = direction_ends(2, w, own, stop, landing)
    o3, c3, g3, s3 = direction_ends(3, w, own, stop, landing)
    o4, c4, g4, s4 = direction_ends(4, w, own, stop, landing)
    o5, c5, g5, s5 = direction_ends(5, w, own, stop, landing)
    back = s_or(s_or(s_or(g0, g1), s_or(g2, g3)), s_or(g4, g5))
    reverse = s_and(back, t1)  # back on x, emptied by the lift: x must touch an enemy
    ends = s_or(s_or(s_or(o0, o1), s_or(o2, o3)), s_or(o4, o5))
    ends = s_or(s_or(ends, reverse), s_or(s_or(s_or(c0, c1), s_or(c2, c3)), s_or(c4, c5)))
    # Rule 4.1: a token whose friendly neighbours form two runs or more may hold its
    # group together; then it cannot swipe (``sets.lift_stuck_among``). Only the
    # tokens with an end are checked.
    zero = s_zero(own)
    r1, r2, r3 = add_to_counter(zero, zero, zero, s0)
    r1, r2, r3 = add_to_counter(r1, r2, r3, s1)
    r1, r2, r3 = add_to_counter(r1, r2, r3, s2)
    r1, r2, r3 = add_to_counter(r1, r2, r3, s3)
    r1, r2, r3 = add_to_counter(r1, r2, r3, s4)
    r1, r2, r3 = add_to_counter(r1, r2, r3, s5)
    check = s_and(r2, ends)
    stuck = zero
    if s_any(check):
        stuck = lift_stuck_among((np.int64(w) + 1) // 2, own, check, w)
    reached = s_or(
        s_or(end_set(work, 0, o0, stuck, w), end_set(work, 1, o1, stuck, w)),
        s_or(end_set(work, 2, o2, stuck, w), end_set(work, 3, o3, stuck, w)),
    )
    reached = s_or(reached, s_or(end_set(work, 4, o4, stuck, w), end_set(work, 5, o5, stuck, w)))
    reached = s_or(
        reached,
        s_or(
            s_or(end_set(work, 6, c0, stuck, w), end_set(work, 7, c1, stuck, w)),
            s_or(end_set(work, 8, c2, stuck, w), end_set(work, 9, c3, stuck, w)),
        ),
    )
    reached = s_or(reached, s_or(end_set(work, 10, c4, stuck, w), end_set(work, 11, c5, stuck, w)))
    return s_or(reached, end_set(work, 12, reverse, stuck, w))


@njit(cache=True)
def cell_index(size, a):
    """The cell index of a one-cell set."""
    return np.int64(CELL_OF_BIT[size, s_lowest_index(a)])


# ----- the frame every consumer starts from ----------------------------------------------------


@njit(cache=True, inline="always")
def eliminated(own, enemy):
    """Rule 6 (rules.md section 6): the side to move has no token while the board holds
    two or more. It has lost: no moves."""
    return not s_any(own) and s_count(enemy) >= 2


@njit(cache=True, inline="always")
def frame(w, inside, own, enemy):
    """The sets every consumer of the move generator starts from, of a position whose
    side to move (``own``) is not eliminated: ``(placements, t1, landing, grouped)``.

    ``placements``: rule 3, the empty interior cells next to no enemy token or next to
    a friendly one; ``t1``: the cells next to an enemy token, and the enemy tokens;
    ``landing``: the empty interior cells next to an enemy token (where a swipe can
    land, rules 4.3 and 4.4); ``grouped``: the friendly tokens with a friendly neighbour
    (the only ones with a pivot, rule 4.2)."""
    empty = s_andnot(inside, s_or(own, enemy))
    t1 = dilate(enemy, w)
    near_own = adjacent(own, w)
    placements = s_and(empty, s_or(s_andnot(inside, t1), near_own))
    return placements, t1, s_and(empty, t1), s_and(own, near_own)


@njit(cache=True)
def swipe_ends(w, own, enemy, t1, landing, grouped, work):
    """``swipe_end_sets`` of the position ``frame`` gave ``t1``, ``landing`` and
    ``grouped``: the end cells ``F[0..12]`` to ``work``, their union returned. Without
    a token with a pivot, or without a landing cell and a token next to an enemy (the
    end of a reversing swipe), no swipe exists: the empty set, ``work`` untouched."""
    if s_any(grouped) and (s_any(landing) or s_any(s_and(own, t1))):
        return swipe_end_sets(w, own, enemy, t1, landing, work)
    return s_zero(own)


@njit(cache=True, inline="always")
def flippable(w, enemy, reached):
    """The enemy tokens next to a swipe end of ``reached``: the groups that hold them are
    the groups the swipes flip (rule 4.5), walked one by one with ``sets.next_group``."""
    return s_and(enemy, adjacent(reached, w))


@njit(cache=True)
def ends_touch2(w, enemy, reached):
    """The cells of ``reached`` next to two enemy groups. Two groups' tokens are never
    neighbours, so these lie among the cells round which the enemy tokens form two runs
    or more (``run_counter``): ``group_touches_at`` runs only when an end is one of
    those, for those ends."""
    cells = s_and(reached, run_counter(enemy, w)[1])
    if s_any(cells):
        return s_and(group_touches_at(enemy, cells, w)[1], cells)
    return cells


@njit(cache=True, inline="always")
def swipe_count(work, touch2):
    """The number of swipes of the end sets ``F[0..12]`` in ``work`` (rule 4.5: one per
    enemy group next to an end), ``touch2`` holding at least the ends next to two enemy
    groups.

    A swipe is a (token, end, enemy group next to the end), and the thirteen end cells
    of one token are distinct, so end set ``F[k]`` holds ``|F[k]| + |F[k] & touch2|``
    swipes. No end is next to three groups: three groups round a cell take every other
    neighbour, so any two neighbours next to each other hold an enemy token, and every
    swipe has two such non-enemy cells next to its end (the pivot and the token's cell
    or the cell it passes: rules 4.2 to 4.4)."""
    n = np.int64(0)
    for k in range(END_SETS):
        n += s_count(s_row(work, k, touch2))
    if s_any(touch2):
        for k in range(END_SETS):
            n += s_count(s_and(s_row(work, k, touch2), touch2))
    return n


# ----- counting the moves, and the n-th move ---------------------------------------------------
# Uniform over the distinct legal moves (rules.md section 5): count them, draw an index,
# decode only that move. Written for sets of any word count (``sets.py``'s
# primitives): two words on sides 4 to 6, ``SHIFT_WORDS`` on sides 7 to 9.
# ``kernels.py`` registers this module (it may not import
# ``kernels``: ``playouts.py``, which ``kernels`` imports, imports it).


@njit(cache=True, inline="always")
def uniform_count(w, inside, own, enemy, work):
    """The number of distinct legal moves of ``own`` (the side to move, not eliminated),
    in the shift layout, what ``uniform_nth`` needs to decode one, and the union of the
    swipes' end cells: ``(n, placements, touch2, reached)``, the end cells ``F[0..12]``
    in ``work``."""
    placements, t1, landing, grouped = frame(w, inside, own, enemy)
    n = s_count(placements)
    touch2 = s_zero(own)
    reached = swipe_ends(w, own, enemy, t1, landing, grouped, work)
    if s_any(reached):
        touch2 = ends_touch2(w, enemy, reached)
        n += swipe_count(work, touch2)
    return n, placements, touch2, reached


@njit(cache=True)
def nth_group(w, enemy, f, i):
    """The ``i``-th (from 0) enemy group next to the cell ``f``, the groups in the order
    of their lowest cell next to ``f``."""
    seeds = s_and(enemy, adjacent(f, w))
    while True:
        group, _, seeds = next_group(enemy, seeds, w)
        if i == 0:
            return group
        i -= 1


@njit(cache=True, inline="always")
def uniform_nth(w, enemy, k, placements, touch2, work):
    """Move number ``k`` (``0 <= k < n``) of the position ``uniform_count`` counted:
    ``(token, end, flipped group)`` as sets (a placement: no token, its cell, no
    group). Placements come first, in bit order; then the end sets ``F[0..12]`` in turn,
    each as two layers: its cells (with the first group next to each), then its cells
    next to two groups (with the second group)."""
    n_place = s_count(placements)
    zero = s_zero(enemy)
    if k < n_place:
        return zero, nth_bit(placements, k), zero
    r = k - n_place
    for e in range(END_SETS):
        ends = s_row(work, e, enemy)
        c = s_count(ends)
        if r < c:
            f = nth_bit(ends, r)
            return start_cells(f, e, w), f, nth_group(w, enemy, f, 0)
        r -= c
        cells = s_and(ends, touch2)
        c = s_count(cells)
        if r < c:
            f = nth_bit(cells, r)
            return start_cells(f, e, w), f, nth_group(w, enemy, f, 1)
        r -= c
    return zero, zero, zero  # not reached for 0 <= k < n


@njit(cache=True, inline="always")
def uniform_play(own, enemy, x, f, group):
    """The position after the move ``(x, f, group)`` of ``uniform_nth``, the side to
    move first: a swipe moves ``x`` to ``f`` and flips ``group``; a placement adds ``f``."""
    if s_any(group):
        return s_andnot(enemy, group), s_or(s_or(s_andnot(own, x), f), group)
    return enemy, s_or(own, f)


@njit(cache=True)
def uniform_code(size, x, f, group):
    """The move code (``movecode.py``) of ``uniform_nth``'s move."""
    if s_any(group):
        return encode_swipe(
            cell_index(size, x), cell_index(size, f), cell_index(size, s_lowest(group))
        )
    return encode_placement(cell_index(size, f))


@njit(cache=True)
def uniform_moves_in(size, own_bits, enemy_bits, codes, groups, like):
    """``uniform_moves`` in the shift layout of ``like``'s words."""
    w = U64(2 * size - 1)
    inside = s_interior(size, like)
    own, enemy = shift_sets(size, own_bits, enemy_bits, like)
    if eliminated(own, enemy):
        return np.int64(0)
    work = np.zeros((END_SETS, len(like)), dtype=np.uint64)
    n, placements, touch2, _ = uniform_count(w, inside, own, enemy, work)
    for k in range(n):
        x, f, group = uniform_nth(w, enemy, k, placements, touch2, work)
        codes[k] = uniform_code(size, x, f, group)
        s_store(groups, k, group)
    return n


def uniform_moves(size, own_bits, enemy_bits, codes, groups):
    """For tests: decode every index ``0 .. n-1`` of ``uniform_count`` into ``codes``
    (move codes) and ``groups`` (the flipped group in the shift layout, ``words(size)``
    words, the first columns of ``groups``; 0 for a placement); returns n (0:
    eliminated)."""
    return uniform_moves_in(size, own_bits, enemy_bits, codes, groups, set_like(size))


def words(size: int) -> int:
    """The number of words of the shift layout of side ``size``."""
    return int(SHIFT_WORDS_OF[size])


__all__ = [
    "eliminated",
    "frame",
    "grow_group",
    "swipe_ends",
    "uniform_count",
    "uniform_moves",
    "uniform_nth",
    "uniform_play",
    "words",
]
