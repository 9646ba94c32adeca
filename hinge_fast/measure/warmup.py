"""Compile (or load) every numba kernel ahead of use: ``hinge-fast warmup``.

The work is split into jobs, one per component and shift layout (the word count of a
side's sets, ``tables.SHIFT_WORDS_OF``: side 4; sides 5 and 6; 7; 8; 9), run on worker
processes, one per core: numba compiles under a lock of its own process, so one
process compiles on one core only. The move generator of each layout goes first, as
the kernels of the searchers call it and then load it from the cache. Each job runs
every kernel of its component once, on each side of its layout, with the argument
types the commands use, so that no later command compiles anything.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context

import numpy as np

from ..board import Board
from ..core.geometry import MAX_SIZE, MIN_SIZE
from ..core.tables import workspace
from ..search import Limits, create_searcher
from ..solving import tablebase

#: Each shift layout (word count) and its sides.
LAYOUTS = {1: (4,), 2: (5, 6), 3: (7,), 4: (8,), 5: (9,)}
#: The components, in the order their jobs start: the move generator first (the others
#: call its kernels), then the longest jobs, so that the last ones to end are short.
COMPONENTS = ("moves", "alphabeta", "solver", "mcts", "prover")


def _warm_moves(size: int) -> None:
    """The Board face, the analysis' terms, perft (bulk and made, whole and split by
    root move), make/unmake and the random playouts, on one thread and on the worker
    threads."""
    from ..core import kernels, parallel
    from ..search.terms import board_terms

    start = Board(size)
    board = start.copy()
    for _ in range(3):  # tokens of both sides next to each other: swipes to list
        board.push(board.legal_moves[0])
    for b in (start, board):
        b.legal_flips
        b.zobrist_key
        b.history_keys()
        b.groups(b.turn)
        board_terms(size, b.own, b.enemy)  # the analysis' threats and counts
        work = workspace(3)
        for bulk in (True, False):
            kernels.perft_kernel(size, b.own, b.enemy, 2, bulk, work)
            parallel.perft(size, b.own, b.enemy, 3, bulk, 2)
        kernels.make_unmake_loop(size, b.own, b.enemy, 1, work)
        kernels.random_games(
            size,
            b.own,
            b.enemy,
            0,
            1,
            8,
            1,
            np.zeros(1, dtype=np.int64),
            np.zeros(1, dtype=np.int8),
            np.zeros(1, dtype=np.int8),
        )
        parallel.playouts(size, b.own, b.enemy, 2, 8, 1, 2)


def _warm_engine(engine: str, size: int) -> None:
    """One short search of ``engine`` on side ``size``, by nodes and by time (both paths
    load the kernels), with the tablebase off (side 4 would look it up instead)."""
    board = Board(size)
    board.push(board.legal_moves[0])
    searcher = create_searcher(engine, tablebase="off", threads=1)
    searcher.go(board, Limits(nodes=50))
    searcher.go(board, Limits(depth=2))


def _warm_prover(size: int) -> None:
    from ..search.prover import Prover

    Prover(table_mb=1).prove(Board(size), nodes=50, interruptible=False)


def _warm_solver(size: int) -> None:
    """The side-4 solver's kernels and the tablebase probe, on a nearly full board."""
    if size != 4:
        return

    board = Board(4)
    while (
        board.token_count(board.turn) + board.token_count(board.turn.other) < 15
        and board.legal_moves
    ):
        board.push(board.legal_moves[-1])  # the last move: a placement while there is one
    tablebase.solve(board, progress=False)
    # A full board: its layers have swipes only, which the solver handles by other kernels.
    tablebase.solve("4/1ggb1/1bgbg1/1gbgbg1/1bgbg1/1gbg1/4 g", progress=False)
    from ..core import retro

    code = (
        int(retro.canonical_index(0, 1)) & 0xFF
    )  # what a probe runs: an index, then a value code read
    retro.code_win(code), retro.code_distance(code)


_WARMERS = {
    "moves": _warm_moves,
    "alphabeta": lambda s: _warm_engine("alphabeta", s),
    "mcts": lambda s: _warm_engine("mcts", s),
    "prover": _warm_prover,
    "solver": _warm_solver,
}


def warm_job(component: str, words: int) -> tuple[str, int, int, float]:
    """Run the kernels of ``component`` on every side of layout ``words``, in this
    process: ``(component, words, kernel versions compiled, seconds)``."""
    from ..core import kernels

    kernels.COMPILE_NOTICE.said = True  # the warmup reports for its workers
    started = time.perf_counter()
    before = kernels.COMPILE_NOTICE.compiled
    for size in LAYOUTS[words]:
        _WARMERS[component](size)
    return component, words, kernels.COMPILE_NOTICE.compiled - before, time.perf_counter() - started


def _layouts(sizes=None) -> list[int]:
    """The word counts of the board sides ``sizes`` (every one without), largest first."""
    if sizes is None:
        return sorted(LAYOUTS, reverse=True)
    return sorted((w for w, sides in LAYOUTS.items() if set(sides) & set(sizes)), reverse=True)


def sides_warmed(sizes=None) -> list[int]:
    """The board sides whose kernels ``warm_up(sizes=sizes)`` makes ready: those of the
    layouts of ``sizes`` (sides 5 and 6 share one), every side without."""
    return sorted(s for w in _layouts(sizes) for s in LAYOUTS[w])


def jobs(sizes=None) -> list[tuple[str, int]]:
    """Every (component, layout) job, the move generator's first, the largest layouts
    first within a component (their kernels take longest); with ``sizes``, only the
    layouts of those board sides."""
    return [
        (c, w)
        for c in COMPONENTS
        for w in _layouts(sizes)
        if c != "solver" or MIN_SIZE in LAYOUTS[w]
    ]


def warm_up(processes: int | None = None, progress: bool = False, sizes=None) -> int:
    """Load or compile every kernel of every side from ``MIN_SIZE`` to ``MAX_SIZE`` (or
    of the sides ``sizes`` only), on ``processes`` worker processes (default: one per
    core). Returns the number of kernel versions compiled (0: all were in the cache).
    With ``progress``, a progress bar."""
    assert set(s for sides in LAYOUTS.values() for s in sides) == set(range(MIN_SIZE, MAX_SIZE + 1))
    todo = jobs(sizes)
    processes = processes or os.cpu_count() or 1
    compiled = 0
    # "spawn": a worker starts clean, not a fork of a process whose numba holds locks.
    with ProcessPoolExecutor(
        max_workers=min(processes, len(todo)), mp_context=get_context("spawn")
    ) as pool:
        futures = [pool.submit(warm_job, c, w) for c, w in todo]
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=len(futures), desc="hinge-fast warmup", unit=" jobs")
        try:
            for future in as_completed(futures):
                component, words, count, _ = future.result()
                compiled += count
                if bar is not None:
                    bar.set_postfix_str(f"{component}, words {words}", refresh=False)
                    bar.update(1)
        except BaseException:
            for future in futures:
                future.cancel()
            raise
        finally:
            if bar is not None:
                bar.close()
    return compiled
