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
    bb_pop,
    bb_row,
    bb_store,
    bb_without,
    bb_xor,
    lowest_bit_index64,
    popcount64,
)
from . import movecode
from .tables import INTERIOR, MAX_GROUPS, NEIGHBOUR_MASKS, NEIGHBOURS, SWIPE_REACH, SWIPE_RING, ZOBRIST

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
        c, frontier = bb_pop(frontier)
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
            cell, frontier = bb_pop(frontier)
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


# The per-cell swipe codes: bits CODE_SHIFT and up of the per-cell scratch array
# ``group_id`` (its low byte keeps the enemy group index of an enemy token).
CODE_SHIFT = 8
OWN_CODE = 1  # a friendly token
# Step 1 can neither stop nor pass here: an enemy token (rule 4.2), or an empty cell
# next to two friendly groups, which a token stepping there would merge (rule 4.4).
BLOCK_CODE = 2
LAND_CODE = 4  # empty interior cell next to an enemy token: a swipe may end here
TOUCH2_CODE = 8  # next to two or more enemy groups (on landing cells and tokens only)
TOUCH3_CODE = 16  # next to three enemy groups (idem)
X_LAND_CODE = 32  # a friendly token next to an enemy token: a reversing swipe may end on it

#: Bit 0 of each of six byte lanes: a 6-bit cyclic pattern spread one bit a byte.
LANES = np.uint64(0x010101010101)
U64 = np.uint64


@njit(cache=True, inline='always')
def mark_word(cells, word, base, code):
    while word:
        c = base + np.int64(lowest_bit_index64(word))
        cells[c] |= code
        word &= word - U64(1)


@njit(cache=True, inline='always')
def mark_cells(cells, bits, code):
    """``cells[c] |= code << CODE_SHIFT`` for every cell c of bitboard ``bits``."""
    shifted = np.int16(code << CODE_SHIFT)
    mark_word(cells, bits[0], 0, shifted)
    mark_word(cells, bits[1], 64, shifted)
    mark_word(cells, bits[2], 128, shifted)
    mark_word(cells, bits[3], 192, shifted)


@njit(cache=True, inline='always')
def mark_swipe_codes(cells, own, enemy, landing, touch1, touch2, touch3, own_touch, own_touch2):
    """Write the swipe code of every cell a swipe reads into ``cells`` (zeroed before):
    ``touch1..3`` are the cells next to at least one, two, three enemy groups,
    ``own_touch`` the cells next to a friendly token, ``own_touch2`` next to two
    friendly groups (an empty cell next to a token of the mover's group and in
    ``own_touch2`` touches a friendly token outside the group: rule 4.4's merge)."""
    mark_cells(cells, own, OWN_CODE)
    mark_cells(cells, bb_or(bb_and(enemy, own_touch), bb_andnot(own_touch2, own)), BLOCK_CODE)
    mark_cells(cells, landing, LAND_CODE)
    ends = bb_or(landing, own)
    mark_cells(cells, bb_and(ends, touch2), TOUCH2_CODE)
    mark_cells(cells, bb_and(ends, touch3), TOUCH3_CODE)
    mark_cells(cells, bb_and(own, touch1), X_LAND_CODE)


@njit(cache=True, inline='always')
def swipe_lanes(size, cells, x):
    """Rule 4, steps 2 to 4, for every pivot and turn of the token on ``x`` at once.

    Gathers the codes of the six neighbours ``N[j]`` and six corner cells ``C[j]``
    (``tables.SWIPE_RING``) into the byte lanes j of ``vn`` and ``vc``. Around the
    pivot ``N[j+1]`` step 1 goes to ``N[j]`` and onward to ``C[j]``; around ``N[j-1]``
    to ``N[j]`` and onward to ``C[j-1]``. So with ``a`` (lane j: ``N[j+1]`` is a
    friendly pivot) and ``b`` (``N[j-1]`` is), each rule is a rotate and an AND:
    one-step ends ``(a | b) & landing``, onward ends from ``a`` in lane j and from
    ``b`` in lane j-1, and a reversing end when any path takes step 2.

    Returns ``(vn, vc, one, corner, back, starts)``: the lanes, the one-step ends
    (lanes of ``N``), the onward ends (lanes of ``C``), the paths that take step 2 (a
    reversing swipe ends on ``x`` if any does and ``x`` touches an enemy token), and
    the first neighbour of each run of friendly neighbours around ``x`` (rule 4.1
    needs a flood fill only for two or more runs: ``lift_keeps_connected``).
    """
    vn = U64(0)
    vc = U64(0)
    for j in range(6):
        vn |= U64(cells[SWIPE_RING[size, x, j]] >> CODE_SHIFT) << U64(8 * j)
        vc |= U64(cells[SWIPE_RING[size, x, 6 + j]] >> CODE_SHIFT) << U64(8 * j)
    f = vn & LANES
    a = ((f >> U64(8)) | (f << U64(40))) & LANES
    b = ((f << U64(8)) | (f >> U64(40))) & LANES
    land = (vn >> U64(2)) & LANES
    cont = ~((vn >> U64(1)) | land) & LANES  # rule 4.4: not blocked, not a one-step end
    one = (a | b) & land
    onward_b = b & cont
    corner = ((a & cont) | (onward_b >> U64(8)) | (onward_b << U64(40))) & (vc >> U64(2)) & LANES
    back = (a | b) & cont
    starts = f & ~b
    return vn, vc, one, corner, back, starts


