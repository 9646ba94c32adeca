"""The move code: one int64 per move, the layout defined here and nowhere else.

    code = from | to << CELL_BITS | target << 2 * CELL_BITS

``from``, ``to`` and ``target`` are cell indices (``geometry.py``). A placement has
``from == to`` and ``target == NO_CELL``; a swipe's target is the first cell, in
``(c, r)`` order, of the enemy group it flips (the lowest bit of the group), so a code
is the move's identity of rules.md section 5.

The functions are plain Python, so code above the kernels (Board, tools) can use them
without numba; ``codes.py`` compiles the very same functions for the kernels.

>>> code = encode_swipe(3, 4, 17)
>>> move_from(code), move_to(code), move_target(code), is_swipe(code)
(3, 4, 17, True)
>>> decode(encode_placement(5))
(5, 5, None)
"""

CELL_BITS = 9
CELL_MASK = (1 << CELL_BITS) - 1
#: The target field of a placement: no cell.
NO_CELL = CELL_MASK


def encode_placement(to):
    return to | (to << CELL_BITS) | (NO_CELL << (2 * CELL_BITS))


def encode_swipe(frm, to, target):
    return frm | (to << CELL_BITS) | (target << (2 * CELL_BITS))


def move_from(move):
    return move & CELL_MASK


def move_to(move):
    return (move >> CELL_BITS) & CELL_MASK


def move_target(move):
    return (move >> (2 * CELL_BITS)) & CELL_MASK


def is_swipe(move):
    # Self-contained (no call to move_target): numba compiles each function alone.
    return ((move >> (2 * CELL_BITS)) & CELL_MASK) != NO_CELL


def decode(move):
    """``(from, to, target)`` cell indices of a move code; ``target`` is None for a
    placement. Plain Python (takes any integer, numpy or not)."""
    move = int(move)
    target = move_target(move)
    return move_from(move), move_to(move), (None if target == NO_CELL else target)
