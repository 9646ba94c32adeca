"""A proof cut into jobs for an :class:`~hinge_fast.jobs.executor.Executor`
(``prove --concurrency``, ``--ray``): the same answer as one process, whatever the
number of workers.

The root's moves are proven one job per move (moves whose positions a symmetry of the
board maps onto each other share one job, except when a proof is asked for, which each
move's job writes for its own position), in rounds of growing node budgets
(``prover_split.FIRST_BUDGET``, times ``prover_split.BUDGET_GROWTH`` each round): a job
starts from an empty table, so a round repeats the work of the one before (a quarter of
its own), and the easy moves are decided in the first rounds whatever their order. The
root's value is that of ``Prover(threads=T)``'s moves (``prover_split.root_value``): won
as soon as one move is proven won for the side to move, lost when every move is proven
lost, and the proof is joined from the moves' proofs, each written by the job that
proved it.
"""

from __future__ import annotations

import time

from ..board import Board
from ..errors import HingeError
from ..search.prover import ProofResult, Prover
from ..search.prover_split import (
    BUDGET_GROWTH,
    FIRST_BUDGET,
    Decided,
    join_proofs,
    move_classes,
    root_numbers,
    root_value,
)


def prove_job(job):
    """``(position string, nodes, deadline, table MB, proof wanted)`` -> ``(result,
    strategy)``: the position proven within ``nodes`` and until ``deadline`` (seconds
    of ``time.time()``, None: no limit), and, when it is proven and a proof is wanted,
    the winner's strategy (position string -> move), else None."""
    fen, nodes, deadline, table_mb, wanted = job
    board = Board.from_fen(fen)
    left = None if deadline is None else max(1e-3, deadline - time.time())
    prover = Prover(table_mb=table_mb)
    result = prover.prove(board, nodes=nodes, seconds=left, interruptible=False)
    result.root_moves = []  # the driver keeps its own: only the numbers travel back
    strategy = None
    if wanted and result.winner is not None:
        left = None if deadline is None else max(1e-3, deadline - time.time())
        strategy = prover.proof(board, result.winner, nodes=nodes, seconds=left).strategy
    return result, strategy


def prove_spread(
    board, executor, nodes=None, seconds=None, table_mb=256, proof=False, progress=None
):
    """Prove ``board`` with its moves' proofs as jobs on ``executor`` (the module
    docstring): ``(ProofResult, Proof or None)``, the proof when ``proof`` and a side
    is proven. ``nodes`` limits each job (a move's proof); ``seconds`` the whole run.
    ``progress(nodes, pn, dn, seconds)`` is called as jobs finish."""
    started = time.monotonic()
    deadline = None if seconds is None else time.time() + seconds
    mover = board.turn
    moves = list(board.legal_moves)
    fens = []
    children = []
    results: list = [None] * len(moves)
    strategies: list = [None] * len(moves)
    for i, move in enumerate(moves):
        child = board.copy()
        child.push(move)
        children.append(child)
        fens.append(child.fen())
        outcome = child.outcome()
        if outcome is not None:
            results[i] = Decided(mover, outcome.winner)
    # Moves to images of one position under the board's symmetries are proven once, unless
    # a proof is asked for: a job's proof is written for its own position only.
    classes = (
        {i: [i] for i in range(len(children))}
        if proof
        else move_classes(Prover(table_mb=1), children)
    )
    spent = 0
    budget = FIRST_BUDGET
    while True:
        winner, distance, repetition, root_moves = root_value(mover, moves, results)
        undecided = [i for i in classes if results[i] is None or not results[i].complete]
        out_of_time = deadline is not None and time.time() >= deadline
        if winner is not None or repetition or not undecided or out_of_time:
            break
        cap = budget if nodes is None else min(budget, nodes)
        run = executor.run(
            prove_job, [(fens[i], cap, deadline, table_mb, proof) for i in undecided]
        )
        try:
            for index, (result, strategy) in run:
                i = undecided[index]
                spent += result.nodes
                for j in classes[i]:
                    results[j], strategies[j] = result, strategy
                if progress is not None:
                    pn, dn = root_numbers(mover, [results[first] for first in classes])
                    progress(spent, pn, dn, time.monotonic() - started)
                if result.winner == mover:
                    break
        finally:
            run.close()
        if nodes is not None and cap >= nodes:
            winner, distance, repetition, root_moves = root_value(mover, moves, results)
            break
        budget *= BUDGET_GROWTH
    pn, dn = root_numbers(mover, [results[first] for first in classes])
    result = ProofResult(
        position=board.fen(),
        winner=winner,
        distance=distance,
        nodes=spent,
        seconds=time.monotonic() - started,
        complete=winner is not None or repetition,
        pn=int(pn),
        dn=int(dn),
        root_moves=root_moves,
        repetition=repetition,
    )
    if not proof or winner is None:
        return result, None

    def strategy_of(i):
        if strategies[i] is None:
            raise HingeError(f"the proof after {moves[i]} could not be written within the limits")
        return strategies[i]

    return result, join_proofs(board, winner, moves, results, strategy_of)
