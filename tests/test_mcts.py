"""MCTS: tactics found exactly by the solver, limits, reproducibility, the tree budget."""

from __future__ import annotations

import pytest

import hinge_fast
from hinge_fast import Board, HingeError
from hinge_fast.games.positions import game_positions
from hinge_fast.search import Limits, Score, SearchResult
from hinge_fast.search.mcts import Tree
from hinge_fast.search.mcts_threads import search_mcts

# Green to move (side 4): only C5-E6xE3 eliminates Blue; 7 legal moves.
WIN_IN_ONE = "4/1g1b1/1g2b1/4b2/1g2b1/1g3/4 g"
# Blue to move (side 4): no elimination in one, but the placement E5 forces one in
# three plies; no other first move does (checked by brute force below).
WIN_IN_THREE = "4/1bbb1/1b2b1/7/2b1g1/3g1/4 b"
# Green to move (side 4): 8 moves; all but one let Blue eliminate Green at once.
TRAP = "4/3b1/1g4/1ggg3/4b1/3b1/4 g"
# Green to move (side 4): every one of its 7 moves lets Blue eliminate it.
LOST = "4/2bg1/2bgg1/1b1g1g1/1bbb2/5/4 g"


def ends_game(board, move):
    board.push(move)
    over = board.is_game_over()
    board.pop()
    return over


def winning_moves(board):
    return [m for m in board.legal_moves if ends_game(board, m)]


def forces_win_in_three(board, first):
    """After ``first``, the game goes on and every reply allows a game-ending move."""
    board.push(first)
    try:
        replies = board.legal_moves
        if not replies:
            return False
        for reply in replies:
            board.push(reply)
            found = bool(winning_moves(board))
            board.pop()
            if not found:
                return False
        return True
    finally:
        board.pop()


def test_finds_elimination_in_one():
    board = Board.from_fen(WIN_IN_ONE)
    assert [str(m) for m in winning_moves(board)] == ["C5-E6xE3"]
    result = search_mcts(board, Limits(nodes=1000), seed=1)
    assert str(result.move) == "C5-E6xE3"
    assert result.mate == 1 and result.score == Score.win(1) and result.score_text == "win in 1"
    assert result.pv == [result.move]
    assert result.nodes < 1000  # a proven root stops the search


def test_finds_forced_elimination_in_three_with_a_quiet_move():
    board = Board.from_fen(WIN_IN_THREE)
    assert winning_moves(board) == []
    forcing = [m for m in board.legal_moves if forces_win_in_three(board, m)]
    assert [str(m) for m in forcing] == ["E5"] and not forcing[0].is_swipe
    # Progressive widening keeps the search on the few moves first in prior order: it
    # proves E5's win in 3 within a few hundred playouts, and a proven root stops it.
    result = search_mcts(board, Limits(nodes=20000), seed=2)
    assert str(result.move) == "E5" and result.mate == 3
    assert result.nodes < 1000
    assert len(result.pv) == 3 and ends_game(_after(board, result.pv[:2]), result.pv[2])


def _after(board, moves):
    board = board.copy()
    for move in moves:
        board.push(move)
    return board


def test_avoids_a_move_that_allows_elimination():
    board = Board.from_fen(TRAP)
    assert winning_moves(board) == []
    safe = [m for m in board.legal_moves if not winning_moves(_after(board, [m]))]
    assert len(safe) == 1 and len(board.legal_moves) == 8
    for seed in range(3):
        result = search_mcts(board, Limits(nodes=3000), seed=seed)
        assert result.move == safe[0]
    losing = [rm for rm in result.root_moves if rm.move != safe[0]]
    assert all(rm.mate == -2 and rm.win_rate == 0.0 for rm in losing)


def test_proven_loss():
    board = Board.from_fen(LOST)
    assert all(winning_moves(_after(board, [m])) for m in board.legal_moves)
    result = search_mcts(board, Limits(nodes=5000), seed=3)
    assert result.move in board.legal_moves
    assert result.mate == -2 and result.score == Score.loss(2) and result.score_text == "loss in 2"
    assert all(rm.mate == -2 for rm in result.root_moves)


def test_game_over_position_has_no_move():
    board = Board.from_fen(WIN_IN_ONE)
    board.push("C5-E6xE3")
    assert board.is_game_over()
    result = search_mcts(board, Limits(nodes=10), seed=1)
    assert result.move is None and result.pv == [] and result.root_moves == []


