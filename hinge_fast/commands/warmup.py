"""``warmup``: compile (or load) every kernel ahead of use."""

from __future__ import annotations

import time


def register(subparsers):
    p = subparsers.add_parser(
        "warmup",
        help="compile every kernel now (first run only) and say how long it took",
        description="Load or compile every numba kernel, so that later commands start in about a second.",
        epilog="Example: hinge-fast warmup",
    )
    p.set_defaults(run=run_warmup)


def run_warmup(args) -> int:
    from ..tools.warmup import warm_up

    start = time.perf_counter()
    compiled = warm_up()
    seconds = time.perf_counter() - start
    state = "compiled" if compiled else "loaded from the cache"
    print(f"kernels {state} in {seconds:.1f} s")
    return 0
