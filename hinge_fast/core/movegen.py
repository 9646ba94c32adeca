"""The fast move generator: numba kernels on bitboards (layout: ``geometry.py``).

Kernels see a position from the side to move: ``own`` and ``enemy`` bitboards. Playing
a move returns the next position already seen from the other side, ``(enemy', own')``,
so no kernel needs to know which colour is which.

A move is one int64 code, laid out in ``movecode.py`` (the functions below are
compiled from it).

Each rule of rules.md sections 3, 4 and 6 is marked where it is implemented.
"""

import numpy as np
from numba import njit

from .bits import (
    EMPTY,
    bb_and,
    bb_andnot,
    bb_any,
    bb_bit,
    bb_count,
    bb_has,
    bb_lowest,
    bb_or,
    bb_row,
    bb_store,
    bb_without,
    bb_xor,
)
from . import movecode
from .tables import INTERIOR, NEIGHBOUR_MASKS, NEIGHBOURS, SWIPE_REACH, SWIPE_STEP1, SWIPE_STEP2, ZOBRIST

def _cyclic_runs(pattern: int) -> int:
    """Runs of set bits in a 6-bit pattern read around a circle."""
    return sum(1 for k in range(6) if pattern >> k & 1 and not pattern >> ((k - 1) % 6) & 1)


#: For the 6-bit pattern of a token's friendly neighbours (bit k: direction k), how
#: many separate runs they form around it. Neighbours next to each other in the
#: cyclic order are adjacent, so one run (or all six) stays connected when the token
#: is lifted; only two or more runs need a flood fill to decide the lift (rule 4.1).
CYCLIC_RUNS = np.array([_cyclic_runs(p) for p in range(64)], dtype=np.int8)


# The move code (layout: ``movecode.py``), compiled for the kernels from the same source.
encode_placement = njit(cache=True)(movecode.encode_placement)
encode_swipe = njit(cache=True)(movecode.encode_swipe)
move_from = njit(cache=True)(movecode.move_from)
move_to = njit(cache=True)(movecode.move_to)
move_target = njit(cache=True)(movecode.move_target)
is_swipe = njit(cache=True)(movecode.is_swipe)


@njit(cache=True)
def interior(size):
    """Bitboard of the interior cells."""
    return bb_row(INTERIOR, size)


@njit(cache=True)
def neighbour_mask(size, cell):
    """Bitboard of the neighbours of ``cell``."""
    return bb_row(NEIGHBOUR_MASKS[size], cell)


@njit(cache=True, inline='always')
def group_and_touch(size, stones, cell):
    """The group of ``stones`` containing ``cell`` (flood fill), and every cell next
    to one of its tokens (the group's own cells included)."""
    group = bb_bit(cell)
    frontier = group
    touch = EMPTY
    while bb_any(frontier):
        c = bb_lowest(frontier)
        frontier = bb_without(frontier, c)
        near = neighbour_mask(size, c)
        touch = bb_or(touch, near)
        new = bb_andnot(bb_and(near, stones), group)
        group = bb_or(group, new)
        frontier = bb_or(frontier, new)
    return group, touch


@njit(cache=True)
def group_of(size, stones, cell):
    """The group of ``stones`` containing ``cell`` (flood fill)."""
    return group_and_touch(size, stones, cell)[0]


@njit(cache=True, inline='always')
def label_enemy_groups(size, enemy, enemy_groups, group_id):
    """Split the enemy tokens into groups by flood fill.

    Writes each group to ``enemy_groups[g]`` (in order of their first cell) and
    ``group_id[cell] = g`` for each token. Returns ``(number of groups, bitboard of
    every cell next to an enemy token)``.
    """
    touched = EMPTY
    rest = enemy
    n = 0
    while bb_any(rest):
        group = bb_bit(bb_lowest(rest))
        frontier = group
        while bb_any(frontier):
            cell = bb_lowest(frontier)
            frontier = bb_without(frontier, cell)
            group_id[cell] = n
            near = neighbour_mask(size, cell)
            touched = bb_or(touched, near)
            new = bb_andnot(bb_and(near, enemy), group)
            group = bb_or(group, new)
            frontier = bb_or(frontier, new)
        bb_store(enemy_groups, n, group)
        rest = bb_andnot(rest, group)
        n += 1
    return n, touched


