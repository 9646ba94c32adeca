"""The shift layout's sets and counts (``sets.py``; bulk perft's last ply is
``shiftplay.uniform_count``, in as many words as the side needs) against the reference.

The counts must be the reference's number of distinct legal moves on random positions
from random play and from random fillings; hand-made positions have a token whose swipes
the lift (rule 4.1) forbids, rings and chains.
"""

import numpy as np
import pytest
from numba import njit

from hinge_fast import Board
from hinge_fast import reference as ref
from hinge_fast.core import kernels
from hinge_fast.core.geometry import geometry
from hinge_fast.core.sets import (
    SET_LIKES,
    down,
    group_touches_at,
    nth_bit,
    s_count,
    s_highest,
    s_lowest,
    s_lowest_index,
    set_like,
    to_shift_words,
    up,
)
from hinge_fast.core.tables import MAX_SIZE, NWORDS, SHIFT_INTERIOR, workspace
from hinge_fast.games.positions import random_filling
from tests.conftest import QUICK_MAX_SIZE, game_positions, group_touches, lift_stuck

SIZES = range(4, MAX_SIZE + 1)


def shift_count(size: int, own, enemy) -> int:
    """The number of legal moves of the side to move, as bulk perft counts them."""
    return int(kernels.moves_count(size, own, enemy, set_like(size)))


