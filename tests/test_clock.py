"""Clocks: the time-management function, clocks on the protocol, and games and
matches under a clock, with a fake time source (no test sleeps or measures speed)."""

from __future__ import annotations

import pytest

from hinge_fast import Board, HingeError
from hinge_fast.board import Color, Termination
from hinge_fast.games.game import play_game
from hinge_fast.games.match import GameSettings, play_match
from hinge_fast.games.matchfile import MatchSettings, read_match
from hinge_fast.games.players import Player, RandomPlayer, get_player
from hinge_fast.protocol.server import EngineSession
from hinge_fast.protocol.wire import parse_bestmove_limits
from hinge_fast.records.record import append_record, read_records
from hinge_fast.search import Limits, create_searcher
from hinge_fast.search.limits import limits_for_move
from hinge_fast.search.timeman import (
    MIN_MOVES_LEFT,
    MOVE_OVERHEAD,
    RESERVE,
    Clock,
    TimeControl,
    move_time,
    moves_left,
)


class FakeTimer:
    """A time source that moves only when a player says it spent time."""

    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class SpendingPlayer(Player):
    """A random player that takes ``seconds`` of the fake timer on every move, and
    records the clocks it was shown."""

    def __init__(self, timer, seconds, name, seed=1):
        self.timer, self.seconds, self.name = timer, seconds, name
        self.inner = RandomPlayer(seed=seed)
        self.shown = []

    def reset(self, seed=None):
        self.inner.reset(seed)

    def choose(self, board):
        raise AssertionError("under a clock, choose_timed is asked")

    def choose_timed(self, board, clock):
        self.shown.append(clock)
        self.timer.now += self.seconds
        return self.inner.choose(board)


# ----- time management ----------------------------------------------------------------------
def test_move_time_by_hand():
    # (remaining - the reserve) / moves + 3/4 of the increment - the overhead
    assert move_time(10.0, 0.1) == pytest.approx((10 - RESERVE) / 20 + 0.075 - MOVE_OVERHEAD)
    assert move_time(60.0, 0.0, moves=30) == pytest.approx((60 - RESERVE) / 30 - MOVE_OVERHEAD)
    # under the reserve, a move gets three quarters of the increment
    assert move_time(0.09, 0.02, moves=10) == pytest.approx(0.015 - MOVE_OVERHEAD)
    # the last move before the clock is filled again may use all but the reserve
    assert move_time(1.0, 0.0, moves=1) == pytest.approx(1.0 - RESERVE - MOVE_OVERHEAD)
    # never more than half the remaining time (less the overhead), never less than 1 ms
    assert move_time(1.0, 10.0) == pytest.approx(0.5 - MOVE_OVERHEAD)
    assert move_time(0.0, 0.0) == 0.001 and move_time(-1.0, 0.0) == 0.001


def test_moves_left_shrink_as_the_board_fills_and_never_below_the_floor():
    for size in range(4, 10):
        cells = 3 * size * (size - 1) + 1
        plan = [moves_left(size, tokens) for tokens in range(0, cells + 1)]
        assert plan == sorted(plan, reverse=True)
        assert min(plan) == MIN_MOVES_LEFT and plan[0] > MIN_MOVES_LEFT
    # a bigger board plans for more moves from the same number of tokens
    assert moves_left(9, 10) > moves_left(6, 10) > moves_left(4, 10)


@pytest.mark.parametrize("increment, moves", [(0.0, 40), (0.01, 1000)])
def test_a_game_that_runs_on_past_the_plan_never_runs_the_clock_out(increment, moves):
    # Every move past the estimate takes its planned time and the overhead: without
    # an increment the clock lasts 40 moves at the shortest plan, with one it settles
    # above the reserve.
    remaining = 1.0
    for _move in range(moves):
        remaining += (
            increment - move_time(remaining, increment, moves=MIN_MOVES_LEFT) - MOVE_OVERHEAD
        )
        assert remaining > 0
    if increment:
        assert remaining > RESERVE