@njit(cache=True)
def friendly_pattern(size, own, x):
    """Bit k set when the neighbour of ``x`` in direction k holds a friendly token."""
    pattern = 0
    for k in range(6):
        n = NEIGHBOURS[size, x, k]
        if n >= 0 and bb_has(own, n):
            pattern |= 1 << k
    return pattern


@njit(cache=True)
def lift_keeps_connected(size, group, x, pattern):
    """Rule 4.1: the group ``group`` of ``x`` without ``x`` is still connected."""
    if CYCLIC_RUNS[pattern] <= 1:
        return True
    rest = bb_without(group, x)
    must_reach = bb_and(neighbour_mask(size, x), rest)
    reached = bb_bit(bb_lowest(must_reach))
    frontier = reached
    while bb_any(frontier):
        c = bb_lowest(frontier)
        frontier = bb_without(frontier, c)
        new = bb_andnot(bb_and(neighbour_mask(size, c), rest), reached)
        reached = bb_or(reached, new)
        frontier = bb_or(frontier, new)
        if not bb_any(bb_andnot(must_reach, reached)):
            return True
    return False


@njit(cache=True)
def is_eliminated(own, enemy):
    """Rule 6: the side to move has no tokens while the board holds two or more."""
    return not bb_any(own) and bb_count(enemy) >= 2


@njit(cache=True)
def swipe_destinations(size, own, enemy, group, x, landing, pattern):
    """Rule 4, steps 1 to 4: the cells a swipe of the token on ``x`` can end on.

    ``group`` is the group of ``x``; ``landing`` the empty interior cells with an
    enemy neighbour; ``pattern`` the friendly neighbours of ``x``. Returns a bitboard:
    each destination once, however many pivots and paths reach it.
    """
    # Rule 4.4: x is empty once lifted, so a reversing swipe may end there.
    x_is_landing = bb_any(bb_and(neighbour_mask(size, x), enemy))
    destinations = EMPTY
    for k in range(6):
        if not (pattern >> k) & 1:
            continue  # no friendly pivot in direction k
        for turn in range(2):
            y1 = SWIPE_STEP1[size, x, k, turn]
            if bb_has(enemy, y1):
                continue  # rule 4.2: step 1 may not land on an enemy token
            if not bb_has(own, y1):
                if bb_has(landing, y1):
                    # Rule 4.3: a valid one-step swipe ends the turn.
                    destinations = bb_or(destinations, bb_bit(y1))
                    continue
                # Rule 4.4: an empty y1 touching a friendly token outside G merged
                # groups; lifting the token again would split them, so no step 2.
                if bb_any(bb_andnot(bb_and(neighbour_mask(size, y1), own), group)):
                    continue
            y2 = SWIPE_STEP2[size, x, k, turn]
            if bb_has(landing, y2):
                destinations = bb_or(destinations, bb_bit(y2))  # onward step 2
            if x_is_landing:
                destinations = bb_or(destinations, bb_bit(x))  # reversing step 2
    return destinations


