"""Sets of cells in the shift layout, and the geometry of rules.md section 4 over them.

Every fast kernel works on one cell layout: cell ``(c, r)`` is bit ``c * W + r``
(``W = 2S - 1``) of a tuple of 64-bit words, as many as side S needs
(``tables.SHIFT_WORDS_OF``: 1 word for S = 4, 2 for 5 and 6, 3, 4 and 5 for 7, 8 and
9). Each direction of rules.md is then one fixed shift of the whole board:

    D = (+1, 0)  (+1, +1)  (0, +1)  (-1, 0)  (-1, -1)  (0, -1)
        +W       +W+1      +1       -W       -W-1      -1

so every rule of section 4 is a handful of shifts and ANDs over all the tokens at
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

``swipes.swipe_end_sets`` builds the end sets from these pieces. Each end gives one
move per enemy group next to it (rule 4.5); no end is next to three groups, so with
``touch2`` the cells next to two enemy groups, an end set E gives ``|E| + |E & touch2|``
moves (``swipes.swipe_count``).

Rule 4.1 (the lift) is settled for the tokens with an end whose friendly neighbours
form two runs or more (``lift_stuck_among``): such a token splits its group when two of
its gaps (runs of other neighbours) lie in one region of the non-friendly cells. One
flood of the cells open to the board's edge shows it for nearly every token, and one
fill per hole (a region closed off by friendly tokens) next to the others settles the
rest.

The groups' touch counts (the cells next to one, two, three groups) are, for the
groups with a centre (a token next to all the others: lone tokens, every group of
two or three, most of four), the runs of their tokens around each cell, all at
once; the other groups are grown a whole ring a round (``dilate``: four shifts,
ANDed with the tokens), only those next to the cells asked for (``group_touches_at``).

Every flood fill is ``grow_group`` (a group, a hole, the cells open to the edge: a whole
ring a round), and every walk over groups steps with ``next_group``.
"""

import inspect

import numpy as np
from numba.core import types
from numba.extending import overload

# The generated primitives (_define) call these by name from this module's globals.
from .bits import highest_bit_index64, lowest_bit_index64, popcount64  # noqa: F401
from .geometry import MAX_SIZE, MIN_SIZE
from .jit import njit
from .tables import (
    SHIFT_COLUMN_LENGTHS,
    SHIFT_COLUMN_SOURCES,
    SHIFT_COLUMN_TARGETS,
    SHIFT_EDGE,
    SHIFT_INTERIOR,
    SHIFT_WORDS,
    SHIFT_WORDS_OF,
)

U64 = np.uint64
#: The empty set of each word count from 1 to ``SHIFT_WORDS``: passed as ``like`` to a
#: kernel, its type picks the kernel's compiled version (``set_like(size)`` for a side).
SET_LIKES = tuple((U64(0),) * n for n in range(1, SHIFT_WORDS + 1))
ONE = U64(1)
B64 = U64(64)


# ----- sets of cells: a tuple of n uint64 words, bit c * W + r --------------------------------
# Every primitive below is written once for any number of words: a stub (plain Python,
# for calls from the interpreter) and an ``overload`` that writes the numba version out
# for the tuple's length, word by word, when a kernel is compiled. A kernel is one
# source for every word count: the type of the sets it is given picks the compiled
# version (``set_like(size)`` gives the empty set of a side's word count).


def _words(a):
    """The number of words of a set's numba type (``None``: not a tuple of words)."""
    if isinstance(a, types.UniTuple) and isinstance(a.dtype, types.Integer):
        return a.count
    return None


def _define(name, args, n, lines):
    """Compile the source of a primitive for ``n`` words: ``lines`` its body."""
    source = f"def {name}({args}):\n" + "".join(f"    {line}\n" for line in lines)
    scope = dict(globals())  # the primitives above and below, numpy, the constants
    exec(compile(source, f"<sets.{name}[{n}]>", "exec"), scope)
    return scope[name]


def _written_out(stub, words_of=None, same_words=()):
    """Decorator: register the numba version of ``stub``, written out when a kernel is
    compiled for the word count ``n`` of its argument ``words_of`` (default: the first),
    from the lines of source the decorated ``body(n)`` gives; ``same_words``: the
    arguments that must have ``n`` words too."""
    signature = inspect.signature(stub)
    names = list(signature.parameters)
    where = names.index(words_of or names[0])
    others = [names.index(name) for name in same_words]

    def register(body):
        def typer(*arg_types):
            n = _words(arg_types[where])
            if n and all(_words(arg_types[i]) == n for i in others):
                return _define(stub.__name__, ", ".join(names), n, body(n))

        typer.__signature__ = signature  # numba checks it against the generated source's
        overload(stub)(typer)
        return body

    return register


