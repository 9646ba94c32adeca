"""Alpha-beta search: tactics checked against the reference rules, the transposition
table's exactness, limits, determinism and the result's fields."""

from __future__ import annotations

import time

import numpy as np
import pytest

from hinge_fast import Board, HingeError, reference
from hinge_fast.search import Limits, Score, alphabeta, intrinsics, negamax, tt
from hinge_fast.search.alphabeta import WIN, score_text, search_alphabeta
from hinge_fast.search.evaluate import TERMS, evaluate_board
from tests.conftest import midgame_positions

# Found by a random-play scan (S=4), each checked below by brute force with the
# reference implementation rather than trusted.
ELIMINATION_IN_ONE = [
    "4/3b1/3bb1/1bbbbb1/2b1g1/3g1/4 g",
    "4/3b1/3bb1/1bbbbb1/2b1g1/2gg1/4 b",
    "4/1b1b1/3bb1/1bbbbb1/1gbbg1/1ggg1/4 b",
    "4/1g3/1g4/1g3b1/1gggb1/5/4 g",
]
ALLOWS_ELIMINATION = [
    "4/1bb2/6/5b1/2gg2/1g3/4 g",
    "4/1b3/1b4/1b3b1/2gg2/1g3/4 g",
    "4/1g1b1/1gg3/1g3b1/1gggb1/1g1b1/4 g",
    "4/3b1/1gbbb1/2g2b1/6/2g2/4 b",
]
QUIET_WIN_IN_THREE = [
    "4/1g3/1g4/1g3b1/1ggg2/5/4 b",
    "4/5/1gg1b1/2g4/1ggg2/5/4 b",
    "4/3b1/2g1b1/2g2b1/2g1g1/1gg2/4 g",
    "4/1gg2/1g4/1g2b2/3b2/2b2/4 g",
]


def ref_children(pos):
    return {reference.move_name(m): reference.play(pos, m) for m in reference.legal_moves(pos)}


def ref_eliminations(pos):
    """Names of the moves that leave the opponent with no tokens (rules.md 6)."""
    return {
        name
        for name, child in ref_children(pos).items()
        if reference.outcome(child) == (pos.to_move, "elimination")
    }


def ref_forced_wins_in_three(pos):
    """First moves after which every reply lets us eliminate (no reply ends the game)."""
    wins = set()
    for name, child in ref_children(pos).items():
        replies = ref_children(child)
        if replies and all(
            reference.outcome(r) is None and ref_eliminations(r) for r in replies.values()
        ):
            wins.add(name)
    return wins


@pytest.mark.parametrize("fen", ELIMINATION_IN_ONE)
def test_takes_an_elimination_in_one(fen):
    pos = reference.parse_position(fen)
    winning = ref_eliminations(pos)
    assert winning  # the position is what it claims
    result = search_alphabeta(Board.from_fen(fen), Limits(depth=3))
    assert str(result.move) in winning
    assert result.mate == 1 and result.score_text == "win in 1" and result.score == Score.win(1)


@pytest.mark.parametrize("fen", ALLOWS_ELIMINATION)
def test_avoids_a_move_that_allows_an_elimination(fen):
    pos = reference.parse_position(fen)
    assert not ref_eliminations(pos)
    children = ref_children(pos)
    safe = {
        name
        for name, child in children.items()
        if reference.outcome(child) is None and not ref_eliminations(child)
    }
    assert safe and len(safe) < len(children)  # some moves lose at once, some do not
    for depth in (2, 3):
        result = search_alphabeta(Board.from_fen(fen), Limits(depth=depth))
        assert str(result.move) in safe, depth


@pytest.mark.parametrize("fen", QUIET_WIN_IN_THREE)
def test_finds_a_forced_elimination_after_a_quiet_move(fen):
    pos = reference.parse_position(fen)
    assert not ref_eliminations(pos)
    wins = ref_forced_wins_in_three(pos)
    assert wins and all("-" not in name for name in wins)  # only placements force it
    result = search_alphabeta(Board.from_fen(fen), Limits(depth=3))
    assert str(result.move) in wins
    assert result.mate == 3 and result.score_text == "win in 3"
    assert result.depth == 3 and len(result.pv) == 3  # the proof stops deepening
    # Seen from the other side after the quiet move: a loss in 2.
    board = Board.from_fen(fen)
    board.push(result.move)
    assert search_alphabeta(board, Limits(depth=4)).score_text == "loss in 2"


