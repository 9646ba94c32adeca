"""Where the move counter spends its time: a breakdown by phase, and the shape of its
machine code (docs/performance.md).

    python scripts/profile_count.py

perf cannot name numba's JIT-compiled functions here (llvmlite is built without
LLVM's perf listener), so each phase of ``count.count_moves`` is timed alone, on the
mid-game positions that side_by_side.py uses, 100,000 calls each: labelling the
enemy groups, the flood fill of the friendly groups, writing the per-cell swipe codes,
and the per-token swipe walk (gather of the 12 ring cells' codes into byte lanes, the
12 pivot/turn paths as lane arithmetic, the lift check). Then it counts the
instructions and conditional branches of the compiled counter (``inspect_asm``).
"""

import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# hinge_fast first: importing it points numba's cache at the per-user folder
# (hinge_fast.core), which numba reads once, when it is first imported. Importing
# numba first would write kernel caches inside the package.
from hinge_fast import Board  # noqa: E402, I001

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from hinge_fast.core import kernels  # noqa: E402
from hinge_fast.core.bits import EMPTY, bb_and, bb_andnot, bb_any, bb_bit, bb_count, bb_has, bb_lowest, bb_or, bb_row, bb_without  # noqa: E402
from hinge_fast.core.count import count_moves, label_enemy_groups_touch  # noqa: E402
from hinge_fast.core.movegen import (  # noqa: E402
    CODE_SHIFT,
    can_reach_landing,
    interior,
    label_own_groups,
    lane_moves,
    lift_keeps_connected,
    mark_swipe_codes,
    swipe_lanes,
)
from hinge_fast.core.tables import workspace  # noqa: E402

POSITIONS = {
    "S6 mid": "6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g",
    "S9 mid": "9/3gggg1b1/1ggg1g3b1/1g4g1b3/1gg4g5/4b3g1g1b1/1b1g1bb2gg1b2/5b1b4b1b1/"
    "1b2g1bb5bb2/3b2bb8/2b3b2b1b1g1/1b7bb3/2b1bg2b1g2/3bggbb4/4ggg4/4g1bb2/9 g",
}
U0 = np.uint64(0)


@njit
def whole_count(size, own, enemy, work, reps):
    t = 0
    for _ in range(reps):
        t += count_moves(size, own, enemy, work)[0]
        own = (own[0] ^ (np.uint64(t) & U0), own[1], own[2], own[3])  # keeps the call in the loop
    return t


@njit
def enemy_labels(size, own, enemy, work, reps):
    t = 0
    for _ in range(reps):
        t += label_enemy_groups_touch(size, enemy, work.enemy_groups, work.group_touch)[0]
        enemy = (enemy[0] ^ (np.uint64(t) & U0), enemy[1], enemy[2], enemy[3])
    return t


@njit
def friendly_fill(size, own, enemy, work, reps):
    t = 0
    for _ in range(reps):
        n, own_touch, own_touch2 = label_own_groups(size, own, work.enemy_groups)
        t += n
        own = (own[0] ^ (own_touch[0] & U0), own[1], own[2], own[3])
    return t


def prepared(size, own, enemy, work):
    n, t1, t2, t3 = label_enemy_groups_touch(size, enemy, work.enemy_groups, work.group_touch)
    landing = bb_and(bb_andnot(interior(size), bb_or(own, enemy)), t1)
    n_own, own_touch, own_touch2 = label_own_groups(size, own, work.enemy_groups)
    return landing, t1, t2, t3, own_touch, own_touch2


prepared = njit(prepared)


@njit
def swipe_codes(size, own, enemy, work, reps):
    landing, t1, t2, t3, own_touch, own_touch2 = prepared(size, own, enemy, work)
    t = 0
    for _ in range(reps):
        work.group_id[:] = 0
        mark_swipe_codes(work.group_id, own, enemy, landing, t1, t2, t3, own_touch, own_touch2)
        t += work.group_id[3]
        own = (own[0] ^ (np.uint64(t) & U0), own[1], own[2], own[3])
    return t


@njit
def token_walk(size, own, enemy, work, reps):
    landing, t1, t2, t3, own_touch, own_touch2 = prepared(size, own, enemy, work)
    work.group_id[:] = 0
    mark_swipe_codes(work.group_id, own, enemy, landing, t1, t2, t3, own_touch, own_touch2)
    t = 0
    for _ in range(reps):
        members = own
        while bb_any(members):
            x = bb_lowest(members)
            members = bb_without(members, x)
            x_code = np.int64(work.group_id[x]) >> CODE_SHIFT
            if not can_reach_landing(size, x, landing, x_code):
                continue
            vn, vc, one, corner, back, starts = swipe_lanes(size, work.group_id, x)
            swipes = lane_moves(vn, vc, one, corner, back, x_code)
            if swipes and lift_keeps_connected(size, own, x, starts):
                t += swipes
        own = (own[0] ^ (np.uint64(t) & U0), own[1], own[2], own[3])
    return t


def main(reps=100_000):
    work = workspace(1)
    phases = (whole_count, enemy_labels, friendly_fill, swipe_codes, token_walk)
    print(f"{'position':<8} {'phase':<16} {'us/call':>8}")
    for name, fen in POSITIONS.items():
        board = Board.from_fen(fen)
        own, enemy = board.own, board.enemy
        for phase in phases:
            phase(board.size, own, enemy, work, 1)
            start = time.perf_counter()
            phase(board.size, own, enemy, work, reps)
            print(f"{name:<8} {phase.__name__:<16} {(time.perf_counter() - start) / reps * 1e6:8.3f}")
    board = Board.from_fen(POSITIONS["S6 mid"])
    kernels.count_legal_moves(board.size, board.own, board.enemy, work)
    asm = next(iter(kernels.count_legal_moves.inspect_asm().values()))
    lines = [line for line in asm.splitlines() if re.match(r"\s+[a-z]", line)]
    branches = [line for line in lines if re.match(r"\s+j(?!mp)[a-z]+\s", line)]
    print(f"count_legal_moves: {len(lines)} instructions, {len(branches)} conditional branches")


if __name__ == "__main__":
    main()
