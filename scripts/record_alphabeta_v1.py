"""Record alpha-beta-v1's moves, scores and node counts under node and depth limits
(tests/data/alphabeta_v1_moves.json).

Run before the issue-12 alpha-beta changes (quiescence, fitted evaluation); the pinned
baseline ``alphabeta-v1`` must reproduce the file exactly (tests/test_alphabeta.py):
``python -m scripts.record_alphabeta_v1 > tests/data/alphabeta_v1_moves.json``.
"""
import json

from hinge_fast import Board
from hinge_fast.search import Limits, create_searcher

FENS = ["4/5/6/7/6/5/4 g", "4/1g3/1g4/1g3b1/1ggg2/5/4 b", "6/7/8/9/10/11/10/9/8/7/6 g",
        "6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g",
        "5/1bb1g1/1b2g2/2bbg3/2b1b4/4bg2/3g1g1/6/5 b"]


def main():
    cases = []
    for fen in FENS:
        for limits in ({"nodes": 300}, {"nodes": 3000}, {"depth": 3}):
            r = create_searcher("alphabeta-v1").go(Board.from_fen(fen), Limits(**limits))
            cases.append({"fen": fen, "limits": limits, "move": str(r.move), "score": str(r.score),
                          "depth": r.depth, "nodes": r.nodes})
    print(json.dumps(cases, indent=1))


if __name__ == "__main__":
    main()