@pytest.mark.parametrize(
    "limits", [Limits(nodes=1), Limits(time=0.001), Limits(nodes=1, time=0.001)]
)
def test_a_tiny_budget_still_gives_a_legal_move(limits):
    board = midgame_positions(6, 1, seed=3)[0]
    result = search_alphabeta(board, limits)
    assert result.move in board.legal_moves
    assert result.depth >= 1


def test_same_limits_same_result():
    for board in midgame_positions(6, 3, seed=11):
        for limits in (Limits(depth=3), Limits(nodes=3000)):
            a = search_alphabeta(board, limits, threads=1)  # more threads: test_threads.py
            b = search_alphabeta(board.copy(), limits, threads=1)
            assert (a.move, a.score, a.pv, a.nodes, a.depth) == (
                b.move,
                b.score,
                b.pv,
                b.nodes,
                b.depth,
            )


@pytest.mark.parametrize("size, depth", [(5, 3), (6, 3), (5, 4)])
def test_the_table_never_changes_a_fixed_depth_result(size, depth):
    """What is guaranteed: the table cuts a search off only with an entry of exactly
    the depth needed, and nothing prunes by move order, so the root score is the
    depth-limited minimax value with or without the table; and with ``multipv`` above the
    number of legal moves every root move's score is too. The best move may differ, but
    only among moves of the best score. (The selective search prunes and reduces by move
    order: off here.)"""
    for board in midgame_positions(size, 4, seed=100 + size + depth):
        plain = search_alphabeta(board, Limits(depth=depth), table_mb=0, multipv=1000, selective=0)
        exact = {rm.move: rm.score for rm in plain.root_moves}
        assert None not in exact.values() and len(exact) == len(board.legal_moves)
        best = max(exact.values())
        assert plain.score == best and exact[plain.move] == best
        with_table = search_alphabeta(board, Limits(depth=depth), table_mb=1, selective=0)
        assert with_table.score == best
        assert exact[with_table.move] == best
        pvs_without = search_alphabeta(board, Limits(depth=depth), table_mb=0, selective=0)
        assert pvs_without.score == best and exact[pvs_without.move] == best
        all_with_table = search_alphabeta(
            board, Limits(depth=depth), table_mb=1, multipv=1000, selective=0
        )
        assert {rm.move: rm.score for rm in all_with_table.root_moves} == exact


def test_result_fields():
    board = midgame_positions(6, 1, seed=5)[0]
    seen = []
    result = search_alphabeta(board, Limits(depth=4), progress=seen.append)
    assert [r.depth for r in seen] == [1, 2, 3, 4] and seen[-1].move == result.move
    assert result.engine == "alphabeta" and result.depth == 4
    assert result.nodes > 0 and result.nps > 0 and result.seconds > 0
    assert result.pv and result.pv[0] == result.move
    line = board.copy()
    for move in result.pv:
        line.push(move)  # raises if illegal
    assert result.score_text == score_text(result.score.centi_tokens) == str(result.score)
    assert result.mate is None and abs(result.score.centi_tokens) < alphabeta.MATE_BOUND
    assert sorted(map(str, (rm.move for rm in result.root_moves))) == sorted(
        map(str, board.legal_moves)
    )
    assert result.root_moves[0].move == result.move and result.root_moves[0].score == result.score
    assert sum(rm.visits for rm in result.root_moves) < result.nodes


def test_score_text():
    assert score_text(0) == "+0.00"
    assert score_text(-250) == "-2.50"
    assert score_text(WIN - 1) == "win in 1"
    assert score_text(-(WIN - 2)) == "loss in 2"


def test_finished_game_gives_no_move():
    board = Board.from_fen("4/3b1/3bb1/1bbbbb1/2b1g1/3g1/4 g")
    board.push("D2-D3xB4")  # flips the only Blue group
    assert board.is_game_over()
    result = search_alphabeta(board, Limits(depth=2))
    assert result.move is None and result.mate == 0


