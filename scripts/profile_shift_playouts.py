"""Where a ply of the shift-layout uniform playouts (``playouts.shift_game``) spends its
time: over every position of seeded games from the empty board, ns per position for
the count (``shiftplay.uniform_count``) and, inside it, the swipe ends
(``shiftplay.swipe_end_sets``), the friendly and enemy group touches
(``shiftcount.group_touches``), and for a whole ply (count, draw, decode, play).

Usage: python -m scripts.profile_shift_playouts [--size 6] [--games 40] [--rounds 5]

Each part runs in a compiled loop over all the positions, the parts in turn, ``--rounds``
times; prints the best round of each (CPU time).
"""

from __future__ import annotations

import argparse
import time

from hinge_fast import Board  # first: it sets numba's cache folder before numba is imported

import numpy as np
from numba import njit

from hinge_fast.core.kernels import shift_game_trace
from hinge_fast.core.playouts import draw_below, game_seed
from hinge_fast.core.shiftcount import (WIDE_ZERO, ZERO, dilate, group_touches, s_and, s_andnot, s_count,
                                        s_interior, s_or, s_row, s_store, to_shift_words)
from hinge_fast.core.shiftplay import END_SETS, swipe_end_sets, uniform_count, uniform_nth, uniform_play
from hinge_fast.core.tables import SHIFT_MAX_SIZE


@njit
def to_sets(size, owns, enemies, out_own, out_enemy, like):
    for i in range(owns.shape[0]):
        s_store(out_own, i, to_shift_words(size, (owns[i, 0], owns[i, 1], owns[i, 2], owns[i, 3]), like))
        s_store(out_enemy, i, to_shift_words(size, (enemies[i, 0], enemies[i, 1], enemies[i, 2], enemies[i, 3]), like))


@njit
def part(size, owns, enemies, repeat, which, like):
    w = np.uint64(2 * size - 1)
    inside = s_interior(size, like)
    work = np.zeros((END_SETS, len(like)), dtype=np.uint64)
    total = 0
    state = game_seed(1, 0)
    for _ in range(repeat):
        for i in range(owns.shape[0]):
            own = s_row(owns, i, like)
            enemy = s_row(enemies, i, like)
            if which == 0:  # a whole ply
                n, placements, touch2 = uniform_count(w, inside, own, enemy, work)
                state, k = draw_below(state, n)
                x, f, group = uniform_nth(w, enemy, k, placements, touch2, work)
                a, b = uniform_play(own, enemy, x, f, group)
                total += s_count(a)
            elif which == 1:
                total += uniform_count(w, inside, own, enemy, work)[0]
            elif which == 2:
                t1 = dilate(enemy, w)
                landing = s_and(s_andnot(inside, s_or(own, enemy)), t1)
                total += s_count(swipe_end_sets(w, own, enemy, t1, landing, work))
            elif which == 3:
                total += s_count(group_touches(own, w)[1])
            else:
                total += s_count(group_touches(enemy, w)[1])
    return total


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m scripts.profile_shift_playouts", description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    size = args.size
    owns, enemies = [], []
    for game in range(args.games):
        board = Board(size)
        trace = np.zeros(4096, dtype=np.int64)
        plies = shift_game_trace(size, board.own, board.enemy, game, 10_000, 1, trace)[0]
        for i in range(plies):
            owns.append(board.own)
            enemies.append(board.enemy)
            board.push(board.move_from_code(trace[i]))
    like = ZERO if size <= SHIFT_MAX_SIZE else WIDE_ZERO
    own_sets = np.zeros((len(owns), len(like)), dtype=np.uint64)
    enemy_sets = np.zeros((len(owns), len(like)), dtype=np.uint64)
    to_sets(size, np.array(owns, dtype=np.uint64), np.array(enemies, dtype=np.uint64), own_sets, enemy_sets, like)
    names = ("whole ply", "uniform_count", "swipe_end_sets", "group_touches(own)", "group_touches(enemy)")
    best = [float("inf")] * len(names)
    repeat = max(1, 200_000 // len(owns))
    for which in range(len(names)):
        part(size, own_sets, enemy_sets, 1, which, like)  # compile
    for _ in range(args.rounds):
        for which in range(len(names)):
            started = time.process_time()
            part(size, own_sets, enemy_sets, repeat, which, like)
            best[which] = min(best[which], (time.process_time() - started) / (repeat * len(owns)))
    print(f"side {size} ({len(like)} words), {len(owns)} positions of {args.games} games, best of {args.rounds} "
          f"rounds, ns a position:")
    for name, seconds in zip(names, best):
        print(f"  {name:22s} {seconds * 1e9:7.1f}")


if __name__ == "__main__":
    main()