def test_the_clock_becomes_a_time_for_the_side_to_move():
    clock = Clock(green_time=10.0, blue_time=2.0, green_inc=0.1, blue_inc=0.0)
    board = Board(6)
    plan = moves_left(6, 0)
    assert limits_for_move(Limits(clock=clock), board) == Limits(time=move_time(10.0, 0.1, plan))
    board.push(board.legal_moves[0])
    assert limits_for_move(Limits(clock=clock), board) == Limits(
        time=move_time(2.0, 0.0, moves_left(6, 1))
    )
    # the clock's moves to go come first
    togo = Clock(green_time=10.0, blue_time=2.0, moves_to_go=5)
    assert limits_for_move(Limits(clock=togo), board) == Limits(time=move_time(2.0, 0.0, 5))
    # a shorter own time, and node and depth limits, still hold
    limits = Limits(time=0.01, nodes=50, depth=3, clock=clock)
    assert limits_for_move(limits, board) == Limits(time=0.01, nodes=50, depth=3)
    assert limits_for_move(Limits(nodes=50), board) == Limits(nodes=50)
    assert "clock=Clock(" in repr(Limits(clock=clock)) and not Limits(clock=clock).unlimited


@pytest.mark.parametrize("engine", ["alphabeta", "mcts"])
def test_both_engines_search_under_a_clock(engine):
    board = Board(5)
    result = create_searcher(engine, tablebase="off").go(
        board, Limits(nodes=50, clock=Clock(5.0, 5.0, 0.1, 0.1))
    )
    assert result.move in board.legal_moves


@pytest.mark.parametrize(
    "text, base, inc", [("10+0.1", 10.0, 0.1), ("60", 60.0, 0.0), (" 0.5 + .05 ", 0.5, 0.05)]
)
def test_time_control_parses(text, base, inc):
    assert TimeControl.parse(text) == TimeControl(base, inc)


@pytest.mark.parametrize(
    "text", ["", "x", "10+", "+1", "0+1", "-1+0", "10+0.1+2", "1e3", "100000+0"]
)
def test_bad_time_controls(text):
    with pytest.raises(HingeError):
        TimeControl.parse(text)


def test_bad_clocks():
    with pytest.raises(HingeError, match="moves to go"):
        Clock(1.0, 1.0, moves_to_go=0)
    with pytest.raises(HingeError, match="green_inc"):
        Clock(1.0, 1.0, green_inc=-1.0)
    with pytest.raises(HingeError, match="clock must be a Clock"):
        Limits(clock=(1.0, 1.0))


# ----- the protocol ---------------------------------------------------------------------------
def test_bestmove_takes_the_clocks():
    limits = parse_bestmove_limits(
        "gtime 00:00:10 btime 00:00:09.5 ginc 00:00:00.1 binc 00:00:00.2 movestogo 5"
    )
    assert limits.clock == Clock(10.0, 9.5, 0.1, 0.2, 5) and limits.time is None
    assert parse_bestmove_limits("btime 00:00:02 gtime 00:00:01").clock == Clock(1.0, 2.0)
    session = EngineSession(strict=True)
    session.options["seed"].value = 1
    assert session.handle("newgame 5")[-1] == "ok"
    lines = session.handle(
        "bestmove gtime 00:00:01 btime 00:00:01 ginc 00:00:00.01 binc 00:00:00.01 nodes 40"
    )
    assert lines[-1] == "ok"
    moves = [line for line in lines[:-1] if not line.startswith("info ")]
    assert len(moves) == 1 and Board(5).parse_move(moves[0]) in Board(5).legal_moves


# ----- games and matches under a clock ------------------------------------------------------------
def test_a_player_out_of_time_loses():
    timer = FakeTimer()
    slow = SpendingPlayer(timer, 0.3, "slow")
    fast = SpendingPlayer(timer, 0.0, "fast", seed=2)
    game = play_game(slow, fast, size=6, time_control=TimeControl(1.0, 0.0), timer=timer)
    # 1 s: three moves of 0.3 s leave 0.1; the fourth runs the clock out and is not played
    assert game.termination == Termination.TIME_FORFEIT and game.winner == Color.BLUE
    assert len(game.moves) == 6
    assert game.clock_left == pytest.approx((-0.2, 1.0))
    # each move was shown both clocks and the increments
    assert [c.green_time for c in slow.shown] == pytest.approx([1.0, 0.7, 0.4, 0.1])
    first = fast.shown[0]
    assert (first.green_time, first.blue_time, first.green_inc, first.blue_inc) == pytest.approx(
        (0.7, 1.0, 0.0, 0.0)
    )