def test_table_entries_round_trip():
    for move, bound, depth, generation, score in [
        (1, 1, 0, 1, 0),
        ((1 << 27) - 1, 3, 127, 255, -(WIN + 1)),
        (5, 2, 9, 7, WIN + 1),
    ]:
        data = np.uint64(tt.pack_entry(move, bound, depth, generation, score))
        assert tt.entry_move(data) == move
        assert tt.entry_bound(data) == bound
        assert tt.entry_depth(data) == depth
        assert tt.entry_generation(data) == generation
        assert tt.entry_score(data) == score


def test_clock_is_the_monotonic_clock():
    before = time.monotonic_ns()
    now = intrinsics.clock_ns()
    after = time.monotonic_ns()
    assert before <= now <= after


def test_a_repeated_position_on_the_line_scores_zero():
    line = np.array([5, 7, 9, 11, 13], dtype=np.uint64)
    assert negamax.repeated(line, 4, np.uint64(9))  # two plies back
    assert negamax.repeated(line, 4, np.uint64(5))  # four plies back
    assert not negamax.repeated(line, 4, np.uint64(11))  # odd distance: other side to move


def test_evaluation_terms_are_from_the_side_to_move():
    board = midgame_positions(6, 1, seed=8)[0]
    terms = evaluate_board(board)
    flipped = Board.from_fen(board.fen()[:-1] + ("b" if board.fen().endswith("g") else "g"))
    other = evaluate_board(flipped)
    assert terms["material"] == -other["material"]
    assert terms["groups"] == -other["groups"]
    assert set(TERMS) <= set(terms) and isinstance(terms["total"], int)
    assert evaluate_board(Board())["total"] == 0
    assert evaluate_board(Board.from_fen(ELIMINATION_IN_ONE[0]))["verdict"] == "eliminates"


def test_bad_options_are_errors():
    from hinge_fast import HingeError

    board = Board(4)
    with pytest.raises(HingeError, match="unknown option 'tree_nodes' of engine alphabeta"):
        search_alphabeta(board, Limits(depth=1), tree_nodes=5)
    with pytest.raises(HingeError, match="table_mb"):
        search_alphabeta(board, Limits(depth=1), table_mb=-1)
    with pytest.raises(HingeError, match="table_mb"):
        search_alphabeta(board, Limits(depth=1), table_mb="big")


def test_quiescence_with_no_qualifying_flip_searches_as_without():
    """A least flip no swipe reaches leaves every leaf to the evaluation: the same
    search, node for node, as no quiescence."""
    for board in midgame_positions(6, 3, seed=21):
        a = search_alphabeta(board, Limits(depth=3), threads=1, quiescence=0)
        b = search_alphabeta(board, Limits(depth=3), threads=1, quiescence=1000)
        assert (a.move, a.score, a.nodes) == (b.move, b.score, b.nodes)


def test_quiescence_searches_the_big_flips_past_the_depth():
    """At depth 1 without quiescence the search sees one ply; with it, the flips that
    answer: never fewer nodes, more wherever a big flip is on the board."""
    from hinge_fast.search import create_searcher

    more = 0
    for board in midgame_positions(6, 6, seed=22):
        plain = create_searcher("alphabeta", threads=1, quiescence=0).go(board, Limits(depth=1))
        quiet = create_searcher("alphabeta", threads=1, quiescence=2).go(board, Limits(depth=1))
        assert quiet.move in board.legal_moves and quiet.nodes >= plain.nodes
        more += quiet.nodes > plain.nodes
    assert more >= 2


def test_the_table_keeps_fixed_depth_scores_exact_with_quiescence():
    """Quiescence stores only depth-0 entries with their true bound, so a fixed-depth
    score is still the same with and without the table."""
    for board in midgame_positions(5, 4, seed=23):
        with_table = search_alphabeta(board, Limits(depth=3), threads=1, quiescence=2)
        without = search_alphabeta(board, Limits(depth=3), threads=1, quiescence=2, table_mb=0)
        assert with_table.score == without.score


