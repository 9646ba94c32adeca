"""Geometry, position strings, the Board API and the first commands."""

import pytest

from hinge_fast import Board, Color, HingeError, Move
from hinge_fast.core.fen import parse_fen
from hinge_fast.core.geometry import DIRECTIONS, geometry
from tests.conftest import MID_GAME


# ----- geometry ------------------------------------------------------------------------
@pytest.mark.parametrize("size", range(4, 10))
def test_cell_counts_and_edges(size):
    geo = geometry(size)
    assert geo.n_cells == 3 * size * (size - 1) + 1
    assert geo.n_interior == 3 * (size - 1) * (size - 2) + 1
    for cell, (_c, _r) in enumerate(geo.coords):
        on_board = sum(n >= 0 for n in geo.neighbours[cell])
        # Edge cells are exactly the cells with fewer than six neighbours.
        assert (on_board < 6) == (not geo.is_interior(cell))
        assert geo.parse_cell(geo.names[cell].lower()) == cell


@pytest.mark.parametrize("size", range(4, 10))
def test_neighbours_are_in_cyclic_order(size):
    geo = geometry(size)
    for cell in range(geo.n_interior):
        ring = [geo.coords[n] for n in geo.neighbours[cell]]
        for k in range(6):
            (a, b), (c, d) = ring[k], ring[(k + 1) % 6]
            assert (c - a, d - b) in DIRECTIONS  # each neighbour is adjacent to the next


def test_interior_first_in_column_row_order():
    geo = geometry(6)
    interior = [geo.coords[i] for i in range(geo.n_interior)]
    assert interior == sorted(interior)
    assert geo.names[0] == "B2"
    assert geo.parse_cell("C4") == geo.index[(2, 3)]


@pytest.mark.parametrize("size", [4, 6, 9])
def test_swipe_ring_turns_around_the_pivot(size):
    """Around the pivot N[k] a swipe steps to N[k-1] then C[k-1], or to N[k+1] then
    C[k] (geometry.swipe_ring): rules.md section 4's p + D[i+-1] and p + D[i+-2]."""
    geo = geometry(size)
    for x in range(geo.n_interior):
        c, r = geo.coords[x]
        ring = geo.swipe_ring[x]
        for k in range(6):
            p = ring[k]
            pc, pr = geo.coords[p]
            i = DIRECTIONS.index((c - pc, r - pr))  # x = p + D[i]
            for turn, y1, y2 in (
                (-1, ring[(k - 1) % 6], ring[6 + (k - 1) % 6]),
                (1, ring[(k + 1) % 6], ring[6 + k]),
            ):
                for steps, y in ((1, y1), (2, y2)):
                    dc, dr = DIRECTIONS[(i - steps * turn) % 6]
                    assert geo.index.get((pc + dc, pr + dr), -1) == y
                assert y1 in geo.neighbours[x] and y1 in geo.neighbours[p]
                if y2 >= 0:
                    assert y2 in geo.neighbours[p] and y2 in geo.neighbours[y1]
                    assert y2 not in geo.neighbours[x] and y2 != x


@pytest.mark.parametrize("text", ["", "Z1", "C", "C0", "A9", "L1", "C4x", "C44", 4])
def test_bad_cells(text):
    with pytest.raises(HingeError):
        geometry(6).parse_cell(text)