@njit(cache=True, inline='always')
def lane_moves(vn, vc, one, corner, back, x_code):
    """The number of swipes of a token from its ``swipe_lanes``: one per enemy group
    next to each end (rule 4.5)."""
    n = (popcount64(one) + popcount64(one & (vn >> U64(3))) + popcount64(one & (vn >> U64(4)))
         + popcount64(corner) + popcount64(corner & (vc >> U64(3))) + popcount64(corner & (vc >> U64(4))))
    reverse = np.int64(back != 0) & (x_code >> 5)
    return np.int64(n) + reverse * (1 + ((x_code >> 3) & 1) + ((x_code >> 4) & 1))


@njit(cache=True, inline='always')
def lane_destinations(size, x, one, corner, reverse):
    """The end cells of ``swipe_lanes`` as a bitboard."""
    destinations = bb_bit(x) if reverse else EMPTY
    while one:
        j = np.int64(lowest_bit_index64(one)) >> 3
        destinations = bb_or(destinations, bb_bit(SWIPE_RING[size, x, j]))
        one &= one - U64(1)
    while corner:
        j = np.int64(lowest_bit_index64(corner)) >> 3
        destinations = bb_or(destinations, bb_bit(SWIPE_RING[size, x, 6 + j]))
        corner &= corner - U64(1)
    return destinations


@njit(cache=True, inline='always')
def label_own_groups(size, own, rows):
    """Flood-fill the friendly groups into ``rows[MAX_GROUPS - 1 - g]`` (from the top
    of the enemy group scratch: the groups of both colours together are no more than
    the tokens, fewer than ``MAX_GROUPS``). Returns ``(number of groups, cells next to
    a friendly token, cells next to two friendly groups)``."""
    touch1 = EMPTY
    touch2 = EMPTY
    rest = own
    n = 0
    while bb_any(rest):
        group, touch = group_and_touch(size, own, bb_lowest(rest))
        bb_store(rows, MAX_GROUPS - 1 - n, group)
        touch2 = bb_or(touch2, bb_and(touch1, touch))
        touch1 = bb_or(touch1, touch)
        rest = bb_andnot(rest, group)
        n += 1
    return n, touch1, touch2


@njit(cache=True, inline='always')
def can_reach_landing(size, x, landing, x_code):
    """Whether the token on ``x`` has a landing cell within two steps or an enemy
    neighbour (a reversing swipe): the others cannot swipe."""
    return bb_any(bb_and(bb_row(SWIPE_REACH[size], x), landing)) or (x_code & X_LAND_CODE) != 0


@njit(cache=True, inline='always')
def grow_one(size, rest, reached, frontier):
    """One cell of a flood fill of ``rest``: take the frontier's lowest cell and add
    its unreached neighbours in ``rest``. Returns ``(reached, frontier)``."""
    c, frontier = bb_pop(frontier)
    new = bb_andnot(bb_and(neighbour_mask(size, c), rest), reached)
    return bb_or(reached, new), bb_or(frontier, new)