def test_fitted_evaluation_with_the_classic_weights_is_the_classic_evaluation():
    """The fitted kernel blends two weight sets by phase and adds tempo: given the
    classic weights twice and no tempo, it scores as the classic evaluation."""
    from hinge_fast.search.evaluate import WEIGHTS, Evaluator, get_evaluator

    classic = Evaluator(
        "classic-as-fitted", 2, "test", tuple(WEIGHTS) + (0,) + tuple(WEIGHTS) + (0,)
    )
    for board in (
        midgame_positions(6, 8, seed=24)
        + midgame_positions(4, 8, seed=25)
        + midgame_positions(9, 4, seed=26)
    ):
        assert classic(board) == get_evaluator("classic")(board) == evaluate_board(board)["total"]
    tempo = Evaluator("tempo", 2, "test", (0,) * 9 + (7,) + (0,) * 9 + (7,))
    assert tempo(Board()) == 7


def test_searchers_made_one_after_another_reuse_buffers_and_agree():
    """hinge_fast.search makes a searcher per call; the dropped ones' buffers and tables
    are reused, and a reused table's old entries never change a result."""
    import gc

    board = midgame_positions(6, 1, seed=26)[0]
    first = search_alphabeta(board, Limits(nodes=2000), threads=1)
    gc.collect()
    for _ in range(3):
        again = search_alphabeta(board, Limits(nodes=2000), threads=1)
        assert (again.move, again.score, again.nodes, again.pv) == (
            first.move,
            first.score,
            first.nodes,
            first.pv,
        )
    assert alphabeta.POOL.free_buffers and alphabeta.POOL.free_tables


def test_stop_ends_a_short_search_run_in_the_calling_thread():
    """A short time limit runs the kernel in the caller's thread: stop() from another
    thread still ends it (through the kernel's deadline), with a legal move."""
    import threading

    from hinge_fast.search import create_searcher

    board = Board(9)
    searcher = create_searcher("alphabeta", threads=1)
    searcher.go(board, Limits(depth=1))
    timer = threading.Timer(0.01, searcher.stop)
    timer.start()
    result = searcher.go(board, Limits(time=0.09))
    timer.join()
    assert result.move in board.legal_moves


def test_the_searcher_class_plays_the_engine_defaults():
    """``AlphaBetaSearcher()`` is what ``create_searcher("alphabeta")`` (and so
    ``hinge-fast move``) makes: the same options, the same searches node for node."""
    from hinge_fast.search import create_searcher
    from hinge_fast.search.alphabeta import AlphaBetaSearcher
    from hinge_fast.search.registry import engine_spec

    defaults = engine_spec("alphabeta").defaults
    assert (defaults["evaluator"], defaults["quiescence"]) == ("leaf-fitted", 2)
    plain, engine = AlphaBetaSearcher(), create_searcher("alphabeta", tablebase="off")
    for name in ("table_mb", "multipv", "quiescence", "quiescence_plies", "threads"):
        assert getattr(plain.config, name) == getattr(engine.config, name) == defaults[name], name
    assert plain.evaluator is engine.evaluator
    for board in midgame_positions(6, 2, seed=32) + midgame_positions(8, 1, seed=33):
        a = AlphaBetaSearcher(threads=1).go(board, Limits(nodes=3000))
        b = create_searcher("alphabeta", threads=1, tablebase="off").go(board, Limits(nodes=3000))
        assert (a.move, a.score, a.pv, a.nodes, a.depth) == (
            b.move,
            b.score,
            b.pv,
            b.nodes,
            b.depth,
        )
    with pytest.raises(HingeError, match="quiescence"):
        create_searcher("alphabeta", quiescence=-1)
    for removed in ("lmr", "null_move", "flip_extension", "shift_search", "full_time", "seed"):
        with pytest.raises(HingeError, match=f"unknown option '{removed}'"):
            create_searcher("alphabeta", **{removed: 1})


