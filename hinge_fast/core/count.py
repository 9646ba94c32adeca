"""Counting the legal moves without listing them, and drawing one by its index.

``count_moves`` gives the number of distinct legal moves (rules.md section 5) without
writing a move list: placements are one popcount, and a token's swipes are counted
from the bitboard of its destinations. A destination ``f`` gives one move per
distinct enemy group next to it (rule 4.5), and no more than three groups fit around
a cell, so with ``touch1``, ``touch2``, ``touch3`` the cells next to at least one,
two, three enemy groups, a destination set ``D`` holds
``popcount(D) + popcount(D & touch2) + popcount(D & touch3)`` swipes.

``nth_move`` then decodes only the move with a given index (placements first, in
cell order; then the swipes token by token, destination by destination), which is
how a random playout draws a uniform move: count, draw an index, decode one move.
Bulk perft counts the last ply with ``count_moves``.
"""

import numpy as np
from numba import njit

from .bits import (
    EMPTY,
    bb_and,
    bb_andnot,
    bb_any,
    bb_count,
    bb_has,
    bb_lowest,
    bb_or,
    bb_pop,
    bb_row,
    bb_store,
    bb_without,
    lowest_bit_index64,
    popcount64,
)
from .movegen import (
    CODE_SHIFT,
    X_LAND_CODE,
    can_reach_landing,
    encode_placement,
    encode_swipe,
    group_and_touch,
    interior,
    is_eliminated,
    label_own_groups,
    lane_destinations,
    lane_moves,
    lift_keeps_connected,
    mark_swipe_codes,
    swipe_lanes,
)
from .tables import MAX_GROUPS


@njit(cache=True, inline='always')
def label_enemy_groups_touch(size, enemy, enemy_groups, group_touch):
    """Split the enemy tokens into groups; write each group and the cells next to it
    to ``enemy_groups[g]`` and ``group_touch[g]``. Returns ``(number of groups,
    touch1, touch2, touch3)``: the cells next to at least one, two, three groups."""
    touch1 = EMPTY
    touch2 = EMPTY
    touch3 = EMPTY
    rest = enemy
    n = 0
    while bb_any(rest):
        group, touch = group_and_touch(size, enemy, bb_lowest(rest))
        bb_store(enemy_groups, n, group)
        bb_store(group_touch, n, touch)
        touch3 = bb_or(touch3, bb_and(touch2, touch))
        touch2 = bb_or(touch2, bb_and(touch1, touch))
        touch1 = bb_or(touch1, touch)
        rest = bb_andnot(rest, group)
        n += 1
    return n, touch1, touch2, touch3


@njit(cache=True, inline='always')
def count_moves(size, own, enemy, work):
    """The number of distinct legal moves of the side to move, and what
    ``nth_move`` needs to decode one: ``(n, n_groups, placements, landing, touch2,
    touch3)``. Writes the tokens that can swipe and their swipe counts to
    ``work.swipers`` / ``work.swiper_moves`` (in the order ``nth_move`` reads them),
    the enemy groups to ``work.enemy_groups`` and ``work.group_touch`` (the friendly
    groups to its top rows), and the swipe code of each cell to ``work.group_id``
    (``movegen.mark_swipe_codes``). A token's swipes come from ``movegen.swipe_lanes``:
    its twelve pivot/turn paths at once, as byte-lane arithmetic."""
    if is_eliminated(own, enemy):
        return np.int64(0), np.int64(0), EMPTY, EMPTY, EMPTY, EMPTY
    n_groups, touch1, touch2, touch3 = label_enemy_groups_touch(size, enemy, work.enemy_groups, work.group_touch)
    inside = interior(size)
    empty_interior = bb_andnot(inside, bb_or(own, enemy))
    landing = bb_and(empty_interior, touch1)
    can_swipe = bb_any(landing) or bb_any(bb_and(own, touch1))
    n_own, own_touch, own_touch2 = label_own_groups(size, own, work.enemy_groups)
    n = np.int64(0)
    if can_swipe:
        cells = work.group_id
        cells[:] = 0
        mark_swipe_codes(cells, own, enemy, landing, touch1, touch2, touch3, own_touch, own_touch2)
        n_swipers = 0
        for g in range(n_own):
            group = bb_row(work.enemy_groups, MAX_GROUPS - 1 - g)
            if bb_count(group) < 2:
                continue  # a singleton has no friendly pivot
            members = group
            while bb_any(members):
                x, members = bb_pop(members)
                x_code = np.int64(cells[x]) >> CODE_SHIFT
                if not can_reach_landing(size, x, landing, x_code):
                    continue
                vn, vc, one, corner, back, starts = swipe_lanes(size, cells, x)
                swipes = lane_moves(vn, vc, one, corner, back, x_code)
                if swipes and lift_keeps_connected(size, group, x, starts):
                    work.swipers[n_swipers] = x
                    work.swiper_moves[n_swipers] = swipes
                    n_swipers += 1
                    n += swipes
    placements = bb_and(empty_interior, bb_or(bb_andnot(inside, touch1), own_touch))
    n += bb_count(placements)
    return n, np.int64(n_groups), placements, landing, touch2, touch3


