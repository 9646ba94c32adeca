"""Search threads: the ``threads`` option of the registry, alpha-beta's
Lazy SMP over a lockless table, MCTS's root-parallel trees. Speed is measured by
``scripts/threads_bench.py``, never here."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from hinge_fast import Board
from hinge_fast.cli import main
from hinge_fast.errors import HingeError
from hinge_fast.games.players import get_player
from hinge_fast.protocol.options import default_options, searcher_options
from hinge_fast.search import Limits, create_searcher
from hinge_fast.search.mcts import MCTSSearcher
from hinge_fast.search.mcts_threads import merged_result, share, thread_seed
from hinge_fast.search.options import DEFAULT_THREADS, MAX_THREADS, default_threads
from hinge_fast.search.registry import engine_spec, parse_engine_spec
from hinge_fast.search.tt import pack_entry, table_store

MIDGAME = "6/1gg4/5g2/9/3b4g1/3b3g3/1b2ggg1g1/1b7/3b4/3b3/6 g"
ENGINES = ("alphabeta", "mcts")


def seeded(engine: str, seed: int) -> dict:
    """``{"seed": seed}`` for an engine with a ``seed`` option (MCTS), else nothing."""
    from hinge_fast.search.registry import engine_spec

    return {"seed": seed} if "seed" in engine_spec(engine).option_names else {}


def same(a, b):
    return (
        a.move,
        a.score,
        a.pv,
        a.nodes,
        a.depth,
        [(r.move, r.score, r.visits) for r in a.root_moves],
    ) == (
        b.move,
        b.score,
        b.pv,
        b.nodes,
        b.depth,
        [(r.move, r.score, r.visits) for r in b.root_moves],
    )


def test_the_default_is_every_core_unless_the_environment_says(monkeypatch):
    import os

    monkeypatch.delenv("HINGE_FAST_THREADS", raising=False)
    assert default_threads() == len(os.sched_getaffinity(0))
    monkeypatch.setenv("HINGE_FAST_THREADS", "3")
    assert default_threads() == 3
    monkeypatch.setenv("HINGE_FAST_THREADS", "0")
    assert default_threads() == len(os.sched_getaffinity(0))


@pytest.mark.parametrize("engine", ENGINES)
def test_threads_is_an_option_of_every_engine_defaulting_to_every_core(engine):
    option = engine_spec(engine).option("threads")
    assert option.default == DEFAULT_THREADS >= 1 and (option.low, option.high) == (1, MAX_THREADS)
    assert parse_engine_spec(f"{engine}:threads=2") == (engine, {"threads": 2})
    with pytest.raises(HingeError, match="threads must be from 1 to"):
        create_searcher(engine, threads=0)
    assert create_searcher(engine).threads == DEFAULT_THREADS


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("limits", [Limits(time=0.2), Limits(nodes=3000), Limits(nodes=1)])
def test_a_multi_thread_search_returns_a_legal_move(engine, limits):
    board = Board.from_fen(MIDGAME)
    result = create_searcher(engine, threads=2, **seeded(engine, 3)).go(board, limits)
    assert result.move in board.legal_moves and result.pv[0] == result.move
    assert {r.move for r in result.root_moves} == set(board.legal_moves)
    if limits.nodes and engine == "mcts":
        assert result.nodes == limits.nodes  # the playouts are shared out, not multiplied


@pytest.mark.parametrize("engine", ENGINES)
def test_a_multi_thread_search_respects_its_time_limit(engine):
    result = create_searcher(engine, threads=2, **seeded(engine, 1)).go(Board(6), Limits(time=0.3))
    assert (
        result.move in Board(6).legal_moves and result.seconds < 0.3 * 1.05 + 0.2
    )  # slack for a busy machine; a limit doubled by two threads (0.6 s) still fails


@pytest.mark.parametrize("engine", ENGINES)
def test_a_multi_thread_search_stops_on_stop(engine):
    searcher = create_searcher(engine, threads=2, **seeded(engine, 1))
    board = Board(6)
    searcher.go(board, Limits(nodes=50))  # allocate and load first
    seen = []

    def on_progress(result):
        if not seen:
            seen.append(time.monotonic())
            threading.Thread(target=searcher.stop).start()

    result = searcher.go(board, Limits(time=60), on_progress)
    assert seen and result.move in board.legal_moves
    assert time.monotonic() - seen[0] < 5  # promptly, far inside the 60 s limit


@pytest.mark.parametrize(
    "engine, limits",
    [
        ("mcts", Limits(nodes=4000)),
        ("alphabeta", Limits(depth=4)),
        ("alphabeta", Limits(nodes=20000)),
    ],
)
def test_one_thread_with_a_seed_is_reproducible(engine, limits):
    board = Board.from_fen(MIDGAME)
    first = create_searcher(engine, threads=1, **seeded(engine, 9)).go(board, limits)
    again = create_searcher(engine, threads=1, **seeded(engine, 9))
    assert same(first, again.go(board, limits)) and same(first, again.go(board, limits))


def test_one_thread_mcts_is_exactly_the_single_tree_searcher():
    board = Board.from_fen(MIDGAME)
    want = MCTSSearcher(seed=4, tree_nodes=100_000).go(board, Limits(nodes=3000))
    got = create_searcher("mcts", threads=1, seed=4, tree_nodes=100_000).go(
        board, Limits(nodes=3000)
    )
    assert same(want, got)


def test_root_parallel_mcts_with_a_seed_and_a_node_limit_is_reproducible():
    board = Board.from_fen(MIDGAME)
    runs = [
        create_searcher("mcts", threads=3, seed=2).go(board, Limits(nodes=3001)) for _ in range(2)
    ]
    assert same(*runs) and runs[0].nodes == 3001


def test_root_parallel_trees_share_the_node_budget_and_merge_their_roots():
    board = Board(5)
    searcher = create_searcher("mcts", threads=2, tree_nodes=10_000, seed=6)
    result = searcher.go(board, Limits(nodes=2000))
    trees = searcher.trees
    assert len(trees) == 2 and all(len(t.parent) == 5_000 for t in trees)
    visits = {}
    for tree in trees:
        for c in tree.children(0):
            move = board.move_from_code(int(tree.move[c]))
            visits[move] = visits.get(move, 0) + int(tree.visits[c])
    assert {r.move: r.visits for r in result.root_moves} == visits
    assert result.root_moves[0].visits == max(visits.values()) or result.score.mate is not None
    assert merged_result(board, trees, 1.0).move == result.move


def test_thread_seeds_and_node_shares():
    assert [share(10, 3, k) for k in range(3)] == [4, 3, 3]
    assert thread_seed(7, 0) == 7 and thread_seed(-1, 2) == -1
    seeds = {thread_seed(7, k) for k in range(8)}
    assert len(seeds) == 8 and all(0 <= s < 2**63 for s in seeds)


def test_multi_thread_alpha_beta_at_a_fixed_depth_gives_the_one_thread_score():
    board = Board.from_fen(MIDGAME)
    one = create_searcher("alphabeta", threads=1, selective=0).go(board, Limits(depth=3))
    two = create_searcher("alphabeta", threads=2, selective=0).go(board, Limits(depth=3))
    assert two.depth == 3 and two.move in board.legal_moves
    assert (
        two.score == one.score
    )  # a full-width fixed-depth score is the minimax value, whoever filled the table


def test_table_entries_torn_between_two_writers_are_refused():
    keys = np.zeros(8, dtype=np.uint64)
    data = np.zeros(8, dtype=np.uint64)
    a, b = (
        np.uint64(0x1234_5678_9ABC_DEF0),
        np.uint64(0x0FED_CBA9_8765_4320),
    )  # same bucket (low bits 0)
    table_store(keys, data, a, 5, 3, 2, 1, 17, 0)
    slot = int(a) & 6
    assert keys[slot] ^ data[slot] == a and data[slot] == pack_entry(5, 3, 2, 1, 17)
    # Another thread's write of b lands in data but not (yet) in keys: the entry fails the
    # check for both keys instead of handing b's data to a.
    data[slot] = pack_entry(9, 3, 2, 1, -40)
    assert keys[slot] ^ data[slot] not in (a, b)


def test_threads_reach_the_command_line_the_protocol_and_players(capsys):
    assert (
        main(["move", "--engine", "mcts", "--nodes", "500", "-o", "threads=2", "-o", "seed=1"]) == 0
    )
    assert capsys.readouterr().out.strip()
    assert main(["move", "-o", "threads=0"]) == 2
    assert "threads must be from 1 to" in capsys.readouterr().err
    options = default_options()
    options["threads"].value = options["threads"].parse("2")
    assert searcher_options(options) == (
        "alphabeta",
        {**engine_spec("alphabeta").defaults, "threads": 2},
    )
    player = get_player("mcts:threads=2", nodes=200, seed=1)
    assert player.choose(Board(5)) in Board(5).legal_moves


def test_setting_the_seed_reseeds_every_thread():
    board = Board(5)
    searcher = create_searcher("mcts", threads=2, seed=1)
    searcher.seed = 8
    assert same(
        searcher.go(board, Limits(nodes=1000)),
        create_searcher("mcts", threads=2, seed=8).go(board, Limits(nodes=1000)),
    )
