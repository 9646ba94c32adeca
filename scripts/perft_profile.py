"""Instructions and branch mispredictions per leaf of bulk perft (or per ply of random
playouts), counted by valgrind.

Runs the perft kernel (one thread, in a child process under ``valgrind --tool=cachegrind
--branch-sim=yes``) at two depths of one position and divides the difference of the
counts by the difference of the leaves, so that what a process does once (starting
Python, loading the kernels) cancels out. With ``--playouts`` the two numbers are game
counts of uniformly random playouts from the position, and the counts are per ply
played. With ``--other`` it does the same for another program, so that two move
generators can be compared instruction for instruction where timings are too noisy to
say why one is faster:

    python -m scripts.perft_profile "4/1g3/3g2/3g3/2bb2/5/4 b" 5 7
    python -m scripts.perft_profile POSITION 5 7 --other "yardstick perft {position} {depth}"
    python -m scripts.perft_profile POSITION 50 250 --playouts --other "yardstick playouts {position} {depth} 1 10000"

Example: python -m scripts.perft_profile "4/1g3/3g2/3g3/2bb2/5/4 b" 4 6

``--other`` is a command template with ``{position}`` and ``{depth}`` (the depth, or the
number of games); it must print the leaf count as a line of digits alone or as
``perft(D) = N``, or for playouts ``mean length X plies``. Needs valgrind. The kernels
are compiled for valgrind's virtual CPU on the first run (a few minutes), kept apart
from the native cache in ``NUMBA_CACHE_DIR`` (default a folder under the system's
temporary directory).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from scripts import run_script

COUNTS = {
    "instructions": re.compile(r"I\s+refs:\s+([0-9,]+)"),
    "branches": re.compile(r"Branches:\s+([0-9,]+)"),
    "mispredictions": re.compile(r"Mispredicts:\s+([0-9,]+)"),
}
LEAVES = re.compile(r"^(?:perft\(\d+\) = )?(\d+)\s*$", re.M)
MEAN_LENGTH = re.compile(r"mean length ([0-9.]+) plies")


def parse_cachegrind(text: str) -> dict:
    """The totals of a cachegrind run's summary (``--branch-sim=yes``)."""
    found = {}
    for name, pattern in COUNTS.items():
        m = pattern.search(text)
        if m is None:
            raise SystemExit(f"error: no {name} in valgrind's summary:\n{text[-500:]}")
        found[name] = int(m.group(1).replace(",", ""))
    return found


def per_leaf(low: dict, high: dict) -> dict:
    """Each count's growth from the shallow run to the deep one, per leaf added.

    >>> per_leaf({"leaves": 10, "instructions": 1000}, {"leaves": 110, "instructions": 9000})
    {'instructions': 80.0}
    """
    leaves = high["leaves"] - low["leaves"]
    return {k: (high[k] - low[k]) / leaves for k in high if k != "leaves"}


def kernel_perft(position: str, depth: int) -> None:
    """Print the bulk perft of ``position`` to ``depth``, one thread (the child's job):
    the perft walk of ``core/perft.py`` in the side's own word count, the only kernel
    compiled."""
    import numpy as np

    from hinge_fast import Board
    from hinge_fast.core.perft import perft_sets
    from hinge_fast.core.sets import set_like, to_shift_words

    board = Board.from_fen(position)
    like = set_like(board.size)
    own, enemy = (to_shift_words(board.size, side, like) for side in (board.own, board.enemy))
    print(
        perft_sets(
            board.size, own, enemy, depth, True, np.zeros(1, np.uint64), np.zeros(1, np.uint8)
        )
    )


def kernel_playouts(position: str, games: int) -> None:
    """Play ``games`` uniformly random games from ``position`` (seed 1, one thread: the
    games kernel of ``core/playouts.py`` in the side's own word count) and print the
    plies played as ``mean length X plies``."""
    import numpy as np

    from hinge_fast import Board
    from hinge_fast.core.playouts import games_in
    from hinge_fast.core.sets import set_like

    board = Board.from_fen(position)
    out = [np.zeros(games, np.int64) for _ in range(3)]
    plies = games_in(
        board.size, board.own, board.enemy, 0, games, 10_000, 1, *out, set_like(board.size)
    )
    print(f"mean length {plies / games} plies")


def counted(argv: list[str], env: dict | None = None, games: int | None = None) -> dict:
    """Leaves (with ``games``: plies) and valgrind's counts of one run of ``argv``."""
    run = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--branch-sim=yes",
            "--cachegrind-out-file=/dev/null",
            *argv,
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    if run.returncode != 0:
        raise SystemExit(
            f"error: {' '.join(argv)} exited with {run.returncode}:\n{run.stderr[-500:]}"
        )
    output = run.stdout + run.stderr
    leaves = MEAN_LENGTH.findall(output) if games else LEAVES.findall(run.stdout)
    if not leaves:
        raise SystemExit(
            f"error: no {'mean length' if games else 'leaf count'} in the output of "
            f"{' '.join(argv)}:\n{output[-300:]}"
        )
    count = round(float(leaves[-1]) * games) if games else int(leaves[-1])
    return {"leaves": count, **parse_cachegrind(run.stderr)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.perft_profile", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("position", help="a position string")
    parser.add_argument(
        "low", type=int, help="the shallow depth (with --playouts: the fewer games)"
    )
    parser.add_argument("high", type=int, help="the deep depth (with --playouts: the more games)")
    parser.add_argument(
        "--playouts", action="store_true", help="LOW and HIGH are numbers of random games: per ply"
    )
    parser.add_argument(
        "--other",
        metavar="TEMPLATE",
        help="another perft command: '{position}' and '{depth}' filled in",
    )
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("error: valgrind is not installed (apt-get install valgrind)")
    if not 1 <= args.low < args.high:
        raise SystemExit("error: give two depths, the shallow one first")
    env = dict(os.environ)
    env.setdefault(
        "NUMBA_CACHE_DIR", os.path.join(tempfile.gettempdir(), "hinge-fast-valgrind-cache")
    )
    rows = []
    kernel = "kernel_playouts" if args.playouts else "kernel_perft"
    ours = [
        [
            sys.executable,
            "-c",
            f"import sys; from scripts.perft_profile import {kernel}; "
            f"{kernel}(sys.argv[1], int(sys.argv[2]))",
            args.position,
            str(d),
        ]
        for d in (args.low, args.high)
    ]
    games = (args.low, args.high) if args.playouts else (None, None)
    counted(
        ours[0], env, games[0]
    )  # not counted: a first run may compile the kernels for valgrind's CPU
    rows.append(
        ("hinge-fast", per_leaf(counted(ours[0], env, games[0]), counted(ours[1], env, games[1])))
    )
    if args.other:
        other = [
            shlex.split(args.other.format(position=shlex.quote(args.position), depth=d))
            for d in (args.low, args.high)
        ]
        rows.append(
            (
                other[0][0],
                per_leaf(counted(other[0], None, games[0]), counted(other[1], None, games[1])),
            )
        )
    unit = (
        f"ply of random playouts, {args.low} to {args.high} games"
        if args.playouts
        else f"leaf of bulk perft, depth {args.low} to {args.high}"
    )
    print(f"per {unit}: {args.position}")
    print(f"{'program':>20} {'instructions':>13} {'branches':>9} {'mispredicted':>13}")
    for name, row in rows:
        print(
            f"{os.path.basename(name):>20} {row['instructions']:13.1f} {row['branches']:9.1f} "
            f"{row['mispredictions']:13.2f}"
        )
    return 0


if __name__ == "__main__":
    run_script(main)
