"""Alpha-beta's nodes a second with the search in the shift layout (``shift_search``,
``alphabeta.negamax`` on shift-layout sets) and without (``negamax`` on bitboards), in
turn in one process, CPU time, fixed depth.

    python -m scripts.bench_shift_search [--rounds 3] [--positions 8] [--depth 0]

Positions: seeded random games of 0 to 7 plies (openings) and 8 to 30 plies (mid-games;
6 to 12 on side 4) on sides 4, 5 and 6 (tablebase off; ``alphabeta``'s defaults, one thread). Depth 0: 8
on side 4, 6 on side 5, 5 on side 6. Both ways
search the same trees (``tests/test_shiftsearch.py`` checks it node for node), so the
node counts agree and the ratio is a ratio of times.
"""

from __future__ import annotations

import argparse
import random
import time

from hinge_fast import Board  # first: points numba's cache at the user folder

from hinge_fast.search import Limits, create_searcher
from hinge_fast.tools.positions import random_position

DEPTHS = {4: 8, 5: 6, 6: 5}
#: Plies of the random games: openings, and mid-games (fewer on side 4, whose games are short).
PHASES = {"openings": (0, 7), "mid-games": (8, 30)}
SIDE4_MID = (6, 12)


def positions(size: int, count: int, plies: tuple[int, int], seed: int) -> list[Board]:
    rng = random.Random(seed)
    out: list[Board] = []
    while len(out) < count:
        board = random_position(size, rng.randint(*plies), rng)
        if not board.is_game_over():
            out.append(Board.from_fen(board.fen()))
    return out


def rate(boards: list[Board], depth: int, shift: bool) -> tuple[float, int]:
    """Nodes a second (CPU) and nodes of one-thread fixed-depth searches of ``boards``."""
    total = 0
    seconds = 0.0
    for board in boards:
        searcher = create_searcher("alphabeta", threads=1, tablebase="off", shift_search=shift)
        start = time.process_time()
        result = searcher.go(board.copy(), Limits(depth=depth))
        seconds += time.process_time() - start
        total += result.nodes
    return total / seconds, total


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--depth", type=int, default=0)
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 5, 6])
    args = parser.parse_args(argv)
    for size in args.sizes:
        depth = args.depth or DEPTHS[size]
        for phase, plies in PHASES.items():
            if size == 4 and phase == "mid-games":
                plies = SIDE4_MID
            boards = positions(size, args.positions, plies, seed=11 + size)
            rate(boards[:1], 1, True)  # load the kernels
            rate(boards[:1], 1, False)
            for r in range(args.rounds):
                old, old_nodes = rate(boards, depth, False)
                new, new_nodes = rate(boards, depth, True)
                same = "same nodes" if old_nodes == new_nodes else f"NODES DIFFER {old_nodes} {new_nodes}"
                print(f"side {size} {phase} depth {depth} round {r + 1}: bitboard {old:,.0f} nodes/s, "
                      f"shift {new:,.0f} nodes/s, ratio {new / old:.2f} ({old_nodes:,} nodes, {same})", flush=True)


if __name__ == "__main__":
    main()
