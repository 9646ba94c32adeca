"""Alpha-beta's MultiPV: K lines at each depth, each exactly scored at that depth, sorted,
each with its principal variation; the other root moves unscored."""

from __future__ import annotations

import pytest

from hinge_fast import Board, HingeError
from hinge_fast.search import Limits, Score, create_searcher
from tests.conftest import midgame_positions
from tests.test_alphabeta import QUIET_WIN_IN_THREE


def negated(score: Score) -> Score:
    """The score of the move leading to a position whose mover has ``score``."""
    if score.mate is None:
        return Score.centi(-score.centi_tokens)
    return Score.loss(score.mate + 1) if score.mate > 0 else Score.win(1 - score.mate)


def alone(board: Board, move, depth: int) -> Score:
    """The score of ``move`` searched alone: its position searched ``depth - 1`` plies
    by a fresh searcher (one thread: deterministic), negated. (A search stopped at depth
    1, every line proven, is compared with a depth-1 search of the move's position: a
    result proven within the horizon is the same at any depth.)"""
    child = board.copy()
    child.push(move)
    result = create_searcher("alphabeta", threads=1, table_mb=1, selective=0).go(
        child, Limits(depth=max(1, depth - 1))
    )
    return negated(result.score)


def check_lines(board: Board, result, k: int) -> None:
    """The first min(k, legal moves) root moves are lines of the result's depth, sorted,
    each with a legal line starting with its move; the rest have no score."""
    lines = min(k, len(board.legal_moves))
    scored, rest = result.root_moves[:lines], result.root_moves[lines:]
    assert len(result.root_moves) == len(board.legal_moves)
    assert len({rm.move for rm in result.root_moves}) == len(result.root_moves)
    assert all(rm.score is not None and rm.depth == result.depth for rm in scored)
    assert all(rm.score is None and rm.pv == [] for rm in rest)
    assert [rm.score for rm in scored] == sorted((rm.score for rm in scored), reverse=True)
    assert (result.move, result.score, result.pv) == (scored[0].move, scored[0].score, scored[0].pv)
    for rm in scored:
        assert rm.pv[0] == rm.move
        copy = board.copy()
        for move in rm.pv:
            assert copy.is_legal(move)
            copy.push(move)


@pytest.mark.parametrize("size, depth, k", [(4, 3, 3), (5, 3, 4), (6, 2, 5), (5, 4, 2)])
def test_each_line_scores_what_its_move_searched_alone_scores(size, depth, k):
    for board in midgame_positions(size, 2, seed=300 + size + depth):
        # Full width: a selective search's scores depend on the move order.
        searcher = create_searcher("alphabeta", threads=1, table_mb=1, multipv=k, selective=0)
        result = searcher.go(board.copy(), Limits(depth=depth))
        check_lines(board, result, k)
        if result.depth < depth:
            assert all(
                rm.score.is_mate and abs(rm.score.mate) <= result.depth
                for rm in result.root_moves[:k]
            )
        for rm in result.root_moves[:k]:
            assert rm.score == alone(board, rm.move, result.depth), (board.fen(), str(rm.move))


def test_one_line_is_the_search_for_play_and_the_first_of_several():
    """Line 1 of a MultiPV search is the best move's score of the plain search."""
    for board in midgame_positions(6, 3, seed=41):
        one = create_searcher("alphabeta", threads=1, table_mb=1).go(board.copy(), Limits(depth=3))
        three = create_searcher("alphabeta", threads=1, table_mb=1, multipv=3).go(
            board.copy(), Limits(depth=3)
        )
        assert three.score == one.score and one.root_moves[0].score == one.score
        assert all(rm.score is None for rm in one.root_moves[1:])


def test_more_lines_than_legal_moves_scores_every_move():
    board = midgame_positions(4, 1, seed=7, min_ply=10, max_ply=14)[0]
    n = len(board.legal_moves)
    result = create_searcher("alphabeta", threads=1, table_mb=1, multipv=1000).go(
        board.copy(), Limits(depth=2)
    )
    check_lines(board, result, 1000)
    assert sum(rm.score is not None for rm in result.root_moves) == n


def test_every_reported_depth_has_all_its_lines_under_a_time_limit():
    """Under a time limit each progress report (and the result) holds K complete lines of
    one depth: a depth stopped part way is never mixed in."""
    board = midgame_positions(7, 1, seed=12)[0]
    seen = []
    result = create_searcher("alphabeta", threads=1, table_mb=4, multipv=3).go(
        board.copy(), Limits(time=0.3), seen.append
    )
    assert seen and result.depth == seen[-1].depth
    assert [r.depth for r in seen] == list(range(1, len(seen) + 1))
    for interim in seen + [result]:
        check_lines(board, interim, 3)


def test_lines_with_helper_threads_are_complete():
    board = midgame_positions(6, 1, seed=13)[0]
    result = create_searcher("alphabeta", threads=2, table_mb=4, multipv=3).go(
        board.copy(), Limits(depth=3)
    )
    assert result.depth == 3
    check_lines(board, result, 3)


@pytest.mark.parametrize("fen", QUIET_WIN_IN_THREE[:2])
def test_a_forced_win_is_a_line_with_its_plies(fen):
    board = Board.from_fen(fen)
    result = create_searcher("alphabeta", threads=1, table_mb=1, multipv=2).go(
        board.copy(), Limits(depth=5)
    )
    check_lines(board, result, 2)
    assert result.score == Score.win(3) and len(result.pv) == 3


@pytest.mark.parametrize("bad", [0, -1, "two", 2.5, 1001])
def test_a_bad_number_of_lines_is_an_error(bad):
    with pytest.raises(HingeError, match="multipv"):
        create_searcher("alphabeta", multipv=bad)


def test_the_searcher_class_refuses_no_lines():
    from hinge_fast.search.alphabeta import AlphaBetaSearcher

    with pytest.raises(HingeError, match="multipv must be at least 1"):
        AlphaBetaSearcher(multipv=0)
