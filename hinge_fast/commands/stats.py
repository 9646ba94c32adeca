"""``stats``: play many self-play games and report how Hinge games go
(the library: ``hinge_fast.games.stats``, which also defines the kinds of move)."""

from __future__ import annotations

import sys

from ..games.stats import DEFAULT_GAMES, DEFAULT_MAX_PLIES
from . import (
    ProgressBar,
    add_executor_arguments,
    add_json_argument,
    add_limit_arguments,
    add_max_plies_argument,
    add_size_argument,
    executor_from_args,
    int_option,
)


def register(subparsers):
    p = subparsers.add_parser(
        "stats",
        help="self-play statistics: first-player win rate, game length, endings, branching, move kinds",
        description="Play N self-play games of one player and report: Green's (first player's) win rate with a "
        "95% Wilson interval, game length (mean, median, p10/p90, min/max), how games ended (elimination, "
        "NO LEGAL MOVE, ply cap), the mean number of legal moves by ply, and how often each kind of move is "
        "played (placements; one-step, onward and reversing swipes; swipes passing over a friendly token). "
        "A player without a legal move loses (the rules, docs/rules.md section 6): this command is how to check how often "
        "that happens.",
        epilog="Example: hinge-fast stats --size 6 --games 1000 --seed 1 --plot stats.png",
    )
    add_size_argument(p)
    int_option(
        p,
        "--games",
        1,
        10**7,
        name="N",
        default=DEFAULT_GAMES,
        metavar="N",
        help=f"games to play (default {DEFAULT_GAMES})",
    )
    p.add_argument(
        "--player",
        default="random",
        metavar="PLAYER",
        help="random (default), greedy, alphabeta or mcts: plays both sides",
    )
    add_limit_arguments(
        p,
        "search seconds per move (alphabeta, mcts)",
        "search nodes per move (alphabeta, mcts)",
        most_seconds=3600.0,
    )
    p.add_argument("--seed", type=int, default=None, help="random seed: same seed, same games")
    int_option(
        p,
        "--openings",
        0,
        1000,
        default=None,
        metavar="K",
        help="K uniformly random plies (seeded) open each game of a player other than random, so that a "
        "deterministic engine plays different games (default 2 for alphabeta and mcts, 0 for greedy)",
    )
    add_max_plies_argument(
        p,
        DEFAULT_MAX_PLIES,
        f"stop a game after M plies as unfinished (default {DEFAULT_MAX_PLIES})",
    )
    add_json_argument(p)
    p.add_argument(
        "--plot",
        metavar="FILE",
        default=None,
        help="write a PNG: game length histogram and legal moves by ply (needs matplotlib)",
    )
    add_executor_arguments(
        p,
        concurrency_help="chunks of games played at once, in worker processes (default 1); "
        "with a seed the statistics are the same",
    )
    p.set_defaults(run=run_stats)


def run_stats(args) -> int:
    import json

    from ..games.stats import format_text, self_play, write_plot

    with executor_from_args(args) as executor, ProgressBar("game") as bar:
        summary = self_play(
            args.size,
            args.games,
            args.player,
            time_limit=args.time,
            nodes=args.nodes,
            seed=args.seed,
            max_plies=args.max_plies,
            executor=executor,
            progress=bar.show,
            openings=args.openings,
        )
    if args.plot:
        write_plot(args.plot, summary)
    print(json.dumps(summary) if args.json else format_text(summary), flush=True)
    if args.plot:
        print(f"wrote {args.plot}", file=sys.stderr)
    return 0
