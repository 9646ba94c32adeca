"""Alpha-beta's nodes a second in two checkouts of hinge_fast, in turn (for kernel changes).

    python -m scripts.nps_ab OTHER_CHECKOUT [--rounds 3] [--positions 16] [--depths 4:8 5:6 6:5 9:4]

Example: python -m scripts.nps_ab ../other-checkout --rounds 3

Each round runs one process per checkout, this one first, alternately, so that both see
the same load: one-thread fixed-depth searches (``alphabeta``'s defaults, tablebase off)
of the same seeded positions (random games of 4 to 30 plies, 4 to 10 on side 4), CPU time.
Each checkout's kernels have their own entries in numba's cache (it files them by source
path), so the other checkout's first round may compile. The node counts must agree where the change
keeps the trees; the script says when they do not. Prints each round, then the ratio
(this / other: above 1, this checkout is faster) of the summed rates by side.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from scripts import run_script

HERE = Path(__file__).resolve().parent.parent


def positions(size: int, count: int, plies: tuple[int, int], seed: int):
    """``count`` positions of seeded random games of ``plies`` (low, high) plies, none
    of them over. Only hinge_fast's public API is used here, so the child process runs
    the same code on whichever checkout it imports."""
    from hinge_fast import Board
    from hinge_fast.games.positions import random_position

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = random_position(size, rng.randint(*plies), rng)
        if not board.is_game_over():
            out.append(Board.from_fen(board.fen()))
    return out


def rate(boards, depth: int) -> tuple[float, int]:
    """Nodes a CPU second and nodes of one-thread fixed-depth searches of ``boards``
    (``alphabeta``'s defaults, tablebase off)."""
    from hinge_fast.search import Limits, create_searcher

    total = 0
    seconds = 0.0
    for board in boards:
        searcher = create_searcher("alphabeta", threads=1, tablebase="off")
        start = time.process_time()
        result = searcher.go(board.copy(), Limits(depth=depth))
        seconds += time.process_time() - start
        total += result.nodes
    return total / seconds, total


def measure(count: int, depths: dict[int, int]) -> dict:
    """``{side: (nodes a CPU second, nodes)}`` in this process's hinge_fast: ``count``
    positions of games of 4 to 30 plies (4 to 10 on side 4) seeded by the side."""
    out = {}
    for size, depth in depths.items():
        boards = positions(size, count, (4, 10 if size == 4 else 30), seed=size)
        rate(boards[:1], 2)  # load the kernels
        out[size] = rate(boards, depth)
    return out


def run(checkout: Path, positions: int, depths: dict[int, int]) -> dict:
    """``measure`` in a process of its own that imports ``checkout``'s hinge_fast."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    pairs = [f"{s}:{d}" for s, d in depths.items()]
    # Run by path: the script's folder, not this checkout, heads the child's sys.path.
    done = subprocess.run(
        [
            sys.executable,
            __file__,
            "--child",
            str(checkout),
            "--positions",
            str(positions),
            "--depths",
            *pairs,
        ],
        env=env,
        cwd=checkout,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(
            f"error: {checkout}: {(done.stderr.strip().splitlines() or ['failed'])[-1]}"
        )
    return {int(k): v for k, v in json.loads(done.stdout.strip().splitlines()[-1]).items()}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.nps_ab", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("other", help="the other checkout (a folder holding hinge_fast/)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--positions", type=int, default=16)
    parser.add_argument(
        "--depths", nargs="+", default=["4:8", "5:6", "6:5", "9:4"], help="side:depth pairs"
    )
    args = parser.parse_args(argv)
    other = Path(args.other).resolve()
    depths = {int(s): int(d) for s, d in (pair.split(":") for pair in args.depths)}
    if args.child:  # one measure, in the checkout ``other``: its results as JSON
        import hinge_fast

        if not Path(hinge_fast.__file__).resolve().is_relative_to(other):
            raise SystemExit(f"imported {hinge_fast.__file__}, not the checkout {other}")
        print(json.dumps(measure(args.positions, depths)))
        return
    if not (other / "hinge_fast").is_dir():
        raise SystemExit(f"error: {other} holds no hinge_fast/")
    sums = {name: {s: 0.0 for s in depths} for name in ("this", "other")}
    nodes = {}
    for _ in range(args.rounds):
        for name, checkout in (("this", HERE), ("other", other)):
            rates = run(checkout, args.positions, depths)
            nodes[name] = {s: n for s, (_, n) in rates.items()}
            print(
                f"{name:<6} "
                + "  ".join(f"S{s} {r / 1e3:7.0f}k ({n} nodes)" for s, (r, n) in rates.items()),
                flush=True,
            )
            for s, (r, _) in rates.items():
                sums[name][s] += r
    differ = [s for s in depths if nodes["this"][s] != nodes["other"][s]]
    if differ:
        print(
            "the node counts differ on side " + ", ".join(map(str, differ)) + ": not the same trees"
        )
    print(
        "this / other: "
        + "  ".join(f"S{s} {sums['this'][s] / sums['other'][s]:.2f}" for s in depths)
    )


if __name__ == "__main__":
    run_script(main)
