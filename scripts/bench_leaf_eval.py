"""Time alpha-beta's leaf evaluation and search with the move-list terms and with the
shift-layout terms (``search/shifteval.py``), in one process.

    python -m scripts.bench_leaf_eval [--rounds 5] [--depth 7]

1. Evaluation: the positions of random games of sides 4, 5 and 6 (plies 3 to 12 on
   side 4, 3 to 30 on 5 and 6), each evaluated by ``leaf_evaluation`` (the fitted
   kind, as the default ``leaf-fitted``) with the move lists and with the shift terms;
   ns a position, best of ``--rounds``, after checking the scores agree.
2. Search: side-4 openings (0 to 4 tokens, from random games), searched to ``--depth``
   by ``alphabeta``'s defaults on one thread with ``shift_eval`` off and on, in turn:
   nodes, ms and nodes/s per position and in total (the nodes must agree).
"""

from __future__ import annotations

import argparse
import random
import time

from hinge_fast import Board  # first: points numba's cache at the user folder, not the package

import numpy as np
from numba import njit
from hinge_fast.core.tables import MAX_GROUPS, MAX_MOVES
from hinge_fast.search import Limits
from hinge_fast.search.alphabeta import AlphaBetaSearcher
from hinge_fast.search.evaluate import LEAF_FITTED_END, LEAF_FITTED_OPENING, leaf_evaluation
from hinge_fast.search.registry import engine_spec


@njit
def run(kind, size, owns, enemies, shift, weights, out):
    moves = np.zeros((2, MAX_MOVES), dtype=np.int64)
    flips = np.zeros((2, MAX_MOVES, 4), dtype=np.uint64)
    groups = np.zeros((MAX_GROUPS, 4), dtype=np.uint64)
    group_id = np.zeros(256, dtype=np.int16)
    for i in range(owns.shape[0]):
        own = (owns[i, 0], owns[i, 1], owns[i, 2], owns[i, 3])
        enemy = (enemies[i, 0], enemies[i, 1], enemies[i, 2], enemies[i, 3])
        out[i] = leaf_evaluation(kind, size, own, enemy, moves[0], flips[0], moves[1], flips[1], groups, group_id,
                                 weights, shift)[0]


def game_positions(size, games, low, high, seed):
    rng = random.Random(seed)
    boards = []
    for _ in range(games):
        board = Board(size)
        for ply in range(high + 1):
            if not board.legal_moves:
                break
            if ply >= low:
                boards.append(board.copy())
            board.push(rng.choice(board.legal_moves))
    return boards


def time_evaluation(rounds):
    weights = np.array(LEAF_FITTED_OPENING + LEAF_FITTED_END, dtype=np.float64)
    print("evaluation (leaf-fitted), ns a position, best of", rounds)
    for size, low, high in ((4, 3, 12), (5, 3, 30), (6, 3, 30)):
        boards = game_positions(size, 300, low, high, seed=size)
        owns = np.array([b.own for b in boards], dtype=np.uint64)
        enemies = np.array([b.enemy for b in boards], dtype=np.uint64)
        outs = {}
        best = {}
        for shift in (False, True):
            out = np.zeros(len(boards), dtype=np.int64)
            run(2, size, owns[:1], enemies[:1], shift, weights, out)  # compile
            best[shift] = min(_timed(run, 2, size, owns, enemies, shift, weights, out) for _ in range(rounds))
            outs[shift] = out.copy()
        assert (outs[False] == outs[True]).all()
        old, new = best[False] / len(boards), best[True] / len(boards)
        print(f"  side {size}: {len(boards)} positions  move lists {old:7.0f}  shift {new:7.0f}  "
              f"ratio {old / new:.2f}")


def _timed(f, *args):
    t = time.perf_counter_ns()
    f(*args)
    return time.perf_counter_ns() - t


def time_search(depth, count):
    rng = random.Random(7)
    boards = []
    while len(boards) < count:
        board = Board(4)
        for _ in range(rng.randrange(0, 5)):
            board.push(rng.choice(board.legal_moves))
        if board.legal_moves:
            boards.append(board)
    options = {k: v for k, v in engine_spec("alphabeta").defaults.items() if k not in ("tablebase",)}
    options["threads"] = 1
    totals = {}
    print(f"alpha-beta ({', '.join(f'{k}={v}' for k, v in options.items() if k != 'seed')}), depth {depth}, "
          "side-4 openings")
    print("  position                          tokens   nodes   ms list  ms shift  knps list  knps shift")
    searchers = {shift: AlphaBetaSearcher(shift_eval=shift, **options) for shift in (False, True)}
    for shift in (False, True):
        searchers[shift].go(Board(4), Limits(depth=3))  # load the kernels
    for board in boards:
        row = {}
        for shift in (False, True):
            t = time.perf_counter()
            result = searchers[shift].go(board, Limits(depth=depth))
            row[shift] = (result.nodes, time.perf_counter() - t, str(result.move), str(result.score))
            n, s = totals.get(shift, (0, 0.0))
            totals[shift] = (n + result.nodes, s + row[shift][1])
        assert row[False][0] == row[True][0] and row[False][2:] == row[True][2:], row
        tokens = sum(c.isalpha() and c in "gb" for c in board.fen().split()[0])
        print(f"  {board.fen():34s} {tokens:3d} {row[True][0]:8d} {1000 * row[False][1]:8.1f} "
              f"{1000 * row[True][1]:9.1f} {row[False][0] / row[False][1] / 1000:10.0f} "
              f"{row[True][0] / row[True][1] / 1000:11.0f}")
    (n0, s0), (n1, s1) = totals[False], totals[True]
    print(f"  total: {n0} nodes; move lists {1000 * s0:.0f} ms ({n0 / s0 / 1000:.0f} knps), shift {1000 * s1:.0f} ms "
          f"({n1 / s1 / 1000:.0f} knps); ratio {s0 / s1:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--positions", type=int, default=12)
    args = parser.parse_args()
    time_evaluation(args.rounds)
    time_search(args.depth, args.positions)


if __name__ == "__main__":
    main()
