"""``show``: draw a position."""

from __future__ import annotations

from . import add_color_argument, add_position_arguments, ansi_colors, board_from_args


def register(subparsers):
    p = subparsers.add_parser(
        "show",
        help="draw a position",
        description="Draw the board with coordinates: g and b are tokens, . empty interior cells, - edge cells.",
        epilog="Example: hinge-fast show '4/5/2g3/7/6/5/4 b'",
    )
    add_position_arguments(p)
    add_color_argument(p)
    p.set_defaults(run=run_show)


def run_show(args) -> int:
    from ..board import draw

    board = board_from_args(args)
    print(draw(board, color=ansi_colors(args)))
    print(board.fen())
    outcome = board.outcome() if board.is_eliminated() else None
    if outcome:
        print(f"game over: {outcome}")
    return 0
