"""Perft and random playouts cut into jobs for an
:class:`~hinge_fast.jobs.executor.Executor` (``--concurrency``, ``--ray``): the same
answers as one process, whatever the number of workers.

* **perft** splits at a shallow depth: one job per position one ply from the root
  (two plies when the root has fewer than ``JOBS_PER_WORKER`` moves per worker and the
  depth allows), each counting its subtree with the fast kernel; counts are added up
  per root move. The total does not depend on the split.
* **playouts** go in chunks of games numbered as on one machine: game g draws from the
  random stream of (seed, g) wherever it is played; the arrays are put back in order.
"""

from __future__ import annotations

import numpy as np

from ..board import Board
from ..core import kernels
from ..core.parallel import PlayoutTally
from ..core.tables import workspace
from ..errors import HingeError

#: Perft splits two plies deep when one ply gives fewer jobs than this per worker.
JOBS_PER_WORKER = 4


# ----- perft ------------------------------------------------------------------------------------
def perft_job(job) -> int:
    """``(position string, depth, bulk)`` -> the leaf count under that position."""
    fen, depth, bulk = job
    board = Board.from_fen(fen)
    if depth == 0:
        return 1
    own, enemy = board.own, board.enemy
    return int(kernels.perft_kernel(board.size, own, enemy, depth, bulk, workspace(depth + 1)))


def perft_split(board, depth: int, executor, bulk: bool = True, progress=None) -> list:
    """``[(root move, count)]`` in ``board.legal_moves`` order, each root move's
    subtree ``depth - 1`` plies deep counted by jobs on ``executor``.
    ``progress(done, total)`` is called as jobs finish."""
    if depth < 1:
        raise HingeError(f"a split perft needs depth 1 or more, not {depth}")
    roots = board.legal_moves
    if depth == 1:
        return [(move, 1) for move in roots]
    two_plies = depth >= 3 and len(roots) < JOBS_PER_WORKER * max(1, executor.workers)
    jobs, owner = [], []
    for i, move in enumerate(roots):
        board.push(move)
        if two_plies:
            for reply in board.legal_moves:
                board.push(reply)
                jobs.append((board.fen(), depth - 2, bulk))
                owner.append(i)
                board.pop()
        else:
            jobs.append((board.fen(), depth - 1, bulk))
            owner.append(i)
        board.pop()
    counts = [0] * len(roots)
    for done, (index, count) in enumerate(executor.run(perft_job, jobs), start=1):
        counts[owner[index]] += count
        if progress is not None:
            progress(done, len(jobs))
    return list(zip(roots, counts))


# ----- playouts -----------------------------------------------------------------------------------
#: Most games in one playouts job (the job's arrays travel back to the driver).
MAX_PLAYOUT_CHUNK = 1_000_000


def playouts_job(job):
    """``(position string, first game, games, max plies, seed)`` -> ``(plies, winner,
    ended)`` arrays of those games; game g draws from the random stream of (seed, g),
    as on one machine (``hinge_fast.core.parallel.playouts``)."""
    fen, first, games, max_plies, seed = job
    board = Board.from_fen(fen)
    own, enemy = board.own, board.enemy
    plies = np.zeros(games, dtype=np.int64)
    winner = np.zeros(games, dtype=np.int8)
    ended = np.zeros(games, dtype=np.int8)
    kernels.random_games(
        board.size, own, enemy, first, games, max_plies, seed, plies, winner, ended
    )
    return plies, winner, ended


def playouts_split(board, games: int, max_plies: int, seed: int, executor, progress=None):
    """``games`` random games from ``board`` in chunks on ``executor``: the same
    ``PlayoutTally`` as ``hinge_fast.core.parallel.playouts`` with any number of
    threads. ``progress(games_done, games)`` is called as chunks finish."""
    chunk = max(1, min(MAX_PLAYOUT_CHUNK, -(-games // (4 * max(1, executor.workers)))))
    fen = board.fen()
    jobs = [(fen, lo, min(chunk, games - lo), max_plies, seed) for lo in range(0, games, chunk)]
    parts: dict = {}
    done = 0
    for index, part in executor.run(playouts_job, jobs):
        parts[index] = part
        done += len(part[0])
        if progress is not None:
            progress(done, games)
    ordered = [parts[i] for i in range(len(jobs))]
    return PlayoutTally(*(np.concatenate([p[k] for p in ordered]) for k in range(3)))
