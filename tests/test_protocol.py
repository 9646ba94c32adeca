"""The engine protocol (hinge_fast/protocol.py, docs/protocol.md): each command in
process through EngineSession, then whole sessions through ``hinge-fast engine`` in a
subprocess (malformed commands, illegal moves, undo past the start, bestmove, stop,
end of input, Ctrl-C, quit)."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from hinge_fast import Board, __version__
from hinge_fast.errors import HingeError
from hinge_fast.protocol.server import (
    MAX_GAME_MOVES,
    EngineSession,
    format_game_string,
    game_state,
    parse_bestmove_limits,
    parse_game_string,
    parse_time,
    perft,
)
from hinge_fast.search import Limits, Score
from hinge_fast.search.registry import all_options
from tests.conftest import MID_GAME

ROOT = Path(__file__).resolve().parents[1]
ENGINE_CMD = [sys.executable, "-m", "hinge_fast.cli", "engine"]
EMPTY4 = "4/5/6/7/6/5/4 g"
EMPTY6 = "6/7/8/9/10/11/10/9/8/7/6 g"
#: Blue to move with no token while Green has two: Blue was eliminated.
GREEN_WON = "4/5/6/7/6/1gg2/4 b"


ENGINES = ["alphabeta", "mcts"]


@pytest.fixture
def session():
    s = EngineSession(strict=True)
    s.options["seed"].value = 1
    return s


def ok(lines):
    """The lines before the final ok, without bestmove's info lines, checking the shape
    of a successful answer."""
    assert lines[-1] == "ok"
    assert not any(line.startswith(("err", "invalidmove")) for line in lines[:-1]), lines
    return [line for line in lines[:-1] if not line.startswith("info ")]


def failed(session, line, prefix="err"):
    """Run a command that must fail; check the state did not change; return the message."""
    before = session.snapshot()
    lines = session.handle(line)
    assert len(lines) == 2 and lines[1] == "ok", lines
    assert lines[0].startswith(prefix + " "), lines
    assert session.snapshot() == before
    return lines[0][len(prefix) + 1 :]


# ----- in process: each command ----------------------------------------------------------------
def test_info(session):
    idline, capabilities = ok(session.handle("info"))
    assert idline == f"id hinge-fast {__version__}"
    assert "engines=alphabeta,mcts" in capabilities and "stop" in capabilities


def test_commands_before_newgame_fail(session):
    for command in ("play F6", "validmoves", "bestmove depth 1", "undo", "perft 1"):
        assert "no game in progress" in failed(session, command)


def test_blank_lines_and_stop_answer_nothing(session):
    assert session.handle("") == []
    assert session.handle("   \t ") == []
    assert session.handle("stop") == []


def test_unknown_command(session):
    assert failed(session, "frobnicate 3").startswith("unknown command 'frobnicate'")
    assert failed(session, "__init__").startswith("unknown command")


def test_commands_are_case_insensitive(session):
    assert ok(session.handle("NEWGAME 4")) == [f"{EMPTY4};NotStarted"]
    assert ok(session.handle("Play b2"))[0].endswith(";B2")


@pytest.mark.parametrize(
    "command, expected",
    [
        ("newgame", f"{EMPTY6};NotStarted"),
        ("newgame start", f"{EMPTY6};NotStarted"),
        ("newgame 4", f"{EMPTY4};NotStarted"),
        ("newgame 9", "9/10/11/12/13/14/15/16/17/16/15/14/13/12/11/10/9 g;NotStarted"),
        (f"newgame {EMPTY6[:-1]}b", f"{EMPTY6[:-1]}b;NotStarted"),
        ("newgame 4/5/6/7/6/1g3/4 b", "4/5/6/7/6/1g3/4 b;InProgress"),
        (f"newgame {GREEN_WON}", f"{GREEN_WON};GreenWins"),
        (f"newgame {EMPTY4};InProgress;B2;D4", f"{EMPTY4};InProgress;B2;D4"),
        (f"newgame  {EMPTY4} ; InProgress ; b2 ", f"{EMPTY4};InProgress;B2"),
    ],
)
def test_newgame(session, command, expected):
    assert ok(session.handle(command)) == [expected]
    assert session.game_string() == expected


@pytest.mark.parametrize("engine", ENGINES)
def test_newgame_gets_the_searcher_ready_before_the_first_bestmove(session, engine, monkeypatch):
    """``newgame`` loads the side's kernels and allocates the searcher, so that the first
    ``bestmove`` of a game (timed by the other side from outside) pays none of it."""
    from hinge_fast.search.searcher import Searcher

    session.handle(f"options set engine {engine}")
    ok(session.handle("newgame 4"))  # the engine's modules are imported by now
    ready = []
    monkeypatch.setattr(Board, "load_kernels", lambda board: ready.append(("kernels", board.size)))
    kinds, stack = {Searcher}, [Searcher]
    while stack:  # every searcher class: each may have a prepare of its own
        for sub in stack.pop().__subclasses__():
            kinds.add(sub)
            stack.append(sub)
    for kind in kinds:
        monkeypatch.setattr(
            kind, "prepare", lambda self, board: ready.append(("prepare", board.size))
        )
    ok(session.handle("newgame 5"))
    assert ready == [("kernels", 5), ("prepare", 5)]


@pytest.mark.parametrize(
    "argument, message",
    [
        ("3", "board size 3 is not supported"),
        ("10", "board size 10 is not supported"),
        ("-1", "not supported"),
        ("six", "board size must be a whole number"),
        ("99999999999999999999999999", "board size must be a whole number"),
        ("6/7 g", "position string has 2 rows"),
        ("4/5/6/7/6/5/4", "lacks the side to move"),
        (f"{EMPTY4};Finished", "game state must be one of"),
        (f"{EMPTY4};NotStarted;B2", "game string says NotStarted but its moves lead to InProgress"),
        (f"{EMPTY4};InProgress;B2;B2", "move 2 of the game string: illegal move B2"),
        (f"{EMPTY4};InProgress;Z9", "move 1 of the game string"),
        (f"{EMPTY4};", "game state must be one of"),
    ],
)
def test_newgame_rejects(session, argument, message):
    session.handle("newgame 5")
    session.handle("play C3")
    assert message in failed(session, f"newgame {argument}")


def test_newgame_rejects_games_longer_than_the_bound(session):
    text = f"{EMPTY4};InProgress" + ";B2" * (MAX_GAME_MOVES + 1)
    assert "at most" in failed(session, f"newgame {text}")


def test_play_legal_and_illegal(session):
    session.handle("newgame 6")
    assert ok(session.handle("play F6")) == [f"{EMPTY6};InProgress;F6"]
    assert "F6 is occupied" in failed(session, "play F6", "invalidmove")
    assert "edge cell" in failed(session, "play A1", "invalidmove")
    assert "cannot read move" in failed(session, "play hello", "invalidmove")
    assert "singleton touching an enemy" in failed(session, "play F5", "invalidmove")
    assert "play needs a move" in failed(session, "play")
    assert ok(session.handle("play c4")) == [f"{EMPTY6};InProgress;F6;C4"]
    board = Board()
    board.push_str("F6")
    board.push_str("C4")
    assert session.board.fen() == board.fen()


def test_play_after_the_game_is_over(session):
    session.handle(f"newgame {GREEN_WON}")
    assert "the game is over" in failed(session, "play D4", "invalidmove")
    assert ok(session.handle("validmoves")) == [""]
    assert "the game is over" in failed(session, "bestmove depth 1")


def test_validmoves_match_the_board(session):
    session.handle("newgame 5")
    for move in ("E5", "B2", "F5", "C2"):
        session.handle(f"play {move}")
    (line,) = ok(session.handle("validmoves"))
    assert line == ";".join(str(m) for m in session.board.legal_moves)
    session.handle(f"newgame {MID_GAME}")
    (line,) = ok(session.handle("validmoves"))
    assert line == ";".join(str(m) for m in Board.from_fen(MID_GAME).legal_moves)
    assert "x" in line  # swipes, written from-toxtarget
    assert "validmoves takes no arguments" in failed(session, "validmoves 3")


def test_undo(session):
    session.handle("newgame 4")
    for move in ("B2", "D4", "C2"):
        session.handle(f"play {move}")
    assert ok(session.handle("undo")) == [f"{EMPTY4};InProgress;B2;D4"]
    assert "cannot undo 3 moves: 2 played since newgame" in failed(session, "undo 3")
    assert "at least 1" in failed(session, "undo 0")
    assert "whole number" in failed(session, "undo two")
    assert ok(session.handle("undo 2")) == [f"{EMPTY4};NotStarted"]
    assert "cannot undo 1 move: 0 played" in failed(session, "undo")


def test_undo_stops_at_the_loaded_position(session):
    session.handle("newgame 4/5/6/7/6/1g3/4 b")
    session.handle("play D4")
    assert ok(session.handle("undo")) == ["4/5/6/7/6/1g3/4 b;InProgress"]
    failed(session, "undo")


def test_options_list_get_set(session):
    lines = ok(session.handle("options"))
    names = [line.split(";")[0] for line in lines]
    # engine, then every option of the registry (threads first), each once
    assert names[:2] == ["engine", "threads"]
    assert sorted(names[1:]) == sorted(all_options())
    for line in lines:
        fields = line.split(";")
        # name;type;value;default;min;max, an enum listing its choices (two or more) in place of min and max
        assert len(fields) == 6 or fields[1] == "enum" and len(fields) >= 6
    assert ok(session.handle("options get engine")) == [
        "engine;enum;alphabeta;alphabeta;alphabeta;mcts"
    ]
    threads = all_options()["threads"]
    assert ok(session.handle("options get threads")) == [
        f"threads;int;{threads.default};{threads.default};1;{threads.high}"
    ]
    assert ok(session.handle("options set engine MCTS")) == [
        "engine;enum;mcts;alphabeta;alphabeta;mcts"
    ]
    assert ok(session.handle("options set exploration 1.5")) == ["exploration;float;1.5;1;0;100"]
    assert ok(session.handle("options set multipv 3")) == ["multipv;int;3;1;1;1000"]
    assert ok(session.handle("options set seed 42"))[0].startswith("seed;int;42;-1;-1;")
    table = session.options["table_mb"].spec
    assert ok(session.handle(f"options set table_mb {table.low}"))[0].startswith(
        f"table_mb;int;{table.low};"
    )


@pytest.mark.parametrize(
    "command, message",
    [
        ("options set threads 0", "threads must be from 1 to 256, not 0"),
        ("options set engine minimax", "must be one of alphabeta, mcts"),
        ("options set table_mb -1", "table_mb must be from 0"),
        ("options set table_mb 999999999", "table_mb must be from"),
        ("options set tree_nodes 0", "tree_nodes must be from"),
        ("options set exploration x", "exploration must be a number"),
        ("options set multipv 0", "multipv must be from 1 to 1000, not 0"),
        ("options set multipv two", "multipv must be a whole number"),
        ("options set tree_nodes 10000000000", "tree_nodes must be from"),
        ("options set seed -2", "seed must be from -1"),
        ("options set seed 1.5", "whole number"),
        ("options set colour green", "unknown option 'colour'"),
        ("options get", "use 'options'"),
        ("options set seed", "use 'options'"),
        ("options frob", "use 'options'"),
    ],
)
def test_options_rejected(session, command, message):
    assert message in failed(session, command)


def test_parse_time():
    assert parse_time("00:00:05") == 5.0
    assert parse_time("01:02:03.5") == 3723.5
    for bad in ("5", "00:60:00", "00:00:60", "a:b:c", "00:00", "-1:00:00", "00:00:05:00"):
        with pytest.raises(HingeError):
            parse_time(bad)


def test_parse_bestmove_limits():
    assert parse_bestmove_limits("depth 3") == Limits(depth=3)
    assert parse_bestmove_limits("nodes 500 TIME 00:00:01") == Limits(time=1.0, nodes=500)
    for bad, message in [
        ("", "bestmove needs a limit"),
        ("depth", "bestmove needs a limit"),
        ("depth 0", "depth must be from 1"),
        ("depth 65", "depth must be from 1 to 64"),
        ("nodes 0", "nodes must be from 1"),
        ("nodes 10000000000000", "nodes must be from 1"),
        ("time 00:00:00", "time must be more than 0"),
        ("time 25:00:00", "at most 86400"),
        ("depth 2 depth 3", "given twice"),
        ("moves 3", "must be time, depth, nodes or a clock"),
        ("gtime 00:00:01", "needs both gtime and btime"),
        ("gtime 00:00:01 btime 00:00:01 ginc 1", "HH:MM:SS"),
        ("gtime 00:00:01 btime 00:00:01 movestogo 0", "moves to go"),
        ("gtime 00:00:01 btime 00:00:01 gtime 00:00:02", "given twice"),
        ("depth 1e3", "whole number"),
    ]:
        with pytest.raises(HingeError, match=message):
            parse_bestmove_limits(bad)


def test_bestmove_rejects_bad_limits_without_changing_state(session):
    session.handle("newgame 4")
    assert "depth must be from 1 to 64" in failed(session, "bestmove depth 100")
    assert "bestmove needs a limit" in failed(session, "bestmove")


@pytest.mark.parametrize("engine", ENGINES)
def test_bestmove_does_not_play(session, engine):
    session.handle(f"options set engine {engine}")
    session.handle("newgame 5")
    session.handle("play E5")
    before = session.snapshot()
    (move,) = ok(session.handle("bestmove nodes 300" if engine == "mcts" else "bestmove depth 2"))
    assert session.board.parse_move(move) in session.board.legal_moves
    assert session.snapshot() == before
    assert session.last_result.engine == engine


@pytest.mark.parametrize("engine", ENGINES)
def test_bestmove_stops_when_asked(engine):
    """A day-long search ends at its first interim result once should_stop is true."""
    session = EngineSession(should_stop=lambda: True, strict=True)
    session.handle(f"options set engine {engine}")
    session.handle("newgame 6")
    (move,) = ok(session.handle("bestmove time 23:59:59"))
    assert session.board.parse_move(move) in session.board.legal_moves


def test_perft_matches_the_kernels(session):
    session.handle("newgame 5")
    for move in ("E5", "B2", "F5"):
        session.handle(f"play {move}")
    assert ok(session.handle("perft 0")) == ["1"]
    assert ok(session.handle("perft 1")) == [str(len(session.board.legal_moves))]
    from hinge_fast import reference

    pos = reference.parse_position(session.board.fen())
    assert ok(session.handle("perft 3")) == [str(reference.perft(pos, 3))]
    assert "perft depth must be from 0 to 20" in failed(session, "perft 21")
    assert "perft needs a depth" in failed(session, "perft")
    assert "whole number" in failed(session, "perft x")


def test_perft_of_a_finished_game_and_stopping():
    assert perft(Board.from_fen(GREEN_WON), 3) == 0
    with pytest.raises(HingeError, match="perft stopped after 0 of"):
        perft(Board(), 3, should_stop=lambda: True)


def test_quit(session):
    assert session.handle("quit") == ["ok"]
    assert session.finished
    assert "quit takes no arguments" in failed(EngineSession(), "quit now")


def test_internal_errors_are_answered_not_raised(monkeypatch):
    session = EngineSession()
    session.handle("newgame 4")

    def broken(rest):
        raise ZeroDivisionError("boom\nsecond line")

    monkeypatch.setattr(session, "_cmd_validmoves", broken)
    assert session.handle("validmoves") == [
        "err internal error: ZeroDivisionError: boom second line",
        "ok",
    ]


def test_messages_stay_on_one_line(session):
    session.handle("newgame 4")
    for line in ("play \x0bB2\x0cx", "newgame 4/5/6/7/6/5/4\x1cg", "options set seed 1\x1d2"):
        out = session.handle(line)
        assert out[-1] == "ok"
        assert all("\n" not in part and "\r" not in part for part in out)


def test_game_strings():
    board = Board(4)
    assert game_state(board, 0) == "NotStarted"
    assert game_state(Board.from_fen(GREEN_WON), 0) == "GreenWins"
    assert game_state(Board.from_fen(GREEN_WON.replace("g", "b")[:-1] + "g"), 0) == "BlueWins"
    board.push_str("B2")
    text = format_game_string(EMPTY4, board, board.move_stack)
    assert text == f"{EMPTY4};InProgress;B2"
    start, now = parse_game_string(text)
    assert start.fen() == EMPTY4 and now.fen() == board.fen() and now.move_stack == board.move_stack


# ----- through a subprocess ---------------------------------------------------------------------
def run_engine(script: str, timeout: float = 120) -> list[str]:
    done = subprocess.run(
        ENGINE_CMD, input=script, capture_output=True, text=True, cwd=ROOT, timeout=timeout
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout.splitlines()


def test_scripted_session_end_to_end():
    script = "\n".join(
        [
            "info",
            "play F6",  # before newgame
            "newgame 4",
            "",  # ignored
            "play B2",
            "play B2",  # illegal: occupied
            "play Q99",  # malformed
            "validmoves",
            "undo 5",  # past the start
            "bogus command",
            "options set engine mcts",
            "options set seed 7",
            "bestmove nodes 200",
            "bestmove depth 0",
            "undo",
            "undo",
            "quit",
            "info",  # never read: quit ended the session
        ]
    )
    out = run_engine(script + "\n")
    moves = Board(4)
    moves.push_str("B2")
    expected_head = [
        f"id hinge-fast {__version__}",
        "sizes=4-9;engines=alphabeta,mcts;stop;perft;prove",
        "ok",
        "err no game in progress: send newgame first",
        "ok",
        f"{EMPTY4};NotStarted",
        "ok",
        f"{EMPTY4};InProgress;B2",
        "ok",
        "invalidmove illegal move B2: B2 is occupied",
        "ok",
    ]
    assert out[: len(expected_head)] == expected_head
    rest = [line for line in out[len(expected_head) :] if not line.startswith("info ")]
    assert rest[0].startswith("invalidmove ") and rest[1] == "ok"
    assert rest[2] == ";".join(str(m) for m in moves.legal_moves) and rest[3] == "ok"
    assert rest[4:6] == ["err cannot undo 5 moves: 1 played since newgame", "ok"]
    assert rest[6].startswith("err unknown command 'bogus'") and rest[7] == "ok"
    assert rest[8:12] == [
        "engine;enum;mcts;alphabeta;alphabeta;mcts",
        "ok",
        "seed;int;7;-1;-1;9223372036854775807",
        "ok",
    ]
    assert moves.parse_move(rest[12]) in moves.legal_moves and rest[13] == "ok"
    assert rest[14].startswith("err depth must be from 1") and rest[15] == "ok"
    assert rest[16:] == [
        f"{EMPTY4};NotStarted",
        "ok",
        "err cannot undo 1 move: 0 played since newgame",
        "ok",
        "ok",
    ]


class LiveEngine:
    """An engine subprocess read line by line on a thread (reads time out, never hang)."""

    def __init__(self, args=()):
        self.process = subprocess.Popen(
            ENGINE_CMD + list(args),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            bufsize=1,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def answer(self, timeout=120):
        """The answer's lines before ok, without bestmove's info lines."""
        out = []
        while True:
            line = self.lines.get(timeout=timeout)
            if line is None or line == "ok":
                return out
            if not line.startswith("info "):
                out.append(line)

    def finish(self, timeout=30):
        try:
            return self.process.wait(timeout=timeout), self.process.stderr.read()
        finally:
            if self.process.poll() is None:
                self.process.kill()


@pytest.mark.parametrize("engine", ENGINES)
def test_stop_ends_a_day_long_search(engine):
    live = LiveEngine(["--option", f"engine={engine}"])
    live.send("newgame 6")
    assert live.answer() == [f"{EMPTY6};NotStarted"]
    live.send("bestmove time 23:59:59")
    live.send("stop")
    (move,) = live.answer()
    assert Board().parse_move(move) in Board().legal_moves
    live.send("validmoves")  # the session goes on after a stop
    assert len(live.answer()[0].split(";")) == 61
    live.send("quit")
    assert live.answer() == []
    status, stderr = live.finish()
    assert status == 0 and "Traceback" not in stderr


def test_closing_stdin_ends_a_search_and_the_session():
    live = LiveEngine(["-o", "engine=mcts"])
    live.send("newgame 5")
    live.answer()
    live.send("bestmove time 23:59:59")
    live.process.stdin.close()
    (move,) = live.answer()
    assert Board(5).parse_move(move) in Board(5).legal_moves
    status, stderr = live.finish()
    assert status == 0 and "Traceback" not in stderr


def test_quit_waits_for_a_search_before_it():
    """In a piped script, quit is a command like any other: the search before it runs
    its whole budget (here a node budget)."""
    out = run_engine(
        "options set engine mcts\noptions set seed 5\nnewgame 4\nbestmove nodes 300\nquit\n"
    )
    assert out[-1] == "ok" and Board(4).parse_move(out[-3]) in Board(4).legal_moves


@pytest.mark.skipif(os.name != "posix", reason="SIGINT semantics")
@pytest.mark.parametrize("engine", ENGINES)
def test_ctrl_c_exits_cleanly_during_a_search(engine):
    live = LiveEngine(["-o", f"engine={engine}"])
    live.send("info")
    live.answer()  # the process is up and its handlers installed
    live.send("newgame 6")
    live.answer()
    live.send("bestmove time 23:59:59")
    live.send("validmoves")  # answered only once the search is over
    live.process.send_signal(signal.SIGINT)
    status, stderr = live.finish()
    assert status == 130
    assert "Traceback" not in stderr
    rest = list(iter(lambda: live.lines.get(timeout=30), None))  # stdout up to its end
    assert not any(";" in line for line in rest), rest  # validmoves was never answered


@pytest.mark.skipif(os.name != "posix", reason="SIGTERM semantics")
def test_sigterm_ends_the_engine_during_a_search():
    """A GUI or a match runner ends an engine with SIGTERM: the search stops and the
    session ends, with status 143 and no traceback (not the search alone, leaving the
    engine to read on)."""
    live = LiveEngine()
    live.send("info")
    live.answer()
    live.send("newgame 6")
    live.answer()
    live.send("bestmove time 23:59:59")
    live.send("validmoves")  # answered only if the session went on after the search
    live.process.send_signal(signal.SIGTERM)
    status, stderr = live.finish()
    assert status == 143 and "Traceback" not in stderr, stderr
    assert stderr.strip().splitlines()[-1] == "terminated"
    rest = list(iter(lambda: live.lines.get(timeout=30), None))
    assert not any(";" in line for line in rest), rest


@pytest.mark.skipif(os.name != "posix", reason="SIGINT semantics")
def test_ctrl_c_exits_cleanly_when_idle():
    live = LiveEngine()
    live.send("info")
    live.answer()
    live.process.send_signal(signal.SIGINT)
    status, stderr = live.finish()
    assert status == 130 and "Traceback" not in stderr


def test_engine_option_flag_is_checked():
    done = subprocess.run(
        ENGINE_CMD + ["-o", "threads=0"],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == "error: option threads must be from 1 to 256, not 0"
    done = subprocess.run(
        ENGINE_CMD + ["-o", "threads"],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2 and "NAME=VALUE" in done.stderr


def test_garbage_bytes_and_long_lines_are_survived():
    script = b"newgame 4\n\xff\xfe\x00play\n" + b"x" * 300_000 + b"\nplay B2\nquit\n"
    done = subprocess.run(ENGINE_CMD, input=script, capture_output=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    out = done.stdout.decode().splitlines()
    assert out[0:2] == [f"{EMPTY4};NotStarted", "ok"]
    assert out[2].startswith("err unknown command") and out[3] == "ok"
    assert out[4].startswith("err line too long") and out[5] == "ok"
    assert out[6:] == [f"{EMPTY4};InProgress;B2", "ok", "ok"]


def test_bestmove_sends_info_lines_before_its_move(session):
    """While it thinks, bestmove reports each completed depth (alpha-beta) as UCI does:
    depth, score, nodes, nps, time, the chance to win and the line, then the move and ok."""
    session.handle("options set engine alphabeta")
    session.handle("newgame 5")
    lines = session.handle("bestmove depth 3")
    assert lines[-1] == "ok"
    info = lines[:-2]
    assert [line.split()[2] for line in info] == ["1", "2", "3"]
    for line in info:
        words = line.split()
        assert [words[i] for i in (0, 1, 3, 6, 8, 10, 12, 14)] == [
            "info",
            "depth",
            "score",
            "nodes",
            "nps",
            "time",
            "winchance",
            "pv",
        ]
        assert words[4] in ("cp", "win", "loss") and int(words[5]) == float(words[5])
        assert 0 <= float(words[13]) <= 1
    assert info[-1].split(" pv ")[1].split()[0] == lines[-2]


def test_bestmove_with_multipv_sends_every_line_of_each_depth(session):
    """With ``multipv`` K each completed depth sends K info lines numbered 1 to K, as
    UCI's MultiPV: different moves, scores best first, each with its own line; K above
    the number of legal moves sends one line per legal move."""
    session.handle("options set engine alphabeta")
    session.handle("options set threads 1")
    session.handle(f"newgame {MID_GAME}")
    assert ok(session.handle("options set multipv 3")) == ["multipv;int;3;1;1;1000"]
    lines = session.handle("bestmove depth 3")
    assert lines[-1] == "ok"
    info = [line.split() for line in lines[:-2]]
    assert [(words[2], words[4]) for words in info] == [(d, k) for d in "123" for k in "123"]
    for depth in "123":
        rows = [words for words in info if words[2] == depth]
        firsts = [words[words.index("pv") + 1] for words in rows]
        assert len(set(firsts)) == 3
        scores = [
            Score.centi(int(w[7]))
            if w[6] == "cp"
            else Score.win(int(w[7]))
            if w[6] == "win"
            else Score.loss(int(w[7]))
            for w in rows
        ]
        assert scores == sorted(scores, reverse=True)
    assert info[-3][info[-3].index("pv") + 1] == lines[-2]
    session.handle("newgame 4")
    session.handle("options set multipv 1000")
    info = session.handle("bestmove depth 1")[:-2]
    assert len(info) == len(Board(4).legal_moves) and info[-1].split()[4] == str(len(info))


def test_engine_streams_info_lines_through_stdout():
    out = run_engine(
        "options set engine mcts\noptions set seed 1\nnewgame 6\nbestmove time 00:00:00.4\nquit\n"
    )
    info = [line for line in out if line.startswith("info ")]
    assert info and all(" score winrate " in line or " score win " in line for line in info)
    assert out[-1] == "ok" and not out[-2].startswith("info")


def _documented_options() -> dict[str, list[str]]:
    """The rows of docs/protocol.md's option table: name -> its cells."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text()
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].startswith("`") and cells[0].endswith("`"):
            rows[cells[0].strip("`")] = cells
    return rows


