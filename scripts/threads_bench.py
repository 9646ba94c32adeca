"""Search threads: 2 threads against 1, in one run (issue 9, item 3).

Usage: python -m scripts.threads_bench [--threads 2] [--seconds 1] [--positions 8] [--size 6]

For each engine of the registry (MCTS playouts/s, alpha-beta nodes/s) it searches
each mid-game position of ``hinge_fast.tools.benchmark`` for ``--seconds`` with 1
thread and then with ``--threads`` threads (registry option ``threads``), in turn,
and prints the median rates and their ratio. The load average before and after is
printed beside the figures: on a shared machine other processes take cores from the
threads. Targets on a 2-core machine: MCTS >= 1.7x, alpha-beta >= 1.6x.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hinge_fast.search.registry import ENGINES  # noqa: E402
from hinge_fast.tools.benchmark import machine, mid_game_positions, search_rate  # noqa: E402

TARGETS = {"mcts": 1.7, "alphabeta": 1.6}


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=1.0, help="search time per position (default 1)")
    parser.add_argument("--positions", type=int, default=8, help="mid-game positions (default 8)")
    parser.add_argument("--size", type=int, default=6)
    args = parser.parse_args(argv)
    positions = mid_game_positions(args.size)[: args.positions]
    print(f"machine: {machine()}; {len(os.sched_getaffinity(0))} cores for this process")
    print(f"side {args.size}, {len(positions)} positions, {args.seconds:g} s a search; before: {load()}")
    print(f"{'engine':<10} {'1 thread':>12} {f'{args.threads} threads':>12} {'ratio':>7}  {'target':>6}  unit")
    started = time.perf_counter()
    for engine in ENGINES:
        figure = search_rate(engine, positions, args.seconds, args.threads)
        ratio = figure.threaded / figure.rate
        target = TARGETS.get(engine)
        print(f"{engine:<10} {figure.rate:>12,.0f} {figure.threaded:>12,.0f} {ratio:>6.2f}x  "
              f"{'' if target is None else f'{target:.1f}x':>6}  {figure.unit}", flush=True)
    print(f"after ({time.perf_counter() - started:.0f} s): {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
