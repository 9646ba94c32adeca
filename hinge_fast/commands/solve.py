"""``solve``: solve the side-4 board and write its tablebase."""

from __future__ import annotations

import argparse


def register(subparsers):
    p = subparsers.add_parser(
        "solve",
        help="solve every position of the side-4 board and write the tablebase",
        description="Solve every position reachable from the empty side-4 board by retrograde analysis "
        "(value and distance to the end under best play), write the tablebase file and print the facts "
        "(docs/solve.md). Takes several minutes and about 2 GB of memory. With --from POSITION, only the "
        "positions reachable from that side-4 position: a small tablebase (--out is then required).",
        epilog="Example: hinge-fast solve --size 4 --out side4.tb; "
        "hinge-fast solve --from '4/1bgg1/2bb2/2bgg2/1ggb2/2gb1/4 b' --out late.tb",
    )
    p.add_argument(
        "--size",
        type=_side_four,
        default=4,
        metavar="S",
        help="board side; only 4 can be solved (default 4)",
    )
    p.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help="tablebase file to write (default: the user data folder, where probe looks)",
    )
    p.add_argument(
        "--from",
        dest="start",
        default=None,
        metavar="POSITION",
        help="solve only the positions reachable from this side-4 position (needs --out)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.add_argument(
        "--check",
        action="store_true",
        help="then check every position's value against its moves' values (one more pass)",
    )
    p.set_defaults(run=run_solve)


def _side_four(text):
    if text.strip() != "4":
        raise argparse.ArgumentTypeError(f"only the side-4 board can be solved, not side {text}")
    return 4


def run_solve(args) -> int:
    from ..errors import HingeError
    from ..solving.tablebase import solve_and_write, solve_from_and_write

    if args.start is not None:
        if args.out is None:
            raise HingeError(
                "solve --from needs --out FILE: the default location is for the whole board's tablebase"
            )
        if args.check:
            raise HingeError("--check is for the whole board's solve, not with --from")
        for line in solve_from_and_write(args.start, args.out, progress=not args.quiet):
            print(line, flush=True)
        return 0
    for line in solve_and_write(args.out, progress=not args.quiet, check=args.check):
        print(line, flush=True)
    return 0