def test_a_depth_starts_whenever_time_is_left():
    """Under a time limit a new depth starts while any time is left (the unfinished one
    searches the previous best first): the whole budget is used."""
    from hinge_fast.search.alphabeta import starts_next_depth

    assert starts_next_depth(60, 100) and starts_next_depth(99, 100)
    assert not starts_next_depth(100, 100) and not starts_next_depth(130, 100)


def test_go_prepares_once_before_it_searches():
    """``go`` pays the one-time costs (``prepare``: kernels, buffers, table) once, before
    the search reports anything, for alpha-beta and MCTS, one thread and two."""
    from hinge_fast.search import create_searcher

    events = []
    for engine in ("alphabeta", "mcts"):
        for threads in (1, 2):
            searcher = create_searcher(engine, threads=threads, tablebase="off")
            prepare = searcher.prepare

            def recorded(board, prepare=prepare):
                events.append("prepare")
                prepare(board)
                events.append("prepared")

            searcher.prepare = recorded
            events.clear()
            limits = Limits(depth=3) if engine == "alphabeta" else Limits(nodes=300)
            result = searcher.go(Board(7), limits, lambda _: events.append("progress"))
            assert result.move in Board(7).legal_moves
            assert events[:2] == ["prepare", "prepared"] and events.count("prepare") == 1, (
                engine,
                threads,
                events,
            )
            if engine == "alphabeta":
                assert "progress" in events


def test_the_leaf_fitted_evaluation_is_the_fitted_model_with_its_own_weights_and_the_default():
    """``leaf-fitted`` is the fitted kernel with the side's LEAF_FITTED_* weights: each
    term times its phase-blended weight, plus tempo (recomputed here from the raw
    terms); it scores positions differently from ``fitted``, and the default searcher
    uses it."""
    from hinge_fast.search.evaluate import get_evaluator
    from hinge_fast.search.terms import board_terms
    from hinge_fast.search.weights import LEAF_FITTED_BY_SIZE, LEAF_FITTED_SIDE6

    assert LEAF_FITTED_BY_SIZE[6] == LEAF_FITTED_SIDE6
    half = len(LEAF_FITTED_SIDE6) // 2
    opening, end = LEAF_FITTED_SIDE6[:half], LEAF_FITTED_SIDE6[half:]

    leaf, fitted = get_evaluator("leaf-fitted"), get_evaluator("fitted")
    assert leaf.kernel_id == fitted.kernel_id == 2 and leaf is get_evaluator("LEAF-FITTED")
    differ = 0
    for board in midgame_positions(6, 6, seed=31):
        terms, n_own, can_eliminate = board_terms(board.size, board.own, board.enemy)
        if n_own == 0 or can_eliminate:
            continue
        cells = 3 * (board.size - 1) * (board.size - 2) + 1
        phase = sum(board.token_count(c) for c in (board.turn, board.turn.other)) / cells
        expected = sum(
            t * (o * (1 - phase) + e * phase)
            for t, o, e in zip(list(terms) + [1], opening, end, strict=True)
        )
        assert leaf(board) == round(expected)
        differ += leaf(board) != fitted(board)
        default = search_alphabeta(board, Limits(depth=2), threads=1)
        explicit = search_alphabeta(board, Limits(depth=2), threads=1, evaluator="leaf-fitted")
        assert (default.move, default.score, default.nodes) == (
            explicit.move,
            explicit.score,
            explicit.nodes,
        )
    assert differ >= 3
    with pytest.raises(HingeError, match="evaluator"):
        search_alphabeta(midgame_positions(6, 1, seed=31)[0], Limits(depth=1), evaluator="leaf")


