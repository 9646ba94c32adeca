"""Whole perft walks on one thread, best of 5, on the mid-game positions of
``side_by_side.py``: the bitboard walk that made perft used before session 10
(``tests/test_shiftperft.bitboard_perft``: ``generate_moves`` at every node, the leaves
listed, not played) against ``perft`` made and bulk, with the time per leaf's parent.

    .venv/bin/python scripts/perft_walks.py
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hinge_fast import Board  # noqa: E402, I001  (first: points numba's cache at the user folder)
from hinge_fast.core import kernels  # noqa: E402
from hinge_fast.core.tables import workspace  # noqa: E402
from tests.test_shiftperft import bitboard_perft  # noqa: E402
from tests.test_uniform_shift import S6_MID, S9_MID  # noqa: E402


def main() -> None:
    for fen, depth in ((S6_MID, 4), (S9_MID, 3)):
        board = Board.from_fen(fen)
        size, own, enemy = board.size, board.own, board.enemy
        parents = int(kernels.perft_kernel(size, own, enemy, depth - 1, True, workspace(depth)))
        work = workspace(depth + 1)
        walks = (("bitboard walk (listed)", lambda: bitboard_perft(size, own, enemy, depth, work)),
                 ("perft made", lambda: kernels.perft_kernel(size, own, enemy, depth, False, work)),
                 ("perft bulk", lambda: kernels.perft_kernel(size, own, enemy, depth, True, work)))
        for name, walk in walks:
            walk()
            best = 1e9
            for _ in range(5):
                started = time.perf_counter()
                leaves = walk()
                best = min(best, time.perf_counter() - started)
            print(f"S{size} d{depth} {name:22s} {leaves} leaves {best * 1e3:6.1f} ms "
                  f"{best / parents * 1e9:6.0f} ns per leaf's parent ({parents})", flush=True)


if __name__ == "__main__":
    main()