def _tuple(items):
    return "(" + ", ".join(items) + ",)"


def _mask(x):
    return int(x) & 0xFFFFFFFFFFFFFFFF


def _as_int(a):
    """A set as one Python integer (for the stubs)."""
    return sum(int(word) << (64 * i) for i, word in enumerate(a))


def _as_set(value, n):
    """The low ``64 * n`` bits of a Python integer as a set of ``n`` words."""
    return tuple(U64(_mask(value >> (64 * i))) for i in range(n))


def up(a, k):
    """Every cell of ``a`` moved ``k`` bits up (``0 < k < 64``)."""
    return _as_set(_as_int(a) << int(k), len(a))


@_written_out(up)
def _up(n):
    return [
        "return "
        + _tuple(
            ["a[0] << k"] + [f"(a[{i}] << k) | (a[{i - 1}] >> (B64 - k))" for i in range(1, n)]
        )
    ]


def down(a, k):
    """Every cell of ``a`` moved ``k`` bits down (``0 < k < 64``)."""
    return _as_set(_as_int(a) >> int(k), len(a))


@_written_out(down)
def _down(n):
    return [
        "return "
        + _tuple(
            [f"(a[{i}] >> k) | (a[{i + 1}] << (B64 - k))" for i in range(n - 1)]
            + [f"a[{n - 1}] >> k"]
        )
    ]


def _elementwise(name, op, doc):
    def stub(a, b):
        return tuple(U64(_mask(op(int(x), int(y)))) for x, y in zip(a, b))

    stub.__name__ = stub.__qualname__ = name
    stub.__doc__ = doc
    return stub


s_and = _elementwise("s_and", lambda x, y: x & y, "``a & b``.")
s_or = _elementwise("s_or", lambda x, y: x | y, "``a | b``.")
s_andnot = _elementwise("s_andnot", lambda x, y: x & ~y, "``a & ~b``.")
s_xor = _elementwise("s_xor", lambda x, y: x ^ y, "``a ^ b``.")


def _overload_elementwise(stub, expression):
    _written_out(stub, same_words=("b",))(
        lambda n: ["return " + _tuple([expression.format(i=i) for i in range(n)])]
    )


_overload_elementwise(s_and, "a[{i}] & b[{i}]")
_overload_elementwise(s_or, "a[{i}] | b[{i}]")
_overload_elementwise(s_andnot, "a[{i}] & ~b[{i}]")
_overload_elementwise(s_xor, "a[{i}] ^ b[{i}]")


def s_any(a):
    return any(int(x) for x in a)


@_written_out(s_any)
def _s_any(n):
    return ["return (" + " | ".join(f"a[{i}]" for i in range(n)) + ") != 0"]


def s_eq(a, b):
    return all(int(x) == int(y) for x, y in zip(a, b))


@_written_out(s_eq, same_words=("b",))
def _s_eq(n):
    return ["return (" + " | ".join(f"(a[{i}] ^ b[{i}])" for i in range(n)) + ") == 0"]


def s_count(a):
    return np.int64(sum(bin(int(x)).count("1") for x in a))


@_written_out(s_count)
def _s_count(n):
    return [
        "return np.int64(" + " + ".join(f"np.int64(popcount64(a[{i}]))" for i in range(n)) + ")"
    ]


def _one_word_set(n, i, word):
    return _tuple([word if j == i else "U64(0)" for j in range(n)])


def _by_first_word(order, value):
    """Lines that return ``value(i)`` for the first non-zero word ``a[i]`` in ``order``
    (the last one in ``order`` without a test)."""
    lines = []
    for i in order[:-1]:
        lines += [f"if a[{i}]:", f"    return {value(i)}"]
    return lines + [f"return {value(order[-1])}"]


def s_lowest(a):
    """The lowest cell of a non-empty set, as a set."""
    value = _as_int(a)
    return _as_set(value & -value, len(a))


