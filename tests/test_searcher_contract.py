"""The searcher contract: registry, options, go/stop, searchers owning their state, Score."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest

import hinge_fast
from hinge_fast import Board, HingeError
from hinge_fast.cli import main
from hinge_fast.search import DEFAULT_ENGINE, ENGINES, REGISTRY, Limits, Score, create_searcher
from hinge_fast.search.registry import choose_engine, parse_engine_spec
from tests.conftest import MID_GAME

ROOT = Path(__file__).resolve().parents[1]


def seeded(engine: str, seed: int) -> dict:
    """``{"seed": seed}`` for an engine with a ``seed`` option (MCTS), else nothing."""
    from hinge_fast.search.registry import engine_spec

    return {"seed": seed} if "seed" in engine_spec(engine).option_names else {}


def test_registry_lists_every_engine_once_with_its_options():
    assert DEFAULT_ENGINE == "alphabeta" and set(ENGINES) == {"alphabeta", "mcts"}
    for name, spec in REGISTRY.items():
        assert (
            spec.name == name and spec.progress_unit in ("nodes", "playouts") and spec.description
        )
        assert spec.searcher_class().name == name
        assert spec.searcher_class().honours_depth == spec.honours_depth
        for option in spec.options:
            assert option.check(option.default) == option.default  # defaults are in bounds
    assert REGISTRY["alphabeta"].honours_depth and not REGISTRY["mcts"].honours_depth


@pytest.mark.parametrize(
    "name, options, message",
    [
        ("minimax", {}, "unknown engine 'minimax'"),
        ("mcts", {"table_mb": 4}, "unknown option 'table_mb' of engine mcts"),
        ("mcts", {"exploration": "lots"}, "option exploration must be a number"),
        ("mcts", {"tree_nodes": 0}, "option tree_nodes must be from 1"),
        ("alphabeta", {"table_mb": 1.5}, "option table_mb must be a whole number"),
        ("alphabeta", {"evaluator": "neural"}, "option evaluator must be one of classic, material"),
        ("alphabeta", {"seed": 1}, "unknown option 'seed' of engine alphabeta"),
        ("mcts", {"seed": -2}, "option seed must be from -1"),
    ],
)
def test_create_searcher_checks_name_options_and_values(name, options, message):
    with pytest.raises(HingeError, match=message):
        create_searcher(name, **options)


def test_engine_specs_parse_through_the_registry():
    assert parse_engine_spec("mcts:exploration=1.2,tree_nodes=1000") == (
        "mcts",
        {"exploration": 1.2, "tree_nodes": 1000},
    )
    with pytest.raises(HingeError, match="option exploration must be a number, not 'abc'"):
        parse_engine_spec("mcts:exploration=abc")
    assert (
        choose_engine(None, Limits(depth=2)) == "alphabeta"
        and choose_engine(None, Limits(nodes=2)) == DEFAULT_ENGINE
    )


def test_default_engine_everywhere():
    assert hinge_fast.search(Board(4), nodes=50, seed=1).engine == DEFAULT_ENGINE
    from hinge_fast.analysis.position import analyze
    from hinge_fast.protocol.options import default_options

    assert default_options()["engine"].value == DEFAULT_ENGINE
    assert analyze(Board(4), nodes=50, seed=1).engine == DEFAULT_ENGINE


@pytest.mark.parametrize(
    "engine, limits", [("mcts", Limits(nodes=3000)), ("alphabeta", Limits(depth=4))]
)
def test_two_searchers_in_two_threads_match_sequential_runs(engine, limits):
    """Each searcher owns its buffers, table or tree and random generator: two running at
    once in one process give what each gives alone."""
    boards = [Board.from_fen(MID_GAME), Board(6)]
    # One search thread each (more would make alpha-beta's node counts vary: test_threads.py).
    sequential = [
        create_searcher(engine, threads=1, **seeded(engine, 11 + i)).go(b, limits)
        for i, b in enumerate(boards)
    ]
    searchers = [create_searcher(engine, threads=1, **seeded(engine, 11 + i)) for i in range(2)]
    results = [None, None]
    start = threading.Barrier(2)

    def run(i):
        start.wait()
        results[i] = searchers[i].go(boards[i], limits)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got, want in zip(results, sequential):
        assert (got.move, got.score, got.pv, got.nodes, got.depth) == (
            want.move,
            want.score,
            want.pv,
            want.nodes,
            want.depth,
        )
        assert [(r.move, r.score, r.visits) for r in got.root_moves] == [
            (r.move, r.score, r.visits) for r in want.root_moves
        ]


def test_a_searcher_reuses_its_state_and_repeats_itself():
    searcher = create_searcher("mcts", seed=5)
    first = searcher.go(Board(5), Limits(nodes=2000))
    tree = searcher.tree
    second = searcher.go(Board(5), Limits(nodes=2000))
    assert searcher.tree is tree and first.root_moves == second.root_moves
    ab = create_searcher("alphabeta", table_mb=1, threads=1)
    one = ab.go(Board.from_fen(MID_GAME), Limits(depth=3))
    buffers = ab.buffers
    two = ab.go(Board.from_fen(MID_GAME), Limits(depth=3))
    assert ab.buffers is buffers and (one.move, one.score, one.nodes) == (
        two.move,
        two.score,
        two.nodes,
    )


def test_one_go_at_a_time_per_searcher():
    searcher = create_searcher("mcts", seed=1)
    inside = []

    def on_progress(result):
        if not inside:
            with pytest.raises(HingeError, match="already searching"):
                searcher.go(Board(4), Limits(nodes=10))
            inside.append(True)
            searcher.stop()

    searcher.go(Board(6), Limits(time=60), on_progress)
    assert inside


def test_material_evaluator_is_a_second_backend():
    board = Board.from_fen(MID_GAME)
    classic = create_searcher("alphabeta").go(board, Limits(depth=2))
    material = create_searcher("alphabeta", evaluator="material").go(board, Limits(depth=2))
    assert material.move in board.legal_moves
    assert material.score.centi_tokens % 100 == 0 and classic.score != material.score


def test_score_formats_and_orders_itself():
    assert [
        str(s)
        for s in (
            Score.centi(125),
            Score.centi(-250),
            Score.win(3),
            Score.loss(4),
            Score.rate(0.625),
        )
    ] == [
        "+1.25",
        "-2.50",
        "win in 3",
        "loss in 4",
        "62.5%",
    ]
    assert sorted(
        [
            Score.win(5),
            Score.loss(1),
            Score.centi(30),
            Score.win(1),
            Score.loss(7),
            Score.centi(-10),
        ]
    ) == [
        Score.loss(1),
        Score.loss(7),
        Score.centi(-10),
        Score.centi(30),
        Score.win(5),
        Score.win(1),
    ]
    assert (
        Score.rate(0.4) < Score.win(9) and Score.loss(2).mate == -2 and Score.win(3).win_rate == 1.0
    )
    with pytest.raises(HingeError, match="cannot be compared"):
        Score.centi(10) < Score.rate(0.5)  # noqa: B015


def test_move_refuses_a_depth_for_an_engine_without_depths(capsys):
    assert main(["move", "--engine", "mcts", "--depth", "3"]) == 2
    assert "engine mcts has no depth limit" in capsys.readouterr().err


def test_move_and_protocol_agree_on_seed_bounds(capsys):
    from hinge_fast.protocol.server import EngineSession

    assert main(["move", "--size", "4", "--nodes", "20", "--seed", "-1", "--quiet"]) == 0
    assert Board(4).parse_move(capsys.readouterr().out.strip())
    assert main(["move", "--size", "4", "--nodes", "20", "--seed", "-2"]) == 2
    assert "seed must be from -1" in capsys.readouterr().err
    assert (
        EngineSession()
        .handle("options set seed -2")[0]
        .startswith("err option seed must be from -1")
    )


def test_move_takes_engine_options(capsys):
    assert (
        main(
            [
                "move",
                "--size",
                "4",
                "--engine",
                "alphabeta",
                "--depth",
                "2",
                "-o",
                "table_mb=1",
                "--quiet",
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert (
        main(["move", "--size", "4", "--engine", "mcts", "--nodes", "5", "-o", "exploration=abc"])
        == 2
    )
    assert "option exploration must be a number" in capsys.readouterr().err


def test_no_code_outside_the_registry_branches_on_an_engine_name():
    pattern = re.compile(
        r"""(==|!=|\bin\b)\s*\(?\s*["'](alphabeta|mcts)["']|["'](alphabeta|mcts)["']\s*(==|!=)"""
    )
    bad = []
    for path in sorted((ROOT / "hinge_fast").rglob("*.py")):
        if path.name == "registry.py":
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line):
                bad.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert bad == []
    assert "inspect" not in (ROOT / "hinge_fast" / "protocol" / "server.py").read_text()


