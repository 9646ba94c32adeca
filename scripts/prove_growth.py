"""How the prover's work grows with the distance from the end of the game, and what that
says of proving the empty board.

Plays seeded engine games (``hinge_fast.solving.puzzles.play_engine_game``: alpha-beta
against MCTS from the openings of the shipped book, as ``hinge-fast puzzles`` plays
them), takes each game's position at each of the given plies, and proves it from an
empty table within ``--nodes``. Prints, for each ply, how many positions were proven,
for which side, and the median and largest node counts; then fits a straight line to the
logarithm of the median against the ply (over the plies where more than half of the
positions were proven, so that the median is a measured count), and extrapolates it to
ply 0, the empty board, with the fit's 95% interval.

A ply here counts from the empty board: the shipped books' openings are six
placements, so an opening's tokens are its plies.

    python -m scripts.prove_growth --size 5 --games 16 --plies 20,18,16,14,12,10,8 --nodes 20000000

Example: python -m scripts.prove_growth --plies 20,18,16 --games 4 --nodes 100000 --json growth.json

``--records FILE`` takes the positions from recorded games instead (any engines', from
the empty board or a start position, all of one board side; ``--size``, ``--games``,
``--seed`` and ``--play-nodes`` then do not apply). ``bench/data/side5-games-0.1.0.hgn``
holds 24 side-5 games that version 0.1.0's alpha-beta and MCTS played each other (0.1 s
a move, two random opening plies; ``hinge-fast match`` seeds 4848 and 4849), positions
the prover was never tuned on:

    python -m scripts.prove_growth --records bench/data/side5-games-0.1.0.hgn --plies 20,16,12 --nodes 1000000

The extrapolation is an estimate, not a bound: the positions come from engine games, in
which one side has often gone wrong by the middle game, while a proof of the empty board
must answer the loser's best defence too.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time

from scipy import stats

from hinge_fast import Board
from hinge_fast.errors import HingeError
from hinge_fast.records.files import write_text_file
from hinge_fast.records.record import read_records
from hinge_fast.search.prover import Prover
from hinge_fast.solving.puzzles import play_engine_game
from scripts import run_script


def by_ply(positions: list[str]) -> dict:
    """One game's position strings, in order, by ply counted from the empty board (the
    first position's tokens are its plies)."""
    first = Board.from_fen(positions[0])
    start = first.token_count(first.turn) + first.token_count(first.turn.other)
    return {start + i: fen for i, fen in enumerate(positions)}


def game_plies(size: int, games: int, seed: int, play_nodes: int) -> list[dict]:
    """Each game's positions by ply: a list of ``{ply: position string}``, one a game."""
    return [by_ply(play_engine_game(size, index, seed, play_nodes)) for index in range(games)]


def record_plies(records) -> list[dict]:
    """The positions of every game of ``records`` (``GameRecord``s) by ply: a list of
    ``{ply: position string}``, one a game."""
    return [by_ply([board.fen() for board in record.boards()]) for record in records]


def ply_summary(ply: int, rows: list[dict], cap: int) -> dict:
    """The counts of one ply: positions, proven, won by the side to move, the median,
    geometric mean and largest node count (unproven positions count as ``cap``), and
    whether the median is a measured count (more than half proven)."""
    nodes = [r["nodes"] for r in rows]
    proven = [r for r in rows if r["winner"] is not None]
    return {
        "ply": ply,
        "positions": len(rows),
        "proven": len(proven),
        "mover_wins": sum(1 for r in proven if r["winner"] == r["to_move"]),
        "median": statistics.median(nodes),
        "largest": max(nodes),
        "geometric_mean": math.exp(statistics.fmean(math.log(max(n, 1)) for n in nodes)),
        "measured": 2 * len(proven) > len(rows),
        "cap": cap,
    }


def extrapolate(summaries: list[dict], target_ply: int = 0) -> dict | None:
    """A least-squares line of log10(median nodes) against the ply, over the plies whose
    median is measured, extrapolated to ``target_ply``: the growth factor a ply, the
    nodes at the target and the 95% interval of that prediction (the line's
    uncertainty at the target, Student's t). None with fewer than three such plies."""
    points = [(s["ply"], math.log10(max(s["median"], 1))) for s in summaries if s["measured"]]
    if len(points) < 3:
        return None
    xs, ys = zip(*points)
    fit = stats.linregress(xs, ys)
    n = len(points)
    mean_x = statistics.fmean(xs)
    sxx = sum((x - mean_x) ** 2 for x in xs)
    residual = math.sqrt(
        sum((y - (fit.intercept + fit.slope * x)) ** 2 for x, y in points) / (n - 2)
    )
    spread = residual * math.sqrt(1 / n + (target_ply - mean_x) ** 2 / sxx)
    t = stats.t.ppf(0.975, n - 2)
    at = fit.intercept + fit.slope * target_ply
    return {
        "plies": list(xs),
        "factor_per_ply": 10**-fit.slope,
        "r_squared": fit.rvalue**2,
        "target_ply": target_ply,
        "nodes": 10**at,
        "low": 10 ** (at - t * spread),
        "high": 10 ** (at + t * spread),
    }


