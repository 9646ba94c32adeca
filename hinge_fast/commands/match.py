"""``match``: play two players against each other and rate them."""

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
    seconds_option,
    seed_of_args,
    start_games,
    stopped_text,
)

DEFAULT_MATCH_TIME = 0.1


def register(subparsers):
    p = subparsers.add_parser(
        "match",
        help="play two players against each other (Elo, SPRT, game records)",
        description="Play ENGINE_A against ENGINE_B. Players: random, greedy, alphabeta, mcts "
        "(search options after a colon: mcts:exploration=0.7). Colours alternate; games 2i and "
        "2i+1 start from the same opening with the colours swapped: an entry of the opening book (by default "
        "the balanced book shipped for the board side), or random plies with --book none. Results are from "
        "ENGINE_A's side; a game reaching --max-plies is unfinished (half a point for the Elo). "
        "A progress bar goes to stderr when it is a terminal, the summary to stdout.",
        epilog="Example: hinge-fast match mcts greedy --games 100 --time 0.2 --sprt 0,100; "
        "time odds: hinge-fast match alphabeta mcts --time 0.2 --time-b 0.8; "
        "a clock: hinge-fast match alphabeta mcts --tc 10+0.1",
    )
    p.add_argument(
        "engine_a", metavar="ENGINE_A", help="the player rated (random, greedy, alphabeta, mcts)"
    )
    p.add_argument("engine_b", metavar="ENGINE_B", help="its opponent")
    int_option(p, "--games", 1, 10**6, default=10, metavar="N", help="games to play (default 10)")
    add_game_arguments(p, "match", DEFAULT_MATCH_TIME)
    odds = p.add_mutually_exclusive_group()
    seconds_option(
        odds,
        "--time-b",
        default=None,
        metavar="S",
        help="ENGINE_B's own seconds per search move (time odds; default: as ENGINE_A)",
    )
    int_option(
        odds,
        "--nodes-b",
        1,
        10**12,
        default=None,
        metavar="N",
        help="ENGINE_B's own nodes or playouts per search move (default: as ENGINE_A)",
    )
    p.add_argument(
        "--sprt",
        default=None,
        metavar="ELO0,ELO1[,ALPHA,BETA]",
        help="stop early when an SPRT of H0: ELO0 against H1: ELO1 decides (alpha, beta default 0.05)",
    )
    p.add_argument(
        "--json",
        default=None,
        metavar="FILE",
        help="also write every figure of the summary (pair counts, Elo and nElo with intervals, LOS, "
        "SPRT) to FILE as JSON, for tools",
    )
    add_executor_arguments(
        p,
        concurrency_help="games played at once, in worker processes (default 1); with node "
        "limits each game is the same as when played alone",
    )
    p.set_defaults(run=run_match)


class _Progress:
    """A tqdm bar on stderr, one step a game, with the score so far (left out when
    stderr is not a terminal)."""

    def __init__(self, games):
        from tqdm import tqdm

        self.bar = tqdm(total=games, unit="game", file=sys.stderr, disable=None)

    def __call__(self, result):
        from ..games.results import elo_text

        ptnml = " ".join(str(k) for k in result.pentanomial.ptnml)
        text = f"+{result.wins} -{result.losses} ={result.unfinished} ptnml {ptnml} Elo {elo_text(result.elo)}"
        if result.llr is not None:
            text += f" LLR {result.llr:.2f}"
        self.bar.set_postfix_str(text, refresh=False)
        self.bar.update(1)

    def finish(self):
        self.bar.close()


