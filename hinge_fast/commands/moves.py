"""``moves``: the legal moves of a position."""

from __future__ import annotations

from . import add_position_arguments, board_from_args


def register(subparsers):
    p = subparsers.add_parser(
        "moves",
        help="list the legal moves of a position",
        description="Print the legal moves, one per line, sorted by cells in (column, row) order. "
        "On a finished game print who won and why instead (game over: blue wins by elimination) "
        "and exit with status 1.",
        epilog="Example: hinge-fast moves --size 4",
    )
    add_position_arguments(p)
    p.set_defaults(run=run_moves)


def run_moves(args) -> int:
    board = board_from_args(args)
    outcome = board.outcome()
    if outcome is not None:
        print(f"game over: {outcome}")
        return 1
    for move in board.legal_moves:
        print(move)
    return 0
