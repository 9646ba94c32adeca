"""``tournament``: several players, every one against every other, one rating list."""

from __future__ import annotations

import sys

from ..core.text import count
from ..errors import HingeError
from . import (
    add_executor_arguments,
    add_game_arguments,
    executor_from_args,
    game_settings_from_args,
    int_option,
    make_players,
    move_time,
    openings_text,
    report_games,
    seed_of_args,
    start_games,
    stopped_text,
)

DEFAULT_TOURNAMENT_TIME = 0.1


def register(subparsers):
    p = subparsers.add_parser(
        "tournament",
        help="a round robin (or gauntlet) of several players, rated together by maximum likelihood",
        description="Play every ENGINE against every other (with --gauntlet: the first against each of the "
        "others), ROUNDS times a pair of games with the same opening and the colours swapped, openings as "
        "in 'match' (the shipped book by default). Players as in 'match': random, greedy, alphabeta, mcts, "
        "with search options after a colon, or cmd:PROGRAM. Ends with one rating list fitted by maximum "
        "likelihood over all the games (logistic Elo, averaging 0; one virtual draw per pairing keeps a "
        "player that won everything finite), each rating with its 95% interval.",
        epilog="Example: hinge-fast tournament alphabeta mcts greedy --rounds 10 --time 0.1 --size 6 --out t.hgn",
    )
    p.add_argument("engines", nargs="+", metavar="ENGINE", help="the players (at least two)")
    int_option(
        p,
        "--rounds",
        1,
        10**6,
        default=2,
        metavar="N",
        help="pairs of games per pairing (default 2)",
    )
    p.add_argument(
        "--gauntlet",
        action="store_true",
        help="the first ENGINE plays each of the others; they do not play each other",
    )
    add_game_arguments(p, "tournament", DEFAULT_TOURNAMENT_TIME)
    p.add_argument(
        "--json",
        default=None,
        metavar="FILE",
        help="also write the rating list and the pairings' scores to FILE as JSON",
    )
    add_executor_arguments(
        p, concurrency_help="games played at once, in worker processes (default 1)"
    )
    p.set_defaults(run=run_tournament)


def run_tournament(args) -> int:
    import random

    from ..games.match import RunSettings
    from ..games.matchfile import MatchSettings, read_match_file
    from ..games.players import close_made_players
    from ..games.tournament import pairings, play_tournament, tournament_kind

    if len(args.engines) < 2:
        raise HingeError("a tournament needs at least two engines")
    game_settings = game_settings_from_args(args)
    time = move_time(args, DEFAULT_TOURNAMENT_TIME)
    path = args.resume if args.resume is not None else args.out
    seed = seed_of_args(args)
    seeds = random.Random(seed)
    made = []
    executor = None
    line = None
    try:
        made = make_players(args, [(spec, (time, args.nodes)) for spec in args.engines], seeds)
        names = [p.name for p in made]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise HingeError(f"engine {twice[0]} is named twice: give each engine once")
        game_seed = seeds.getrandbits(32)
        pairs = pairings(len(names), args.gauntlet)
        if args.tc is not None:  # the match file's Limit tag, and the banner's words
            limit, clock = f"tc {args.tc}", f"{args.tc} clock"
        elif args.nodes is not None:
            limit, clock = f"nodes {args.nodes}", f"{count(args.nodes, 'node')} per move"
        else:
            limit, clock = f"time {time:g}", f"{time:g} s per move"
        kind = tournament_kind(names, args.gauntlet)
        book_tag = game_settings.book_tag()

        def settings_for(index):
            if index >= 2 * args.rounds * len(pairs):
                return None
            i, j = pairs[(index // 2) % len(pairs)]
            return MatchSettings(
                names[i],
                names[j],
                args.size,
                game_settings.openings,
                args.max_plies,
                limit,
                seed,
                book_tag,
                kind,
            )

        executor = executor_from_args(args)
        total = 2 * args.rounds * len(pairs)
        limit_per_move = (time if args.nodes is None else None, args.nodes)
        done, players, on_game, written = start_games(
            args,
            executor,
            settings_for,
            made,
            [(spec, limit_per_move) for spec in args.engines],
            f"tournament ({kind}): {count(total, 'game')} on side {args.size}, {count(args.rounds, 'round')}, {clock}, {openings_text(game_settings)}, "
            f"max {args.max_plies} plies, seed {seed}",
        )
        from tqdm import tqdm

        bar = line = tqdm(
            total=total, initial=len(done), unit="game", file=sys.stderr, disable=None
        )
        result = play_tournament(
            players,
            args.rounds,
            args.size,
            game_seed,
            args.gauntlet,
            game_settings,
            RunSettings(executor, done, on_game, lambda _: bar.update(1)),
        )
    except KeyboardInterrupt:
        counted = 0
        if line is not None:
            counted = line.n
            line.close()
            line = None
            played = len(read_match_file(path)[0]) if path is not None else counted
            print(stopped_text(total, played, path), file=sys.stderr, flush=True)
        raise
    finally:
        if line is not None:
            line.close()
        if executor is not None:
            executor.close()
        for player in made:
            player.close()
        close_made_players()
    return report_games(result, path, written[0], args.json)
