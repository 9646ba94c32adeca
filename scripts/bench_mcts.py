"""MCTS playouts per second from the empty board (median of several runs).

Usage: python -m scripts.bench_mcts [--size 6] [--nodes 50000] [--runs 5] [--option key=value ...]
Example: python -m scripts.bench_mcts --size 6 --nodes 50000 --runs 5
"""

import argparse
import statistics
import time


from hinge_fast import Board
from hinge_fast.tools.players import option_value
from hinge_fast.search import Limits
from hinge_fast.search.mcts import search_mcts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--nodes", type=int, default=50000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--position", default=None, help="a position string instead of the empty board")
    parser.add_argument("--option", action="append", default=[], help="an MCTS option key=value")
    args = parser.parse_args()
    options = {k: option_value(v) for k, _, v in (o.partition("=") for o in args.option)}
    board = Board.from_fen(args.position) if args.position else Board(args.size)
    search_mcts(board, Limits(nodes=100), seed=0, **options)  # load the kernels
    rates, cpu_rates = [], []
    for run in range(args.runs):
        cpu = time.process_time()
        result = search_mcts(board, Limits(nodes=args.nodes), seed=run, **options)
        cpu = time.process_time() - cpu
        rates.append(result.nps)
        cpu_rates.append(result.nodes / cpu)
        print(
            f"run {run + 1}: {result.nodes} playouts in {result.seconds:.3f} s = {result.nps:,.0f}/s wall, "
            f"{result.nodes / cpu:,.0f}/s of CPU time, depth {result.depth}, best {result.move} {result.score_text}"
        )
    print(
        f"median {statistics.median(rates):,.0f} playouts/s wall, {statistics.median(cpu_rates):,.0f} per CPU second "
        f"(side {board.size}, {args.nodes} playouts per run)"
    )


if __name__ == "__main__":
    main()