def test_leaf_fitted_plays_each_side_its_own_weights():
    """``leaf-fitted`` has weights of its own on every side (``search/weights.py``, each
    fitted on that side's self-play), all different. Checked where the search copies
    the weights into its buffers."""
    from hinge_fast.core.sets import set_like
    from hinge_fast.search.alphabeta import AlphaBetaSearcher
    from hinge_fast.search.evaluate import evaluation_in, get_evaluator
    from hinge_fast.search.weights import (
        LEAF_FITTED_BY_SIZE,
        LEAF_FITTED_END,
        LEAF_FITTED_OPENING,
    )

    old = np.array(LEAF_FITTED_OPENING + LEAF_FITTED_END, dtype=np.float64)
    fits = {size: np.array(LEAF_FITTED_BY_SIZE[size], dtype=np.float64) for size in range(4, 10)}
    assert len({tuple(w) for w in fits.values()} | {tuple(old)}) == 7
    for size, expected in fits.items():
        assert len(expected) == len(old)
        searcher = AlphaBetaSearcher(table_mb=1, evaluator="leaf-fitted", threads=1)
        searcher.go(Board(size=size), Limits(depth=1))
        assert np.array_equal(searcher.buffers.weights[: len(expected)], expected), size
        assert np.array_equal(get_evaluator("leaf-fitted").weights_for(size), expected)
    side4 = fits[4]
    board = Board(size=4)
    board.push(board.legal_moves[0])
    leaf = get_evaluator("leaf-fitted")
    assert leaf(board) == int(evaluation_in(2, 4, board.own, board.enemy, side4, set_like(4)))
    assert leaf(board) != int(evaluation_in(2, 4, board.own, board.enemy, old, set_like(4)))
    with pytest.raises(HingeError, match="unknown evaluator 'leaf-fitted-69'"):
        get_evaluator("leaf-fitted-69")


def test_unowned_views_share_the_arrays_memory():
    """``search_depth`` hands ``negamax`` views that numba does not reference-count:
    same shape, type and memory as the arrays (a write through one shows in the other)."""
    from numba import njit

    @njit
    def write_through(a, b, c):
        va, vb, vc = intrinsics.unowned(a), intrinsics.unowned(b), intrinsics.unowned(c)
        va[2] = 7
        vb[1, 3] = 9
        vc[1, 2, 3] = np.uint64(11)
        return va.shape, vb.shape, vc.shape, va[0] + vb[0, 0]

    a = np.arange(5, dtype=np.int64)
    b = np.zeros((3, 4), dtype=np.int64)
    c = np.zeros((2, 3, 4), dtype=np.uint64)
    b[0, 0] = 10
    assert write_through(a, b, c) == ((5,), (3, 4), (2, 3, 4), 10)
    assert a[2] == 7 and b[1, 3] == 9 and c[1, 2, 3] == 11 and c.sum() == 11


@pytest.mark.parametrize("size", [4, 7, 9])
def test_search_over_unowned_views_is_the_plain_recursion(size, monkeypatch):
    """The same searches, node for node, through ``search_depth`` and with ``negamax``
    called on the arrays themselves."""
    from hinge_fast.core.sets import to_shift_words

    def plain(
        size, colour, own, enemy, key, depth, ply, alpha, beta, config, buf, keys, data, like
    ):
        return negamax.negamax(
            size,
            colour,
            to_shift_words(size, own, like),
            to_shift_words(size, enemy, like),
            key,
            depth,
            ply,
            alpha,
            beta,
            config,
            buf,
            keys,
            data,
        )

    boards = midgame_positions(size, 4, seed=40 + size)
    limits = Limits(nodes=4000)
    options = dict(threads=1, tablebase="off")
    fast = [search_alphabeta(board.copy(), limits, **options) for board in boards]
    monkeypatch.setattr(alphabeta, "search_depth", plain)
    plain = [search_alphabeta(board.copy(), limits, **options) for board in boards]
    for a, b in zip(fast, plain):
        assert (a.move, a.score, a.pv, a.nodes, a.depth) == (
            b.move,
            b.score,
            b.pv,
            b.nodes,
            b.depth,
        )


def test_the_evaluators_kernel_ids_are_the_branches_leaf_evaluation_names():
    """``evaluate``'s named kernel ids (MCTS takes ``FITTED`` as a constant) are the
    evaluators' ``kernel_id``s."""
    from hinge_fast.search.evaluate import CLASSIC, FITTED, MATERIAL_ONLY, get_evaluator

    ids = tuple(get_evaluator(name).kernel_id for name in ("classic", "material", "leaf-fitted"))
    assert ids == (CLASSIC, MATERIAL_ONLY, FITTED)
