"""``bench``: how fast the engine is, every layer in one run."""

from __future__ import annotations

import json
import sys
import time

from . import positive_int


def register(subparsers):
    p = subparsers.add_parser(
        "bench",
        help="measure move generation, search and the reference implementation",
        description="Measure, in one run on a fixed set of mid-game positions: perft nodes/s with every "
        "leaf made and with bulk counting (on one thread and on every core), make/unmake rate, random "
        "playouts/s (one thread and every core), MCTS playouts/s, "
        "alpha-beta nodes/s, and the reference implementation's nodes/s with the fast/reference ratio.",
        epilog="Example: hinge-fast bench --quick",
    )
    p.add_argument("--size", type=positive_int("S", 4, 9), default=6, metavar="S", help="board side (default 6)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument("--quick", action="store_true", help="shorter measurements (a few seconds in all)")
    p.add_argument("--threads", type=positive_int("T", 1, 1024), default=None, metavar="T",
                   help="threads of the all-thread column of perft and playouts (default: every core this process may use)")
    p.set_defaults(run=run_bench)


class ProgressBar:
    """A one-line progress bar on stderr, redrawn in place."""

    def __init__(self, stream=sys.stderr, width=30):
        self.stream = stream
        self.width = width
        self.start = time.perf_counter()

    def __call__(self, step, total, name):
        filled = self.width * step // max(total, 1)
        elapsed = time.perf_counter() - self.start
        line = f"\r[{'#' * filled}{'.' * (self.width - filled)}] {step}/{total} {name:<20} {elapsed:5.1f} s"
        self.stream.write(line)
        if step >= total:
            self.stream.write("\n")
        self.stream.flush()


def run_bench(args) -> int:
    from ..tools.benchmark import format_table, run_all

    report = run_all(size=args.size, quick=args.quick, progress=ProgressBar(), threads=args.threads)
    print(json.dumps(report, indent=1) if args.json else format_table(report))
    return 0
