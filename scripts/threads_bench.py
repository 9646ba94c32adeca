"""Threads: 1 thread against T, in one run, for the searches and for the perft and playout kernels.

    python -m scripts.threads_bench [--threads T] [--work mcts alphabeta perft playouts]
                                    [--seconds 1] [--positions 8] [--size 6]
                                    [--rounds 3] [--depth 5] [--games 20000]

Example: python -m scripts.threads_bench --work perft playouts --rounds 3

Searches (``mcts``: playouts/s, ``alphabeta``: nodes/s): each mid-game position of
``hinge_fast.measure.benchmark`` is searched for ``--seconds`` with 1 thread and then
with ``--threads`` threads (registry option ``threads``), in turn; the rates (total
units / total wall seconds) and their ratio are printed. Beside each rate: the CPU
seconds the process got per wall second (``cpu/wall``), about 1.0 with one thread and
``--threads`` with more on a quiet machine. On a shared machine the scheduler may give
the process less: Linux's autogroups share the cores fairly between groups of
processes, not threads, so while other groups are busy a process gets its group's
share however many threads it runs. The ratio of the per-CPU-second rates (``per cpu``) says whether
the threads themselves lose anything (locks, the GIL, memory); the wall ratio is the
speed-up the machine gave. Targets on a 2-core machine: MCTS >= 1.7x, alpha-beta >= 1.6x.

Kernels (``perft``: bulk perft of a side-6 mid-game position to ``--depth``;
``playouts``: ``--games`` random playouts from the empty side-6 board): 1 and
``--threads`` threads alternate ``--rounds`` times on the same work; the median wall
seconds, speed-up and CPU seconds per wall second are printed.

The searches run by default; the load averages before and after are printed too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from hinge_fast import Board
from hinge_fast.core import parallel
from hinge_fast.measure.benchmark import machine, mid_game_positions
from hinge_fast.search import Limits, create_searcher
from scripts import run_script

TARGETS = {"mcts": 1.7, "alphabeta": 1.6}
SEARCHES = ("mcts", "alphabeta")
KERNELS = ("perft", "playouts")
#: The side-6 mid-game position of the perft kernel's work.
MID = "6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g"


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def measure(engine: str, positions, seconds: float, threads: int) -> dict:
    """{threads: (units, wall seconds, cpu seconds)} for 1 and ``threads`` threads, the
    positions searched in turn with each."""
    counts = (1, threads)
    searchers = {t: create_searcher(engine, threads=t, seed=1) for t in counts}
    for searcher in searchers.values():
        searcher.go(
            Board.from_fen(positions[0]), Limits(nodes=50)
        )  # load the kernels, touch the tables
    totals = {t: [0, 0.0, 0.0] for t in counts}
    for fen in positions:
        for t in counts:
            cpu, wall = time.process_time(), time.perf_counter()
            result = searchers[t].go(Board.from_fen(fen), Limits(time=seconds))
            totals[t][0] += result.nodes
            totals[t][1] += time.perf_counter() - wall
            totals[t][2] += time.process_time() - cpu
    return totals


def searches(args, engines: list[str]) -> None:
    positions = mid_game_positions(args.size)[: args.positions]
    print(f"side {args.size}, {len(positions)} positions, {args.seconds:g} s a search")
    t = args.threads
    print(
        f"{'engine':<10} {'1 thread':>10} {'cpu/wall':>8} {f'{t} threads':>10} {'cpu/wall':>8} "
        f"{'ratio':>6} {'per cpu':>7} {'target':>6}  unit"
    )
    for engine in engines:
        totals = measure(engine, positions, args.seconds, t)
        (n1, w1, c1), (nt, wt, ct) = totals[1], totals[t]
        ratio = (nt / wt) / (n1 / w1)
        per_cpu = (nt / ct) / (n1 / c1)
        unit = "playouts/s" if engine.startswith("mcts") else "nodes/s"
        print(
            f"{engine:<10} {n1 / w1:>10,.0f} {c1 / w1:>8.2f} {nt / wt:>10,.0f} {ct / wt:>8.2f} {ratio:>5.2f}x "
            f"{per_cpu:>6.2f}x {TARGETS.get(engine, 0):>5.1f}x  {unit}",
            flush=True,
        )


def timed(work) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def kernels(args, names: list[str]) -> None:
    mid = Board.from_fen(MID)
    empty = Board(6)
    jobs = {
        "perft": (
            f"perft bulk S6 mid d{args.depth}",
            lambda t: parallel.perft(6, mid.own, mid.enemy, args.depth, True, t),
        ),
        "playouts": (
            f"playouts S6 empty x{args.games}",
            lambda t: parallel.playouts(6, empty.own, empty.enemy, args.games, 10_000, 1, t),
        ),
    }
    parallel.perft(6, mid.own, mid.enemy, 2, True, 2)  # load or compile first
    parallel.playouts(6, empty.own, empty.enemy, 4, 10_000, 1, 2)
    print(f"threads 1 against {args.threads}, {args.rounds} rounds, alternated")
    print(
        f"{'work':<28} {'1 thread s':>10} {f'{args.threads} threads s':>12} {'speed-up':>9} {'CPU/wall':>9}"
    )
    for name in names:
        label, job = jobs[name]
        ones, manys, ratios, usage = [], [], [], []
        for _ in range(args.rounds):
            w1, _ = timed(lambda: job(1))  # noqa: B023 (called at once)
            wt, ct = timed(lambda: job(args.threads))  # noqa: B023
            ones.append(w1)
            manys.append(wt)
            ratios.append(w1 / wt)
            usage.append(ct / wt)
        print(
            f"{label:<28} {statistics.median(ones):>10.3f} {statistics.median(manys):>12.3f} "
            f"{statistics.median(ratios):>8.2f}x {statistics.median(usage):>9.2f}",
            flush=True,
        )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.threads_bench", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--threads", type=int, default=2, help="threads measured against 1 (default 2)"
    )
    parser.add_argument(
        "--work",
        nargs="+",
        choices=SEARCHES + KERNELS,
        default=list(SEARCHES),
        help="what to measure: searches (mcts, alphabeta) and kernels (perft, playouts); "
        "default the searches",
    )
    parser.add_argument(
        "--seconds", type=float, default=1.0, help="searches: time per position (default 1)"
    )
    parser.add_argument(
        "--positions", type=int, default=8, help="searches: mid-game positions (default 8)"
    )
    parser.add_argument("--size", type=int, default=6, help="searches: board side (default 6)")
    parser.add_argument(
        "--rounds", type=int, default=3, help="kernels: alternations of 1 and T threads (default 3)"
    )
    parser.add_argument(
        "--depth", type=int, default=5, help="kernels: bulk perft depth (default 5)"
    )
    parser.add_argument(
        "--games",
        type=int,
        default=20_000,
        help="kernels: playouts per measurement (default 20000)",
    )
    args = parser.parse_args(argv)
    print(
        f"machine: {machine()}; {len(os.sched_getaffinity(0))} cores for this process; before: {load()}"
    )
    started = time.perf_counter()
    engines = [w for w in args.work if w in SEARCHES]
    if engines:
        searches(args, engines)
    work = [w for w in args.work if w in KERNELS]
    if work:
        kernels(args, work)
    print(f"after ({time.perf_counter() - started:.0f} s): {load()}")
    return 0


if __name__ == "__main__":
    run_script(main)
