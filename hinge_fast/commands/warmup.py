"""``warmup``: compile (or load) every kernel ahead of use."""

from __future__ import annotations

import sys
import time

from . import int_option


def register(subparsers):
    p = subparsers.add_parser(
        "warmup",
        help="compile every kernel of every side now, on every core",
        description="Load or compile every numba kernel of every board side (4 to 9): both engines, the "
        "prover, the solver, perft and playouts, one worker process per core. After it no command "
        "compiles anything; without it, a command compiles what it runs on first use. It also "
        "removes the cached kernels of earlier builds of this install.",
        epilog="Examples: hinge-fast warmup; hinge-fast warmup --size 6",
    )
    p.add_argument(
        "--processes",
        type=int,
        default=None,
        metavar="N",
        help="worker processes (default: one per core)",
    )
    int_option(
        p,
        "--size",
        4,
        9,
        name="S",
        action="append",
        metavar="S",
        help="only the kernels of board side S, 4 to 9 (repeat for more sides; sides 5 and 6 "
        "share theirs)",
    )
    p.set_defaults(run=run_warmup)


def run_warmup(args) -> int:
    from ..core.kernels import prune_stale_kernels, sides_listed
    from ..errors import HingeError
    from ..measure.warmup import sides_warmed, warm_up

    if args.processes is not None and args.processes < 1:
        raise HingeError(f"--processes must be at least 1, not {args.processes}")
    start = time.perf_counter()
    compiled = warm_up(args.processes, progress=sys.stderr.isatty(), sizes=args.size)
    seconds = time.perf_counter() - start
    sides = sides_warmed(args.size)
    what = "kernels" if args.size is None else f"kernels of {sides_listed(sides)}"
    if compiled:
        print(f"{what} compiled in {seconds:.1f} s ({compiled:,} kernel versions)")
    else:
        print(f"{what} loaded from the cache in {seconds:.1f} s")
    files, size = prune_stale_kernels()
    if files:
        print(f"removed {files:,} cached kernel files of earlier builds ({size / 2**20:,.1f} MB)")
    return 0
