"""Perft and random playouts on several threads.

The kernels are compiled with ``nogil=True``, so Python threads run them on every
core at once; each thread has its own :func:`~hinge_fast.core.tables.workspace`.

* Perft splits at the root: the threads take root moves one at a time from a shared
  counter, the ones with the most replies first, and add up the counts (the total does
  not depend on the thread count).
  Trees estimated below ``SMALL_TREE`` leaves (``SMALL_BULK_TREE`` with bulk counting)
  stay on one thread.
* Playouts split by game: game ``g`` draws from its own random stream seeded by
  ``(seed, g)`` (``playouts.game_seed``), so a seed gives the same games, and the
  same totals, with any number of threads. ``playouts.random_games`` plays every side
  in the shift layout (``playouts.random_game``).
"""

from __future__ import annotations

import os
import threading
from typing import NamedTuple

import numpy as np

from ..errors import HingeError
from . import kernels, workers
from .playouts import ELIMINATION, NO_LEGAL_MOVE, PLY_CAP
from .tables import workspace

#: Below about this many leaves (estimated as root moves ** depth) perft stays on one
#: thread: a tree that small takes milliseconds, about what handing work to threads
#: costs on a busy machine (2 threads on the 1.2 million leaves of a side-6 middle game
#: at depth 4 took longer than one). The bulk bound is higher because a counted leaf
#: costs less than a made one.
SMALL_TREE = 1e6
SMALL_BULK_TREE = 1e7


