"""The protocol client (hinge_fast/engine.py): Engine.popen driving our own engine,
and driving fake engines that die, hang or answer garbage; EnginePlayer."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from hinge_fast import Board, Limits, __version__
from hinge_fast.errors import HingeError
from hinge_fast.games.players import EnginePlayer, engine_player_from_spec
from hinge_fast.games.positions import random_position
from hinge_fast.protocol.client import Engine, EngineOption, hhmmss
from hinge_fast.protocol.server import perft
from hinge_fast.search.options import DEFAULT_THREADS, MAX_THREADS
from tests.conftest import MID_GAME

ROOT = Path(__file__).resolve().parents[1]
ENGINE_CMD = [sys.executable, "-m", "hinge_fast.cli", "engine"]


@pytest.fixture(scope="module")
def engine():
    with Engine.popen(ENGINE_CMD, cwd=ROOT) as e:
        e.set_option("seed", 11)
        yield e


def random_game(size, plies, seed):
    return random_position(size, plies, seed)


def test_popen_reads_info(engine):
    assert engine.id == f"hinge-fast {__version__}"
    assert "engines=alphabeta,mcts" in engine.capabilities


def test_popen_accepts_a_command_string():
    command = " ".join([sys.executable, "-m", "hinge_fast.cli", "engine"])
    with Engine.popen(command, cwd=ROOT) as e:
        assert e.id.startswith("hinge-fast")
    assert e.process.poll() == 0  # quit, not killed


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_validmoves_and_perft_agree_with_the_board(engine, seed):
    board = random_game(5, 12, seed)
    assert engine.validmoves(board) == board.legal_moves
    assert engine.perft(board, 2) == perft(board, 2)


def test_play_sends_the_clocks(engine):
    from hinge_fast.search.timeman import Clock

    board = random_game(5, 6, 4)
    move = engine.play(board, Limits(nodes=40, clock=Clock(1.0, 0.5, 0.01, 0.01))).move
    assert move in board.legal_moves


def test_positions_are_synced_incrementally(engine):
    board = Board(6)
    board.push_str("F6")
    engine.validmoves(board)
    board.push_str("C4")
    board.push_str("G6")
    assert engine.validmoves(board) == board.legal_moves
    assert engine.synced_game == (Board().fen(), ["F6", "C4", "G6"])
    board.pop()
    board.push_str("F7")  # a different line: the engine gets the whole game again
    assert engine.validmoves(board) == board.legal_moves
    assert engine.synced_game == (Board().fen(), ["F6", "C4", "F7"])
    loaded = Board.from_fen(MID_GAME)
    loaded.push(loaded.legal_moves[0])
    assert engine.validmoves(loaded) == loaded.legal_moves
    assert engine.synced_game == (MID_GAME, [str(loaded.move_stack[0])])


def test_play_returns_a_legal_move_without_playing_it(engine):
    board = random_game(6, 10, 4)
    before = board.fen()
    engine.set_option("engine", "mcts")
    move = engine.play(board, Limits(nodes=300)).move
    assert move in board.legal_moves and board.fen() == before
    move = engine.play(board, Limits(time=0.2)).move
    assert move in board.legal_moves


def test_play_with_alphabeta(engine):
    engine.set_option("engine", "alphabeta")
    board = random_game(5, 6, 9)
    assert engine.play(board, Limits(depth=2)).move in board.legal_moves


def test_play_refuses_a_finished_game(engine):
    with pytest.raises(HingeError, match="the game is over"):
        engine.play(Board.from_fen("4/5/6/7/6/1gg2/4 b"), Limits(nodes=10))
    with pytest.raises(HingeError, match="limit must be a hinge_fast.Limits"):
        engine.play(Board(), 3)


def test_options(engine):
    options = engine.options()
    assert list(options)[:2] == ["engine", "threads"] and {"table_mb", "tree_nodes", "seed"} <= set(
        options
    )
    cores = str(DEFAULT_THREADS)
    assert options["threads"] == EngineOption("threads", "int", cores, cores, "1", str(MAX_THREADS))
    assert options["engine"].choices == ("alphabeta", "mcts")
    assert engine.set_option("engine", "alphabeta").value == "alphabeta"
    with pytest.raises(HingeError, match=f"threads must be from 1 to {MAX_THREADS}, not 0"):
        engine.set_option("threads", 0)
    assert engine.set_option("threads", 2).value == "2"
    with pytest.raises(HingeError, match="bad option"):
        engine.set_option("seed", "1\nquit")
    assert engine.validmoves(Board(4)) == Board(4).legal_moves  # still serving


def test_hhmmss():
    assert hhmmss(5) == "00:00:05.000"
    assert hhmmss(3723.25) == "01:02:03.250"
    assert hhmmss(0.0001) == "00:00:00.001"


# ----- engines that misbehave ----------------------------------------------------------------
FAKE = textwrap.dedent(
    """
    import sys
    mode = sys.argv[1]
    for line in sys.stdin:
        word = line.split()[0] if line.split() else ""
        if word == "info":
            print("hello there" if mode == "garbage-info" else "id fake 1")
        elif mode == "silent" and word != "info":
            continue
        elif word == "bestmove":
            if mode == "die":
                print("dying", file=sys.stderr, flush=True)
                sys.exit(3)
            if mode == "flood":
                sys.stdout.write("x" * (3 << 20))  # one endless line, no ok
                sys.stdout.flush()
                sys.stdin.readline()
            print({"illegal": "A1", "garbage": "???", "two": "F6\\nF7"}.get(mode, "F6"))
        elif word == "newgame" and mode == "reject-newgame":
            print("err I only play chess")
        print("ok", flush=True)
    """
)


@pytest.fixture
def fake(tmp_path):
    path = tmp_path / "fake_engine.py"
    path.write_text(FAKE)

    def start(mode, **kwargs):
        return Engine.popen([sys.executable, str(path), mode], **kwargs)

    return start


def test_garbage_info_is_refused(fake):
    with pytest.raises(HingeError, match="answered info with \\['hello there'\\], not 'id <name>'"):
        fake("garbage-info")


def test_an_engine_that_dies_is_reported(fake):
    with fake("die") as e:
        with pytest.raises(
            HingeError, match=r"ended \(exit status 3\) while answering 'bestmove nodes 5'.*dying"
        ):
            e.play(Board(), Limits(nodes=5))
        with pytest.raises(HingeError, match="ended"):
            e.play(Board(), Limits(nodes=5))


@pytest.mark.parametrize(
    "mode, message",
    [
        ("illegal", "a move that is not legal here: illegal move A1"),
        ("garbage", "a move that is not legal here: cannot read move"),
        ("two", r"with \['F6', 'F7'\], not one move"),
        ("reject-newgame", "refused 'newgame 6/7/8/9/10/11/10/9/8/7/6 g': err I only play chess"),
    ],
)
def test_bad_answers_are_reported(fake, mode, message):
    with fake(mode) as e:
        with pytest.raises(HingeError, match=message):
            e.play(Board(), Limits(nodes=5))


def test_an_endless_answer_line_is_cut_and_the_engine_stopped(fake):
    from hinge_fast.protocol.client import MAX_ANSWER_LINE

    with fake("flood") as e:
        with pytest.raises(
            HingeError,
            match=f"answered 'bestmove nodes 5' with a line longer than {MAX_ANSWER_LINE:,} bytes; it was stopped",
        ):
            e.play(Board(), Limits(nodes=5))
        assert e.process.wait(30) is not None


def test_a_silent_engine_times_out(fake):
    with fake("silent", timeout=0.5) as e:
        with pytest.raises(HingeError, match="did not answer 'newgame .*' in time"):
            e.validmoves(Board())
        assert e.process.poll() is not None  # it was killed


def test_a_missing_program_is_reported():
    with pytest.raises(HingeError, match="cannot start engine"):
        Engine.popen(["/nonexistent/hinge-engine"])
    with pytest.raises(HingeError, match="engine command is empty"):
        Engine.popen("")


def test_an_engine_that_exits_at_once(tmp_path):
    with pytest.raises(HingeError, match=r"ended \(exit status 0\) while answering 'info'"):
        Engine.popen([sys.executable, "-c", "pass"])


# ----- the match runner's player ----------------------------------------------------------------
def test_engine_player_plays_a_game_against_itself():
    green = EnginePlayer(ENGINE_CMD + ["-o", "engine=mcts"], Limits(nodes=200), options={"seed": 1})
    blue = engine_player_from_spec(" ".join(ENGINE_CMD) + " -o engine=mcts", nodes=200, seed=2)
    try:
        assert green.name == blue.name == f"hinge-fast {__version__}"
        board = Board(4)
        for _ in range(8):
            if board.is_game_over():
                break
            player = green if board.turn == 0 else blue
            board.push(player.choose(board))
        assert len(board.move_stack) >= 1
        green.reset(seed=2**64 + 5)
        assert green.engine.synced_game is None
        assert green.engine.options()["seed"].value == "5"
        assert green.choose(Board(4)) in Board(4).legal_moves
    finally:
        green.close()
        blue.close()
    assert green.engine.process.poll() is not None


def test_engine_player_spec_errors():
    with pytest.raises(HingeError, match="cmd: needs a command line"):
        engine_player_from_spec("  ")
    with pytest.raises(HingeError, match="seed must be from -1"):
        engine_player_from_spec(" ".join(ENGINE_CMD), nodes=10, seed=-5)


def test_engine_player_in_a_match():
    """Through the match runner's hook for ``cmd:`` specs (players.SPEC_PREFIXES)."""
    from hinge_fast.games import players
    from hinge_fast.games.match import play_match

    spec = "cmd:" + " ".join(ENGINE_CMD) + " -o engine=mcts"
    external = players.get_player(spec, nodes=100, seed=3)
    try:
        result = play_match(external, players.get_player("random", seed=4), games=2, size=4, seed=1)
    finally:
        external.close()
    assert result.played == 2 and result.wins + result.losses + result.unfinished == 2
    assert result.player_a == f"hinge-fast {__version__}"
    assert external.engine.process.poll() is not None


