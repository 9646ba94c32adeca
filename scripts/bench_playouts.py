"""The playout kernels alone. Two benchmarks:

* the MCTS playout kernels, without the tree: ``mcts.playout`` (the move list) and
  ``shiftplay.shift_playout`` (the shift layout), the default policy, interleaved.

  Usage: python -m scripts.bench_playouts [--sizes 4 6] [--games 6] [--runs 3]

  For each side: playouts from every position of ``--games`` seeded random games
  (finished ones left out) and from the empty board, each kernel in a compiled loop,
  ``--runs`` times in turn; prints the best run's plies and playouts per second of CPU
  time.

* ``--uniform``: the uniformly random games of ``hinge-fast playouts`` on one thread,
  ``playouts.bitboard_random_games`` (count_moves/nth_move, the kernel of every side
  before the shift kernel, of sides 7 to 9 before session 9) against
  ``playouts.shift_random_games`` (the shift layout), on the empty side-4 to 9 boards
  and a side-6 and a side-9 mid-game position, seed 1, ``--runs`` runs each in turn (default 1 with --uniform);
  prints games and plies per second of CPU time, each run.

  Usage: python -m scripts.bench_playouts --uniform [--runs 1]
"""

from __future__ import annotations

import argparse
import random
import time

from hinge_fast import Board  # first: it sets numba's cache folder before numba is imported
from hinge_fast.core.shiftplay import new_work, shift_playout

import numpy as np
from numba import njit
from hinge_fast.core.tables import MAX_GROUPS, MAX_MOVES
from hinge_fast.search.mcts import AMAF_KEYS, default_playout_plies, new_rng, playout


@njit
def old_loop(size, owns, enemies, cap, repeat, rng, trace, moves, flips, groups, gid, mv, mw):
    plies = 0
    for _ in range(repeat):
        for i in range(owns.shape[0]):
            own = (owns[i, 0], owns[i, 1], owns[i, 2], owns[i, 3])
            enemy = (enemies[i, 0], enemies[i, 1], enemies[i, 2], enemies[i, 3])
            plies += playout(size, own, enemy, cap, 1.0, moves, flips, groups, gid, rng, trace, 0.0, 0, mv, mw, 1.0)[1]
    return plies


@njit
def new_loop(size, owns, enemies, cap, repeat, rng, trace, work):
    plies = 0
    for _ in range(repeat):
        for i in range(owns.shape[0]):
            own = (owns[i, 0], owns[i, 1], owns[i, 2], owns[i, 3])
            enemy = (enemies[i, 0], enemies[i, 1], enemies[i, 2], enemies[i, 3])
            plies += shift_playout(size, own, enemy, cap, rng, trace, work)[1]
    return plies


def bench(size: int, boards: list[Board], repeat: int, runs: int) -> dict:
    owns = np.array([b.own for b in boards], dtype=np.uint64)
    enemies = np.array([b.enemy for b in boards], dtype=np.uint64)
    cap = default_playout_plies(size)
    trace = np.zeros(4096, dtype=np.int64)
    scratch = (np.zeros(MAX_MOVES, dtype=np.int64), np.zeros((MAX_MOVES, 4), dtype=np.uint64),
               np.zeros((MAX_GROUPS, 4), dtype=np.uint64), np.zeros(256, dtype=np.int16),
               np.zeros((2, AMAF_KEYS)), np.zeros((2, AMAF_KEYS)))
    work = new_work()
    kernels = {
        "playout": lambda r, n: old_loop(size, owns, enemies, cap, n, r, trace, *scratch),
        "shift_playout": lambda r, n: new_loop(size, owns, enemies, cap, n, r, trace, work),
    }
    for run in kernels.values():
        run(new_rng(0), 1)  # compile
    best = {name: (float("inf"), 0) for name in kernels}
    for _ in range(runs):
        for name, run in kernels.items():
            started = time.process_time()
            plies = run(new_rng(1), repeat)
            seconds = time.process_time() - started
            if seconds < best[name][0]:
                best[name] = (seconds, plies)
    playouts = repeat * len(boards)
    return {name: (plies / seconds, playouts / seconds, plies / playouts) for name, (seconds, plies) in best.items()}


