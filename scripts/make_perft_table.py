"""Build tests/data/perft.json: perft counts agreed on by the fast engine and the
reference implementation.

    python -m scripts.make_perft_table            # rewrite the table (a few minutes)
    python -m scripts.make_perft_table --check    # recompute and compare, write nothing

Example: python -m scripts.make_perft_table --check

Positions: the empty board of every side, three mid-game positions with independent
counts (``INDEPENDENT``), and positions reached by seeded random play on every side. Each
entry's counts are computed by both implementations, as deep as the reference can
go within REFERENCE_NODE_BUDGET; the fast engine alone then adds deeper counts,
marked ``fast_only_from``. The independent counts are kept beside them and must
agree.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from hinge_fast import Board
from hinge_fast import reference as ref
from hinge_fast.core import kernels
from hinge_fast.core.tables import workspace
from hinge_fast.games.positions import random_position
from scripts import run_script

TABLE = Path(__file__).resolve().parent.parent / "tests" / "data" / "perft.json"
REFERENCE_NODE_BUDGET = 400_000
FAST_NODE_BUDGET = 40_000_000

#: Independent counts of these positions (the empty boards of sides 4 to 9 and three mid-games).
INDEPENDENT = {
    "4/5/6/7/6/5/4 g": [19, 258, 3450, 35304, 395748],
    "5/6/7/8/9/8/7/6/5 g": [37, 1152, 35196, 914880, 23781588],
    "6/7/8/9/10/11/10/9/8/7/6 g": [61, 3348, 181272, 8856552, 429071268],
    "7/8/9/10/11/12/13/12/11/10/9/8/7 g": [91, 7710, 646878, 50584272],
    "8/9/10/11/12/13/14/15/14/13/12/11/10/9/8 g": [127, 15318, 1834206, 208683264],
    "9/10/11/12/13/14/15/16/17/16/15/14/13/12/11/10/9 g": [169, 27468, 4439640, 690275064],
    "6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g": [34, 1114, 37491, 1197070],
    "6/2bbb2/2b2g2/2bb2gg1/1gggg1gg2/1g2g1g1g2/1gggggg1g1/2g1g1g2/2gg1g2/2g1g2/6 g": [
        30,
        265,
        4877,
        42625,
    ],
    "6/1bb2b1/1b1bbbb1/1b4bb1/1b3bb3/2bb2bbb2/3bb1b1b1/3b2b2/1b3bb1/1b2b2/6 g": [0, 0],
}


def fast_perft(fen: str, depth: int) -> int:
    board = Board.from_fen(fen)
    own, enemy = board.own, board.enemy
    return int(kernels.perft_kernel(board.size, own, enemy, depth, True, workspace(depth + 1)))


def mid_game_positions() -> list[tuple[str, str]]:
    """(name, position string) of positions reached by seeded random play."""
    out = []
    for size, plies, seed in [
        (4, 10, 1),
        (5, 16, 2),
        (6, 20, 3),
        (6, 30, 4),
        (6, 40, 5),
        (6, 55, 6),
        (7, 30, 7),
        (7, 50, 8),
        (8, 40, 9),
        (9, 50, 10),
        (9, 70, 11),
        (5, 30, 12),
    ]:
        board = random_position(size, plies, seed)
        if board.legal_moves:
            out.append(
                (f"random play S={size} ply {len(board.move_stack)} seed {seed}", board.fen())
            )
    return out


def counts_for(fen: str, max_depth: int = 6) -> dict:
    pos = ref.parse_position(fen)
    both, fast_only = [], []
    depth = 1
    while depth <= max_depth:
        fast = fast_perft(fen, depth)
        if fast > FAST_NODE_BUDGET:
            break
        if not fast_only and fast <= REFERENCE_NODE_BUDGET:
            slow = ref.perft(pos, depth)
            if slow != fast:
                raise SystemExit(f"MISMATCH {fen} depth {depth}: fast {fast}, reference {slow}")
            both.append(fast)
        else:
            fast_only.append(fast)
        depth += 1
    return {"counts": both + fast_only, "fast_only_from": len(both) + 1 if fast_only else None}


def build() -> list[dict]:
    entries = []
    names = {fen: f"independent {i + 1}" for i, fen in enumerate(INDEPENDENT)}
    for fen, independent in INDEPENDENT.items():
        entry = {"name": names[fen], "position": fen, **counts_for(fen, max_depth=len(independent))}
        agreed = entry["counts"]
        if agreed != independent[: len(agreed)]:
            raise SystemExit(
                f"MISMATCH with the independent counts for {fen}: {agreed} vs {independent}"
            )
        entry["independent"] = independent
        entries.append(entry)
        print(entry["name"], entry["counts"], file=sys.stderr)
    for name, fen in mid_game_positions():
        entry = {"name": name, "position": fen, **counts_for(fen)}
        entries.append(entry)
        print(name, entry["counts"], file=sys.stderr)
    return entries


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.make_perft_table", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--check", action="store_true", help="recompute and compare with the table")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    entries = build()
    if args.check:
        old = json.loads(TABLE.read_text())
        if old != entries:
            raise SystemExit("the table differs from a fresh computation")
        print("table agrees", file=sys.stderr)
    else:
        TABLE.parent.mkdir(parents=True, exist_ok=True)
        from hinge_fast.core.atomic import write_atomic

        write_atomic(TABLE, json.dumps(entries, indent=1) + "\n")
    print(f"done in {time.perf_counter() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    run_script(main)
