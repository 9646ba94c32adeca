"""Search threads: 2 threads against 1, in one run (issue 9, item 3).

Usage: python -m scripts.threads_bench [--threads 2] [--seconds 1] [--positions 8] [--size 6] [--engines mcts alphabeta]

For each engine (MCTS playouts/s, alpha-beta nodes/s) it searches each mid-game
position of ``hinge_fast.tools.benchmark`` for ``--seconds`` with 1 thread and then
with ``--threads`` threads (registry option ``threads``), in turn, and prints the
rates (total units / total wall seconds) and their ratio. Beside each rate it prints
the CPU seconds the process got per wall second (``cpu/wall``): on a quiet machine
about 1.0 with one thread and ``--threads`` with more. On a shared machine the
scheduler may give the process less: Linux's autogroups share the cores fairly
between sessions, not threads, so while other sessions are busy a process gets its
session's share however many threads it runs. The ratio of the per-CPU-second rates
(``per cpu``) says whether the threads themselves lose anything (locks, the GIL,
memory); the wall ratio is the speed-up the machine gave. Load averages before and
after are printed too. Targets on a 2-core machine: MCTS >= 1.7x, alpha-beta >= 1.6x.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hinge_fast import Board  # noqa: E402
from hinge_fast.search import Limits, create_searcher  # noqa: E402
from hinge_fast.tools.benchmark import machine, mid_game_positions  # noqa: E402

TARGETS = {"mcts": 1.7, "alphabeta": 1.6}


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def measure(engine: str, positions, seconds: float, threads: int) -> dict:
    """{threads: (units, wall seconds, cpu seconds)} for 1 and ``threads`` threads, the
    positions searched in turn with each."""
    counts = (1, threads)
    searchers = {t: create_searcher(engine, threads=t, seed=1) for t in counts}
    for searcher in searchers.values():
        searcher.go(Board.from_fen(positions[0]), Limits(nodes=50))  # load the kernels, touch the tables
    totals = {t: [0, 0.0, 0.0] for t in counts}
    for fen in positions:
        for t in counts:
            cpu, wall = time.process_time(), time.perf_counter()
            result = searchers[t].go(Board.from_fen(fen), Limits(time=seconds))
            totals[t][0] += result.nodes
            totals[t][1] += time.perf_counter() - wall
            totals[t][2] += time.process_time() - cpu
    return totals


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=1.0, help="search time per position (default 1)")
    parser.add_argument("--positions", type=int, default=8, help="mid-game positions (default 8)")
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--engines", nargs="+", default=["mcts", "alphabeta"])
    args = parser.parse_args(argv)
    positions = mid_game_positions(args.size)[: args.positions]
    print(f"machine: {machine()}; {len(os.sched_getaffinity(0))} cores for this process")
    print(f"side {args.size}, {len(positions)} positions, {args.seconds:g} s a search; before: {load()}")
    t = args.threads
    print(f"{'engine':<10} {'1 thread':>10} {'cpu/wall':>8} {f'{t} threads':>10} {'cpu/wall':>8} "
          f"{'ratio':>6} {'per cpu':>7} {'target':>6}  unit")
    started = time.perf_counter()
    for engine in args.engines:
        totals = measure(engine, positions, args.seconds, t)
        (n1, w1, c1), (nt, wt, ct) = totals[1], totals[t]
        ratio = (nt / wt) / (n1 / w1)
        per_cpu = (nt / ct) / (n1 / c1)
        unit = "playouts/s" if engine.startswith("mcts") else "nodes/s"
        print(f"{engine:<10} {n1 / w1:>10,.0f} {c1 / w1:>8.2f} {nt / wt:>10,.0f} {ct / wt:>8.2f} {ratio:>5.2f}x "
              f"{per_cpu:>6.2f}x {TARGETS.get(engine, 0):>5.1f}x  {unit}", flush=True)
    print(f"after ({time.perf_counter() - started:.0f} s): {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