@njit(cache=True)
def lift_keeps_connected(size, group, x, starts):
    """Rule 4.1: the group ``group`` of ``x`` without ``x`` is still connected (any
    set holding the group as one of its groups will do, e.g. every friendly token).

    ``starts`` (from ``swipe_lanes``) has a lane for each run of friendly neighbours
    around ``x``; one run stays connected. Otherwise two fills grow in turn, one from
    each of two runs: most lifts that fail do so because one side is small (the tail
    of a chain), and that side's fill ends first, without walking the other side.
    When the fills meet, they go on as one until every neighbour is reached.
    (Growing a fill a whole ring at a time, breadth first, measured slower.)"""
    if popcount64(starts) < 2:
        return True
    rest = bb_without(group, x)
    must_reach = bb_and(neighbour_mask(size, x), rest)
    a = bb_bit(SWIPE_RING[size, x, np.int64(lowest_bit_index64(starts)) >> 3])
    b = bb_bit(SWIPE_RING[size, x, np.int64(lowest_bit_index64(starts & (starts - U64(1)))) >> 3])
    reached_a = a
    frontier_a = a
    reached_b = b
    frontier_b = b
    while True:
        reached_a, frontier_a = grow_one(size, rest, reached_a, frontier_a)
        if bb_any(bb_and(reached_a, reached_b)):
            break
        if not bb_any(frontier_a):
            return False  # a's side is closed and b is not on it
        reached_b, frontier_b = grow_one(size, rest, reached_b, frontier_b)
        if bb_any(bb_and(reached_a, reached_b)):
            break
        if not bb_any(frontier_b):
            return False
    reached = bb_or(reached_a, reached_b)
    frontier = bb_or(frontier_a, frontier_b)
    while True:
        if not bb_any(bb_andnot(must_reach, reached)):
            return True
        if not bb_any(frontier):
            return False
        reached, frontier = grow_one(size, rest, reached, frontier)


@njit(cache=True)
def is_eliminated(own, enemy):
    """Rule 6: the side to move has no tokens while the board holds two or more."""
    return not bb_any(own) and bb_count(enemy) >= 2


@njit(cache=True, inline='always')
def generate_moves(size, own, enemy, moves, flips, enemy_groups, group_id, store):
    """All distinct legal moves of the side to move (rules.md sections 3 to 6).

    With ``store``, writes the move codes to ``moves[:n]`` and the group each move
    flips to ``flips[:n]`` (empty for a placement); without, only counts. Swipes come first, then
    placements. Returns n (0 when the game is over). ``enemy_groups`` and
    ``group_id`` are scratch: the enemy groups from row 0 and the friendly ones from
    the top (``label_own_groups``); per cell, the enemy group index in the low byte
    and the swipe code above it (``mark_swipe_codes``).
    """
    if is_eliminated(own, enemy):
        return 0
    group_id[:] = 0
    n_enemy_groups, enemy_touch = label_enemy_groups(size, enemy, enemy_groups, group_id)
    inside = interior(size)
    empty_interior = bb_andnot(inside, bb_or(own, enemy))
    # Rule 4: a swipe must end on an empty interior cell touching an enemy token, or
    # back on its own cell (emptied by the lift) if that touches an enemy token.
    landing = bb_and(empty_interior, enemy_touch)
    can_swipe = bb_any(landing) or bb_any(bb_and(own, enemy_touch))
    # The friendly groups, and the cells they touch for rule 3.
    n_own, own_touch, own_touch2 = label_own_groups(size, own, enemy_groups)
    n = 0
    if can_swipe:
        mark_swipe_codes(group_id, own, enemy, landing, enemy_touch, EMPTY, EMPTY, own_touch, own_touch2)
        for g in range(n_own):
            group = bb_row(enemy_groups, MAX_GROUPS - 1 - g)
            members = group
            if bb_count(group) < 2:
                continue  # a singleton has no friendly pivot
            while bb_any(members):
                x, members = bb_pop(members)
                x_code = np.int64(group_id[x]) >> CODE_SHIFT
                if not can_reach_landing(size, x, landing, x_code):
                    continue
                vn, vc, one, corner, back, starts = swipe_lanes(size, group_id, x)
                reverse = back != 0 and (x_code & X_LAND_CODE) != 0
                if not (one or corner or reverse):
                    continue
                if not lift_keeps_connected(size, group, x, starts):
                    continue  # rule 4.1: this token cannot swipe at all
                destinations = lane_destinations(size, x, one, corner, reverse)
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
                        gid = group_id[e] & 255
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
