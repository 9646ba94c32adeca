"""Ground-truth strength test on the solved side-4 board: how often each engine picks a winning move.

Samples side-4 positions where the choice matters (at least one winning and one
losing move, by the tablebase) from uniformly random games with a fixed seed, asks each
engine for a move at each budget (without the tablebase), and reports the rate at which
it picks a winning move, by game phase (tokens on the board), beside the rate of a
uniformly random choice.

    python -m scripts.ground_truth                       # 1,000 nodes, 0.01 s, 0.2 s
    python -m scripts.ground_truth --positions 100 --budgets 1000n 0.01s
    python -m scripts.ground_truth --engines mcts mcts:exploration=0.4 --budgets 1000n
    python -m scripts.ground_truth --command .venv/bin/hinge-fast --budgets 0.01s --positions 100

Example: python -m scripts.ground_truth --positions 100 --budgets 1000n

Needs the tablebase (``hinge-fast solve --size 4``; ``--tablebase FILE`` elsewhere).
A budget is a node count (``1000n``: positions searched for alpha-beta, playouts for
MCTS) or a time (``0.01s``). Each search gets its own fixed seed, so a node-budget run
repeats exactly; time budgets depend on the machine's load.

With ``--command HINGE_FAST`` every search is a fresh ``HINGE_FAST move`` process, as a
user at the command line runs it, so what a process pays once (loading the kernels,
allocating the table) is part of each search; without it the searches run in this
process, after one search not counted.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time

import hinge_fast
from hinge_fast import Board
from hinge_fast.search.registry import engine_spec, parse_engine_spec
from hinge_fast.solving.tablebase import Tablebase, probe
from scripts import run_script

PHASES = (
    (0, 4, "0-4 tokens"),
    (5, 7, "5-7 tokens"),
    (8, 10, "8-10 tokens"),
    (11, 19, "11-19 tokens"),
)
DEFAULT_BUDGETS = ("1000n", "0.01s", "0.2s")


def phase_of(board: Board) -> int:
    tokens = sum(board.token_count(c) for c in (hinge_fast.Color.GREEN, hinge_fast.Color.BLUE))
    for i, (low, high, _) in enumerate(PHASES):
        if low <= tokens <= high:
            return i
    raise ValueError(tokens)


def sample_positions(tb: Tablebase, count: int, seed: int, per_game: int = 3):
    """``count`` choice-matters positions from random games: a list of (board, set of
    winning moves, fraction of winning moves). At most ``per_game`` from each game,
    so the sample spreads over many games."""
    rng = random.Random(seed)
    out = []
    games = 0
    while len(out) < count:
        games += 1
        board = Board(4)
        found = []
        while not board.is_game_over():
            answer = probe(board, tb)
            winning = {m.move for m in answer.moves if m.win}
            if winning and len(winning) < len(answer.moves):
                found.append((board.copy(), winning, len(winning) / len(answer.moves)))
            board.push(rng.choice(board.legal_moves))
        rng.shuffle(found)
        out.extend(found[:per_game])
    return out[:count], games


def parse_budget(text: str) -> dict:
    if text.endswith("n"):
        return {"nodes": int(text[:-1])}
    if text.endswith("s"):
        return {"time": float(text[:-1])}
    raise SystemExit(f"error: budget {text!r}: write a node count like 1000n or a time like 0.01s")


def command_move(
    command: str, board: Board, engine: str, options: dict, limits: dict, seed: int
) -> str:
    """The move a fresh ``command move`` process picks (its last line of stdout)."""
    argv = [command, "move", board.fen(), "--engine", engine, "--seed", str(seed), "--quiet"]
    for name, value in limits.items():
        argv += [f"--{name}", str(value)]
    for name, value in options.items():
        argv += ["-o", f"{name}={value}"]
    run = subprocess.run(argv, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"error: {' '.join(argv)}: {run.stderr.strip()[-300:]}")
    return run.stdout.strip().splitlines()[-1]


def run(args) -> None:
    tb = Tablebase(args.tablebase)
    started = time.perf_counter()
    positions, games = sample_positions(tb, args.positions, args.seed)
    by_phase = [sum(1 for b, _, _ in positions if phase_of(b) == i) for i in range(len(PHASES))]
    print(
        f"{len(positions)} choice-matters side-4 positions from {games} random games (seed {args.seed}); "
        f"by phase: " + ", ".join(f"{PHASES[i][2]} {n}" for i, n in enumerate(by_phase))
    )
    width = max(10, *(len(e) for e in args.engines))
    header = (
        f"{'engine':<{width}} {'budget':>7} "
        + " ".join(f"{p[2]:>13}" for p in PHASES)
        + f" {'all':>9}"
    )
    print(header)

    def line(name, budget, hits):
        cells = []
        for i in range(len(PHASES)):
            n = by_phase[i]
            cells.append(f"{100 * hits[i] / n:12.1f}%" if n else f"{'-':>13}")
        total = sum(hits) / len(positions)
        print(
            f"{name:<{width}} {budget:>7} " + " ".join(cells) + f" {100 * total:8.1f}%", flush=True
        )

    random_hits = [0.0] * len(PHASES)
    for board, _, fraction in positions:
        random_hits[phase_of(board)] += fraction
    line("random", "-", random_hits)
    for spec in args.engines:
        engine, options = parse_engine_spec(spec)
        for budget in args.budgets:
            limits = parse_budget(budget)
            # without the tablebase: the engines would otherwise answer from it
            if "tablebase" in engine_spec(engine).option_names:
                options = {**options, "tablebase": "off"}
            if args.command is None:
                # one search first, not counted: the process's first search loads the kernels
                # from numba's cache and allocates the tables, which a time budget would pay
                hinge_fast.search(Board(4), engine=engine, seed=args.seed, **limits, **options)
            hits = [0] * len(PHASES)
            for k, (board, winning, _) in enumerate(positions):
                if args.command is None:
                    move = hinge_fast.search(
                        board.copy(), engine=engine, seed=args.seed + k, **limits, **options
                    ).move
                else:
                    move = board.parse_move(
                        command_move(args.command, board, engine, options, limits, args.seed + k)
                    )
                hits[phase_of(board)] += move in winning
            line(spec, budget, hits)
    print(f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.ground_truth", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--positions", type=int, default=300, help="positions to sample (default 300)"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=12,
        help="seed of the random games and of the searches (default 12)",
    )
    parser.add_argument(
        "--budgets",
        nargs="+",
        default=list(DEFAULT_BUDGETS),
        help="budgets: 1000n (nodes) or 0.01s (time)",
    )
    parser.add_argument(
        "--engines",
        nargs="+",
        default=["alphabeta", "mcts"],
        help="engines to test, with options after a colon as in matches (mcts:exploration=0.7)",
    )
    parser.add_argument(
        "--command",
        default=None,
        metavar="HINGE_FAST",
        help="ask a fresh 'HINGE_FAST move' process for every search, as a user would",
    )
    parser.add_argument(
        "--tablebase",
        default=None,
        metavar="FILE",
        help="tablebase file (default: where solve writes it)",
    )
    run(parser.parse_args(argv))


if __name__ == "__main__":
    run_script(main)
