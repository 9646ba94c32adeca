"""The fixed baselines (issue 12): mcts-v1 plays exactly what mcts played before the
strength work, recorded in tests/data/mcts_v1_moves.json."""

import json
from pathlib import Path

import pytest

from hinge_fast import Board
from hinge_fast.errors import HingeError
from hinge_fast.search import Limits, create_searcher
from hinge_fast.search.registry import BASELINE_ENGINES, ENGINES, REGISTRY, engine_spec
from hinge_fast.tools.players import get_player

CASES = json.loads((Path(__file__).parent / "data" / "mcts_v1_moves.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[f"{c['fen'][:12]}-{c['seed']}-{c['nodes']}" for c in CASES])
def test_mcts_v1_replays_the_recorded_moves(case):
    result = create_searcher("mcts-v1", seed=case["seed"]).go(Board.from_fen(case["fen"]), Limits(nodes=case["nodes"]))
    assert str(result.move) == case["move"]
    assert [rm.visits for rm in result.root_moves[:5]] == case["visits"]


def test_baselines_are_registered_apart_from_the_listed_engines():
    assert set(BASELINE_ENGINES) == {"mcts-v1", "alphabeta-v1"}
    assert not set(BASELINE_ENGINES) & set(ENGINES)
    assert set(REGISTRY) == set(ENGINES) | set(BASELINE_ENGINES)
    v1 = engine_spec("mcts-v1").defaults
    assert (v1["exploration"], v1["playout_greed"], v1["fpu"], v1["prior_weight"]) == (0.4, 1.0, -1.0, 0.0)
    assert (v1["choice_lcb"], v1["choice_share"]) == (0.0, 0.0)  # the most visited move
    assert v1["virtual_visits"] == 0.0  # the plain mean
    assert engine_spec("mcts-v1").searcher == engine_spec("mcts").searcher  # same class, pinned options


def test_new_mcts_differs_from_the_baseline_defaults():
    assert engine_spec("mcts").defaults != engine_spec("mcts-v1").defaults


def test_baselines_play_as_match_players():
    board = Board(4)
    for name in BASELINE_ENGINES:
        player = get_player(name, nodes=50, seed=1)
        assert player.name == name
        assert player.choose(board) in board.legal_moves


def test_bad_new_mcts_options_are_errors():
    with pytest.raises(HingeError, match="fpu"):
        create_searcher("mcts", fpu=-2)
    with pytest.raises(HingeError, match="prior_weight"):
        create_searcher("mcts", prior_weight="x")


def test_new_options_are_deterministic_under_a_node_limit():
    board = Board(6)
    options = dict(seed=4, fpu=0.8, prior_weight=0.5, exploration=0.4)
    a = create_searcher("mcts", **options).go(board, Limits(nodes=600))
    b = create_searcher("mcts", **options).go(board, Limits(nodes=600))
    assert a.move == b.move and [r.visits for r in a.root_moves] == [r.visits for r in b.root_moves]
    # First-play urgency leaves most of the ~60 root moves unvisited at 600 playouts.
    assert sum(r.visits == 0 for r in a.root_moves) > 0
