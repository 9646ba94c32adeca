"""The evaluation's terms from sets of cells, every token at once (``evaluate.py``).

No move is listed: on positions in the shift layout of ``core/sets.py``

* the groups' touch counts of both colours (``sets.group_touches``), once for
  both sides' moves;
* per side, the number of legal moves, and the union of its swipes' end cells (the
  end sets of ``swipes.swipe_end_sets``, the lift of rule 4.1 applied first);
* per colour, its groups grown a ring a round (``dilate``): the group count, the lone
  tokens (no friendly neighbour: no fill), the largest group, and, of the groups with a
  token next to an end cell of the other side's swipes (exactly the groups those swipes
  flip, rule 4.5), the largest and their token total.

``tests/test_terms.py`` checks them against the same terms computed from move lists.
"""

import numpy as np

from ..core.jit import njit
from ..core.sets import (
    adjacent,
    at,
    at_corner,
    ends_moves,
    fill,
    group_touches,
    lift_stuck,
    s_and,
    s_andnot,
    s_any,
    s_count,
    s_interior,
    s_lowest,
    s_or,
    s_zero,
    set_like,
    to_shift_words,
)
from ..core.swipes import direction_ends

U64 = np.uint64
ONE = U64(1)


@njit(cache=True, inline="always")
def direction_moves(j, w, movers, own, stop, landing, land2, land3):
    """The swipes of ``movers`` (the tokens the lift lets go) whose first step goes to
    ``N[j]`` and that end there or go on to ``C[j]``, from the swipe kernel's step
    (``swipes.direction_ends``, on all of ``own``, then kept to ``movers``): ``(moves,
    movers whose first step to N[j] goes on, end cells)``, an end next to two or three
    enemy groups (``land2``, ``land3``) counting two or three moves. ``j`` is a constant
    at every call."""
    one, corner, goes_on, _ = direction_ends(j, w, own, stop, landing)
    one = s_and(one, movers)
    corner = s_and(corner, movers)
    moves = (
        s_count(one)
        + s_count(s_and(one, at(land2, j, w)))
        + s_count(s_and(one, at(land3, j, w)))
        + s_count(corner)
        + s_count(s_and(corner, at_corner(land2, j, w)))
        + s_count(s_and(corner, at_corner(land3, j, w)))
    )
    # The end cells: N[j] = x + D[j] (``at`` of the opposite direction moves by +D[j]),
    # C[j] = x + D[j] + D[j + 1] (``at_corner`` of the opposite corner).
    ends = s_or(at(one, (j + 3) % 6, w), at_corner(corner, (j + 3) % 6, w))
    return moves, s_and(goes_on, movers), ends


@njit(cache=True)
def side_moves(size, w, inside, own, enemy, own_t1, own_t2, t1, t2, t3):
    """``(legal moves, swipe end cells)`` of the side owning ``own`` (not eliminated):
    ``own_t1``/``own_t2`` its groups' touch counts, ``t1``..``t3`` the enemy's."""
    empty = s_andnot(inside, s_or(own, enemy))
    landing = s_and(empty, t1)
    # Rule 3: an empty interior cell with no enemy neighbour or a friendly neighbour.
    n = s_count(s_and(empty, s_or(s_andnot(inside, t1), own_t1)))
    if not s_any(landing) and not s_any(s_and(own, t1)):
        return n, s_zero(own)  # no swipe can end anywhere
    stop = s_or(s_or(enemy, s_andnot(own_t2, own)), landing)
    land2 = s_and(landing, t2)
    land3 = s_and(landing, t3)
    movers = s_andnot(own, lift_stuck(size, own, w))
    m0, g0, e0 = direction_moves(0, w, movers, own, stop, landing, land2, land3)
    m1, g1, e1 = direction_moves(1, w, movers, own, stop, landing, land2, land3)
    m2, g2, e2 = direction_moves(2, w, movers, own, stop, landing, land2, land3)
    m3, g3, e3 = direction_moves(3, w, movers, own, stop, landing, land2, land3)
    m4, g4, e4 = direction_moves(4, w, movers, own, stop, landing, land2, land3)
    m5, g5, e5 = direction_moves(5, w, movers, own, stop, landing, land2, land3)
    back = s_or(s_or(s_or(g0, g1), s_or(g2, g3)), s_or(g4, g5))
    reverse = s_and(back, t1)  # a reversing swipe ends on x itself, next to an enemy
    ends = s_or(s_or(s_or(e0, e1), s_or(e2, e3)), s_or(s_or(e4, e5), reverse))
    return n + m0 + m1 + m2 + m3 + m4 + m5 + ends_moves(reverse, t2, t3), ends