@njit(cache=True, inline='always')
def generate_moves(size, own, enemy, moves, flips, enemy_groups, group_id, store):
    """All distinct legal moves of the side to move (rules.md sections 3 to 6).

    With ``store``, writes the move codes to ``moves[:n]`` and the group each move
    flips to ``flips[:n]`` (empty for a placement); without, only counts. Swipes come first, then
    placements. Returns n (0 when the game is over). ``enemy_groups`` and
    ``group_id`` are scratch.
    """
    if is_eliminated(own, enemy):
        return 0
    n_enemy_groups, enemy_touch = label_enemy_groups(size, enemy, enemy_groups, group_id)
    inside = interior(size)
    empty_interior = bb_andnot(inside, bb_or(own, enemy))
    # Rule 4: a swipe must end on an empty interior cell touching an enemy token, or
    # back on its own cell (emptied by the lift) if that touches an enemy token.
    landing = bb_and(empty_interior, enemy_touch)
    can_swipe = bb_any(landing) or bb_any(bb_and(own, enemy_touch))
    own_touch = EMPTY
    n = 0
    rest = own
    while bb_any(rest):
        # Flood-fill one friendly group; note the cells it touches for rule 3.
        group, touch = group_and_touch(size, own, bb_lowest(rest))
        own_touch = bb_or(own_touch, touch)
        rest = bb_andnot(rest, group)
        if not can_swipe or bb_count(group) < 2:
            continue  # a singleton has no friendly pivot
        # Only a token with a landing cell within two steps, or an enemy neighbour
        # (a reversing swipe), can swipe: skip the rest before any table walk.
        members = group
        while bb_any(members):
            x = bb_lowest(members)
            members = bb_without(members, x)
            if not bb_any(bb_and(bb_row(SWIPE_REACH[size], x), landing)) and not bb_has(enemy_touch, x):
                continue
            pattern = friendly_pattern(size, own, x)
            if not lift_keeps_connected(size, group, x, pattern):
                continue  # rule 4.1: this token cannot swipe at all
            destinations = swipe_destinations(size, own, enemy, group, x, landing, pattern)
            while bb_any(destinations):
                f = bb_lowest(destinations)
                destinations = bb_without(destinations, f)
                # Rule 4.5: one move per distinct enemy group touching f (at most 3).
                first = -1
                second = -1
                for k in range(6):
                    e = NEIGHBOURS[size, f, k]
                    if not bb_has(enemy, e):
                        continue
                    gid = group_id[e]
                    if gid == first or gid == second:
                        continue
                    if first < 0:
                        first = gid
                    else:
                        second = gid
                    if store:
                        flipped = bb_row(enemy_groups, gid)
                        moves[n] = encode_swipe(x, f, bb_lowest(flipped))
                        bb_store(flips, n, flipped)
                    n += 1

    # Rule 3: an empty interior cell with no enemy neighbour or a friendly neighbour.
    placements = bb_and(empty_interior, bb_or(bb_andnot(inside, enemy_touch), own_touch))
    if not store:
        return n + bb_count(placements)
    while bb_any(placements):
        cell = bb_lowest(placements)
        placements = bb_without(placements, cell)
        moves[n] = encode_placement(cell)
        bb_store(flips, n, EMPTY)  # a placement flips nothing (Board.legal_flips says so)
        n += 1
    return n


@njit(cache=True)
def play_with_flip(own, enemy, move, flipped):
    """Play ``move`` (whose flipped group is ``flipped``) and return the next position
    from the opponent's side: ``(their tokens, our tokens)``."""
    to = move_to(move)
    if not is_swipe(move):
        return enemy, bb_or(own, bb_bit(to))
    mover = bb_or(bb_without(own, move_from(move)), bb_bit(to))
    return bb_xor(enemy, flipped), bb_or(mover, flipped)


@njit(cache=True)
def play(size, own, enemy, move):
    """Play a legal ``move``; the flipped group is found from the move's target."""
    flipped = EMPTY
    if is_swipe(move):
        flipped = group_of(size, enemy, move_target(move))
    return play_with_flip(own, enemy, move, flipped)


@njit(cache=True)
def zobrist_hash(size, green, blue, blue_to_move):
    """Zobrist hash of a position: XOR of one key per token, and one for Blue to move."""
    h = ZOBRIST[size, 2, 0] if blue_to_move else np.uint64(0)
    for colour in range(2):
        rest = green if colour == 0 else blue
        while bb_any(rest):
            c = bb_lowest(rest)
            rest = bb_without(rest, c)
            h ^= ZOBRIST[size, colour, c]
    return h