@_written_out(s_lowest)
def _s_lowest(n):
    return _by_first_word(
        list(range(n)), lambda i: _one_word_set(n, i, f"a[{i}] & (~a[{i}] + ONE)")
    )


def s_highest(a):
    """The highest cell of a non-empty set, as a set."""
    return _as_set(1 << (_as_int(a).bit_length() - 1), len(a))


@_written_out(s_highest)
def _s_highest(n):
    return _by_first_word(
        list(reversed(range(n))),
        lambda i: _one_word_set(n, i, f"ONE << U64(highest_bit_index64(a[{i}]))"),
    )


def s_lowest_index(a):
    """The bit of the lowest cell of a non-empty set."""
    value = _as_int(a)
    return np.int64((value & -value).bit_length() - 1)


@_written_out(s_lowest_index)
def _s_lowest_index(n):
    return _by_first_word(
        list(range(n)), lambda i: f"np.int64({64 * i} + lowest_bit_index64(a[{i}]))"
    )


def s_zero(like):
    """The empty set of as many words as ``like``."""
    return (U64(0),) * len(like)


@_written_out(s_zero)
def _s_zero(n):
    return ["return " + _tuple(["U64(0)"] * n)]


def s_all(like):
    """Every bit set, in as many words as ``like``."""
    return (~U64(0),) * len(like)


@_written_out(s_all)
def _s_all(n):
    return ["return " + _tuple(["~U64(0)"] * n)]


def s_row(array, row, like):
    """Row ``row`` of a two-dimensional uint64 array, as a set of as many words as ``like``."""
    return tuple(U64(array[row, i]) for i in range(len(like)))


@_written_out(s_row, "like")
def _s_row(n):
    return ["return " + _tuple([f"array[row, {i}]" for i in range(n)])]


def s_store(array, row, a):
    """Write the set ``a`` to row ``row`` of a two-dimensional uint64 array."""
    for i, x in enumerate(a):
        array[row, i] = x


@_written_out(s_store, "a")
def _s_store(n):
    return [f"array[row, {i}] = a[{i}]" for i in range(n)]


def s_bit(b, like):
    """The set of the one bit ``b``, in as many words as ``like``."""
    return _as_set(1 << int(b), len(like))


@_written_out(s_bit, "like")
def _s_bit(n):
    return ["k = U64(b & 63)", "q = b >> 6"] + [
        "return " + _tuple([f"(ONE << k) if q == {i} else U64(0)" for i in range(n)])
    ]


def s_has(a, b):
    """Whether the set ``a`` holds bit ``b``."""
    return bool(_as_int(a) >> int(b) & 1)


@_written_out(s_has)
def _s_has(n):
    return ["return (a[b >> 6] >> U64(b & 63)) & ONE != U64(0)"]


#: Masks of the low half of every 32-, 16-, 8-, 4-, 2- and 1-bit block of a word.
HALVES = (
    U64(0x00000000FFFFFFFF),
    U64(0x0000FFFF0000FFFF),
    U64(0x00FF00FF00FF00FF),
    U64(0x0F0F0F0F0F0F0F0F),
    U64(0x3333333333333333),
    U64(0x5555555555555555),
)


@njit(cache=True, inline="always")
def nth_in_word(word, n):
    """The ``n``-th lowest set bit (from 0, ``n < popcount(word)``) of ``word``, as a
    one-bit word: six halvings, each keeping the half of the remaining block that holds
    it (the low half when it has more than ``n`` bits, else the high half, ``n`` less
    the low half's bits), in place of a loop of up to 63 steps."""
    for mask in HALVES:
        low = word & mask
        c = np.int64(popcount64(low))
        if n >= c:
            n -= c
            word ^= low
        else:
            word = low
    return word


def nth_bit(a, n):
    """The ``n``-th lowest cell (from 0) of the set ``a``, as a set."""
    value = _as_int(a)
    bits = [b for b in range(value.bit_length()) if value >> b & 1]
    return _as_set(1 << bits[n], len(a))


@_written_out(nth_bit)
def _nth_bit(words):
    lines = ["k = np.int64(n)"]
    for i in range(words - 1):
        lines += [
            f"c = np.int64(popcount64(a[{i}]))",
            "if k < c:",
            f"    return {_one_word_set(words, i, f'nth_in_word(a[{i}], k)')}",
            "k -= c",
        ]
    return lines + [f"return {_one_word_set(words, words - 1, f'nth_in_word(a[{words - 1}], k)')}"]


