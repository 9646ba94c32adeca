"""Fuzzing the parsers and the protocol: any input is either accepted or rejected with
HingeError (nothing else is raised), and a rejected input changes nothing.

Two kinds of input: arbitrary text (hypothesis), and near-valid text made by mutating
valid position strings, moves, records and command lines (insert, delete or replace a
few characters). Hypothesis runs derandomized, so every run tries the same inputs.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hinge_fast import Board, Move
from hinge_fast.errors import HingeError
from hinge_fast.games.positions import random_position
from hinge_fast.protocol.server import EngineSession, parse_game_string
from tests.conftest import MID_GAME

FUZZ = settings(
    max_examples=150, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck)
)
#: Characters the formats are made of: mutations draw mostly from these.
NEAR = 'gbGB0123456789/ ;-xX.[]"{}\n\tABCDEFGHIJKLMNOPQRSTUVWXYZacdefhijklmnopqrstuvwyz+_'


def _random_game_fens():
    rng = random.Random(2024)
    fens = []
    for size in (4, 5, 6, 7, 8, 9):
        fens.append(Board(size).fen())
        fens.append(random_position(size, rng.randrange(5, 40), rng).fen())
    return fens


VALID_FENS = [MID_GAME, "4/5/6/7/6/1gg2/4 b"] + _random_game_fens()
VALID_MOVES = [str(m) for m in Board.from_fen(MID_GAME).legal_moves] + [
    "e5-f6",
    "C4",
    "c10",
    "E5 - F6 x G7",
]


@st.composite
def mutated(draw, seeds):
    """One of ``seeds`` with one to four random edits."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "duplicate"]))
        char = draw(st.sampled_from(NEAR) | st.characters())
        if kind == "insert":
            text = text[:at] + char + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + 1 :]
        elif kind == "replace":
            text = text[:at] + char + text[at + 1 :]
        else:
            text = text[:at] + text[at : at + 5] + text[at:]
    return text


near_text = st.text(alphabet=st.sampled_from(NEAR), max_size=80)
any_text = st.text(max_size=120)


# ----- positions ----------------------------------------------------------------------------
def check_position(text):
    from hinge_fast import reference as ref

    try:
        expected = ref.format_position(ref.parse_position(text))
    except HingeError:
        expected = None
    try:
        board = Board.from_fen(text)
    except HingeError:
        assert expected is None, f"the reference accepts {text!r}"
        return
    # Accepted by both implementations, as the same position.
    assert board.fen() == expected
    # Accepted: it must survive a round trip and move generation.
    assert Board.from_fen(board.fen()).fen() == board.fen()
    moves = board.legal_moves
    assert (board.outcome() is not None) == (not moves)


@FUZZ
@given(st.one_of(any_text, near_text))
def test_position_parser_random_text(text):
    check_position(text)


@FUZZ
@given(mutated(VALID_FENS))
def test_position_parser_near_valid(text):
    check_position(text)


@pytest.mark.parametrize(
    "text",
    [
        "4/5/6/7/6/5/4 g",
        "  4/5/6/7/6/5/4 g\n",
        "4/5/6/7/6/5/4  g",
        "4/5/6/7/6/5/4\tg",
        "4/5/6/7/6/5/4 G",
        "4/5/6/7/6/5/4 g b",
        "4/5/6/7/6/5/4 /g",
        "4/5/6/7/6/5/4g",
        "4/5/2gg2/7/6/5/4 b",
        "4/5/2gG2/7/6/5/4 b",
        "4/5/2g03/7/6/5/4 b",
        "4/5/2g+3/7/6/5/4 b",
        "4/5/6/7/6/5/4/ g",
        "/4/5/6/7/6/5/4 g",
        "4//5/6/7/6/5/4 g",
        "4/5/6/7/6/5/3 g",
        "4/5/6/7/6/5/5 g",
        "4/5/6/7/6/5/b3 g",
        "4/5/6/7/1b4/5/4 g",
        "４/5/6/7/6/5/4 g",
    ],
)
def test_position_parser_tricky_cases(text):
    # Whitespace, case, zero and leading-zero runs, empty rows, edge tokens, non-ASCII digits.
    check_position(text)


def test_position_parser_huge_runs_cost_nothing():
    with pytest.raises(HingeError, match="does not fit"):
        Board.from_fen("9" * 100_000 + "/7/8/9/10/11/10/9/8/7/6 g")


