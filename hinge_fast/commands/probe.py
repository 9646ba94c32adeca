"""``probe``: the exact value of a side-4 position from the tablebase."""

from __future__ import annotations

from . import add_position_arguments, board_from_args


def register(subparsers):
    p = subparsers.add_parser(
        "probe",
        help="exact value of a side-4 position and of each move, from the tablebase",
        description="Print the value of the position for the side to move ('Green to move wins in 23 plies', "
        "'Blue to move loses in 40 plies': plies of both sides to the end under best play), then every legal move "
        "with who wins after it and in how many plies, best first for the mover (fastest wins, then slowest "
        "losses). POSITION defaults to the empty side-4 board. Needs the tablebase that "
        "'hinge-fast solve --size 4' writes (or one of 'solve --from', with --tablebase).",
        epilog="Example: hinge-fast probe",
    )
    add_position_arguments(p, default_size=4)
    p.add_argument(
        "--tablebase",
        default=None,
        metavar="FILE",
        help="tablebase file (default: where 'solve' writes it)",
    )
    p.set_defaults(run=run_probe)


def value_text(win: bool, distance: int, mover) -> str:
    """A value for ``mover`` (a Color) in words, naming the side.

    >>> from hinge_fast.board import Color
    >>> value_text(False, 4, Color.BLUE), value_text(True, 1, Color.GREEN), value_text(False, 0, Color.BLUE)
    ('Blue to move loses in 4 plies', 'Green to move wins in 1 ply', 'Blue to move has lost')
    """
    side = str(mover).capitalize()
    if distance == 0:
        return f"{side} to move has {'won' if win else 'lost'}"
    return f"{side} to move {'wins' if win else 'loses'} in {distance} {'ply' if distance == 1 else 'plies'}"


def move_text(win: bool, distance: int, mover) -> str:
    """The value of a move for the ``mover`` who plays it, as who wins and when.

    >>> from hinge_fast.board import Color
    >>> move_text(True, 5, Color.GREEN), move_text(False, 2, Color.GREEN)
    ('win for green in 5 plies', 'win for blue in 2 plies')
    """
    winner = mover if win else mover.other
    return f"win for {winner} in {distance} {'ply' if distance == 1 else 'plies'}"


def run_probe(args) -> int:
    from ..solving.tablebase import probe

    board = board_from_args(args)
    answer = probe(board, args.tablebase)
    print(value_text(answer.win, answer.distance, board.turn))
    width = max((len(str(m.move)) for m in answer.moves), default=0)
    for m in answer.moves:
        print(f"{str(m.move):<{width}}  {move_text(m.win, m.distance, board.turn)}")
    return 0