# ----- position strings -------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, problem",
    [
        ("", "empty"),
        ("6/7/8/9/10/11/10/9/8/7/6", "side to move"),
        ("6/7/8/9/10/11/10/9/8/7/6 x", "side to move"),
        ("6/7/8/9/10/11/10/9/8/7 g", "rows"),
        ("6/7/8/9/10/11/10/9/8/7/6/5/4/3/2/1/1/1/1/1 g", "rows"),
        ("6/7/8/9/10/12/10/9/8/7/6 g", "does not fit"),
        ("6/7/8/9/10/10/10/9/8/7/6 g", "describes 10 cells"),
        ("g5/7/8/9/10/11/10/9/8/7/6 g", "edge"),
        ("6/7/8/9/10/11/10/9/8/7/5g g", "edge"),
        ("6/7/8/9/10/5x5/10/9/8/7/6 g", "unexpected character"),
        ("6/7/8/9/10/5G5/10/9/8/7/6 g", "unexpected character"),
        ("6/7/8/9/10/99999999999999999999999/10/9/8/7/6 g", "does not fit"),
        ("6/7/8/9/10/011/10/9/8/7/6 g", "run '011' has a leading zero; write '11'"),
        ("6/7/8/9/10/11/10/9/8/7/06 g", "run '06' has a leading zero; write '6'"),
        ("6/7/8/9/10/11/10/9/8/7/0g5 g", "a run of empty cells is at least 1, not 0"),
        ("6/7/8/9/10/11/10/9/8/7/6 g extra", "fields"),
    ],
)
def test_bad_position_strings(text, problem):
    with pytest.raises(HingeError, match=problem):
        Board.from_fen(text)


@pytest.mark.parametrize("size", range(4, 10))
def test_empty_board_round_trip(size):
    board = Board(size)
    assert Board.from_fen(board.fen()).fen() == board.fen()
    assert board.fen().split()[0].split("/")[0] == str(size)


def test_position_string_canonical():
    parsed = parse_fen(MID_GAME)
    assert len(parsed.green) == 10 and len(parsed.blue) == 10
    assert Board.from_fen("  " + MID_GAME + " ").fen() == MID_GAME


# ----- Board and Move ---------------------------------------------------------------------
def test_default_board():
    board = Board()
    assert board.size == 6 and board.turn == Color.GREEN
    assert board.fen() == "6/7/8/9/10/11/10/9/8/7/6 g"
    assert len(board.legal_moves) == 61


def test_move_notation():
    assert str(Move.from_str("e5-f6xg7")) == "E5-F6xG7"
    assert Move.from_str("c4") == Move(to="C4")
    assert Move.from_str("E5-E5") == Move(to="E5", frm="E5")
    for bad in ["", "C", "E5-", "E5-F6x", "E5F6", "E5-F6xG7x", "C4xD5"]:
        with pytest.raises(HingeError):
            Move.from_str(bad)


def test_push_pop_and_canonical_targets():
    board = Board.from_fen(MID_GAME)
    before = board.fen()
    move = board.parse_move("h4-i6")  # one enemy group touches I6: target may be left out
    assert str(move) == "H4-I6xG6"
    board.push(move)
    assert board.turn == Color.BLUE and board.peek() == move
    assert board.pop() == move
    assert board.fen() == before
    board.push_str("H4-I6xH6")  # any cell of the flipped group names it
    assert str(board.peek()) == "H4-I6xG6"
    assert board.piece_at("G6") == Color.GREEN and board.piece_at("H6") == Color.GREEN


@pytest.mark.parametrize(
    "text, problem",
    [
        ("A1", "edge"),
        ("C5", "occupied"),
        ("E3", "singleton touching"),
        ("H4-I7", "no swipe"),
        ("H4-I6xB2", "not in an enemy group"),
        ("Q9", "not a cell"),
        ("", "cannot read"),
    ],
)
def test_illegal_moves_leave_the_board_unchanged(text, problem):
    board = Board.from_fen(MID_GAME)
    with pytest.raises(HingeError, match=problem):
        board.push_str(text)
    assert board.fen() == MID_GAME and board.move_stack == []


def test_pop_on_empty_stack():
    with pytest.raises(HingeError):
        Board().pop()


def test_outcomes():
    eliminated = Board.from_fen(
        "6/1bb2b1/1b1bbbb1/1b4bb1/1b3bb3/2bb2bbb2/3bb1b1b1/3b2b2/1b3bb1/1b2b2/6 g"
    )
    assert eliminated.is_game_over()
    assert (
        eliminated.outcome().winner == Color.BLUE and eliminated.outcome().reason == "elimination"
    )
    assert eliminated.legal_moves == []
    assert Board().outcome() is None


