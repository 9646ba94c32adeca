"""``playouts``: uniformly random games from a position, on every core."""

from __future__ import annotations

import sys
import time

from ..core.text import count
from ..core.text import rate as per_second
from . import (
    ProgressBar,
    add_count_arguments,
    add_max_plies_argument,
    add_position_arguments,
    board_from_args,
    executor_from_args,
    int_option,
    positive_int,
)


def register(subparsers):
    p = subparsers.add_parser(
        "playouts",
        help="play random games from a position and count how they end",
        description="Play N games of uniformly random legal moves (uniform over the distinct legal moves, "
        "the rules, docs/rules.md section 5) from POSITION. Prints the wins by colour, how the games ended (elimination, "
        "no legal move, ply cap) and the mean length; games per second go to stderr. Game g draws from "
        "a random stream seeded by (seed, g), so a seed gives the same games with any number of threads.",
        epilog="Example: hinge-fast playouts 1000 --seed 7 --threads 1",
    )
    p.add_argument("games", type=positive_int("N", 1, 10**9), metavar="N", help="number of games")
    add_position_arguments(p)
    int_option(
        p,
        "--seed",
        0,
        2**63 - 1,
        name="K",
        default=0,
        metavar="K",
        help="random seed (default 0)",
    )
    add_max_plies_argument(p, 10_000, "stop a game unfinished after M plies (default 10000)")
    add_count_arguments(p)
    p.set_defaults(run=run_playouts)


def run_playouts(args) -> int:
    from ..board import Color
    from ..core import parallel
    from ..core.playouts import ELIMINATION, NO_LEGAL_MOVE, PLY_CAP

    board = board_from_args(args)
    threads = args.threads or parallel.available_threads()
    own, enemy = board.own, board.enemy
    if args.ray is not None:
        tally, seconds, where = _playouts_ray(board, args)
    else:
        parallel.playouts(board.size, own, enemy, 1, 1, args.seed, 1)  # load or compile first
        with ProgressBar("game") as bar:
            start = time.perf_counter()
            tally = parallel.playouts(
                board.size,
                own,
                enemy,
                args.games,
                args.max_plies,
                args.seed,
                threads,
                progress=bar.show,
            )
            seconds = time.perf_counter() - start
        where = f"{threads} thread{'s' if threads > 1 else ''}"
    mover = board.turn
    wins = {mover: tally.wins(0), mover.other: tally.wins(1)}
    print(f"games {tally.games:,}, seed {args.seed}, {where}")
    print(
        f"wins: green {wins[Color.GREEN]:,}, blue {wins[Color.BLUE]:,}, unfinished {tally.count(PLY_CAP):,}"
    )
    print(
        f"ended by elimination {tally.count(ELIMINATION):,}, by no legal move {tally.count(NO_LEGAL_MOVE):,}, "
        f"by ply cap ({args.max_plies:,}) {tally.count(PLY_CAP):,}"
    )
    print(f"mean length {tally.mean_plies:.2f} plies")
    rate = tally.games / seconds if seconds > 0 else float("inf")
    plies_rate = int(tally.plies.sum()) / seconds if seconds > 0 else float("inf")
    print(
        f"playouts: {count(tally.games, 'game')} in {seconds:.3f} s, {per_second(rate, 'games')}, "
        f"{per_second(plies_rate, 'plies')}",
        file=sys.stderr,
    )
    return 0


def _playouts_ray(board, args):
    """``(tally, seconds, description)``: the games in chunks on Ray workers (game g
    seeded by (seed, g) wherever it runs: the same tally as on one machine)."""
    from tqdm import tqdm

    from ..measure.counting import playouts_split

    with executor_from_args(args) as executor:
        executor.start()
        bar = tqdm(total=args.games, unit="game", file=sys.stderr, disable=None)
        start = time.perf_counter()
        try:
            tally = playouts_split(
                board,
                args.games,
                args.max_plies,
                args.seed,
                executor,
                progress=lambda done, total: bar.update(done - bar.n),
            )
        finally:
            bar.close()
        return tally, time.perf_counter() - start, executor.describe()
