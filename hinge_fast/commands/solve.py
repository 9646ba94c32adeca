"""``solve``: solve the side-4 board and write its tablebase."""

from __future__ import annotations

import argparse


def register(subparsers):
    p = subparsers.add_parser(
        "solve",
        help="solve every position of the side-4 board and write the tablebase",
        description="Solve every position reachable from the empty side-4 board by retrograde analysis "
        "(value and distance to the end under best play), write the tablebase file and print the facts "
        "(docs/solve.md). Takes several minutes and about 4 GB of memory.",
        epilog="Example: hinge-fast solve --size 4 --out side4.tb",
    )
    p.add_argument("--size", type=_side_four, default=4, metavar="S", help="board side; only 4 can be solved (default 4)")
    p.add_argument("--out", default=None, metavar="FILE", help="tablebase file to write (default: the user data folder, where probe looks)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.add_argument("--check", action="store_true", help="then check every position's value against its moves' values (one more pass)")
    p.set_defaults(run=run_solve)


def _side_four(text):
    if text.strip() != "4":
        raise argparse.ArgumentTypeError(f"only the side-4 board can be solved, not side {text}")
    return 4


def run_solve(args) -> int:
    from ..tools.tablebase import solve_and_write

    for line in solve_and_write(args.out, progress=not args.quiet, check=args.check):
        print(line, flush=True)
    return 0