@njit(cache=True)
def colour_stats(stones, ends, w):
    """``(groups, singletons, largest group, largest flippable group, tokens in the
    flippable groups)`` of the tokens ``stones``, a group being flippable when it has a
    token next to a cell of ``ends`` (the other side's swipe end cells)."""
    seeds = s_and(stones, adjacent(ends, w))
    alone = s_andnot(stones, adjacent(stones, w))
    singletons = s_count(alone)
    groups = singletons
    largest = np.int64(1) if singletons > 0 else np.int64(0)
    union = s_count(s_and(alone, seeds))
    best = np.int64(1) if union > 0 else np.int64(0)
    rest = s_andnot(stones, alone)
    while s_any(rest):
        group = fill(stones, s_lowest(rest), w)
        rest = s_andnot(rest, group)
        count = s_count(group)
        groups += 1
        if count > largest:
            largest = count
        if s_any(s_and(group, seeds)):
            union += count
            if count > best:
                best = count
    return groups, singletons, largest, best, union


@njit(cache=True)
def terms_in(size, own_bits, enemy_bits, like):
    """``position_terms`` of bitboards, in the shift layout of ``like``'s words."""
    return position_terms(
        size, to_shift_words(size, own_bits, like), to_shift_words(size, enemy_bits, like)
    )


def board_terms(size, own_bits, enemy_bits):
    """The evaluation's terms of a position given as bitboards (``Board``'s words):
    ``(terms, n_own, can_eliminate)``."""
    return terms_in(size, own_bits, enemy_bits, set_like(size))


@njit(cache=True, inline="always")
def eliminated(own, enemy):
    """Rule 6 on two-word sets: no token to move while the board holds two or more."""
    return not s_any(own) and s_count(enemy) >= 2


@njit(cache=True)
def position_terms(size, own, enemy):
    """The terms of ``evaluate.py``'s docstring, in ``TERMS`` order, of a position in the
    shift layout (the side to move's tokens ``own``), plus the number of legal moves of
    the side to move (0: it has lost) and whether it can eliminate now:
    ``(terms, n_own, can_eliminate)``."""
    w = U64(2 * size - 1)
    inside = s_interior(size, own)
    own_t1, own_t2, own_t3 = group_touches(own, w)
    en_t1, en_t2, en_t3 = group_touches(enemy, w)
    n_own = np.int64(0)
    our_ends = s_zero(own)
    if not eliminated(own, enemy):
        n_own, our_ends = side_moves(
            size, w, inside, own, enemy, own_t1, own_t2, en_t1, en_t2, en_t3
        )
    n_their = np.int64(0)
    their_ends = s_zero(own)
    if not eliminated(enemy, own):
        n_their, their_ends = side_moves(
            size, w, inside, enemy, own, en_t1, en_t2, own_t1, own_t2, own_t3
        )
    own_groups, own_singletons, own_largest, their_best, their_total = colour_stats(
        own, their_ends, w
    )
    enemy_groups, enemy_singletons, enemy_largest, our_best, our_total = colour_stats(
        enemy, our_ends, w
    )
    own_count = s_count(own)
    enemy_count = s_count(enemy)
    can_eliminate = n_own > 0 and our_best == enemy_count and enemy_count > 0
    terms = (
        own_count - enemy_count,
        our_best,
        our_total,
        -their_best,
        -their_total,
        own_groups - enemy_groups,
        own_singletons - enemy_singletons,
        own_largest - enemy_largest,
        n_own - n_their,
    )
    return terms, n_own, can_eliminate


__all__ = ["board_terms", "position_terms"]
