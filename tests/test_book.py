"""Opening books: reading them (position strings, game records), their order in a
match, making balanced ones, the shipped books, and the match and book commands."""

from __future__ import annotations

import pytest

from hinge_fast import Board, HingeError
from hinge_fast.board import bitboard_cells
from hinge_fast.core.fen import format_fen
from hinge_fast.core.geometry import geometry
from hinge_fast.core.symmetry import symmetry_permutations
from hinge_fast.games.book import (
    BOOKS_DIR,
    default_book_path,
    make_book,
    parse_book,
    read_book,
    symmetry_key,
)
from hinge_fast.games.match import GameSettings, play_match
from hinge_fast.games.players import get_player
from hinge_fast.records.record import read_records

SIDE5 = [
    "5/6/1g5/5g2/5b3/5b2/7/2g1b1/5 g",
    "5/4b1/2g4/1b6/4g4/5b2/1g5/6/5 g",
    "5/6/4gg1/1b6/7g1/8/1b5/4b1/5 g",
]


def image(board, perm):
    """``board`` under one of the 12 symmetries."""
    green = [int(perm[c]) for c in bitboard_cells(board.green)]
    blue = [int(perm[c]) for c in bitboard_cells(board.blue)]
    return Board.from_fen(format_fen(board.size, green, blue, int(board.turn)))


# ----- reading -------------------------------------------------------------------------------
def test_position_lines_comments_and_blanks():
    book = parse_book("# a book\n\n" + "\n".join(SIDE5) + "\n", "b.txt", size=5)
    assert [e.start for e in book.entries] == SIDE5 and all(e.moves == () for e in book.entries)
    assert [e.where for e in book.entries] == ["line 3", "line 4", "line 5"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "holds no position"),
        ("# only a comment\n\n", "holds no position"),
        (f"{SIDE5[0]}\n5/6/7/zz/9/8/7/6/5 g\n", "line 2: row"),
        (f"{SIDE5[0]}\n{SIDE5[1]}\n4/5/6/7/6/5/4 g\n", "line 3: a side-4 position, not of side 5"),
        ("4/5/6/7/6/5/4\n", "line 1: position string"),
    ],
)
def test_bad_books_name_the_line(text, message):
    with pytest.raises(HingeError, match=message):
        parse_book(text, "b.txt", size=5)


def test_a_finished_position_is_refused():
    from hinge_fast.games.game import play_game

    over = play_game(get_player("random", seed=1), get_player("random", seed=2), size=4).board.fen()
    with pytest.raises(HingeError, match="line 2: the game is over"):
        parse_book("4/5/6/7/6/5/4 g\n" + over + "\n", "b.txt")


def test_missing_and_unreadable_books(tmp_path):
    with pytest.raises(HingeError, match="does not exist"):
        read_book(tmp_path / "nothere.txt")
    with pytest.raises(HingeError, match="is a folder"):
        read_book(tmp_path)
    (tmp_path / "bin.txt").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(HingeError, match="not UTF-8"):
        read_book(tmp_path / "bin.txt")


def test_a_book_of_game_records_cut_at_a_ply(tmp_path):
    path = tmp_path / "games.hgn"
    path.write_text(
        '[Size "5"]\n\n1. D5 E7 2. F6 D2 unfinished\n\n[Size "5"]\n\n1. C3 G7 unfinished\n'
    )
    whole = read_book(path, size=5)
    assert [e.moves for e in whole.entries] == [("D5", "E7", "F6", "D2"), ("C3", "G7")]
    assert [e.where for e in whole.entries] == ["game 1 (line 1)", "game 2 (line 5)"]
    assert whole.entries[0].start == Board(5).fen()
    cut = read_book(path, size=5, plies=2)
    assert [e.moves for e in cut.entries] == [("D5", "E7"), ("C3", "G7")]
    with pytest.raises(HingeError, match="game 2 .* has 2 moves, fewer than 3"):
        read_book(path, size=5, plies=3)
    with pytest.raises(HingeError, match="for books of game records"):
        parse_book(SIDE5[0], "b.txt", plies=2)


def test_the_orders():
    book = parse_book("\n".join(SIDE5), "b.txt")
    assert [book.entry(i, 1, "sequential").start for i in range(4)] == SIDE5 + SIDE5[:1]
    shuffled = [book.entry(i, 1, "random").start for i in range(6)]
    # each time through the book, every entry once; the same seed, the same order
    assert sorted(shuffled[:3]) == sorted(SIDE5) and sorted(shuffled[3:]) == sorted(SIDE5)
    assert shuffled == [book.entry(i, 1, "random").start for i in range(6)]
    assert book.digest != parse_book("\n".join(SIDE5[:2]), "b.txt").digest


# ----- symmetries and making books ---------------------------------------------------------------
@pytest.mark.parametrize("size", [4, 6, 9])
def test_the_12_images_of_a_position_share_a_key(size):
    board = Board.from_fen(format_fen(size, [0, 3, geometry(size).n_interior - 1], [5], 0))
    keys = {symmetry_key(image(board, perm)) for perm in symmetry_permutations(size)}
    assert len(keys) == 1
    other = Board.from_fen(format_fen(size, [0, 3, geometry(size).n_interior - 1], [6], 0))
    assert symmetry_key(other) != symmetry_key(board) or other.fen() == board.fen()