def test_the_increment_is_added_after_each_move():
    timer = FakeTimer()
    slow = SpendingPlayer(timer, 0.3, "slow")
    fast = SpendingPlayer(timer, 0.0, "fast", seed=2)
    game = play_game(
        slow, fast, size=6, time_control=TimeControl(1.0, 0.25), timer=timer, max_plies=20
    )
    # 0.3 spent, 0.25 back: 0.05 less a move, so 1 s outlasts the 10 moves Green makes
    # before the cap (or before the game ends on the board); it never runs out
    assert game.termination != Termination.TIME_FORFEIT
    if game.termination == Termination.MAX_PLIES:
        assert len(game.moves) == 20
    shown = [c.green_time for c in slow.shown]
    assert len(shown) >= 3
    assert shown == pytest.approx([1.0 - 0.05 * i for i in range(len(shown))])


def test_a_match_where_one_player_overruns_is_lost_on_time(tmp_path):
    timer = FakeTimer()
    slow = SpendingPlayer(timer, 0.3, "slow")
    fast = SpendingPlayer(timer, 0.001, "fast", seed=2)
    result = play_match(
        slow,
        fast,
        games=4,
        size=6,
        seed=3,
        settings=GameSettings(time_control=TimeControl(1.0, 0.0), timer=timer),
    )
    assert [g.termination for g in result.games] == [Termination.TIME_FORFEIT] * 4
    assert result.losses == 4 and result.time_losses == (4, 0)
    assert "lost on time: slow 4, fast 0" in result.summary()
    assert result.figures()["time_losses"] == {"a": 4, "b": 0}
    # the records say so, read back, and a match file of them resumes
    settings = MatchSettings("slow", "fast", 6, 4, 400, "tc 1+0", 3)
    path = tmp_path / "games.hgn"
    for game in result.games:
        append_record(str(path), game.record(settings=settings))
    records = read_records(str(path))
    assert [r.tags["Termination"] for r in records] == ["time forfeit"] * 4
    assert [r.result for r in records] == ["blue", "green", "blue", "green"]
    # each move's time is a comment after it; the late move's at the end
    assert all(r.comments[len(r.moves)].endswith("out of time after 0.300 s") for r in records)
    assert "0.001 s" in records[0].comments.values()
    done, _ = read_match(str(path), settings)
    assert sorted(done) == [0, 1, 2, 3] and all(
        g.termination == Termination.TIME_FORFEIT for g in done.values()
    )


def test_a_search_player_under_a_generous_clock_finishes_its_games():
    """Real searchers under a fake clock that never moves: nobody loses on time."""
    timer = FakeTimer()
    result = play_match(
        get_player("alphabeta", nodes=100),
        get_player("mcts", nodes=50),
        games=2,
        size=4,
        seed=1,
        settings=GameSettings(time_control=TimeControl(0.5, 0.0), timer=timer),
    )
    assert all(g.termination != Termination.TIME_FORFEIT for g in result.games)


@pytest.mark.parametrize("tc", ["1+x", "0+1", "-1", "abc", "1+0.1+1"])
def test_match_command_bad_tc(cli, tc):
    run = cli("match", "greedy", "random", "--tc", tc)
    err = run.err.strip().splitlines()
    assert run.status == 2 and len(err) == 1 and err[0].startswith("error: ") and run.out == ""


def test_match_command_tc_excludes_per_move_limits(cli):
    for extra in (["--time", "1"], ["--nodes", "5"], ["--time-b", "1"]):
        run = cli("match", "greedy", "random", "--tc", "1+0", *extra)
        assert run.status == 2 and len(run.err.strip().splitlines()) == 1


def test_match_command_plays_on_a_clock(cli, tmp_path):
    out = tmp_path / "games.hgn"
    run = cli(
        "match",
        "greedy",
        "random",
        "--games",
        "2",
        "--size",
        "4",
        "--tc",
        "60+1",
        "--seed",
        "1",
        "--out",
        out,
    )
    assert run.status == 0 and "60+1 clock" in run.out
    assert [r.tags["Limit"] for r in read_records(str(out))] == ["tc 60+1"] * 2
