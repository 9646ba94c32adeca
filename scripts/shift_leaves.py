"""Time the bulk-perft leaf counters on the positions bulk perft really counts.

    python scripts/shift_leaves.py [DEPTH] [ROUNDS] [BASELINE.py] [FEN]

Collects every position at depth ``DEPTH - 1`` under FEN (default: the S6 mid-game
position of side_by_side.py; BASELINE.py may be '' to leave it out): the positions
``perft DEPTH`` counts at its last ply, in perft's order, so that consecutive
positions differ as they do in perft. Then times, in turn, ``shiftcount.shift_count``
and ``count.count_moves`` over all of them (ns a position, best of ROUNDS), after
checking that they agree. With BASELINE.py (another version of shiftcount.py, its
relative imports written ``from hinge_fast.core.``), its ``shift_count`` is timed in
turn too, alone and as bulk perft's last ply: an A/B in one process.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hinge_fast import Board  # noqa: E402, I001  (first: points numba's cache at the user folder)

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from hinge_fast.core.bits import bb_row, bb_store  # noqa: E402
from hinge_fast.core.count import count_moves  # noqa: E402
from hinge_fast.core.movegen import generate_moves, play_with_flip  # noqa: E402
from hinge_fast.core.perft import perft  # noqa: E402
from hinge_fast.core.shiftcount import shift_count  # noqa: E402
from hinge_fast.core.tables import workspace  # noqa: E402

S6_MID = "6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g"


@njit
def collect(size, own, enemy, depth, work, out):
    """Every position ``depth`` plies below, in perft's order, into ``out`` (n, 2, 4)."""
    moves = work.moves
    flips = work.flips
    stack = np.empty((depth + 1, 2, 4), dtype=np.uint64)
    count = np.zeros(depth + 1, dtype=np.int64)
    nxt = np.zeros(depth + 1, dtype=np.int64)
    bb_store(stack[0], 0, own)
    bb_store(stack[0], 1, enemy)
    count[0] = generate_moves(size, own, enemy, moves[0], flips[0], work.enemy_groups, work.group_id, True)
    n = 0
    ply = 0
    while ply >= 0:
        i = nxt[ply]
        if i >= count[ply]:
            ply -= 1
            continue
        nxt[ply] = i + 1
        their, ours = play_with_flip(bb_row(stack[ply], 0), bb_row(stack[ply], 1), moves[ply, i], bb_row(flips[ply], i))
        if ply + 1 == depth:
            if n < out.shape[0]:
                bb_store(out[n], 0, their)
                bb_store(out[n], 1, ours)
            n += 1
        else:
            ply += 1
            bb_store(stack[ply], 0, their)
            bb_store(stack[ply], 1, ours)
            count[ply] = generate_moves(size, their, ours, moves[ply], flips[ply], work.enemy_groups, work.group_id, True)
            nxt[ply] = 0
    return n


@njit
def time_shift(size, positions):
    t = 0
    for i in range(positions.shape[0]):
        t += shift_count(size, bb_row(positions[i], 0), bb_row(positions[i], 1))
    return t


def make_timer(count):
    @njit
    def timer(size, positions):
        t = 0
        for i in range(positions.shape[0]):
            t += count(size, bb_row(positions[i], 0), bb_row(positions[i], 1))
        return t
    return timer


def make_perft(count):
    """Bulk perft (as ``perft.perft``: listed moves, played, the last ply counted) with
    ``count`` at the last ply."""
    @njit
    def bulk_perft(size, own, enemy, depth, work):
        moves = work.moves
        flips = work.flips
        stack = np.empty((depth, 2, 4), dtype=np.uint64)
        n_moves = np.zeros(depth, dtype=np.int64)
        nxt = np.zeros(depth, dtype=np.int64)
        bb_store(stack[0], 0, own)
        bb_store(stack[0], 1, enemy)
        n_moves[0] = generate_moves(size, own, enemy, moves[0], flips[0], work.enemy_groups, work.group_id, True)
        total = 0
        ply = 0
        last = depth - 1
        while ply >= 0:
            i = nxt[ply]
            if i >= n_moves[ply]:
                ply -= 1
                continue
            nxt[ply] = i + 1
            their, ours = play_with_flip(bb_row(stack[ply], 0), bb_row(stack[ply], 1), moves[ply, i],
                                         bb_row(flips[ply], i))
            if ply + 1 == last:
                total += count(size, their, ours)
            else:
                ply += 1
                bb_store(stack[ply], 0, their)
                bb_store(stack[ply], 1, ours)
                n_moves[ply] = generate_moves(size, their, ours, moves[ply], flips[ply], work.enemy_groups,
                                              work.group_id, True)
                nxt[ply] = 0
        return total
    return bulk_perft


@njit
def time_count(size, positions, work):
    t = 0
    for i in range(positions.shape[0]):
        t += count_moves(size, bb_row(positions[i], 0), bb_row(positions[i], 1), work)[0]
    return t


def main():
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    board = Board.from_fen(sys.argv[4] if len(sys.argv) > 4 else S6_MID)
    size = board.size
    work = workspace(depth + 1)
    n = collect(size, board.own, board.enemy, depth - 1, work, np.zeros((0, 2, 4), dtype=np.uint64))
    positions = np.zeros((n, 2, 4), dtype=np.uint64)
    collect(size, board.own, board.enemy, depth - 1, work, positions)
    a = time_shift(size, positions)
    b = time_count(size, positions, work)
    assert a == b, (a, b)
    print(f"{n} positions, {a} leaves")
    best = {"shift_count": 1e9, "count_moves": 1e9, "perft (bulk)": 1e9}
    baseline = None
    if len(sys.argv) > 3 and sys.argv[3]:
        import importlib
        sys.path.insert(0, str(Path(sys.argv[3]).resolve().parent))
        module = importlib.import_module(Path(sys.argv[3]).stem)
        baseline = make_timer(module.shift_count)
        assert baseline(size, positions) == a
        best["baseline"] = 1e9
        perfts = {"perft, shift_count": make_perft(shift_count), "perft, baseline": make_perft(module.shift_count)}
        for name, f in perfts.items():
            assert f(size, board.own, board.enemy, depth, work) == a
            best[name] = 1e9
    perft(size, board.own, board.enemy, depth, True, work)
    for _ in range(rounds):
        t = time.perf_counter()
        perft(size, board.own, board.enemy, depth, True, work)
        best["perft (bulk)"] = min(best["perft (bulk)"], time.perf_counter() - t)
        t = time.perf_counter()
        time_shift(size, positions)
        best["shift_count"] = min(best["shift_count"], time.perf_counter() - t)
        t = time.perf_counter()
        time_count(size, positions, work)
        best["count_moves"] = min(best["count_moves"], time.perf_counter() - t)
        if baseline is not None:
            t = time.perf_counter()
            baseline(size, positions)
            best["baseline"] = min(best["baseline"], time.perf_counter() - t)
            for name, f in perfts.items():
                t = time.perf_counter()
                f(size, board.own, board.enemy, depth, work)
                best[name] = min(best[name], time.perf_counter() - t)
    for name, s in best.items():
        print(f"{name:12s} {s * 1e9 / n:7.1f} ns a position")


if __name__ == "__main__":
    main()