@pytest.mark.parametrize("engine", ["alphabeta", "mcts"])
def test_no_limit_means_the_default_time_for_every_searcher(engine, monkeypatch):
    """``Searcher.go`` alone turns limits that bound nothing into ``DEFAULT_TIME``
    seconds (a depth bounds alpha-beta only), so a searcher never runs unbounded."""
    from hinge_fast.search import DEFAULT_TIME, Limits, create_searcher

    searcher = create_searcher(engine, threads=1, **seeded(engine, 1))
    seen = []
    monkeypatch.setattr(searcher, "_go", lambda board, limits, progress: seen.append(limits))
    for limits in (Limits(), Limits(depth=2), Limits(nodes=10), Limits(time=0.01)):
        searcher.go(Board(5), limits)
    depth_two = Limits(depth=2) if engine == "alphabeta" else Limits(time=DEFAULT_TIME, depth=2)
    assert seen == [Limits(time=DEFAULT_TIME), depth_two, Limits(nodes=10), Limits(time=0.01)]


@pytest.mark.parametrize("engine", ["alphabeta", "mcts"])
def test_a_time_too_short_to_count_still_ends_the_search(engine):
    # A time below a nanosecond once read as "no time limit" and searched on forever;
    # it is the shortest search instead: one step, a legal move. (The thread only
    # detects a search that never ends.)
    board = Board(6)
    found = []
    searcher = create_searcher(engine, threads=1, tablebase="off", **seeded(engine, 1))
    worker = threading.Thread(
        target=lambda: found.append(searcher.go(board.copy(), Limits(time=1e-300))), daemon=True
    )
    worker.start()
    worker.join(120)
    if worker.is_alive():
        searcher.stop()
        worker.join(10)
        pytest.fail("the search did not end")
    assert found[0].move in board.legal_moves
