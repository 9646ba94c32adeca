"""``puzzles``: find positions with a proven forced win that the default engine misses."""

from __future__ import annotations

import sys

from ..core.text import count
from . import ProgressBar, int_option, positive_int, seconds


def register(subparsers):
    from ..solving.puzzles import DEFAULT_NODES, DEFAULT_PLAY_NODES, ENGINE_TIME, MIN_REPLY_DISTANCE

    p = subparsers.add_parser(
        "puzzles",
        help="find puzzles: proven forced wins from engine games that the default engine misses",
        description="Play seeded games of alpha-beta against MCTS (each under a node limit, from the shipped "
        "opening book of the side), prove each game's positions from its end backwards (df-pn, --nodes per "
        "position), and keep those whose side to move is proven to win while the default engine (alpha-beta, "
        "one thread, --engine-time seconds) plays a move after which the win is not proven. Each kept "
        "puzzle's proof is replayed by the reference checker. Prints one line per puzzle: the position, its "
        "winning moves, the proof's distance and the engine's move; --out writes them as a puzzle file "
        '(JSON, docs/solve.md "Puzzles"), rewritten after each one, so Ctrl-C loses none. Exit status 1 when none is found.',
        epilog="Example: hinge-fast puzzles --size 6 --games 20 --count 3 --out puzzles.json",
    )
    p.add_argument(
        "--size",
        type=positive_int("--size", 4, 9),
        nargs="+",
        default=[6],
        metavar="S",
        help="board sides, one or more (default 6): --games games and up to --count puzzles each",
    )
    int_option(
        p,
        "--games",
        1,
        100_000,
        default=10,
        metavar="N",
        help="games to play per side at most (default 10)",
    )
    int_option(
        p,
        "--count",
        1,
        100_000,
        default=10,
        metavar="N",
        help="puzzles to find per side: stop the side once found (default 10)",
    )
    int_option(
        p,
        "--seed",
        0,
        2**31 - 1,
        default=1,
        metavar="N",
        help="seed of the games' openings and of MCTS (default 1)",
    )
    int_option(
        p,
        "--nodes",
        1,
        10**10,
        default=DEFAULT_NODES,
        metavar="N",
        help=f"the prover's node budget per position (default {DEFAULT_NODES})",
    )
    int_option(
        p,
        "--play-nodes",
        10,
        10**9,
        default=DEFAULT_PLAY_NODES,
        metavar="N",
        help=f"alpha-beta's nodes per move in the games; MCTS plays a tenth as many "
        f"playouts (default {DEFAULT_PLAY_NODES})",
    )
    p.add_argument(
        "--engine-time",
        type=seconds("--engine-time", high=60.0),
        default=ENGINE_TIME,
        metavar="S",
        help=f"seconds of the engine that must miss the win (default {ENGINE_TIME})",
    )
    p.add_argument(
        "--replies",
        action="store_true",
        help=f"also try the positions after each other reply of the losing side, at each game position "
        f"proven lost for its side to move in {MIN_REPLY_DISTANCE} plies or more (more puzzles a game)",
    )
    p.add_argument("--out", default=None, metavar="FILE", help="write the puzzles to FILE (JSON)")
    p.set_defaults(run=run_puzzles)


def run_puzzles(args) -> int:
    import time

    from ..records.files import write_text_file
    from ..solving.puzzles import find_puzzles, puzzles_json

    header: dict[str, object] = {
        "command": "hinge-fast puzzles "
        + " ".join(
            [
                f"--size {' '.join(map(str, args.size))}",
                f"--games {args.games}",
                f"--count {args.count}",
                f"--seed {args.seed}",
                f"--nodes {args.nodes}",
                f"--play-nodes {args.play_nodes}",
                f"--engine-time {args.engine_time:g}",
            ]
            + (["--replies"] if args.replies else [])
        )
    }
    if args.out is not None:
        write_text_file(
            args.out, puzzles_json([], header)
        )  # a path that cannot be written fails before any game
    found = []
    started = time.monotonic()
    with ProgressBar("game") as bar:
        for size in args.size:
            per_side = 0
            for puzzle in find_puzzles(
                size,
                args.games,
                seed=args.seed,
                nodes=args.nodes,
                play_nodes=args.play_nodes,
                engine_time=args.engine_time,
                replies=args.replies,
                on_game=lambda index, _: bar.show(index + 1, args.games),
            ):
                found.append(puzzle)
                per_side += 1
                bar.write(
                    f"{puzzle.position}  {puzzle.winner} wins in {puzzle.distance}: "
                    f"{' '.join(puzzle.moves)}  (engine: {puzzle.engine_move})"
                )
                if args.out is not None:
                    write_text_file(args.out, puzzles_json(found, header))
                if per_side >= args.count:
                    break
            if bar.bar is not None:
                bar.bar.close()
                bar.bar = None
            print(f"side {size}: {count(per_side, 'puzzle')}", file=sys.stderr)
    header["seconds"] = round(time.monotonic() - started)
    if args.out is not None:
        write_text_file(args.out, puzzles_json(found, header))
    print(
        f"{count(len(found), 'puzzle')} in {time.monotonic() - started:.0f} s"
        + ("" if args.out is None else f", written to {args.out}"),
        file=sys.stderr,
    )
    return 0 if found else 1
