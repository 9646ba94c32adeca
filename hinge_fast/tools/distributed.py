"""Perft, random playouts and self-play statistics cut into jobs for an
:class:`~hinge_fast.tools.executor.Executor` (``--ray``): the same answers as one
process, whatever the number of workers.

* **perft** splits at a shallow depth: one job per position one ply from the root
  (two plies when the root has fewer than ``JOBS_PER_WORKER`` moves per worker and the
  depth allows), each counting its subtree with the fast kernel; counts are added up
  per root move. The total does not depend on the split.
"""

from __future__ import annotations

from ..errors import HingeError

#: Perft splits two plies deep when one ply gives fewer jobs than this per worker.
JOBS_PER_WORKER = 4


# ----- perft ------------------------------------------------------------------------------------
def perft_job(job) -> int:
    """``(position string, depth, bulk)`` -> the leaf count under that position."""
    from ..board import Board
    from ..core import kernels
    from ..core.tables import workspace

    fen, depth, bulk = job
    board = Board.from_fen(fen)
    if depth == 0:
        return 1
    own, enemy = board._sides()
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