def test_the_documented_option_table_matches_the_registry():
    """Every engine option has a row in docs/protocol.md; its type, and its default and
    bounds where the row gives them as numbers, are the registry's."""
    rows = _documented_options()
    for name, spec in all_options().items():
        assert name in rows, f"docs/protocol.md lacks option {name}"
        _, type_, default, bounds, _ = rows[name]
        assert type_ == spec.type, name
        if (
            spec.type in ("int", "float")
            and default.replace(",", "").replace(".", "").lstrip("-").isdigit()
        ):
            assert float(default.replace(",", "")) == float(spec.default), name
        low_high = bounds.replace(",", "").split(" to ")
        if (
            spec.type in ("int", "float")
            and len(low_high) == 2
            and all(b.replace(".", "").lstrip("-").isdigit() for b in low_high)
        ):
            assert (float(low_high[0]), float(low_high[1])) == (
                float(spec.low),
                float(spec.high),
            ), name


def test_an_error_after_a_search_answers_without_the_search_info(session):
    """The info lines of bestmove belong to its answer only, not to the next one."""
    session.handle("newgame 4")
    assert session.handle("bestmove depth 1")[0].startswith("info depth 1 ")
    assert session.handle("nonsense") == [
        "err unknown command 'nonsense': try info, newgame, play, validmoves, bestmove, undo, options, perft, prove, quit",
        "ok",
    ]


