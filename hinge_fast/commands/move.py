"""``move``: the engine's move in a position."""

from __future__ import annotations

import sys

from . import add_position_arguments, board_from_args, positive_int, seconds

ENGINES = ("alphabeta", "mcts")


def register(subparsers):
    p = subparsers.add_parser(
        "move",
        help="ask the engine for its move",
        description="Search the position and print the chosen move alone as the last line of "
        "stdout. Progress lines (depth, score, nodes, nodes per second, principal variation) go "
        "to stderr. Limits: whichever of --time, --nodes, --depth comes first; with none, 1 "
        "second. A finished game is an error (exit status 2) naming the winner. Ctrl-C stops "
        "the search and prints the best move found so far.",
        epilog="Example: hinge-fast move '6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g' --time 0.5",
    )
    add_position_arguments(p)
    p.add_argument("--engine", choices=ENGINES, default=None,
                   help="search algorithm (default mcts, the stronger in matches on side 6; alphabeta with --depth)")
    p.add_argument("--time", type=seconds("S"), default=None, metavar="S", help="seconds to think (default 1 if no limit)")
    p.add_argument("--nodes", type=positive_int("N", 1, 10**12), default=None, metavar="N",
                   help="positions searched (alphabeta) or playouts (mcts)")
    p.add_argument("--depth", type=positive_int("D", 1, 64), default=None, metavar="D",
                   help="plies of iterative deepening (alphabeta only)")
    p.add_argument("--seed", type=positive_int("seed", 0, 2**63 - 1), default=None, metavar="N",
                   help="random seed (mcts; alphabeta is deterministic)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.set_defaults(run=run_move)



def progress_line(result) -> str:
    """One stderr line per search iteration."""
    pv = " ".join(str(m) for m in result.pv)
    return (
        f"info depth {result.depth} score {result.score_text} nodes {result.nodes} "
        f"nps {result.nps:.0f} time {result.seconds:.3f} pv {pv}"
    )


def run_move(args) -> int:
    from ..errors import HingeError
    from ..search import search

    board = board_from_args(args)
    outcome = board.outcome()
    if outcome is not None:
        raise HingeError(f"the game is over: {outcome}")
    last = []

    def progress(result):
        last.append(result)
        if not args.quiet:
            print(progress_line(result), file=sys.stderr, flush=True)

    try:
        engine = args.engine or ("alphabeta" if args.depth else "mcts")
        result = search(board, engine=engine, time=args.time, nodes=args.nodes, depth=args.depth,
                        seed=args.seed, progress=progress)
    except KeyboardInterrupt:
        if not last or last[-1].move is None:
            raise
        result = last[-1]
        print("interrupted: best move so far", file=sys.stderr)
    if not args.quiet:
        print(f"bestmove {result.move} score {result.score_text} depth {result.depth} "
              f"nodes {result.nodes} time {result.seconds:.3f}", file=sys.stderr)
    print(result.move)
    return 0