@pytest.mark.parametrize("size", [4, 6, 9])
@pytest.mark.parametrize("limits", [Limits(nodes=1), Limits(time=0.001)])
def test_tiny_budget_returns_a_legal_move(size, limits):
    board = Board(size)
    board.push(board.legal_moves[len(board.legal_moves) // 2])
    result = search_mcts(board, limits, seed=5)
    assert result.move in board.legal_moves
    assert result.nodes >= 1 and len(result.root_moves) == len(board.legal_moves)


def test_node_limit_counts_playouts_and_seed_reproduces():
    board = Board(6)
    first = search_mcts(board, Limits(nodes=3000), seed=42)
    second = search_mcts(board, Limits(nodes=3000), seed=42)
    assert first.nodes == second.nodes == 3000
    assert first.move == second.move and first.pv == second.pv
    assert [(r.move, r.visits, r.win_rate) for r in first.root_moves] == [
        (r.move, r.visits, r.win_rate) for r in second.root_moves
    ]
    assert sum(r.visits for r in first.root_moves) == 3000
    other = search_mcts(board, Limits(nodes=3000), seed=43)
    assert [r.visits for r in other.root_moves] != [r.visits for r in first.root_moves]


def test_result_fields():
    board = Board(5)
    board.push("E5")
    result = search_mcts(board, Limits(nodes=2000), seed=9)
    assert isinstance(result, SearchResult) and result.engine == "mcts"
    assert (
        0.0 <= result.score.win_rate <= 1.0
        and result.score_text.endswith("%")
        and result.mate is None
    )
    assert result.pv[0] == result.move and result.depth >= 2
    _after(board, result.pv)  # the principal variation is a legal line
    visits = [r.visits for r in result.root_moves]
    assert visits[0] == max(visits)
    assert result.root_moves[0].move == result.move
    assert result.score == result.root_moves[0].score and result.score.kind == "rate"


def test_tree_full_stops_growing_cleanly():
    board = Board(6)
    full = search_mcts(board, Limits(nodes=2000), seed=1, tree_nodes=1)
    assert full.move in board.legal_moves and full.nodes == 2000
    assert full.depth == 1  # only the root's children fit
    small = search_mcts(board, Limits(nodes=3000), seed=1, tree_nodes=500)
    assert small.move in board.legal_moves and small.nodes == 3000
    assert sum(r.visits for r in small.root_moves) == 3000


def test_tree_arrays_stay_within_budget(monkeypatch):
    from hinge_fast.search import mcts  # (hinge_fast.search the attribute is the function)

    sizes = []
    original = mcts.Tree

    def recording_tree(capacity):
        sizes.append(capacity)
        return original(capacity)

    monkeypatch.setattr(mcts, "Tree", recording_tree)
    search_mcts(Board(6), Limits(nodes=500), seed=1, tree_nodes=300)
    assert sum(sizes) == 300  # one tree per search thread, sharing the budget
    search_mcts(Board(6), Limits(nodes=50), seed=1, tree_nodes=10)
    assert sizes[-1] == 62  # the root and its 61 children always fit


def test_time_limit_and_progress():
    reports = []
    result = search_mcts(Board(6), Limits(time=0.3), seed=1, progress=reports.append)
    assert 0.25 <= result.seconds < 0.3 * 1.05 + 0.2  # slack for a busy machine
    assert reports and all(isinstance(r, SearchResult) for r in reports)
    assert all(r.nodes <= result.nodes for r in reports)


def test_search_entry_point_dispatches_to_mcts():
    result = hinge_fast.search_position(Board(5), engine="mcts", nodes=200, seed=1, exploration=0.3)
    assert result.engine == "mcts" and result.nodes == 200


@pytest.mark.parametrize(
    "options",
    [
        {"tree_nodes": 0},
        {"tree_nodes": 10**12},
        {"tree_nodes": 1.5},
        {"exploration": -1},
        {"playout_plies": 10},
        {"table_mb": 16},
        {"eval_mix": 0.5},
        {"eval_scale": 0.5},
        {"prior_weight": -1.0},
        {"playout_connect": 1.0},
        {"playout_greed": 1.0},
        {"rave": 100.0},
        {"mast": 0.5},
        {"choice_lcb": 0.5},
        {"choice_share": 0.5},
        {"virtual_visits": 2.0},
        {"eval_prior": 1.0},
        {"shift_playouts": False},
    ],
)
def test_bad_options(options):
    with pytest.raises(HingeError):
        search_mcts(Board(4), Limits(nodes=10), seed=1, **options)


def test_tree_layout():
    tree = Tree(10)
    assert tree.parent[0] == -1 and tree.stats[0] == 1 and list(tree.children(0)) == []


def _fitted_rate(board, scale=500.0):
    """The leaf-fitted evaluation of ``board`` as the win rate of its side to move,
    from ``evaluate.py``'s own entry point (``Evaluator.__call__``), its verdicts exact."""
    import math

    from hinge_fast.search.evaluate import LOST as LOST_SCORE
    from hinge_fast.search.evaluate import WINNING, get_evaluator

    score = get_evaluator("leaf-fitted")(board)
    if score == LOST_SCORE:
        return 0.0
    if score == WINNING:
        return 1.0
    return 1.0 / (1.0 + math.exp(-score / scale))


@pytest.mark.parametrize("size", [4, 5, 7])
def test_eval_win_rate_is_the_fitted_evaluation_as_a_win_rate(size):
    """``eval_win_rate``: sigmoid(score / scale) of the leaf-fitted evaluation with the
    side's weights, 1 when the side to move can eliminate now, 0 and lost when it has no
    move: the same numbers as ``evaluate.py``'s evaluator on game positions."""
    import numpy as np

    from hinge_fast.core.sets import set_like, to_shift_words
    from hinge_fast.search.evaluate import get_evaluator
    from hinge_fast.search.mcts import eval_win_rate

    tree = Tree(4)
    weights = get_evaluator("leaf-fitted").weights_for(size)
    seen = set()
    for board in game_positions(size, 6, seed=size, final=True):  # the last: its loser has no move
        for scale in (500.0, 137.0):
            like = set_like(size)
            p, lost = eval_win_rate(
                size,
                to_shift_words(size, board.own, like),
                to_shift_words(size, board.enemy, like),
                scale,
                weights,
                tree.arrays,
            )
            assert p == pytest.approx(_fitted_rate(board, scale), abs=1e-12)
            assert lost == (not board.legal_moves)
            seen.add("lost" if lost else "won" if p == 1.0 else "rate")
    assert seen == {"lost", "won", "rate"} or seen == {"lost", "rate"}
    assert np.isfinite(weights).all()


def test_each_leaf_is_scored_by_the_evaluation():
    """After one iteration from a position the child it visited holds its mover's win
    rate by the evaluation, ``1 - eval_win_rate(child)``."""
    from hinge_fast.search.mcts import MCTSSearcher

    board = Board.from_fen("4/5/6/1g3b1/6/5/4 g")
    one = MCTSSearcher(seed=5)
    one.go(board, Limits(nodes=1))
    tree = one.tree
    visited = [c for c in tree.children(0) if tree.visits[c] == 1]
    assert len(visited) == 1
    child = board.copy()
    child.push(board.move_from_code(int(tree.move[visited[0]])))
    assert tree.wins[visited[0]] == pytest.approx(1.0 - _fitted_rate(child), abs=1e-12)


def test_the_evaluation_at_the_leaves_still_proves_wins_and_losses():
    """With the evaluation at the leaves the solver still works: a win in one is played
    and proven, a lost position is proven lost."""
    board = Board.from_fen(WIN_IN_ONE)
    result = search_mcts(board, Limits(nodes=1000), seed=1)
    assert str(result.move) == "C5-E6xE3" and result.mate == 1
    result = search_mcts(Board.from_fen(LOST), Limits(nodes=5000), seed=1)
    assert result.mate is not None and result.mate < 0


def test_bad_search_options_are_errors_naming_them():
    from hinge_fast.search import create_searcher

    with pytest.raises(HingeError, match="fpu"):
        create_searcher("mcts", fpu=-2)
    with pytest.raises(HingeError, match="prior_weight"):
        create_searcher("mcts", prior_weight="x")


def test_search_options_are_deterministic_under_a_node_limit():
    from hinge_fast.search import create_searcher

    board = Board(6)
    options = dict(seed=4, fpu=0.8, prior_weight=0.5, exploration=0.4)
    a = create_searcher("mcts", **options).go(board, Limits(nodes=600))
    b = create_searcher("mcts", **options).go(board, Limits(nodes=600))
    assert a.move == b.move and [r.visits for r in a.root_moves] == [r.visits for r in b.root_moves]


def test_the_searcher_classes_play_the_engine_defaults():
    """``MCTSThreadsSearcher()`` and ``MCTSSearcher()`` carry the registry's ``mcts``
    defaults, so a seeded search by either is the engine's, node for node."""
    from hinge_fast.search import create_searcher
    from hinge_fast.search.mcts import MCTSSearcher
    from hinge_fast.search.mcts_threads import MCTSThreadsSearcher
    from hinge_fast.search.registry import engine_spec

    defaults = engine_spec("mcts").defaults
    plain, threads = MCTSSearcher(), MCTSThreadsSearcher()
    assert threads.threads == defaults["threads"]
    for name, value in defaults.items():
        if name not in ("threads", "seed", "tablebase", "tree_nodes"):
            assert getattr(plain.config, name) == value, name
    assert plain.tree_nodes == defaults["tree_nodes"]
    for board in (Board(4), Board(6), Board(7)):
        board.push(board.legal_moves[len(board.legal_moves) // 3])
        a = MCTSSearcher(seed=8).go(board, Limits(nodes=500))
        b = create_searcher("mcts", threads=1, seed=8, tablebase="off").go(board, Limits(nodes=500))
        assert [(r.move, r.visits) for r in a.root_moves] == [
            (r.move, r.visits) for r in b.root_moves
        ]
