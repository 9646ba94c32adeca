"""Game records (hinge_fast.records.record): format, parse, replay, validation."""

import io

import pytest

from hinge_fast import Board
from hinge_fast.errors import HingeError
from hinge_fast.games.positions import random_position
from hinge_fast.records.record import (
    GameRecord,
    count_games,
    format_record,
    parse_record,
    parse_records,
    read_records,
    write_records,
)


def random_game(size, seed, max_plies=300):
    return random_position(size, max_plies, seed)


@pytest.fixture(scope="module")
def finished_games():
    return [random_game(4, seed) for seed in range(4)]


def test_round_trip_several_games_through_a_file(tmp_path, finished_games):
    records = [
        GameRecord.from_board(b, Green="random", Blue="random", Round=str(i + 1))
        for i, b in enumerate(finished_games)
    ]
    path = tmp_path / "games.hgn"
    write_records(path, records)
    back = read_records(path)
    assert len(back) == len(records)
    for original, board, read in zip(records, finished_games, back):
        assert read.moves == original.moves
        assert read.size == 4
        assert read.tags["Round"] == original.tags["Round"]
        assert read.result == str(board.outcome().winner)
        assert read.termination == board.outcome().reason
        assert read.board_at().fen() == board.fen()
    # the same text through an open file and as a string
    assert [r.moves for r in read_records(io.StringIO(path.read_text()))] == [
        r.moves for r in records
    ]
    assert [r.moves for r in read_records(path.read_text())] == [r.moves for r in records]


def test_format_fills_in_result_and_termination(finished_games):
    board = finished_games[0]
    text = format_record(GameRecord.from_board(board))
    assert f'[Result "{board.outcome().winner}"]' in text
    assert f'[Termination "{board.outcome().reason}"]' in text
    assert text.rstrip().endswith(str(board.outcome().winner))


def test_exact_text_of_a_short_game():
    record = GameRecord(
        6,
        ["F6", "D4", "G7"],
        {"Green": "me", "Blue": "you", "Date": "2024.05.01", "Custom": 'say "hi"'},
    )
    assert format_record(record) == (
        '[Date "2024.05.01"]\n[Green "me"]\n[Blue "you"]\n[Size "6"]\n[Result "unfinished"]\n'
        '[Custom "say \\"hi\\""]\n\n1. F6 D4 2. G7 unfinished\n'
    )
    back = parse_records(format_record(record))[0]
    assert back.tags["Custom"] == 'say "hi"'
    assert list(back.tags) == ["Date", "Green", "Blue", "Result", "Custom"]


def test_blue_to_move_start_numbers_from_one_dots():
    start = "6/7/8/9/10/5g5/10/9/8/7/6 b"
    record = GameRecord(6, ["D4", "G7"], {}, start=start)
    text = format_record(record)
    assert "1... D4 2. G7 unfinished" in text
    assert f'[Start "{start}"]' in text
    back = parse_records(text)[0]
    assert back.start == start and back.moves == ["D4", "G7"]
    assert back.board_at(0).fen() == start


def test_comments_and_semicolons_are_allowed_anywhere():
    text = """[Size "6"]\x20
; a whole-line comment
{before} 1. F6 {green opens
in the centre} D4 ; rest of the line
2. G7 {after} unfinished
"""
    record = parse_records(text)[0]
    assert record.moves == ["F6", "D4", "G7"]
    assert record.comments == {0: "before", 1: "green opens in the centre", 3: "after"}
    again = parse_records(format_record(record))[0]
    assert again.comments == record.comments and again.moves == record.moves


def test_moves_are_stored_canonically_and_numbers_optional():
    # a swipe written with a non-first target cell and lower case
    board = Board.from_fen("6/7/8/9/10/4gg5/5b4/9/8/2b4/6 g")
    swipe = next(m for m in board.legal_moves if m.is_swipe)
    record = parse_records(f'[Start "{board.fen()}"]\n\n{str(swipe).lower()} unfinished\n')[0]
    assert record.moves == [str(swipe)]


def test_boards_replays_each_ply():
    record = GameRecord(6, ["F6", "D4", "G7"])
    boards = record.boards()
    assert len(boards) == 4
    assert [len(b.move_stack) for b in boards] == [0, 1, 2, 3]
    assert boards[3].fen() == record.board_at(3).fen() == record.board_at().fen()
    assert record.board_at(2).move_stack[-1].to == "D4"
    with pytest.raises(HingeError, match="ply must be from 0 to 3"):
        record.board_at(4)


def test_unfinished_with_max_plies_and_resignation_are_accepted():
    text = '[Result "unfinished"]\n[Termination "max plies"]\n\n1. F6 D4 unfinished\n\n[Termination "resignation"]\n\n1. F6 green\n'
    a, b = parse_records(text)
    assert a.result == "unfinished" and a.termination == "max plies"
    assert b.result == "green" and b.termination == "resignation"


