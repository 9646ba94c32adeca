"""The evaluation's terms from sets of cells, every token at once (``evaluate.py``).

No move is listed: on positions in the shift layout of ``core/sets.py``

* per side, the number of legal moves, and the union of its swipes' end cells, both
  from the move generator's frame (``swipes.uniform_count``: the placements, the end
  sets of ``swipes.swipe_end_sets`` with the lift of rule 4.1 applied, one move per
  enemy group next to an end);
* per colour, its groups grown a ring a round (``sets.next_group``): the group count,
  the lone tokens (no friendly neighbour: no fill), the largest group, and, of the
  groups with a token next to an end cell of the other side's swipes (exactly the
  groups those swipes flip, rule 4.5: ``swipes.flippable``), the largest and their
  token total.

``tests/test_terms.py`` checks them against the same terms computed from move lists.
"""

import numpy as np

from ..core.jit import njit
from ..core.sets import (
    adjacent,
    next_group,
    s_and,
    s_andnot,
    s_any,
    s_count,
    s_interior,
    s_zero,
    set_like,
    shift_sets,
)
from ..core.swipes import END_SETS, eliminated, flippable, uniform_count

U64 = np.uint64


@njit(cache=True)
def colour_stats(stones, ends, w):
    """``(groups, singletons, largest group, largest flippable group, tokens in the
    flippable groups)`` of the tokens ``stones``, a group being flippable when it has a
    token next to a cell of ``ends`` (the other side's swipe end cells)."""
    seeds = flippable(w, stones, ends)
    alone = s_andnot(stones, adjacent(stones, w))
    singletons = s_count(alone)
    groups = singletons
    largest = np.int64(1) if singletons > 0 else np.int64(0)
    union = s_count(s_and(alone, seeds))
    best = np.int64(1) if union > 0 else np.int64(0)
    rest = s_andnot(stones, alone)
    while s_any(rest):
        group, _, rest = next_group(stones, rest, w)
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
    own, enemy = shift_sets(size, own_bits, enemy_bits, like)
    return position_terms(size, own, enemy)


def board_terms(size, own_bits, enemy_bits):
    """The evaluation's terms of a position given as bitboards (``Board``'s words):
    ``(terms, n_own, can_eliminate)``."""
    return terms_in(size, own_bits, enemy_bits, set_like(size))


@njit(cache=True)
def position_terms(size, own, enemy):
    """The terms of ``evaluate.py``'s docstring, in ``TERMS`` order, of a position in the
    shift layout (the side to move's tokens ``own``), plus the number of legal moves of
    the side to move (0: it has lost) and whether it can eliminate now:
    ``(terms, n_own, can_eliminate)``."""
    w = U64(2 * size - 1)
    inside = s_interior(size, own)
    work = np.empty((END_SETS, len(own)), dtype=np.uint64)
    n_own = np.int64(0)
    our_ends = s_zero(own)
    if not eliminated(own, enemy):
        n_own, _, _, our_ends = uniform_count(w, inside, own, enemy, work)
    n_their = np.int64(0)
    their_ends = s_zero(own)
    if not eliminated(enemy, own):
        n_their, _, _, their_ends = uniform_count(w, inside, enemy, own, work)
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