def available_threads() -> int:
    """Every core this process may run on (the default of ``--threads``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def perft(size, own, enemy, depth, bulk=True, threads=1, should_stop=None, progress=None) -> int:
    """Leaf count ``depth`` plies deep, the root moves shared among ``threads``
    (``perft_divide`` says how it stops and reports progress)."""
    if depth < 2:
        return int(kernels.perft_kernel(size, own, enemy, depth, bulk, workspace(depth + 1)))
    counts, _ = perft_divide(size, own, enemy, depth, bulk, threads, should_stop, progress)
    return int(counts.sum())


def perft_divide(size, own, enemy, depth, bulk=True, threads=1, should_stop=None, progress=None):
    """``(counts, codes)``: the count under each root move and the root move codes.

    The counting runs in worker threads while this thread waits, so that Ctrl-C stops
    it within a fraction of a second (KeyboardInterrupt is raised here once the workers
    have stopped), as does ``should_stop()`` returning true (polled every few
    milliseconds; then HingeError ``perft stopped after K of N root moves``).
    ``progress(done, total)`` is called here as root moves finish."""
    root = workspace(1)
    n = int(
        kernels.legal_moves(
            size, own, enemy, root.moves[0], root.flips[0], root.scratch, root.group_of_bit
        )
    )
    codes = root.moves[0, :n].copy()
    flips = root.flips[0, :n].copy()
    counts = np.zeros(n, dtype=np.int64)
    if depth == 1:
        counts[:] = 1
        return counts, codes
    threads = max(1, min(threads, n))
    if float(n) ** depth < (SMALL_BULK_TREE if bulk else SMALL_TREE):
        threads = 1  # starting and joining threads would cost more than they save
    order = np.arange(n)
    if threads > 1:
        # One root move at a time from a shared counter, the biggest subtrees first (by
        # the number of replies, a cheap estimate), so that no thread is left with a big
        # one at the end while the others wait.
        replies = np.zeros(n, dtype=np.int64)
        kernels.perft_children(size, own, enemy, 2, True, workspace(2), codes, flips, 0, n, replies)
        order = np.argsort(-replies, kind="stable")
    codes_by_size, flips_by_size = codes[order], flips[order]
    counts_by_size = np.full(n, -2, dtype=np.int64)  # -2: not yet counted, -1: stopped
    stop = np.zeros(1, dtype=np.uint8)
    lock = threading.Lock()
    next_index = [0]

    def count(work, lo, hi):
        kernels.perft_children(
            size,
            own,
            enemy,
            depth,
            bulk,
            work,
            codes_by_size,
            flips_by_size,
            lo,
            hi,
            counts_by_size,
        )

    def worker():
        work = workspace(depth, stop)
        if threads == 1:  # one call for every root move: the kernel itself heeds ``stop``
            if not stop[0]:
                count(work, 0, n)
            return
        while not stop[0]:
            with lock:
                i = next_index[0]
                next_index[0] += 1
            if i >= n:
                return
            count(work, i, i + 1)

    def finished() -> int:
        return int(np.count_nonzero(counts_by_size >= 0))

    tick = None if progress is None else (lambda: progress(finished(), n))
    _run_threads(worker, threads, stop, should_stop, tick)
    if finished() < n:
        raise HingeError(f"perft stopped after {finished()} of {n} root moves")
    counts[order] = counts_by_size
    return counts, codes


class PlayoutTally(NamedTuple):
    """What ``playouts`` returns: per-game arrays and the totals."""

    plies: np.ndarray  # int64 [games]: length of each game
    winner: np.ndarray  # int8 [games]: 0 the side to move at the start won, 1 the other, -1 none
    ended: np.ndarray  # int8 [games]: ELIMINATION, NO_LEGAL_MOVE or PLY_CAP

    @property
    def games(self) -> int:
        return len(self.plies)

    def wins(self, side: int) -> int:
        return int(np.count_nonzero(self.winner == side))

    def count(self, ending: int) -> int:
        return int(np.count_nonzero(self.ended == ending))

    @property
    def mean_plies(self) -> float:
        return float(self.plies.mean()) if len(self.plies) else 0.0


def playouts(
    size, own, enemy, games, max_plies=10_000, seed=0, threads=1, should_stop=None, progress=None
) -> PlayoutTally:
    """``games`` uniformly random games from ``(own, enemy)`` (``own`` to move). Stops
    and reports as ``perft_divide`` does, between chunks of at most 256 games
    (``progress(games done, games)``; HingeError ``playouts stopped after K of N games``)."""
    plies = np.zeros(games, dtype=np.int64)
    winner = np.zeros(games, dtype=np.int8)
    ended = np.zeros(games, dtype=np.int8)
    threads = max(1, min(threads, games))
    # Chunks of games taken from a shared counter: threads that run faster take more.
    chunk = max(1, min(256, games // (8 * threads) or 1))
    stop = np.zeros(1, dtype=np.uint8)
    lock = threading.Lock()
    next_game = [0]
    finished = [0]

    def worker():
        while not stop[0]:
            with lock:
                lo = next_game[0]
                next_game[0] += chunk
            if lo >= games:
                return
            hi = min(games, lo + chunk)
            kernels.random_games(
                size,
                own,
                enemy,
                lo,
                hi - lo,
                max_plies,
                seed,
                plies[lo:hi],
                winner[lo:hi],
                ended[lo:hi],
            )
            with lock:
                finished[0] += hi - lo

    tick = None if progress is None else (lambda: progress(finished[0], games))
    _run_threads(worker, threads, stop, should_stop, tick)
    if finished[0] < games:
        raise HingeError(f"playouts stopped after {finished[0]} of {games} games")
    return PlayoutTally(plies, winner, ended)


def _run_threads(worker, threads, stop, should_stop=None, tick=None):
    """Run ``worker`` on ``threads`` threads of ``workers.py`` while this one waits;
    Ctrl-C here or a true ``should_stop()`` sets ``stop[0]``, which the workers (and
    perft's kernel) heed; KeyboardInterrupt is raised here once they have ended."""
    if should_stop is not None and should_stop():
        stop[0] = 1  # asked to stop before it began: the workers take nothing

    def halt():
        stop[0] = 1

    if workers.run([worker] * threads, halt, should_stop=should_stop, tick=tick).interrupted:
        raise KeyboardInterrupt


__all__ = [
    "ELIMINATION",
    "NO_LEGAL_MOVE",
    "PLY_CAP",
    "PlayoutTally",
    "available_threads",
    "perft",
    "perft_divide",
    "playouts",
]
