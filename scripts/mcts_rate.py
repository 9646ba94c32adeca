"""MCTS playouts per second at a time budget, on positions of seeded random games.

Usage: python -m scripts.mcts_rate [--size 4] [--games 20] [--time 0.01] ENGINE ...
Example: python -m scripts.mcts_rate --size 6 'mcts:threads=1,shift_playouts=false' 'mcts:threads=1'

Every position of ``--games`` uniformly random games (seed ``--seed``; finished
positions left out) is searched by each engine spec in turn, position by position
(so that the machine's load falls on both alike), for ``--time`` seconds, the
tablebase off; prints each engine's total playouts over the searches' total seconds
(wall) and over the CPU time of the process during them (whole searches, Python
included), and the mean playouts per search. Compare figures of one run only.
"""

from __future__ import annotations

import argparse
import time

import hinge_fast
from hinge_fast import Board
from hinge_fast.search.registry import engine_spec, parse_engine_spec
from hinge_fast.tools.positions import game_positions


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m scripts.mcts_rate", description=__doc__.split("\n\n")[0])
    parser.add_argument("engines", nargs="+", help="engine specs, e.g. 'mcts:threads=1'")
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    boards = game_positions(args.size, args.games, args.seed)
    specs = [parse_engine_spec(s) for s in args.engines]
    for k, (name, options) in enumerate(specs):
        if "tablebase" in engine_spec(name).option_names:
            specs[k] = (name, {**options, "tablebase": "off"})
        hinge_fast.search(Board(args.size), engine=name, seed=0, nodes=50, **specs[k][1])  # load the kernels
    playouts = [0] * len(specs)
    seconds = [0.0] * len(specs)
    cpu = [0.0] * len(specs)
    for i, board in enumerate(boards):
        for k, (name, options) in enumerate(specs):
            started = time.process_time()
            result = hinge_fast.search(board.copy(), engine=name, seed=i, time=args.time, **options)
            cpu[k] += time.process_time() - started
            playouts[k] += result.nodes
            seconds[k] += result.seconds
    print(f"{len(boards)} positions of {args.games} random side-{args.size} games (seed {args.seed}), "
          f"{args.time} s a search")
    for k, spec in enumerate(args.engines):
        print(f"{spec:<40} {playouts[k] / seconds[k]:>10,.0f} playouts/s {playouts[k] / cpu[k]:>10,.0f} per CPU second "
              f"{playouts[k] / len(boards):>8,.0f} a search")


if __name__ == "__main__":
    main()