def s_interior(size, like):
    """The interior cells of side ``size`` in the shift layout of ``like``'s words."""
    return tuple(U64(SHIFT_INTERIOR[size, i]) for i in range(len(like)))


def s_edge(size, like):
    """The edge cells (``tables.SHIFT_EDGE``) of side ``size``, in ``like``'s words."""
    return tuple(U64(SHIFT_EDGE[size, i]) for i in range(len(like)))


def _overload_table_row(stub, table):
    """The numba version of a stub that reads row ``size`` of the table named ``table``
    (a global of this module) as a set."""
    _written_out(stub, "like")(
        lambda n: ["return " + _tuple([f"{table}[size, {i}]" for i in range(n)])]
    )


_overload_table_row(s_interior, "SHIFT_INTERIOR")
_overload_table_row(s_edge, "SHIFT_EDGE")


def to_shift_words(size, bits, like):
    """The interior cells of bitboard ``bits`` in the shift layout of ``like``'s words."""
    out = 0
    for k in range(2 * size - 3):
        run = _as_int(bits) >> int(SHIFT_COLUMN_SOURCES[size, k])
        out |= (run & ((1 << int(SHIFT_COLUMN_LENGTHS[size, k])) - 1)) << int(
            SHIFT_COLUMN_TARGETS[size, k]
        )
    return _as_set(out, len(like))


@_written_out(to_shift_words, "like")
def _to_shift_words(n):
    # Each interior column is one run of bits in the bitboard and in the shift layout
    # (up to 15 bits, across a word boundary in either): read it, and OR it into the
    # word(s) it lands on, written out with constant offsets for each side that fits
    # in ``n`` words (a loop over the columns took twice the time).
    lines = [f"w{i} = U64(0)" for i in range(n)]
    for size in range(MIN_SIZE, MAX_SIZE + 1):
        if SHIFT_WORDS_OF[size] <= n:
            lines += [f"if size == {size}:"] + [f"    {line}" for line in _column_moves(size)]
    return lines + ["return " + _tuple([f"w{i}" for i in range(n)])]


@njit(cache=True, inline="always")
def shift_sets(size, own_bits, enemy_bits, like):
    """The bitboards ``own_bits``, ``enemy_bits`` (``Board``'s words) as sets of the
    shift layout of ``like``'s words."""
    return to_shift_words(size, own_bits, like), to_shift_words(size, enemy_bits, like)


def _column_moves(size):
    """The lines that move each interior column of side ``size`` from the bitboard
    ``bits`` to the words ``w0, w1, ...``, every offset a constant."""
    lines = []
    for k in range(2 * size - 3):
        source = int(SHIFT_COLUMN_SOURCES[size, k])
        target = int(SHIFT_COLUMN_TARGETS[size, k])
        length = int(SHIFT_COLUMN_LENGTHS[size, k])
        o, q, p, d = source & 63, source >> 6, target & 63, target >> 6
        run = f"(bits[{q}] >> U64({o}))"
        if o + length > 64:
            run = f"({run} | (bits[{q + 1}] << U64({64 - o})))"
        lines.append(f"run = {run} & U64({(1 << length) - 1})")
        lines.append(f"w{d} |= run << U64({p})")
        if p + length > 64:
            lines.append(f"w{d + 1} |= run >> U64({64 - p})")
    return lines


# ----- the six directions: each one fixed shift ----------------------------------------------
# ``at(a, j, w)`` and its kin take a direction ``j`` (0 to 5) and the column length ``w``
# (``W = 2S - 1``). Called with ``j`` a constant, as most calls are, the compiled code is
# the one shift of that direction; called with ``j`` a variable, a six-way switch. Both
# are written out here when a kernel is compiled (an ``overload`` that sees the
# constant), so no separate kernel is compiled for each direction.

