"""``book``: make an opening book of balanced positions."""

from __future__ import annotations

import sys

from ..core.text import count
from ..errors import HingeError
from . import int_option

BOOK_SETTINGS = {4: (4, 200, 6)}  # side: (plies, margin, candidates) where the defaults do not fit


def register(subparsers):
    from ..games.book import DEFAULT_BOOK_DEPTH, DEFAULT_BOOK_PLIES, DEFAULT_MARGIN

    p = subparsers.add_parser(
        "book",
        help="make an opening book: balanced positions after K random plies, no two symmetric",
        description="Draw positions after K uniformly random plies, drop those that are images of one "
        "another under the board's 12 symmetries, and keep the close-to-even ones: by a short alpha-beta "
        "search, a score (no proven result) within MARGIN centi-tokens of the median score of the positions "
        "drawn (the side to move leads by its tempo in every opening); on side 4 with --tablebase, exactly: "
        "the side to move wins, but with at most half of its moves. Writes one position string a line, the "
        "format 'match --book' reads.",
        epilog="Example: hinge-fast book --size 6 --positions 100 --seed 1 --out side6.txt",
    )
    int_option(p, "--size", 4, 9, default=6, metavar="S", help="board side (default 6)")
    int_option(
        p,
        "--positions",
        1,
        100_000,
        default=100,
        metavar="N",
        help="positions to find (default 100)",
    )
    int_option(
        p,
        "--plies",
        0,
        200,
        default=None,
        metavar="K",
        help=f"random plies before each position (default {DEFAULT_BOOK_PLIES}; side 4: 4)",
    )
    int_option(
        p,
        "--depth",
        1,
        12,
        default=DEFAULT_BOOK_DEPTH,
        metavar="D",
        help=f"depth of the alpha-beta search that scores each position (default {DEFAULT_BOOK_DEPTH})",
    )
    int_option(
        p,
        "--margin",
        0,
        100_000,
        default=None,
        metavar="CP",
        help=f"the most centi-tokens a kept score is from the median (default {DEFAULT_MARGIN}; side 4: 200)",
    )
    int_option(
        p,
        "--candidates",
        1,
        1000,
        default=None,
        metavar="M",
        help="score M times N positions and keep the N closest to the median (default 3; side 4: 6)",
    )
    int_option(
        p,
        "--tries",
        1,
        10**8,
        default=None,
        metavar="T",
        help="random positions drawn at most (default 50 a position asked for)",
    )
    p.add_argument(
        "--tablebase",
        default=None,
        metavar="FILE",
        help="side 4: judge positions exactly by this tablebase (the file 'hinge-fast solve --size 4' writes)",
    )
    int_option(p, "--seed", 0, 2**63 - 1, default=1, metavar="N", help="seed (default 1)")
    p.add_argument(
        "--out", default=None, metavar="FILE", help="write the book to FILE (default: stdout)"
    )
    p.set_defaults(run=run_book)


def run_book(args) -> int:
    from ..games.book import DEFAULT_BOOK_PLIES, DEFAULT_MARGIN, book_text, make_book
    from ..records.files import write_text_file

    plies, margin, candidates = BOOK_SETTINGS.get(
        args.size, (DEFAULT_BOOK_PLIES, DEFAULT_MARGIN, 3)
    )
    plies = plies if args.plies is None else args.plies
    margin = margin if args.margin is None else args.margin
    candidates = candidates if args.candidates is None else args.candidates
    tablebase = None
    if args.tablebase is not None:
        if args.size != 4:
            raise HingeError(f"--tablebase is for side 4, not side {args.size}")
        from ..search.tablebase import open_tablebase

        tablebase = open_tablebase(args.tablebase)
    fens = make_book(
        args.size,
        args.positions,
        plies,
        args.seed,
        depth=args.depth,
        margin=margin,
        tablebase=tablebase,
        candidates=candidates,
        max_tries=args.tries if args.tries is not None else 50 * args.positions * candidates,
    )
    how = (
        "won by the side to move with at most half its moves winning (tablebase)"
        if tablebase is not None
        else f"alpha-beta depth {args.depth} score within {margin} centi-tokens of the median of {candidates} x {args.positions} drawn"
    )
    header = (
        f"hinge-fast book: side {args.size}, {len(fens)} positions after {plies} random plies, seed {args.seed}\n"
        f"kept: {how}; no two symmetric"
    )
    text = book_text(fens, header)
    if args.out is None:
        sys.stdout.write(text)
    else:
        write_text_file(args.out, text)
        print(f"{count(len(fens), 'position')} written to {args.out}")
    if len(fens) < args.positions:
        print(
            f"found {len(fens):,} of the {count(args.positions, 'position')} asked for",
            file=sys.stderr,
        )
    return 0