def fewer(size: int, n: int) -> int:
    """``n`` positions on sides 4 to 6, fewer on the larger sides (the reference is slow
    there); ``-m slow`` runs many more on sides 7 to 9."""
    return n if size <= QUICK_MAX_SIZE else max(1, n // 3)


def played(size: int, seed: int) -> list:
    """Every position of a random game (copies: ``game_positions`` yields one board as
    it plays on)."""
    return [board.copy() for board in game_positions(size, seed, every=1)]


@pytest.mark.parametrize("size", SIZES)
def test_each_interior_cell_goes_to_bit_c_times_w_plus_r(size):
    geo = geometry(size)
    width = 2 * size - 1
    for i in range(geo.n_interior):
        bits = np.zeros(NWORDS, dtype=np.uint64)
        bits[i >> 6] = np.uint64(1) << np.uint64(i & 63)
        c, r = geo.coords[i]
        assert as_int(kernels_layout(size, tuple(bits))) == 1 << (c * width + r), geo.names[i]


@pytest.mark.parametrize("size", SIZES)
def test_counts_are_the_reference_move_counts(size):
    boards = [
        b
        for seed in range(fewer(size, 3))
        for b in played(size, 70 * size + seed)[:: 4 if size <= 6 else 12]
    ]
    boards += [random_filling(size, seed=7300 * size + seed) for seed in range(fewer(size, 30))]
    swipes = 0
    for board in boards:
        legal = ref.legal_moves(ref.parse_position(board.fen()))
        assert shift_count(size, board.own, board.enemy) == len(legal), board.fen()
        swipes += sum(1 for m in legal if "-" in ref.move_name(m))
    assert swipes > 50  # the positions have swipes to count, not only placements


@pytest.mark.slow
@pytest.mark.parametrize("size", range(QUICK_MAX_SIZE + 1, MAX_SIZE + 1))
def test_wide_counts_are_the_reference_move_counts_on_many_positions(size):
    boards = [b for seed in range(6) for b in played(size, 170 * size + seed)[::3]]
    boards += [random_filling(size, seed=7700 * size + seed) for seed in range(150)]
    for board in boards:
        legal = ref.legal_moves(ref.parse_position(board.fen()))
        assert shift_count(size, board.own, board.enemy) == len(legal), board.fen()


def test_a_token_that_would_split_its_group_has_no_swipe():
    # Green's chain C3-D4-E5 touches Blue's D3: D4 could swipe but is the chain's only
    # link, so rule 4.1 forbids every swipe of it.
    pos = ref.RefPosition(4, {(2, 2): "g", (3, 3): "g", (4, 4): "g", (3, 2): "b"}, "g")
    assert ref.swipe_final_cells(pos, (3, 3)) == set()
    board = Board.from_fen(ref.format_position(pos))
    assert shift_count(4, board.own, board.enemy) == len(ref.legal_moves(pos))


def test_no_move_when_the_side_to_move_was_eliminated():
    board = Board.from_fen(ref.format_position(ref.RefPosition(4, {(2, 2): "b", (3, 3): "b"}, "g")))
    assert shift_count(4, board.own, board.enemy) == 0


@pytest.mark.parametrize("size", SIZES)
def test_bulk_perft_counts_what_made_perft_makes(size):
    for board in played(size, 40 + size)[6::12][:4]:
        bulk, made = (
            int(kernels.perft_kernel(size, board.own, board.enemy, 3, b, workspace(4)))
            for b in (True, False)
        )
        assert bulk == made, board.fen()


def shift_bit(size: int, name: str) -> int:
    """The shift-layout bit of the cell named ``name``."""
    geo = geometry(size)
    c, r = geo.coords[geo.names.index(name)]
    return c * (2 * size - 1) + r


def as_int(words) -> int:
    return sum(int(word) << (64 * i) for i, word in enumerate(words))


@njit
def compiled_layout(size, stones, like):
    """``stones`` in the shift layout of ``like``'s words, as numba converts them."""
    return to_shift_words(size, stones, like)


def kernels_layout(size, stones):
    """``stones`` in the shift layout of side ``size``, as numba converts them."""
    return compiled_layout(size, stones, set_like(size))


def layout(size: int, stones) -> tuple:
    """``stones`` in the shift layout, as numpy words (numba returns Python ints)."""
    return tuple(np.uint64(word) for word in kernels_layout(size, stones))


@pytest.mark.parametrize("size", SIZES)
def test_group_touch_counts_are_the_reference_groups_next_to_each_cell(size):
    # Exact on every interior cell without a token of the colour counted: the lone
    # tokens and centred groups counted by runs, the others grown, must give the
    # reference's number of distinct groups next to the cell (capped at three).
    w = np.uint64(2 * size - 1)
    boards = [
        b
        for seed in range(fewer(size, 3))
        for b in played(size, 90 * size + seed)[:: 3 if size <= 6 else 9]
    ]
    boards += [random_filling(size, seed=5100 * size + seed) for seed in range(fewer(size, 60))]
    checked = 0
    for board in boards:
        pos = ref.parse_position(board.fen())
        me = pos.to_move
        for stones, colour in ((board.enemy, ref.other(me)), (board.own, me)):
            t1, t2, t3 = (as_int(t) for t in group_touches(layout(size, stones), w))
            for cell in ref.cells(size):
                if not ref.is_interior(size, cell) or pos.tokens.get(cell) == colour:
                    continue
                n = len(ref.enemy_groups_touching(size, pos.tokens, cell, ref.other(colour)))
                bit = shift_bit(size, ref.cell_name(cell))
                got = sum((t >> bit) & 1 for t in (t1, t2, t3))
                assert got == min(n, 3), (board.fen(), ref.cell_name(cell), colour)
                checked += n >= 2
    assert checked > 100  # cells next to two groups or more were checked


def splits_its_group(size: int, tokens: dict, cell) -> bool:
    """Rule 4.1 by definition: without the token on ``cell``, its friendly neighbours
    are not all in one group."""
    colour = tokens[cell]
    rest = {c: t for c, t in tokens.items() if c != cell}
    friends = [n for n in ref.neighbours(size, cell) if rest.get(n) == colour]
    return bool(friends) and not set(friends) <= ref.group_of(size, rest, friends[0])


@pytest.mark.parametrize("size", SIZES)
def test_lift_stuck_tokens_are_those_whose_lift_splits_their_group(size):
    # The flood of the cells open to the edge and one fill per hole (not per token)
    # must give exactly the tokens whose lift splits their group; random fillings have
    # many holes, rings and chains.
    w = np.uint64(2 * size - 1)
    boards = [
        b
        for seed in range(fewer(size, 3))
        for b in played(size, 60 * size + seed)[:: 3 if size <= 6 else 9]
    ]
    boards += [random_filling(size, seed=5300 * size + seed) for seed in range(fewer(size, 90))]
    stuck_seen = 0
    for board in boards:
        pos = ref.parse_position(board.fen())
        for stones, colour in ((board.own, pos.to_move), (board.enemy, ref.other(pos.to_move))):
            mine = {c: t for c, t in pos.tokens.items() if t == colour}
            expected = sum(
                1 << shift_bit(size, ref.cell_name(c))
                for c in mine
                if splits_its_group(size, mine, c)
            )
            assert as_int(lift_stuck(size, layout(size, stones), w)) == expected, (
                board.fen(),
                colour,
            )
            stuck_seen += expected != 0
    assert stuck_seen > len(boards) // 2


@pytest.mark.parametrize("size", SIZES)
def test_group_touches_at_some_cells_are_exact_there(size):
    # Only the groups without a centre next to the cells asked for are grown: on those
    # cells the counts are group_touches' (exact off the stones).
    w = np.uint64(2 * size - 1)
    rng = np.random.default_rng(size)
    boards = [random_filling(size, seed=5500 * size + seed) for seed in range(fewer(size, 60))]
    differ = 0
    for board in boards:
        for stones in (board.enemy, board.own):
            a = layout(size, stones)
            free = as_int(SHIFT_INTERIOR[size, : len(a)]) & ~as_int(a)
            cells = sum(
                1 << b for b in range(64 * len(a)) if (free >> b) & 1 and rng.random() < 0.1
            )
            full = group_touches(a, w)
            some = group_touches_at(
                a, tuple(np.uint64((cells >> (64 * i)) & (2**64 - 1)) for i in range(len(a))), w
            )
            assert [as_int(t) & cells for t in some] == [as_int(t) & cells for t in full], (
                board.fen()
            )
            differ += as_int(some[1]) != as_int(full[1])  # groups far from the cells were not grown
    assert differ > 0


def test_a_group_closing_a_ring_with_one_cell_touches_it_once():
    # Blue's five tokens round E5 leave E4 open: E4 touches Blue's group on two sides
    # (two runs), still one group, so one move per swipe ending there.
    ring = [(5, 4), (5, 5), (4, 5), (3, 4), (3, 3)]
    tokens = {cell: "b" for cell in ring} | {(5, 3): "g", (6, 3): "g", (2, 2): "g", (2, 3): "g"}
    pos = ref.RefPosition(6, tokens, "g")
    board = Board.from_fen(ref.format_position(pos))
    w = np.uint64(11)
    t1, t2, _ = (as_int(t) for t in group_touches(layout(6, board.enemy), w))
    x = shift_bit(6, ref.cell_name((4, 3)))
    assert (t1 >> x) & 1 == 1 and (t2 >> x) & 1 == 0
    assert shift_count(6, board.own, board.enemy) == len(ref.legal_moves(pos))


def test_a_token_on_a_ring_may_swipe_and_one_on_a_chain_may_not():
    # Green's ring round E5 (rule 4.1): the ring token F5's lift leaves the ring joined
    # (its two gaps lie in different regions, inside and outside), so it keeps its
    # swipes; D3, between the ring and the tail C2, is their only link and keeps none.
    ring = [(5, 4), (5, 5), (4, 5), (3, 4), (3, 3), (4, 3)]
    tokens = {cell: "g" for cell in ring} | {(3, 2): "g", (2, 1): "g", (6, 4): "b", (2, 2): "b"}
    pos = ref.RefPosition(6, tokens, "g")
    board = Board.from_fen(ref.format_position(pos))
    assert ref.swipe_final_cells(pos, (5, 4))
    assert ref.swipe_final_cells(pos, (3, 2)) == set()
    assert shift_count(6, board.own, board.enemy) == len(ref.legal_moves(pos))


def hex_distance(a, b) -> int:
    dc, dr = b[0] - a[0], b[1] - a[1]
    return max(abs(dc), abs(dr)) if dc * dr >= 0 else abs(dc) + abs(dr)


def test_a_chain_inside_a_ring_splits_although_its_gaps_are_enclosed():
    # Green's ring of 18 tokens three steps round the centre F6 encloses the chain
    # G6-F6-E6. F6's two gaps lie in one region (the ring's inside), which is not open
    # to the edge: the flood cannot settle it, the fill must, and lifting F6 splits the
    # chain, so F6 has no swipe although Blue's F8 gives it ends.
    centre = (5, 5)
    ring = [c for c in ref.cells(6) if hex_distance(c, centre) == 3]
    tokens = {cell: "g" for cell in ring} | {(6, 5): "g", (5, 5): "g", (4, 5): "g", (5, 7): "b"}
    pos = ref.RefPosition(6, tokens, "g")
    board = Board.from_fen(ref.format_position(pos))
    assert ref.swipe_final_cells(pos, centre) == set()
    assert any(ref.swipe_final_cells(pos, cell) for cell in ((6, 5), (4, 5)))
    assert shift_count(6, board.own, board.enemy) == len(ref.legal_moves(pos))


@njit
def compiled_primitives(a, k, n):
    return (
        up(a, k),
        down(a, k),
        s_lowest(a),
        s_highest(a),
        s_lowest_index(a),
        nth_bit(a, n),
        s_count(a),
    )


@pytest.mark.parametrize("words", range(1, len(SET_LIKES) + 1))
def test_the_primitives_compiled_for_a_word_count_agree_with_their_python_stubs(words):
    # Each primitive is written out word by word when a kernel is compiled; the stubs do
    # the same on Python integers. Random sets, every shift below a word.
    rng = np.random.default_rng(words)
    for _ in range(200):
        a = tuple(
            np.uint64(x) if rng.random() < 0.6 else np.uint64(0)
            for x in rng.integers(0, 2**64, words, dtype=np.uint64)
        )
        if not any(a):
            continue
        k = np.uint64(rng.integers(1, 64))
        n = int(rng.integers(0, int(s_count(a))))
        plain = lambda v: tuple(int(x) for x in v) if isinstance(v, tuple) else int(v)  # noqa: E731
        expected = (
            up(a, k),
            down(a, k),
            s_lowest(a),
            s_highest(a),
            s_lowest_index(a),
            nth_bit(a, n),
            s_count(a),
        )
        assert [plain(v) for v in compiled_primitives(a, k, n)] == [plain(v) for v in expected]
