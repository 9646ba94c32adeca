"""Perft and random playouts on 1 thread against T threads, measured in one run.

    python scripts/thread_scaling.py [--threads T] [--rounds R]

Alternates the two thread counts R times on the same work (bulk perft of a side-6
mid-game position; playouts from the empty side-6 board) and prints, for each, the
median speed-up of wall-clock time, and the CPU seconds the process used per wall
second (about T when the threads really run at once; less when the machine is busy
with other work, which then caps the speed-up whatever the code does).
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hinge_fast import Board  # noqa: E402
from hinge_fast.core import parallel  # noqa: E402

MID = "6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g"


def timed(work):
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=parallel.available_threads())
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--depth", type=int, default=5, help="bulk perft depth (default 5)")
    parser.add_argument("--games", type=int, default=20_000, help="playouts per measurement (default 20000)")
    args = parser.parse_args()
    mid = Board.from_fen(MID)
    empty = Board(6)
    jobs = {
        f"perft bulk S6 mid d{args.depth}": lambda t: parallel.perft(6, mid.own, mid.enemy, args.depth, True, t),
        f"playouts S6 empty x{args.games}": lambda t: parallel.playouts(6, empty.own, empty.enemy, args.games, 10_000, 1, t),
    }
    parallel.perft(6, mid.own, mid.enemy, 2, True, 2)  # load or compile first
    parallel.playouts(6, empty.own, empty.enemy, 4, 10_000, 1, 2)
    print(f"threads 1 against {args.threads}, {args.rounds} rounds, alternated")
    print(f"{'work':<28} {'1 thread s':>10} {f'{args.threads} threads s':>12} {'speed-up':>9} {'CPU/wall':>9}")
    for name, job in jobs.items():
        ones, manys, ratios, usage = [], [], [], []
        for _ in range(args.rounds):
            w1, _ = timed(lambda: job(1))
            wt, ct = timed(lambda: job(args.threads))
            ones.append(w1)
            manys.append(wt)
            ratios.append(w1 / wt)
            usage.append(ct / wt)
        print(f"{name:<28} {statistics.median(ones):>10.3f} {statistics.median(manys):>12.3f} "
              f"{statistics.median(ratios):>8.2f}x {statistics.median(usage):>9.2f}", flush=True)


if __name__ == "__main__":
    main()
