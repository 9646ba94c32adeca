"""Fit the scale that turns alpha-beta's scores into a chance to win.

    python -m experiments.fit_win_scale generate --out winscale.npz --games 150 --seed 1   # self-play, sides 6 and 9
    python -m experiments.fit_win_scale fit winscale.npz                                   # the scale for score.py

``generate`` plays self-play games of the default alpha-beta engine (one thread,
``--nodes`` a move, default 3000) after 2 to 8 uniformly random opening plies (seeded:
the games differ and the run repeats), ``--games`` games on each of ``--sizes`` (default
6 and 9), and records at every move the search's score for the side to move and whether
that side went on to win. Proven scores (a win or loss in N) and unfinished games are
left out: the scale is for unproven scores.

``fit`` fits ``P(side to move wins) = 1 / (1 + exp(-score / s))`` (``score`` in
centi-tokens) by maximum likelihood: scipy's bounded scalar minimisation of the
logistic loss over ``s``. It prints ``s`` over all sides and per side, and a 95%
interval from a bootstrap over games (positions of one game are not independent, so
whole games are resampled, ``--bootstrap`` times, seeded). The constant goes to
``hinge_fast/search/score.py`` (``WIN_SCALE``), with this command in
docs/search-alphabeta.md.

Example (a small run, a minute): python -m experiments.fit_win_scale generate --out small.npz --games 5 --sizes 6 --nodes 500
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

from hinge_fast import Board
from hinge_fast.search import Limits, create_searcher
from scripts import run_script

DEFAULT_SIZES = (6, 9)
DEFAULT_NODES = 3000
OPENING_PLIES = (2, 8)
MAX_PLIES = 400


def play_one(searcher, size, nodes, rng):
    """One self-play game: ``(scores, movers, winner)``, the scores (centi-tokens, the
    mover's view; None when proven) and the mover of each searched position."""
    board = Board(size)
    for _ in range(rng.randint(*OPENING_PLIES)):
        if board.outcome() is not None:
            break
        board.push(rng.choice(board.legal_moves))
    scores, movers = [], []
    while board.outcome() is None and len(board.move_stack) < MAX_PLIES:
        result = searcher.go(board, Limits(nodes=nodes))
        scores.append(result.score.centi_tokens)
        movers.append(int(board.turn))
        board.push(result.move)
    outcome = board.outcome()
    return scores, movers, None if outcome is None else int(outcome.winner)


def generate(args) -> int:
    rng = random.Random(args.seed)
    searcher = create_searcher("alphabeta", threads=1, table_mb=16)
    rows = []  # (size, game, score, won)
    game = 0
    started = time.monotonic()
    for size in args.sizes:
        for _ in range(args.games):
            scores, movers, winner = play_one(searcher, size, args.nodes, rng)
            game += 1
            if winner is not None:
                rows += [
                    (size, game, s, int(m == winner))
                    for s, m in zip(scores, movers)
                    if s is not None
                ]
            if game % 10 == 0:
                print(
                    f"{game} games, {len(rows)} positions, {time.monotonic() - started:.0f} s",
                    file=sys.stderr,
                )
    data = np.array(rows, dtype=np.int64).reshape(-1, 4)
    from hinge_fast.core.atomic import write_atomic

    out = (
        args.out if str(args.out).endswith(".npz") else f"{args.out}.npz"
    )  # the name numpy would give it
    write_atomic(
        out,
        lambda f: np.savez(f, size=data[:, 0], game=data[:, 1], score=data[:, 2], won=data[:, 3]),
    )
    print(f"wrote {out}: {game} games, {len(data)} positions")
    return 0


def fit_scale(score, won) -> float:
    """The maximum-likelihood ``s`` of ``P(won) = 1 / (1 + exp(-score / s))``."""
    from scipy.optimize import minimize_scalar
    from scipy.special import log_expit

    score = score.astype(np.float64)
    sign = np.where(won == 1, 1.0, -1.0)

    def loss(log_s):
        return -np.mean(log_expit(sign * score / np.exp(log_s)))

    found = minimize_scalar(
        loss, bounds=(np.log(10.0), np.log(1e6)), method="bounded", options={"xatol": 1e-6}
    )
    return float(np.exp(found.x))


def fit(args) -> int:
    data = np.load(args.data)
    size, game, score, won = data["size"], data["game"], data["score"], data["won"]
    print(f"{len(score)} positions from {len(np.unique(game))} games")
    rng = np.random.default_rng(args.seed)
    for label, keep in [("all", np.ones(len(score), dtype=bool))] + [
        (f"side {s}", size == s) for s in np.unique(size)
    ]:
        s_hat = fit_scale(score[keep], won[keep])
        games = np.unique(game[keep])
        by_game = {g: np.flatnonzero(keep & (game == g)) for g in games}
        boot = []
        for _ in range(args.bootstrap):
            pick = np.concatenate([by_game[g] for g in rng.choice(games, size=len(games))])
            boot.append(fit_scale(score[pick], won[pick]))
        low, high = np.percentile(boot, [2.5, 97.5])
        accuracy = np.mean((score[keep] > 0) == (won[keep] == 1))
        print(
            f"{label}: s = {s_hat:.0f} centi-tokens (95% {low:.0f} to {high:.0f}), {keep.sum()} positions, "
            f"sign right {100 * accuracy:.1f}%"
        )
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m experiments.fit_win_scale", description=__doc__.split("\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="self-play games with the search's scores")
    g.add_argument("--out", required=True)
    g.add_argument("--games", type=int, default=150, help="games per side")
    g.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES))
    g.add_argument("--nodes", type=int, default=DEFAULT_NODES)
    g.add_argument("--seed", type=int, default=1)
    f = sub.add_parser("fit", help="the maximum-likelihood scale")
    f.add_argument("data")
    f.add_argument("--bootstrap", type=int, default=200)
    f.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    return generate(args) if args.command == "generate" else fit(args)


if __name__ == "__main__":
    run_script(main)