@njit(cache=True, inline='always')
def nth_bit(a, k):
    """Index of the ``k``-th lowest set bit of bitboard ``a`` (k from 0)."""
    for w in range(4):
        word = a[0] if w == 0 else (a[1] if w == 1 else (a[2] if w == 2 else a[3]))
        bits = np.int64(popcount64(word))
        if k < bits:
            for _ in range(k):
                word &= word - np.uint64(1)
            return np.int64(64 * w + lowest_bit_index64(word))
        k -= bits
    return np.int64(-1)


@njit(cache=True, inline='always')
def nth_move(size, own, enemy, k, counted, work):
    """Move number ``k`` (``0 <= k < n``) of the position ``count_moves`` counted
    (``counted`` is what it returned; ``work`` as it left it): ``(code, flipped
    group)``. Placements come first, in cell order; then the swipes."""
    n, n_groups, placements, landing, touch2, touch3 = counted
    n_place = bb_count(placements)
    if k < n_place:
        return encode_placement(nth_bit(placements, k)), EMPTY
    k -= n_place
    j = 0
    while k >= work.swiper_moves[j]:
        k -= work.swiper_moves[j]
        j += 1
    x = work.swipers[j]
    vn, vc, one, corner, back, starts = swipe_lanes(size, work.group_id, x)
    x_code = np.int64(work.group_id[x]) >> CODE_SHIFT
    destinations = lane_destinations(size, x, one, corner, back != 0 and (x_code & X_LAND_CODE) != 0)
    f = np.int64(0)
    while True:
        f = bb_lowest(destinations)
        destinations = bb_without(destinations, f)
        here = 1 + np.int64(bb_has(touch2, f)) + np.int64(bb_has(touch3, f))
        if k < here:
            break
        k -= here
    for g in range(n_groups):
        if bb_has(bb_row(work.group_touch, g), f):
            if k == 0:
                flipped = bb_row(work.enemy_groups, g)
                return encode_swipe(x, f, bb_lowest(flipped)), flipped
            k -= 1
    return np.int64(-1), EMPTY  # not reached for 0 <= k < n


@njit(cache=True)
def count_legal_moves(size, own, enemy, work):
    """The number of legal moves, counted without listing them (``count_moves``)."""
    return count_moves(size, own, enemy, work)[0]


@njit(cache=True)
def moves_by_index(size, own, enemy, work, codes):
    """Decode every index ``0 .. n-1`` with ``nth_move`` into ``codes``; returns n
    (tests: the indices must give each legal move exactly once)."""
    counted = count_moves(size, own, enemy, work)
    n = counted[0]
    for k in range(n):
        codes[k] = nth_move(size, own, enemy, k, counted, work)[0]
    return n


@njit(cache=True)
def swipe_ends(size, own, enemy, work, ends):
    """For tests: the cells the swipes of each friendly token ``x`` can end on (rule 4,
    steps 1 to 4, the lift of 4.1 included), found by ``movegen.swipe_lanes`` from
    the swipe codes ``count_moves`` writes, into row ``x`` of ``ends`` (uint64
    ``[MAX_CELLS, NWORDS]``; rows of other cells are left alone)."""
    n_groups, touch1, touch2, touch3 = label_enemy_groups_touch(size, enemy, work.enemy_groups, work.group_touch)
    landing = bb_and(bb_andnot(interior(size), bb_or(own, enemy)), touch1)
    n_own, own_touch, own_touch2 = label_own_groups(size, own, work.enemy_groups)
    cells = work.group_id
    cells[:] = 0
    mark_swipe_codes(cells, own, enemy, landing, touch1, touch2, touch3, own_touch, own_touch2)
    members = own
    while bb_any(members):
        x, members = bb_pop(members)
        x_code = np.int64(cells[x]) >> CODE_SHIFT
        vn, vc, one, corner, back, starts = swipe_lanes(size, cells, x)
        destinations = EMPTY
        if lift_keeps_connected(size, own, x, starts):
            destinations = lane_destinations(size, x, one, corner, back != 0 and (x_code & X_LAND_CODE) != 0)
        bb_store(ends, x, destinations)
