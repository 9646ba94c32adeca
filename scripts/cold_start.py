"""A cold command-line search against the same search warm in one process.

    python -m scripts.cold_start [--engines alphabeta mcts] [--threads 1 2] [--sides 4 6 9]
                                 [--budgets 0.01 0.05 0.2 1] [--json FILE]

Example: python -m scripts.cold_start --engines alphabeta --threads 1 --sides 6 --budgets 0.2

For each engine, thread count, side and time budget: the depth and nodes (alpha-beta) or
playouts (MCTS) and the time of ``hinge-fast move POSITION --time T`` run as a fresh
process, as a user runs it (read from its ``bestmove`` line), against the same search
run warm: the second ``go`` of one searcher in this process. The position of each side is
a seeded middle game (random plies, not over, and not proven won or lost by a
6-ply search, where a searcher would stop at once). The tablebase is off, so that side 4 is
searched too. A search's time is measured by the engine from its own clock; a cold one
should reach about the depth (or playouts) of the warm one and use about its budget.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys

from scripts import run_script

BESTMOVE = re.compile(r"^bestmove (\S+) score .* depth (\d+) nodes (\d+) time ([0-9.]+)", re.M)


def middle_game(size: int, seed: int = 7):
    """A seeded position some plies into a random game of side ``size``, not over, and
    not decided within a short search: a searcher stops at once on a root it proves won
    or lost, which would say nothing of how it spends its time."""
    from hinge_fast.games.positions import random_position
    from hinge_fast.search import Limits, create_searcher

    rng = random.Random(seed * 100 + size)
    probe = create_searcher("alphabeta", threads=1, tablebase="off")
    while True:
        board = random_position(size, rng.randint(3 * size, 5 * size), rng)
        if (
            not board.is_game_over()
            and not probe.go(board.copy(), Limits(depth=6, nodes=200_000)).score.is_mate
        ):
            return board


def cold(engine: str, threads: int, fen: str, budget: float) -> dict:
    """One ``hinge-fast move`` process: depth, nodes and time from its last line on stderr."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "hinge_fast.cli",
            "move",
            fen,
            "--engine",
            engine,
            "--time",
            str(budget),
            "-o",
            f"threads={threads}",
            "-o",
            "tablebase=off",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    found = BESTMOVE.findall(done.stderr)
    if not found:
        raise SystemExit(f"no bestmove line from hinge-fast move:\n{done.stderr}")
    _, depth, nodes, seconds = found[-1]
    return {"depth": int(depth), "nodes": int(nodes), "seconds": float(seconds)}


def warm(engine: str, threads: int, board, budget: float) -> dict:
    """The same search as the second ``go`` of one searcher."""
    from hinge_fast.search import Limits, create_searcher

    searcher = create_searcher(engine, threads=threads, tablebase="off")
    searcher.go(board.copy(), Limits(time=budget))
    result = searcher.go(board.copy(), Limits(time=budget))
    return {"depth": result.depth, "nodes": result.nodes, "seconds": result.seconds}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.cold_start", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--engines", nargs="+", default=["alphabeta", "mcts"])
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--sides", nargs="+", type=int, default=[4, 6, 9])
    parser.add_argument("--budgets", nargs="+", type=float, default=[0.01, 0.05, 0.2, 1.0])
    parser.add_argument("--json", metavar="FILE", help="write every row to FILE as JSON")
    args = parser.parse_args(argv)

    rows = []
    print(
        f"{'engine':10} {'thr':>3} {'side':>4} {'budget':>6} | {'cold depth':>10} {'nodes':>9} {'time':>6} "
        f"{'of budget':>9} | {'warm depth':>10} {'nodes':>9} {'time':>6} | nodes cold/warm"
    )
    for engine in args.engines:
        for threads in args.threads:
            for size in args.sides:
                board = middle_game(size)
                for budget in args.budgets:
                    c = cold(engine, threads, board.fen(), budget)
                    w = warm(engine, threads, board, budget)
                    rows.append(
                        {
                            "engine": engine,
                            "threads": threads,
                            "side": size,
                            "budget": budget,
                            "position": board.fen(),
                            "cold": c,
                            "warm": w,
                        }
                    )
                    print(
                        f"{engine:10} {threads:>3} {size:>4} {budget:>6} | {c['depth']:>10} {c['nodes']:>9} "
                        f"{c['seconds']:>6.3f} {c['seconds'] / budget:>8.0%} | {w['depth']:>10} {w['nodes']:>9} "
                        f"{w['seconds']:>6.3f} | {c['nodes'] / max(w['nodes'], 1):.2f}",
                        flush=True,
                    )
    if args.json:
        from hinge_fast.core.atomic import write_atomic

        write_atomic(args.json, json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    run_script(main)
