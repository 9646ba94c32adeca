"""``probe``: the exact value of a side-4 position from the tablebase."""

from __future__ import annotations

from . import add_position_arguments, board_from_args


def register(subparsers):
    p = subparsers.add_parser(
        "probe",
        help="exact value of a side-4 position and of each move, from the tablebase",
        description="Print the value of the position for the side to move ('win in 23', 'loss in 40': plies "
        "to the end under best play), then every legal move with its value for the mover, best first "
        "(fastest wins, then slowest losses). Needs the tablebase that 'hinge-fast solve --size 4' writes.",
        epilog="Example: hinge-fast probe --size 4",
    )
    add_position_arguments(p)
    p.add_argument("--tablebase", default=None, metavar="FILE", help="tablebase file (default: where 'solve' writes it)")
    p.set_defaults(run=run_probe)


def run_probe(args) -> int:
    from ..tools.tablebase import describe, probe

    board = board_from_args(args)
    answer = probe(board, args.tablebase)
    print(describe(answer.win, answer.distance))
    width = max((len(str(m.move)) for m in answer.moves), default=0)
    for m in answer.moves:
        print(f"{str(m.move):<{width}}  {describe(m.win, m.distance)}")
    return 0