# ----- parsed analysis --------------------------------------------------------------------------------
def test_play_and_analyse_return_parsed_info(engine):
    from hinge_fast.board import Color
    from hinge_fast.protocol.client import PovScore

    engine.set_option("engine", "alphabeta")
    engine.set_option("threads", 1)
    board = random_game(5, 7, 3)  # Blue to move
    assert board.turn == Color.BLUE
    result = engine.play(board, Limits(depth=3))
    info = result.info
    assert result.move in board.legal_moves and str(result) == str(result.move)
    assert info.depth == 3 and info.nodes > 0 and info.time >= 0 and info.nps >= 0
    assert isinstance(info.score, PovScore) and info.score.turn == Color.BLUE
    assert (
        info.score.blue() == info.score.relative
        and info.score.green().centi_tokens == -info.score.relative.centi_tokens
    )
    assert abs(info.win_chance - info.score.relative.win_chance) < 1e-3
    assert abs(info.score.win_chance(Color.GREEN) + info.score.win_chance(Color.BLUE) - 1) < 1e-9
    assert info.pv and info.pv[0] == result.move  # moves, legal one after the other
    line = board.copy()
    for move in info.pv:
        assert move in line.legal_moves
        line.push(move)
    analysed = engine.analyse(board, Limits(depth=3))
    assert analysed.depth == 3 and analysed.pv[0] == result.move and engine.analysis[-1] == analysed
    best = engine.analyse(board, Limits(depth=2), multipv=2)
    assert [i.multipv for i in best] == [1, 2] and best[0].score.relative >= best[1].score.relative
    engine.set_option("multipv", 1)


def test_info_lines_are_parsed_whatever_they_hold():
    from hinge_fast.board import Color
    from hinge_fast.protocol.client import parse_info
    from hinge_fast.search import Score

    board = Board(4)
    info = parse_info(
        "info depth 3 score win 3 nodes 25 nps 896 time 0.028 winchance 1.0000 pv C3 C3 D4", board
    )
    assert (
        info.score.green() == Score.win(3)
        and info.score.blue() == Score.loss(3)
        and info.score.is_mate()
    )
    assert [str(m) for m in info.pv] == ["C3"]  # the second C3 is not legal: the PV stops there
    rate = parse_info("info depth 9 score winrate 0.25 nodes 10 nps 1 time 1.5 pv", board)
    assert (
        rate.score.pov(Color.BLUE) == Score.rate(0.75) and rate.win_chance == 0.25 and rate.pv == ()
    )
    junk = parse_info(
        "info depth x score cp ² nodes 1e9 time -1 winchance 7 multipv 2 hello", board
    )
    assert (junk.depth, junk.score, junk.nodes, junk.time, junk.win_chance, junk.multipv) == (
        None,
        None,
        None,
        None,
        None,
        2,
    )