def test_result_defaults_to_the_final_position_when_not_given(finished_games):
    board = finished_games[1]
    moves = " ".join(str(m) for m in board.move_stack)
    record = parse_records(f'[Size "4"]\n\n{moves}\n')[0]
    assert record.result == str(board.outcome().winner)


@pytest.mark.parametrize(
    "text, message",
    [
        (
            '[Size "6"]\n\n1. F6 D4 2. A1 unfinished\n',
            r"game 1: ply 3 \(2. A1\): illegal move A1: A1 is an edge cell",
        ),
        (
            '[Size "6"]\n\n1. F6 unfinished\n\n[Size "6"]\n\n1. F6 F6\n',
            r"game 2: ply 2 \(1... F6\): illegal move F6: F6 is occupied",
        ),
        ("[Size 6]\n\n1. F6\n", r"game 1, line 1: cannot read tag line"),
        ('[Size "6"]\n\n1. F6 D4 Z\n', r"game 1, line 3: cannot read 'Z'"),
        ('[Result "green"]\n\n1. F6 D4 green\n', r"result green but the game goes on"),
        (
            '[Result "blue"]\n\n1. F6 D4 green\n',
            r"Result tag blue disagrees with the result token green",
        ),
        ('[Result "maybe"]\n\n1. F6\n', r"Result tag must be green, blue or unfinished"),
        (
            '[Termination "elimination"]\n\n1. F6 unfinished\n',
            r"termination 'elimination' but the game goes on",
        ),
        ("\n1. F6 2. D4 unfinished\n", r"move number 2. before ply 2, expected 1..."),
        ("1. F6 {never closed\n", r"comment opened with \{ is never closed"),
        ('[Size "12"]\n\n1. F6\n', r"board size 12 is not supported"),
        ('[Size "6"]\n[Size "6"]\n\n1. F6\n', r"tag Size given twice"),
        ('[Size "4"]\n[Start "6/7/8/9/10/11/10/9/8/7/6 g"]\n\n1. F6\n', r"Size tag '4' disagrees"),
    ],
)
def test_bad_records_name_the_game_and_problem(text, message):
    with pytest.raises(HingeError, match=message):
        parse_records(text)


def test_a_finished_game_cannot_be_called_unfinished(finished_games):
    board = finished_games[2]
    moves = " ".join(str(m) for m in board.move_stack)
    with pytest.raises(HingeError, match="result unfinished disagrees with the final position"):
        parse_records(f'[Size "4"]\n\n{moves} unfinished\n')
    with pytest.raises(HingeError, match="game 1: ply .*the game is over"):
        parse_records(f'[Size "4"]\n\n{moves} C3\n')


def test_missing_file_is_a_hinge_error(tmp_path):
    with pytest.raises(HingeError, match="game record file .*nope.hgn does not exist"):
        read_records(tmp_path / "nope.hgn")


def test_long_movetext_is_wrapped_with_numbers_beside_moves():
    board = random_game(6, 7, max_plies=60)
    text = format_record(GameRecord.from_board(board))
    movetext = text.split("\n\n", 1)[1].splitlines()
    assert len(movetext) > 1
    assert all(len(line) <= 79 for line in movetext)
    assert not any(line.rstrip().endswith(".") for line in movetext)


def test_many_comments_at_one_ply_are_joined_in_order():
    text = "1. F6 " + "".join(f"{{c{i}}}" for i in range(200_000)) + " B2 unfinished\n"
    (record,) = parse_records(text)
    parts = record.comments[1].split()
    assert len(parts) == 200_000 and parts[:3] == ["c0", "c1", "c2"] and parts[-1] == "c199999"
    assert record.moves == ["F6", "B2"]


def test_one_game_is_read_without_replaying_the_others():
    good = '[Size "4"]\n\n1. D4 B2 unfinished\n'
    bad = '[Size "4"]\n\n1. D4 D4 unfinished\n'  # the second move is on a taken cell
    text = good + "\n" + bad
    with pytest.raises(HingeError, match="^game 2"):
        parse_records(text)
    record, games = parse_record(text, 1)
    assert games == 2 and record.moves == ["D4", "B2"]
    with pytest.raises(HingeError, match="^game 2"):
        parse_record(text, 2)
    with pytest.raises(HingeError, match="no game 3: the record holds 2 games"):
        parse_record(text, 3)
    assert count_games(text) == 2


def test_a_game_over_the_move_bound_is_refused_before_it_is_replayed(monkeypatch):
    from hinge_fast.records import record

    replayed = []
    monkeypatch.setattr(record.GameRecord, "validate", lambda self: replayed.append(self) or self)
    text = '[Size "4"]\n\n1. D4 B2 2. C3 unfinished\n'
    with pytest.raises(HingeError, match="^game 1 holds 3 moves; a game may hold at most 2 moves$"):
        parse_record(text, 1, max_moves=2)
    assert replayed == []
    assert parse_record(text, 1, max_moves=3)[0].moves == ["D4", "B2", "C3"]
