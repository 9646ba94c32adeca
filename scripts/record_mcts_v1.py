"""Record the moves and root visits of MCTS under seeds and node limits (tests/data/mcts_v1_moves.json).

Run before the issue-12 changes with the engine then called ``mcts``; it now names
``mcts-v1``, the pinned baseline, and must reproduce the file exactly:
``python scripts/record_mcts_v1.py > tests/data/mcts_v1_moves.json``.
"""
import json
from hinge_fast import Board
from hinge_fast.search import Limits, create_searcher
cases = []
fens = ["4/5/6/7/6/5/4 g", "6/7/8/9/10/11/10/9/8/7/6 g",
        "6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g",
        "5/1bb1g1/1b2g2/2bbg3/2b1b4/4bg2/3g1g1/6/5 b"]
for fen in fens:
    for seed, nodes in ((1, 300), (2, 1000), (3, 2500)):
        b = Board.from_fen(fen)
        r = create_searcher("mcts-v1", seed=seed).go(b, Limits(nodes=nodes))
        cases.append({"fen": fen, "seed": seed, "nodes": nodes, "move": str(r.move),
                      "visits": [rm.visits for rm in r.root_moves[:5]]})
b = Board(9)
r = create_searcher("mcts-v1", seed=5).go(b, Limits(nodes=400))
cases.append({"fen": b.fen(), "seed": 5, "nodes": 400, "move": str(r.move), "visits": [rm.visits for rm in r.root_moves[:5]]})
print(json.dumps(cases, indent=1))