#: Per direction j: ``a`` moved by ``-D[j]`` (the cells whose neighbour ``x + D[j]`` is in ``a``).
AT_SHIFTS = (
    "down(a, w)",
    "down(a, w + ONE)",
    "down(a, ONE)",
    "up(a, w)",
    "up(a, w + ONE)",
    "up(a, ONE)",
)
#: Per direction j: ``a`` moved by ``-(D[j] + D[j+1])``, the corner cell between two directions.
AT_CORNER_SHIFTS = (
    "down(a, w + w + ONE)",
    "down(a, w + U64(2))",
    "up(a, w - ONE)",
    "up(a, w + w + ONE)",
    "up(a, w + U64(2))",
    "down(a, w - ONE)",
)
#: Per direction j: ``a`` moved by ``-2 D[j]``.
AT_DOUBLE_SHIFTS = (
    "down(a, w + w)",
    "down(a, w + w + U64(2))",
    "down(a, U64(2))",
    "up(a, w + w)",
    "up(a, w + w + U64(2))",
    "up(a, U64(2))",
)


def _cases(name, args, n, choice, cases):
    """A primitive that returns ``cases[choice]``: the one case when the ``choice``
    argument's type is a constant, else an if-chain over all of them."""
    if isinstance(choice, types.IntegerLiteral):
        return _define(name, args, n, [f"return {cases[choice.literal_value]}"])
    variable = args.split(", ")[1]
    lines = []
    for i, case in enumerate(cases[:-1]):
        lines += [f"if {variable} == {i}:", f"    return {case}"]
    return _define(name, args, n, lines + [f"return {cases[-1]}"])


def direction_primitive(name, cases, doc):
    """A primitive ``name(a, j, w)`` returning ``cases[j]`` (source expressions in
    ``a`` and ``w`` over the primitives of this module), with its interpreter stub and
    its compiled ``overload``: one case for a constant ``j``, else an if-chain."""

    def stub(a, j, w):
        return eval(cases[int(j)], globals(), {"a": a, "w": U64(w)})

    stub.__name__ = stub.__qualname__ = name
    stub.__doc__ = doc

    @overload(stub, prefer_literal=True)
    def impl(a, j, w):
        n = _words(a)
        if n:
            return _cases(name, "a, j, w", n, j, cases)

    return stub


at = direction_primitive(
    "at",
    AT_SHIFTS,
    """The cells ``x`` whose neighbour ``x + D[j]`` is in ``a``
    (``a`` moved by ``-D[j]``).""",
)
at_corner = direction_primitive(
    "at_corner",
    AT_CORNER_SHIFTS,
    """The cells ``x`` whose corner cell
    ``x + D[j] + D[j+1]`` is in ``a``. Past the top or bottom row of a column this reads a cell of the
    next column, never an interior one (``tables._shift_layout`` checks it), so ``a`` must hold
    interior cells only.""",
)
at_double = direction_primitive(
    "at_double",
    AT_DOUBLE_SHIFTS,
    """The cells ``x`` whose cell two steps
    on, ``x + 2 D[j]``, is in ``a``; as for ``at_corner``, ``a`` must hold interior cells only.""",
)
far_from = direction_primitive(
    "far_from",
    tuple(
        f"s_and(at(a, {j}, w), s_or(at_double(a, {j}, w), s_or(at_corner(a, {j}, w), at_corner(a, {(j + 5) % 6}, w))))"
        for j in range(6)
    ),
    """The cells ``x`` whose neighbour ``N[j]`` has a neighbour in ``a`` two steps
    from ``x``: ``x + 2 D[j]``, ``C[j]`` or ``C[j - 1]``.""",
)


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


@njit(cache=True)
def add_to_counter(t1, t2, t3, near):
    """Add the set ``near`` to a counter per cell that stops at three: ``t1``, ``t2``,
    ``t3`` are the cells counted at least once, twice, three times."""
    return s_or(t1, near), s_or(t2, s_and(t1, near)), s_or(t3, s_and(t2, near))


@njit(cache=True, inline="always")
def grow_group(within, seed, w):
    """The flood fill of every kernel: the cells of ``within`` joined to ``seed`` through
    ``within`` (a group of tokens, a hole, the cells open to the edge), grown a ring a
    round (one ``dilate`` for the whole board per round), and those cells with every
    cell next to them: ``(cells, near)``."""
    reached = s_and(seed, within)
    while True:
        near = dilate(reached, w)
        grown = s_and(near, within)
        if s_eq(grown, reached):
            return reached, near
        reached = grown


@njit(cache=True, inline="always")
def next_group(stones, seeds, w):
    """One step of a walk over the groups of ``stones`` with a token in ``seeds``: the
    group of the lowest seed, with every cell next to it (``grow_group``), and the
    seeds of the other groups: ``(group, near, seeds left)``."""
    group, near = grow_group(stones, s_lowest(seeds), w)
    return group, near, s_andnot(seeds, group)


