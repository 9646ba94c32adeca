"""Alpha-beta's nodes a second through ``search_depth`` (views the recursion does not
reference-count, the default since session 10) and with ``negamax`` called on the arrays
themselves (before), in turn in one process, CPU time.

    python -m scripts.bench_unowned [--rounds 3] [--positions 10] [--nodes 200000]

Positions: seeded random games of 2 to 7 plies on side 4 (tablebase off), 6 to 30 on
sides 6 and 9. Both ways search the same trees (``tests/test_alphabeta.py`` checks it
node for node), so the ratio is a ratio of times.
"""

from __future__ import annotations

import argparse
import random
import time

from hinge_fast import Board  # first: points numba's cache at the user folder

from hinge_fast.search import Limits, alphabeta, create_searcher
from hinge_fast.tools.positions import random_position

UNOWNED = alphabeta.search_depth


def positions(size: int, count: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    low, high = (2, 7) if size == 4 else (6, 30)
    out: list[Board] = []
    while len(out) < count:
        board = random_position(size, rng.randint(low, high), rng)
        if not board.is_game_over():
            out.append(Board.from_fen(board.fen()))
    return out


def rate(size: int, boards: list[Board], nodes: int, unowned: bool) -> float:
    """Nodes a second (CPU) of one-thread searches of ``boards``."""
    alphabeta.search_depth = UNOWNED if unowned else alphabeta.negamax
    options = {"threads": 1, "tablebase": "off"} if size == 4 else {"threads": 1}
    total = seconds = 0.0
    for board in boards:
        searcher = create_searcher("alphabeta", **options)
        start = time.process_time()
        result = searcher.go(board.copy(), Limits(nodes=nodes))
        seconds += time.process_time() - start
        total += result.nodes
    return total / seconds


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--nodes", type=int, default=200_000)
    args = parser.parse_args(argv)
    for size in (4, 6, 9):
        boards = positions(size, args.positions, seed=5 + size)
        rate(size, boards[:1], 1000, True)  # load the kernels
        rate(size, boards[:1], 1000, False)
        for r in range(args.rounds):
            plain = rate(size, boards, args.nodes, False)
            fast = rate(size, boards, args.nodes, True)
            print(f"side {size} round {r + 1}: negamax on the arrays {plain:,.0f} nodes/s, "
                  f"search_depth {fast:,.0f} nodes/s, ratio {fast / plain:.2f}", flush=True)
    alphabeta.search_depth = UNOWNED


if __name__ == "__main__":
    main()
