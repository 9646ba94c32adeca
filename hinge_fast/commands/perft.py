"""``perft``: leaf counts of the move tree, fast or by the reference implementation."""

from __future__ import annotations

import sys
import time

from . import (
    ProgressBar,
    add_count_arguments,
    add_position_arguments,
    board_from_args,
    executor_from_args,
    positive_int,
)

MAX_PERFT_DEPTH = 20


def register(subparsers):
    p = subparsers.add_parser(
        "perft",
        help="count the leaves of the move tree",
        description="Count the leaf nodes of the move tree DEPTH plies deep (the rules, docs/rules.md section 8). "
        "The last line of output is the total alone; nodes per second go to stderr. The root moves are "
        "shared among --threads threads (the counts do not depend on it).",
        epilog="Example: hinge-fast perft 3 --divide",
    )
    p.add_argument(
        "depth",
        type=positive_int("DEPTH", 0, MAX_PERFT_DEPTH),
        metavar="DEPTH",
        help=f"plies to look ahead (0 to {MAX_PERFT_DEPTH}; 0 counts the position itself)",
    )
    add_position_arguments(p)
    p.add_argument(
        "--divide", action="store_true", help="print the count under each legal move first"
    )
    p.add_argument("--reference", action="store_true", help="use the slow reference implementation")
    p.add_argument(
        "--no-bulk",
        dest="bulk",
        action="store_false",
        help="play every leaf move instead of counting the last ply",
    )
    add_count_arguments(p)
    p.set_defaults(run=run_perft)


def run_perft(args) -> int:
    board = board_from_args(args)
    if args.reference:
        counts, total, seconds = _perft_reference(board, args.depth, args.divide)
    elif args.ray is not None and args.depth >= 2:
        counts, total, seconds = _perft_ray(board, args)
    else:
        from ..core.parallel import available_threads

        threads = args.threads or available_threads()
        counts, total, seconds = _perft_fast(board, args.depth, args.divide, args.bulk, threads)
    for move, leaves in counts:
        print(f"{move}: {leaves}")
    print(total)
    print(_speed_line(args.depth, total, seconds), file=sys.stderr)
    return 0


def _speed_line(depth, total, seconds) -> str:
    """The stderr line: nodes and time, and nodes/s when there was a count to time
    (depth 0 is the position itself, counted without a search). Timing scripts read
    it as ``perft D: N nodes in T s``, so its numbers are plain digits."""
    nodes = f"{total} node" + ("" if total == 1 else "s")
    if depth == 0:
        return f"perft 0: {nodes} (the position itself; nothing searched)"
    if seconds <= 0:
        return f"perft {depth}: {nodes} in under a microsecond"
    return f"perft {depth}: {nodes} in {seconds:.3f} s, {total / seconds:.0f} nodes/s"


def _perft_fast(board, depth, divide, bulk, threads):
    """(per-move counts if divide, total, seconds) from the numba kernels, the root
    moves shared among ``threads`` threads."""
    from ..core import parallel

    own, enemy = board.own, board.enemy
    if depth == 0:
        return [], 1, 0.0
    parallel.perft(board.size, own, enemy, 1, bulk, 1)  # load or compile first
    parallel.perft_divide(board.size, own, enemy, 2, bulk, 1)
    with ProgressBar("root moves") as bar:
        start = time.perf_counter()
        counts, codes = parallel.perft_divide(
            board.size, own, enemy, depth, bulk, threads, progress=bar.show
        )
        seconds = time.perf_counter() - start
    if not divide:
        return [], int(counts.sum()), seconds
    by_move = {board.move_from_code(code): int(count) for code, count in zip(codes, counts)}
    ordered = [(move, by_move[move]) for move in board.legal_moves]
    return ordered, sum(by_move.values()), seconds


def _perft_reference(board, depth, divide):
    from .. import reference

    pos = reference.parse_position(board.fen())
    start = time.perf_counter()
    if not divide or depth == 0:
        total = reference.perft(pos, depth)
        return [], total, time.perf_counter() - start
    counts = {
        reference.move_name(m): reference.perft(reference.play(pos, m), depth - 1)
        for m in reference.legal_moves(pos)
    }
    seconds = time.perf_counter() - start
    ordered = [(move, counts[str(move)]) for move in board.legal_moves]
    return ordered, sum(counts.values()), seconds


def _perft_ray(board, args):
    """Split at a shallow depth and count the subtrees on Ray workers."""
    from ..measure.counting import perft_split

    with executor_from_args(args) as executor:
        executor.start()
        start = time.perf_counter()
        counts = perft_split(board, args.depth, executor, args.bulk)
        seconds = time.perf_counter() - start
    return (counts if args.divide else []), sum(c for _, c in counts), seconds