def run(args) -> int:
    try:
        plies = sorted({int(p) for p in args.plies.split(",")}, reverse=True)
    except ValueError:
        raise HingeError(
            f"--plies must be whole numbers separated by commas, not {args.plies!r}"
        ) from None
    if args.games < 1 or args.nodes < 1 or any(p < 0 for p in plies):
        raise HingeError("--games, --nodes and the plies must be positive")
    started = time.monotonic()
    if args.records:
        records = read_records(args.records)
        if not records:
            raise HingeError(f"{args.records} holds no game")
        sides = sorted({record.size for record in records})
        if len(sides) > 1:
            raise HingeError(
                f"{args.records} mixes games of sides {', '.join(map(str, sides))}: "
                "the growth is measured on one side"
            )
        args.size = sides[0]
        games = record_plies(records)
        print(f"{len(games)} games read from {args.records}", flush=True)
    else:
        games = game_plies(args.size, args.games, args.seed, args.play_nodes)
        print(
            f"{args.games} side-{args.size} games played in {time.monotonic() - started:.1f} s "
            f"(seed {args.seed}, {args.play_nodes:,} nodes a move)",
            flush=True,
        )
    summaries, rows = [], []
    for ply in plies:
        here = []
        for index, game in enumerate(games):
            if ply not in game or ply == max(game):  # the game had ended by then
                continue
            board = Board.from_fen(game[ply])
            result = Prover(table_mb=args.table_mb).prove(
                board, nodes=args.nodes, interruptible=False
            )
            row = {
                "ply": ply,
                "game": index,
                "position": game[ply],
                "to_move": str(board.turn),
                "winner": None if result.winner is None else str(result.winner),
                "distance": result.distance,
                "nodes": result.nodes,
                "seconds": round(result.seconds, 3),
            }
            here.append(row)
            if args.verbose:
                print(json.dumps(row), flush=True)
        if not here:
            print(f"ply {ply}: no game reaches it")
            continue
        rows.extend(here)
        s = ply_summary(ply, here, args.nodes)
        summaries.append(s)
        print(
            f"ply {ply:3d}: {s['proven']:3d} of {s['positions']:3d} proven ({s['mover_wins']} for the side to "
            f"move), median {s['median']:>13,.0f} nodes{'' if s['measured'] else ' (at least)'}, "
            f"largest {s['largest']:>13,}",
            flush=True,
        )
    fit = extrapolate(summaries)
    if fit is None:
        print(
            "fewer than three plies with more than half of their positions proven: no extrapolation"
        )
    else:
        print(
            f"fit over plies {', '.join(map(str, fit['plies']))}: the median grows {fit['factor_per_ply']:.2f} "
            f"times a ply (r^2 {fit['r_squared']:.3f}); at ply 0 {fit['nodes']:.2g} nodes "
            f"(95% interval {fit['low']:.2g} to {fit['high']:.2g})"
        )
    print(f"{time.monotonic() - started:.1f} s in all")
    if args.json:
        write_text_file(
            args.json,
            json.dumps(
                {
                    "size": args.size,
                    "games": len(games),
                    "records": args.records,
                    "seed": args.seed,
                    "nodes": args.nodes,
                    "plies": summaries,
                    "fit": fit,
                    "positions": rows,
                },
                indent=1,
            )
            + "\n",
        )
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.prove_growth", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--size", type=int, default=5, help="board side (default 5)")
    parser.add_argument(
        "--games", type=int, default=16, help="engine games to take positions from (default 16)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the games (default 1)")
    parser.add_argument(
        "--plies",
        default="20,18,16,14,12,10",
        help="plies from the empty board to prove at, comma-separated (default 20,18,16,14,12,10)",
    )
    parser.add_argument(
        "--nodes", type=int, default=5_000_000, help="node limit per position (default 5,000,000)"
    )
    parser.add_argument(
        "--table-mb", type=int, default=512, help="the prover's table, MB (default 512)"
    )
    parser.add_argument(
        "--play-nodes",
        type=int,
        default=2000,
        help="alpha-beta's nodes a move in the games (default 2,000)",
    )
    parser.add_argument(
        "--records",
        default=None,
        help="take the positions from this file of game records instead of playing games",
    )
    parser.add_argument(
        "--json", default=None, help="write every position's result and the fit to this file"
    )
    parser.add_argument(
        "--verbose", action="store_true", help="print every position's result as a JSON line"
    )
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    run_script(main)