S6_MID = "6/3bb2/6g1/2g6/3g2b3/6bb1g1/2g3ggg1/1g5g1/2bb1b2/1b1b3/6 g"
S9_MID = ("9/3gggg1b1/1ggg1g3b1/1g4g1b3/1gg4g5/4b3g1g1b1/1b1g1bb2gg1b2/5b1b4b1b1/"
          "1b2g1bb5bb2/3b2bb8/2b3b2b1b1g1/1b7bb3/2b1bg2b1g2/3bggbb4/4ggg4/4g1bb2/9 g")
UNIFORM_WORKLOADS = (("side 4 empty", Board(4), 40000), ("side 5 empty", Board(5), 20000),
                     ("side 6 empty", Board(6), 20000), ("side 6 mid-game", Board.from_fen(S6_MID), 40000),
                     ("side 7 empty", Board(7), 8000), ("side 8 empty", Board(8), 6000),
                     ("side 9 empty", Board(9), 4000), ("side 9 mid-game", Board.from_fen(S9_MID), 6000))


def uniform(runs: int) -> None:
    """Games per CPU second of the two uniform playout kernels (module docstring)."""
    from hinge_fast.core.playouts import bitboard_random_games, shift_random_games
    from hinge_fast.core.tables import workspace

    work = workspace(1)

    def play(kernel, board, games):
        plies = np.zeros(games, dtype=np.int64)
        winner = np.zeros(games, dtype=np.int8)
        ended = np.zeros(games, dtype=np.int8)
        if kernel == "old":
            return bitboard_random_games(board.size, board.own, board.enemy, 0, games, 10_000, 1, work, plies, winner, ended)
        return shift_random_games(board.size, board.own, board.enemy, 0, games, 10_000, 1, plies, winner, ended)

    for label, board, games in UNIFORM_WORKLOADS:
        for kernel in ("old", "new"):
            play(kernel, board, 2)  # load or compile
        for _ in range(runs):
            rates = {}
            for kernel in ("old", "new"):
                started = time.process_time()
                plies = play(kernel, board, games)
                seconds = time.process_time() - started
                rates[kernel] = (games / seconds, plies / seconds, plies / games)
            old, new = rates["old"], rates["new"]
            print(f"{label}, {games} games: count_moves kernel {old[0]:,.0f} games/s ({old[1]:,.0f} plies/s), "
                  f"shift kernel {new[0]:,.0f} games/s ({new[1]:,.0f} plies/s), mean {new[2]:.1f} plies: "
                  f"{new[0] / old[0]:.2f}x")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m scripts.bench_playouts", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 6])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--runs", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--uniform", action="store_true", help="the uniform playouts of hinge-fast playouts")
    args = parser.parse_args(argv)
    if args.uniform:
        uniform(args.runs or 1)
        return
    args.runs = args.runs or 3
    for size in args.sizes:
        rng = random.Random(args.seed)
        played = []
        for _ in range(args.games):
            board = Board(size)
            while not board.is_game_over():
                played.append(board.copy())
                board.push(rng.choice(board.legal_moves))
        for label, boards, repeat in (("empty board", [Board(size)], 20000 if size == 4 else 5000),
                                      (f"{len(played)} game positions", played, 200 if size == 4 else 20)):
            rates = bench(size, boards, repeat, args.runs)
            old, new = rates["playout"], rates["shift_playout"]
            print(f"side {size}, {label}: playout {old[0]:,.0f} plies/s ({old[1]:,.0f} playouts/s, {old[2]:.1f} plies), "
                  f"shift_playout {new[0]:,.0f} plies/s ({new[1]:,.0f} playouts/s, {new[2]:.1f} plies): "
                  f"{new[0] / old[0]:.2f}x the plies a second")


if __name__ == "__main__":
    main()
