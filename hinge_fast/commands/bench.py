"""``bench``: how fast the engine is, every layer in one run."""

from __future__ import annotations

import json
import sys

from . import (
    add_json_argument,
    add_size_argument,
    add_threads_argument,
)


def register(subparsers):
    p = subparsers.add_parser(
        "bench",
        help="measure move generation, search and the reference implementation",
        description="Measure, in one run on a fixed set of mid-game positions: perft nodes/s with every "
        "leaf made and with bulk counting (on one thread and on every core), make/unmake rate, random "
        "playouts/s (one thread and every core), MCTS playouts/s, "
        "alpha-beta nodes/s, and the reference implementation's nodes/s with the fast/reference ratio.",
        epilog="Examples: hinge-fast bench --quick; hinge-fast bench --signature",
    )
    add_size_argument(p, "board side (default 6)")
    add_json_argument(p, "print one JSON object instead of the table")
    p.add_argument(
        "--quick", action="store_true", help="shorter measurements (a few seconds in all)"
    )
    add_threads_argument(p, "threads of the all-thread column of perft and playouts")
    p.add_argument(
        "--signature",
        action="store_true",
        help="print only the search signature: the nodes of fixed one-thread searches of both "
        "engines over fixed positions of sides 4, 6 and 9 (the same number on every machine "
        "while the searches' trees stay the same)",
    )
    p.set_defaults(run=run_bench)


class _Progress:
    """A tqdm bar on stderr, one step a measurement (left out when stderr is not a terminal)."""

    def __init__(self):
        self.bar = None

    def __call__(self, step, total, name):
        from tqdm import tqdm

        if self.bar is None:
            self.bar = tqdm(total=total, unit="measure", file=sys.stderr, disable=None, leave=True)
        self.bar.set_description_str(name)
        self.bar.update(step - self.bar.n)
        if step >= total:
            self.bar.close()


def run_bench(args) -> int:
    if args.signature:
        from ..search.signature import search_signature

        signature = search_signature()
        if args.json:
            print(
                json.dumps(
                    {
                        "signature": signature.total,
                        "alphabeta_nodes": signature.alphabeta_nodes,
                        "mcts_tree_nodes": signature.mcts_tree_nodes,
                    }
                )
            )
        else:
            print(signature)
        return 0
    from ..measure.benchmark import format_table, run_all

    report = run_all(size=args.size, quick=args.quick, progress=_Progress(), threads=args.threads)
    print(json.dumps(report, indent=1) if args.json else format_table(report))
    return 0
