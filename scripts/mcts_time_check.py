"""How closely MCTS keeps its time limit: overshoot per search, several limits and sides.

Usage: python -m scripts.mcts_time_check [--runs 10]
"""

import argparse


from hinge_fast import Board
from hinge_fast.search import Limits
from hinge_fast.search.mcts import search_mcts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    search_mcts(Board(4), Limits(nodes=10), seed=0)
    for size in (6, 9):
        for limit in (0.001, 0.05, 0.2, 1.0):
            over = []
            for run in range(args.runs):
                result = search_mcts(Board(size), Limits(time=limit), seed=run)
                over.append(result.seconds - limit)
            print(
                f"side {size} time {limit:g} s: overshoot max {1000 * max(over):.2f} ms, "
                f"mean {1000 * sum(over) / len(over):.2f} ms; 5% of the limit is {50 * limit:.2f} ms"
            )


if __name__ == "__main__":
    main()