@njit(cache=True, inline="always")
def centred_touches(stones, w):
    """The touch counts of ``group_touches_at`` from the groups with a centre (a token
    next to all the others), all at once, and the tokens of the other groups."""
    far = s_or(s_or(far_from(stones, 0, w), far_from(stones, 1, w)), far_from(stones, 2, w))
    far = s_or(
        far, s_or(s_or(far_from(stones, 3, w), far_from(stones, 4, w)), far_from(stones, 5, w))
    )
    centres = s_andnot(stones, far)
    star = s_and(stones, dilate(centres, w))
    t1, t2, t3 = run_counter(star, w)
    return t1, t2, t3, s_andnot(stones, star)


@njit(cache=True, inline="always")
def add_groups(t1, t2, t3, stones, seeds, w):
    """Add to the counter the cells next to each group of ``stones`` with a token in
    ``seeds`` (``next_group``)."""
    while s_any(seeds):
        _, near, seeds = next_group(stones, seeds, w)
        t1, t2, t3 = add_to_counter(t1, t2, t3, near)
    return t1, t2, t3


@njit(cache=True, inline="always")
def group_touches_at(stones, cells, w):
    """The cells next to at least one, two and three groups of ``stones``, exact on the
    cells ``cells`` (not of ``stones``).

    A group with a token next to all its other tokens (a centre: lone tokens, every
    group of two or three, most of four) cannot close a ring round a cell with one
    more cell, so around any cell its tokens form one run at most: for those groups
    the counts are the runs of their tokens around each cell, all at once. Of the other
    groups only those next to ``cells`` are grown, one by one, a ring a round, and added
    to the counter (a group is all centred or all not: a centre's neighbours are all in
    its group)."""
    t1, t2, t3, rest = centred_touches(stones, w)
    return add_groups(t1, t2, t3, stones, s_and(rest, adjacent(cells, w)), w)


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
    zero = s_zero(a)
    r1, r2, r3 = add_to_counter(zero, zero, zero, s_andnot(a0, a5))
    r1, r2, r3 = add_to_counter(r1, r2, r3, s_andnot(a1, a0))
    r1, r2, r3 = add_to_counter(r1, r2, r3, s_andnot(a2, a1))
    r1, r2, r3 = add_to_counter(r1, r2, r3, s_andnot(a3, a2))
    r1, r2, r3 = add_to_counter(r1, r2, r3, s_andnot(a4, a3))
    return add_to_counter(r1, r2, r3, s_andnot(a5, a4))


@njit(cache=True)
def lift_stuck_among(size, own, check, w):
    """The tokens of ``check`` (friendly tokens whose friendly neighbours form two runs
    or more) whose lift would split their group (rule 4.1). Call a token's gaps the runs
    of its other neighbours; each lies in one region of the non-friendly cells (the
    regions: the cells open to the edge, with every off-board cell, and the holes,
    closed off by friendly tokens). The runs stay joined without x exactly when x's gaps
    lie in as many distinct regions (each link between two runs closes a ring, which
    parts the gaps on either side of it; with fewer links, two gaps meet round a
    part), so x is stuck when two of its gaps lie in one region: around x the region's
    cells form two runs or more. One flood gives the cells open to the edge, and its
    runs settle most tokens; the holes next to the others are filled one by one (they
    are small)."""
    inside = s_interior(size, own)
    free = s_andnot(inside, own)
    open_cells = grow_group(free, s_edge(size, own), w)[0]
    stuck = s_and(check, run_counter(s_or(open_cells, s_andnot(s_all(own), inside)), w)[1])
    unsure = s_andnot(check, stuck)
    if s_any(unsure):
        holes = s_andnot(free, open_cells)
        seeds = s_and(holes, adjacent(unsure, w))
        while s_any(seeds):
            hole, _, seeds = next_group(holes, seeds, w)
            stuck = s_or(stuck, s_and(unsure, run_counter(hole, w)[1]))
    return stuck


def set_like(size: int) -> tuple:
    """The empty set of side ``size``'s words (``tables.SHIFT_WORDS_OF``): the ``like``
    that picks a kernel's compiled version for that side."""
    return SET_LIKES[SHIFT_WORDS_OF[size] - 1]


__all__ = ["SET_LIKES", "set_like", "to_shift_words"]
