"""``check-proof``: verify a proof file with the reference implementation."""

from __future__ import annotations


def register(subparsers):
    p = subparsers.add_parser(
        "check-proof",
        help="verify a proof file with the reference implementation",
        description="Replay every line of a proof file (written by 'hinge-fast prove --out', format in "
        "docs/solve.md) with the slow reference implementation of the rules, independent of the prover and of "
        "the fast move generator: at each turn of the winner the file's move must be legal, at each turn of the "
        "loser every legal move is played, and every line must end with the loser lost, no line repeating a "
        "position. Prints what is proven; a proof that fails is one line 'error: ...' and exit status 2.",
        epilog="Example: hinge-fast check-proof proof.txt",
    )
    p.add_argument("file", metavar="FILE", help="a proof file")
    p.set_defaults(run=run_check_proof)


def run_check_proof(args) -> int:
    from ..solving.proof import check_proof

    checked = check_proof(args.file)
    winner = checked.winner.capitalize()
    plies = "ply" if checked.distance == 1 else "plies"
    print(f"proof accepted: {winner} wins {checked.position} in at most {checked.distance} {plies}")
    print(
        f"checked {checked.positions:,} positions, {checked.winner_positions:,} with {winner} to move"
        + (f"; {checked.unused:,} lines of the file not needed" if checked.unused else "")
    )
    return 0