# ----- moves -----------------------------------------------------------------------------------
def check_move_text(text):
    try:
        move = Move.from_str(text)
    except HingeError:
        move = None
    if move is not None:
        assert Move.from_str(str(move)) == move
    board = Board.from_fen(MID_GAME)
    before = (board.fen(), list(board.move_stack))
    try:
        legal = board.parse_move(text)
    except HingeError:
        legal = None
    assert (board.fen(), list(board.move_stack)) == before
    if legal is not None:
        assert legal in board.legal_moves
    try:
        board.push_str(text)
    except HingeError:
        assert (board.fen(), list(board.move_stack)) == before
    else:
        assert legal is not None and board.move_stack == [legal]


@FUZZ
@given(st.one_of(any_text, near_text))
def test_move_parsers_random_text(text):
    check_move_text(text)


@FUZZ
@given(mutated(VALID_MOVES))
def test_move_parsers_near_valid(text):
    check_move_text(text)


def test_move_parsers_reject_non_text():
    for value in (None, 3, b"C4", ["C4"]):
        with pytest.raises(HingeError):
            Move.from_str(value)
        with pytest.raises(HingeError):
            Board().parse_move(value)


# ----- game records -----------------------------------------------------------------------------
def _records():
    from hinge_fast.records.record import GameRecord, format_record

    board = Board.from_fen(VALID_FENS[5])
    return [
        format_record(GameRecord(size=4, moves=["C3", "D5"], tags={"Green": "me", "Blue": "you"})),
        '[Size "5"]\n[Start "5/6/7/8/9/8/7/6/5 b"]\n\n1... E5 2. B2 {hm} C2 ; rest\nunfinished\n',
        f'[Start "{board.fen()}"]\n\n{" ".join(str(m) for m in board.legal_moves[:1])} unfinished\n',
    ]


def check_records(text):
    from hinge_fast.records.record import parse_records

    try:
        records = parse_records(text)
    except HingeError:
        return
    assert isinstance(records, list)


@FUZZ
@given(st.one_of(any_text, near_text))
def test_record_reader_random_text(text):
    check_records(text)


@FUZZ
@given(st.data())
def test_record_reader_near_valid(data):
    check_records(data.draw(mutated(_records())))


# ----- the protocol ---------------------------------------------------------------------------
def _command_lines():
    lines = [
        "info",
        "newgame",
        "newgame 4",
        "newgame 9",
        f"newgame {MID_GAME}",
        "newgame 4/5/6/7/6/1gg2/4 b",
        "newgame 4/5/6/7/6/5/4 g;InProgress;B2;D4",
        "play F6",
        "play C4",
        "play B2",
        "play D4",
        "validmoves",
        "undo",
        "undo 2",
        "options",
        "options get engine",
        "options set engine mcts",
        "options set engine alphabeta",
        "options set seed 3",
        "options set table_mb 2",
        "options set tree_nodes 5000",
        "perft 1",
        "perft 2",
        "bestmove depth 1",
        "bestmove nodes 50",
        "bestmove time 00:00:00.05",
        "stop",
    ]
    lines += [f"play {m}" for m in VALID_MOVES[:12]]
    return lines


COMMANDS = _command_lines()
command_line = st.one_of(st.sampled_from(COMMANDS), mutated(COMMANDS), near_text, any_text)


def check_session(lines):
    # Searches end at their first interim result, so a mutated 'bestmove time 99:...'
    # cannot run for long; perft stays shallow for the same reason.
    session = EngineSession(should_stop=lambda: True, strict=True)
    session.max_perft_depth = 2
    for line in lines:
        before = session.snapshot()
        out = session.handle(line)
        if not line.strip() or line.split()[0].lower() == "stop":
            assert out == []
            continue
        assert out and out[-1] == "ok"
        assert all("\n" not in part and "\r" not in part and part != "ok" for part in out[:-1])
        failures = [part for part in out if part.startswith(("err ", "invalidmove "))]
        if failures:
            assert len(out) == 2, out
            assert session.snapshot() == before, line
        if session.board is not None:
            # The game string always reloads to the same game.
            start, board = parse_game_string(session.game_string())
            assert (
                board.fen() == session.board.fen() and board.move_stack == session.board.move_stack
            )
        if session.finished:
            break


@FUZZ
@given(st.lists(command_line, max_size=12))
def test_protocol_random_sessions(lines):
    check_session(lines)


@FUZZ
@given(st.lists(st.sampled_from(COMMANDS), min_size=3, max_size=20))
def test_protocol_valid_command_sequences(lines):
    check_session(["newgame 5"] + lines)
