"""``move``: the engine's move in a position."""

from __future__ import annotations

import sys

from . import (
    add_engine_arguments,
    add_limit_arguments,
    add_position_arguments,
    board_from_args,
    engine_options,
    require_game_on,
)


def register(subparsers):
    p = subparsers.add_parser(
        "move",
        help="ask the engine for its move",
        description="Search the position and print the chosen move alone as the last line of "
        "stdout. Progress lines (depth, score, nodes, nodes per second, principal variation) go "
        "to stderr. Limits: whichever of --time, --nodes, --depth comes first; with none, 1 "
        "second. A finished game is an error (exit status 2) naming the winner. Ctrl-C stops "
        "the search and prints the best move found so far (exit status 0).",
        epilog="Example: hinge-fast move '6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g' --time 0.5; "
        "with the side-4 tablebase: hinge-fast move --size 4 --tablebase ~/.local/share/hinge-fast/side4.tb",
    )
    add_position_arguments(p)
    add_engine_arguments(
        p, default_help=", the stronger in matches; with --depth, the first engine that honours it"
    )
    add_limit_arguments(
        p,
        "seconds to think (default 1 if no limit)",
        "positions searched or playouts, as the engine counts (its progress unit)",
        "plies of iterative deepening (only for engines with depths: an error for the others)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.set_defaults(run=run_move)


def run_move(args) -> int:
    from ..search import Limits
    from ..search.registry import check_limits, choose_engine, create_searcher

    board = board_from_args(args)
    limits = Limits(time=args.time, nodes=args.nodes, depth=args.depth)
    engine = choose_engine(args.engine, limits)
    check_limits(engine, limits)
    searcher = create_searcher(engine, **engine_options(engine, args))
    require_game_on(board)
    last = []

    def progress(result):
        last.append(result)
        if not args.quiet:
            print(result.progress_text(), file=sys.stderr, flush=True)

    try:
        result = searcher.go(board, limits, progress)
    except KeyboardInterrupt:
        if not last or last[-1].move is None:
            raise
        result = last[-1]
        print("interrupted: best move so far", file=sys.stderr)
    if not args.quiet:
        from ..search.score import green_text

        how = (
            "from the side-4 tablebase"
            if result.tablebase
            else f"depth {result.depth}, {result.nodes:,} nodes in {result.seconds:.3f} s"
        )
        print(
            f"best move {result.move}: {green_text(result.score, board.turn)} ({how})",
            file=sys.stderr,
        )
    print(result.move)
    return 0