# ----- order: a queued command waits, a stop belongs to the command before it ------------------
def serve_script(script: str) -> list[str]:
    """The output of a whole piped script served in this process."""
    import io

    from hinge_fast.protocol.server import serve

    out = io.StringIO()
    assert serve(io.BytesIO(script.encode()), out, options={"threads": 1}) == 0
    return out.getvalue().splitlines()


def answers(lines: list[str]) -> list[list[str]]:
    """The answers of a session, each the lines up to its ok."""
    found, current = [], []
    for line in lines:
        if line == "ok":
            found.append(current)
            current = []
        else:
            current.append(line)
    return found


def depths(answer: list[str]) -> list[int]:
    return [int(line.split()[2]) for line in answer if line.startswith("info depth ")]


def test_a_stop_queued_behind_other_commands_ends_only_the_last_search():
    out = serve_script("newgame\nbestmove depth 6\nvalidmoves\nbestmove depth 40\nstop\nquit\n")
    new, first, valid, second, quit_ = answers(out)
    assert depths(first)[-1] == 6  # the first search ran its whole depth
    assert len(valid) == 1 and len(valid[0].split(";")) == 61
    assert depths(second)[-1] < 40  # the stop was the second search's
    assert quit_ == []


def test_a_stop_after_a_command_that_is_not_a_search_stops_nothing_later():
    out = serve_script("newgame 5\nvalidmoves\nstop\nbestmove depth 4\nquit\n")
    assert depths(answers(out)[2])[-1] == 4


def test_a_stop_right_after_a_search_ends_it_even_with_commands_after():
    out = serve_script("newgame\nbestmove depth 60\nstop\nvalidmoves\nquit\n")
    new, search, valid, quit_ = answers(out)
    assert depths(search)[-1] < 60 and len(valid[0].split(";")) == 61


def test_the_piped_example_of_the_docs_runs_the_first_search_whole():
    done = subprocess.run(
        ENGINE_CMD + ["-o", "threads=1"],
        input="newgame\nbestmove depth 6\nvalidmoves\nbestmove depth 6\nstop\nquit\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    first = answers(done.stdout.splitlines())[1]
    assert depths(first)[-1] == 6