def test_drawing_has_coordinates():
    text = str(Board.from_fen(MID_GAME))
    assert "A B C D E F" in text and "11" in text and "green to move" in text
    assert text.count("g") >= 10


# ----- command line -----------------------------------------------------------------------
def test_moves_command(cli):
    run = cli("moves", "--size", "4")
    assert run.status == 0
    out = run.out.split()
    assert len(out) == 19 and out[0] == "B2"


def test_perft_command_divide(cli):
    run = cli("perft", "2", MID_GAME, "--divide")
    assert run.status == 0
    lines = run.out.splitlines()
    assert lines[-1] == "1114"
    assert sum(int(line.split(": ")[1]) for line in lines[:-1]) == 1114
    assert "nodes/s" in run.err


@pytest.mark.parametrize("flags", [[], ["--no-bulk"], ["--reference"]])
def test_perft_command_total(cli, flags):
    run = cli("perft", "3", "--size", "4", *flags)
    assert run.status == 0 and run.out.splitlines()[-1] == "3450"


def test_show_command(cli):
    run = cli("show", MID_GAME)
    assert run.status == 0 and MID_GAME in run.out


@pytest.mark.parametrize(
    "argv",
    [
        ["moves", "6/7 g"],
        ["perft", "x"],
        ["perft", "-1"],
        ["perft", "99"],
        ["moves", "--size", "3"],
        ["moves", "--size", "12"],
        ["moves", "start", "--size", "five"],
        ["show", MID_GAME, "--size", "5"],
        ["nonsense"],
        ["moves", "--bogus"],
    ],
)
def test_bad_input_is_one_error_line(cli, argv):
    run = cli(*argv)
    err = run.err.strip().splitlines()
    assert run.status == 2 and len(err) == 1 and err[0].startswith("error: ")


def test_zobrist_hash_tells_positions_apart():
    import random

    from hinge_fast.core import kernels

    rng = random.Random(5)
    seen = {}
    for size in (4, 6, 9):
        board = Board(size)
        while board.legal_moves and len(board.move_stack) < 60:
            board.push(rng.choice(board.legal_moves))
            green, blue = board.green, board.blue
            key = int(kernels.zobrist_hash(size, green, blue, board.turn == Color.BLUE))
            assert seen.setdefault(key, (size, board.fen())) == (size, board.fen())
    flipped = int(kernels.zobrist_hash(size, green, blue, board.turn != Color.BLUE))
    assert flipped != key  # the side to move is part of the hash


def test_moves_on_a_finished_game_says_who_won(cli):
    run = cli("moves", "6/7/8/9/10/4gg5/10/9/8/7/6 b")
    assert (run.status, run.out) == (2, "")
    assert run.err == "error: the game is over: green wins by elimination\n"


@pytest.mark.parametrize("flags", [[], ["--reference"]])
def test_perft_0_counts_the_position_and_claims_no_speed(cli, flags):
    run = cli("perft", "0", *flags)
    assert run.status == 0 and run.out == "1\n"
    assert "inf" not in run.err and "nodes/s" not in run.err and "nothing searched" in run.err


def test_load_kernels_leaves_the_board_as_it_was():
    # A search loads the board's kernels before its clock starts; the board it is
    # given is not changed by that.
    board = Board.from_fen("6/3b1b1/1b1b2b1/4bbb2/1bb2b1bb1/1b1g3b3/1b1g4b1/2g1ggg2/1g2g3/7/6 b")
    before = (board.fen(), list(board.move_stack), board.legal_codes.copy())
    board.load_kernels()
    assert (board.fen(), list(board.move_stack)) == before[:2]
    assert (board.legal_codes == before[2]).all()
