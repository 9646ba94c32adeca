"""``replay``: show a recorded game (format: ``hinge_fast.records.record``, docs/usage.md)."""

from __future__ import annotations

import sys

from . import (
    add_color_argument,
    ansi_colors,
    int_option,
)


def register(subparsers):
    p = subparsers.add_parser(
        "replay",
        help="show a game from a record file at any ply",
        description="Read a game record file (docs/usage.md), check every game, and show one game: its tags, "
        "its moves, its result and the board after ply N (default: the end), drawn and as a position string.",
        epilog="Example: hinge-fast replay games.hgn --game 2 --ply 10 --svg ply10.svg",
    )
    p.add_argument("file", metavar="FILE", help="a game record file")
    int_option(
        p,
        "--game",
        1,
        10**9,
        name="N",
        default=1,
        metavar="N",
        help="which game of the file (from 1, default 1)",
    )
    int_option(
        p,
        "--ply",
        0,
        10**9,
        name="PLY",
        default=None,
        metavar="N",
        help="show the board after N moves (default: all)",
    )
    p.add_argument(
        "--svg",
        metavar="FILE",
        default=None,
        help="also write the picture of that position to FILE",
    )
    add_color_argument(p)
    p.set_defaults(run=run_replay)


def run_replay(args) -> int:
    from ..board import draw
    from ..errors import HingeError
    from ..records.record import count_games, format_record, move_label, read_record

    games = count_games(args.file)
    if not games:
        raise HingeError(f"{args.file} holds no game")
    if args.game > games:
        raise HingeError(
            f"--game {args.game}: {args.file} holds {games} game{'s' if games > 1 else ''}"
        )
    record, _ = read_record(args.file, args.game)
    total = len(record.moves)
    if args.ply is not None and args.ply > total:
        raise HingeError(f"--ply {args.ply}: game {args.game} has {total} moves")
    ply = total if args.ply is None else args.ply
    board = record.board_at(ply)

    text = format_record(record)
    print(f"game {args.game} of {games} in {args.file}")
    print(text.rstrip("\n"))
    print()
    first_blue = record.starts_with_blue()
    if ply == 0:
        print(f"position at the start (0 of {total} plies):")
    else:
        print(
            f"position after ply {ply} of {total} ({move_label(board.turn.other, ply - 1, record.moves[ply - 1], first_blue)}):"
        )
    print(draw(board, color=ansi_colors(args)))
    print(board.fen())
    outcome = board.outcome()
    if outcome is not None:
        print(f"game over: {outcome}")
    termination = record.termination
    print(f"result: {record.result}" + (f" ({termination})" if termination else ""))
    if args.svg:
        from ..analysis.svg import board as board_svg
        from ..records.files import write_text_file

        write_text_file(args.svg, board_svg(board))
        sys.stdout.flush()
        print(f"wrote {args.svg}", file=sys.stderr)
    return 0
