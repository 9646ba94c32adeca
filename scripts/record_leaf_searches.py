"""Record fixed-depth alpha-beta searches on sides 4 to 6 (move, score, nodes, PV) for
``tests/test_shifteval.py``: recorded before the shift-layout leaf evaluation, they
pin the search's results across it. Re-recorded in session 9, when the default
evaluation took its side-4 weights (``search/weights.py``): the five side-4 cases of
the ``default`` configuration that are not proven results changed (score and nodes, the
same moves); the other 70 are as recorded before the shift layout.

    python -m scripts.record_leaf_searches > tests/data/alphabeta_leaf_searches.json
"""

from __future__ import annotations

import json
import random

from hinge_fast import Board
from hinge_fast.search import Limits, create_searcher
from hinge_fast.tools.positions import random_filling

#: Engine options of each recorded configuration (``alphabeta``'s, one thread): the
#: default (leaf-fitted, quiescence 2), the classic evaluation without quiescence (as
#: alphabeta-v1), the fitted one with quiescence 1, null-move pruning and LMR.
CONFIGS = {
    "default": {},
    "classic": {"evaluator": "classic", "quiescence": 0},
    "fitted-null": {"evaluator": "fitted", "quiescence": 1, "null_move": 2, "lmr": True},
}
DEPTH = {4: 5, 5: 4, 6: 3}


def positions() -> list[str]:
    """Positions of random games (a random ply from 0 to 30; 0 to 4 in half the side-4
    games) and random fillings."""
    rng = random.Random(4242)
    fens = []
    for size in (4, 5, 6):
        for game in range(8):
            board = Board(size)
            # side 4: half the games stop in the opening (0 to 4 plies), where the
            # search is not yet a proven result
            for _ in range(rng.randrange(0, 5 if size == 4 and game % 2 == 0 else 31)):
                if not board.legal_moves:
                    break
                board.push(rng.choice(board.legal_moves))
            if board.legal_moves:
                fens.append(board.fen())
        for seed in range(3):
            board = random_filling(size, seed=600 * size + seed)
            if board.legal_moves:
                fens.append(board.fen())
    return fens


def main() -> None:
    cases = []
    for fen in positions():
        board = Board.from_fen(fen)
        for name, options in CONFIGS.items():
            result = create_searcher("alphabeta", threads=1, tablebase="off", **options).go(board, Limits(depth=DEPTH[board.size]))
            cases.append({"fen": fen, "config": name, "depth": DEPTH[board.size], "move": str(result.move),
                          "score": str(result.score), "nodes": result.nodes,
                          "pv": [str(m) for m in result.pv]})
    print(json.dumps(cases, indent=1))


if __name__ == "__main__":
    main()