def test_make_book_gives_distinct_live_positions():
    fens = make_book(5, 6, plies=4, seed=2)
    assert fens == make_book(5, 6, plies=4, seed=2)  # the same seed, the same book
    boards = [Board.from_fen(f) for f in fens]
    assert 1 <= len(fens) <= 6 and all(b.size == 5 and not b.is_game_over() for b in boards)
    assert len({symmetry_key(b) for b in boards}) == len(boards)
    with pytest.raises(HingeError, match="positions must be"):
        make_book(5, 0)


@pytest.mark.parametrize("size", range(4, 10))
def test_the_shipped_books(size):
    book = read_book(default_book_path(size), size=size)
    assert 50 <= len(book) <= 200
    boards = [e.board() for e in book.entries]
    assert len({symmetry_key(b) for b in boards}) == len(boards)
    assert default_book_path(size).parent == BOOKS_DIR


# ----- in a match ----------------------------------------------------------------------------------
def test_a_book_run_plays_each_entry_twice_with_colours_swapped():
    book = parse_book("\n".join(SIDE5), "b.txt", size=5)
    result = play_match(
        get_player("greedy"),
        get_player("random"),
        games=6,
        size=5,
        seed=1,
        settings=GameSettings(book=book, book_order="sequential"),
    )
    assert [g.start for g in result.games] == [s for s in SIDE5 for _ in range(2)]
    assert [g.a_color.name for g in result.games] == ["GREEN", "BLUE"] * 3
    assert [g.green for g in result.games] == ["greedy", "random"] * 3
    records = result.records()
    assert all(
        r.start == g.start and r.board_at(0).fen() == g.start for r, g in zip(records, result.games)
    )


def test_match_command_with_a_book_file(cli, tmp_path):
    path = tmp_path / "book.txt"
    path.write_text("\n".join(SIDE5) + "\n")
    out = tmp_path / "games.hgn"
    run = cli(
        "match",
        "greedy",
        "random",
        "--games",
        "4",
        "--size",
        "5",
        "--seed",
        "1",
        "--book",
        path,
        "--book-order",
        "sequential",
        "--out",
        out,
    )
    assert run.status == 0 and "book book.txt (3 entries, sequential order)" in run.out
    records = read_records(str(out))
    assert [r.start for r in records] == [SIDE5[0], SIDE5[0], SIDE5[1], SIDE5[1]]
    assert all(r.tags["Book"].startswith("book.txt ") for r in records)
    # resuming with another book is refused
    path.write_text("\n".join(SIDE5[:2]) + "\n")
    run = cli(
        "match",
        "greedy",
        "random",
        "--games",
        "6",
        "--size",
        "5",
        "--book",
        path,
        "--book-order",
        "sequential",
        "--resume",
        out,
    )
    assert run.status == 2 and "Book" in run.err


def test_match_command_random_openings(cli):
    run = cli(
        "match", "greedy", "random", "--games", "2", "--size", "5", "--seed", "1", "--book", "none"
    )
    assert run.status == 0 and "4-ply random openings" in run.out
    run = cli(
        "match", "greedy", "random", "--games", "2", "--size", "5", "--seed", "1", "--openings", "2"
    )
    assert run.status == 0 and "2-ply random openings" in run.out


@pytest.mark.parametrize(
    "make, extra, message",
    [
        (None, ["--book", "{dir}/nothere.txt"], "does not exist"),
        ("", [], "holds no position"),
        (SIDE5[0] + "\nnot a position g\n", [], "line 2"),
        (SIDE5[0] + "\n", ["--size", "6"], "line 1: a side-5 position, not of side 6"),
        (SIDE5[0] + "\n", ["--openings", "3"], "--openings asks for random openings"),
        (SIDE5[0] + "\n", ["--book-plies", "3"], "for books of game records"),
        (None, ["--book", "none", "--book-plies", "3"], "not for random openings"),
    ],
)
def test_match_command_bad_books(cli, tmp_path, make, extra, message):
    path = tmp_path / "book.txt"
    args = ["match", "greedy", "random", "--games", "2", "--size", "5"]
    if make is not None:
        path.write_text(make)
        args += ["--book", path]
    args += [a.format(dir=tmp_path) for a in extra]
    run = cli(*args)
    err = run.err.strip().splitlines()
    assert (
        run.status == 2 and len(err) == 1 and err[0].startswith("error: ") and message in err[0]
    ), run.err
    assert run.out == ""


# ----- the book command ------------------------------------------------------------------------------
def test_book_command_writes_a_book(cli, tmp_path):
    out = tmp_path / "side5.txt"
    run = cli("book", "--size", "5", "--positions", "3", "--seed", "3", "--out", out)
    assert run.status == 0 and "positions written" in run.out
    book = read_book(out, size=5)
    assert 1 <= len(book) <= 3
    assert out.read_text().startswith("# hinge-fast book: side 5")


@pytest.mark.parametrize(
    "argv",
    [
        ["--size", "6", "--tablebase", "x.tb"],
        ["--positions", "0"],
        ["--out", "/nonexistent/dir/b.txt", "--positions", "1"],
    ],
)
def test_book_command_bad_input(cli, argv):
    run = cli("book", *argv)
    assert run.status == 2 and len(run.err.strip().splitlines()) == 1
