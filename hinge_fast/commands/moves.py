"""``moves``: the legal moves of a position."""

from __future__ import annotations

from . import add_position_arguments, board_from_args, require_game_on


def register(subparsers):
    p = subparsers.add_parser(
        "moves",
        help="list the legal moves of a position",
        description="Print the legal moves, one per line, sorted by cells in (column, row) order. "
        "A finished game is an error (exit status 2) naming the winner.",
        epilog="Example: hinge-fast moves --size 4",
    )
    add_position_arguments(p)
    p.set_defaults(run=run_moves)


def run_moves(args) -> int:
    board = board_from_args(args)
    require_game_on(board)
    for move in board.legal_moves:
        print(move)
    return 0