def run_match(args) -> int:
    import random

    from ..games.match import RunSettings, play_match
    from ..games.matchfile import MatchSettings, read_match_file
    from ..games.pairstats import Sprt
    from ..games.players import close_made_players

    sprt = Sprt.parse(args.sprt) if args.sprt is not None else None
    game_settings = game_settings_from_args(args)
    if args.tc is not None and (args.time_b is not None or args.nodes_b is not None):
        raise HingeError(
            "--time-b and --nodes-b are odds per move: with --tc both sides play on the same clock"
        )
    time_limit = move_time(args, DEFAULT_MATCH_TIME)
    limit_a = (None, args.nodes) if args.nodes is not None else (time_limit, None)
    limit_b = (
        (args.time_b, None)
        if args.time_b is not None
        else (None, args.nodes_b)
        if args.nodes_b is not None
        else limit_a
    )
    path = args.resume if args.resume is not None else args.out
    seed = seed_of_args(args)
    seeds = random.Random(seed)
    limits = ((args.engine_a, limit_a), (args.engine_b, limit_b))
    player_a, player_b = make_players(args, limits, seeds)
    if player_a.name == player_b.name:
        # One engine against itself, or two builds of one version: the games' tags and
        # the results name ENGINE_A and ENGINE_B apart.
        player_a.name, player_b.name = f"{player_a.name} (A)", f"{player_b.name} (B)"
    match_seed = seeds.getrandbits(32)
    limit, tag = (
        _limit_texts(limit_a, limit_b) if args.tc is None else (f"{args.tc} clock", f"tc {args.tc}")
    )
    limit += "" if args.tc is not None else _search_note(player_a, player_b)
    settings = MatchSettings(
        args.engine_a,
        args.engine_b,
        args.size,
        game_settings.openings,
        args.max_plies,
        tag,
        seed,
        game_settings.book_tag(),
    )
    executor = executor_from_args(args)
    line = None
    written = [0]
    try:
        done, players, on_game, written = start_games(
            args,
            executor,
            lambda _: settings,
            [player_a, player_b],
            limits,
            f"match {player_a.name} vs {player_b.name}: {count(args.games, 'game')} on side {args.size}, {limit}, "
            f"{openings_text(game_settings)}, max {args.max_plies} plies, seed {seed}",
        )
        line = _Progress(args.games)
        result = play_match(
            players[0],
            players[1],
            args.games,
            args.size,
            match_seed,
            sprt,
            game_settings,
            RunSettings(executor, done, on_game, line),
        )
    except KeyboardInterrupt:
        if line is not None:
            line.finish()
        print(
            stopped_text(
                args.games, written[0] if path is None else len(read_match_file(path)[0]), path
            ),
            file=sys.stderr,
            flush=True,
        )
        raise
    finally:
        if line is not None:
            line.finish()
        executor.close()
        player_a.close()
        player_b.close()
        close_made_players()
    return report_games(result, path, written[0], args.json)


def _search_note(player_a, player_b) -> str:
    """The banner's note on whom the limits concern: random and greedy do not search."""
    from ..games.players import GreedyPlayer, RandomPlayer

    quick = [p.name for p in (player_a, player_b) if isinstance(p, (GreedyPlayer, RandomPlayer))]
    if not quick:
        return ""
    if len(quick) == 2:
        return " (neither player searches: the limit does not apply)"
    return f" (for the searching player only: {quick[0]} does not search)"


def _limit_texts(limit_a, limit_b) -> tuple[str, str]:
    """The banner's words for the players' limits per move, and the match file's
    ``Limit`` tag (``'time 0.2'``; with odds, ``'time 0.2; B time 0.8'``).

    >>> _limit_texts((0.2, None), (0.2, None))
    ('0.2 s per move', 'time 0.2')
    >>> _limit_texts((0.2, None), (None, 5000))
    ('0.2 s per move for A, 5,000 nodes for B', 'time 0.2; B nodes 5000')
    """

    def words(limit):
        return f"{limit[0]:g} s" if limit[1] is None else count(limit[1], "node")

    def tag(limit):
        return f"time {limit[0]:g}" if limit[1] is None else f"nodes {limit[1]}"

    if limit_a == limit_b:
        return f"{words(limit_a)} per move", tag(limit_a)
    return (
        f"{words(limit_a)} per move for A, {words(limit_b)} for B",
        f"{tag(limit_a)}; B {tag(limit_b)}",
    )
