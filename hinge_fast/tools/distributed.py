"""Perft, random playouts, self-play statistics and proofs cut into jobs for an
:class:`~hinge_fast.tools.executor.Executor` (``--concurrency``, ``--ray``): the same
answers as one process, whatever the number of workers.

* **perft** splits at a shallow depth: one job per position one ply from the root
  (two plies when the root has fewer than ``JOBS_PER_WORKER`` moves per worker and the
  depth allows), each counting its subtree with the fast kernel; counts are added up
  per root move. The total does not depend on the split.
* **playouts** go in chunks of games numbered as on one machine: game g draws from the
  random stream of (seed, g) wherever it is played; the arrays are put back in order.
* **stats** plays chunks of games: ``RANDOM_STATS_CHUNK`` random self-play games per
  chunk (the first chunk seeded with the seed itself, as one process always did, the
  others with seeds drawn from (seed, chunk)), ``PLAYER_STATS_CHUNK`` engine games
  (game g seeded seed + g, as before); the tallies are added in chunk order. The
  chunks do not depend on the number of workers, so neither does the answer.
* **prove** proves the root's moves, one job per move (moves whose positions a
  symmetry of the board maps onto each other share one job, except when a proof is
  asked for, which each move's job writes for its own position), in rounds of growing node
  budgets (``prover_split.FIRST_BUDGET``, times ``prover_split.BUDGET_GROWTH`` each
  round): a job starts from an empty table, so a round repeats the work of the one
  before (a quarter of its own), and the easy moves are decided in the first rounds
  whatever their order. The root's value is that of ``Prover(threads=T)``'s moves
  (``prover_split.root_value``): won as soon as one move is proven won for the side to
  move, lost when every move is proven lost, and the proof is joined from the moves'
  proofs, each written by the job that proved it.
"""

from __future__ import annotations

import time

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
    import numpy as np

    from ..board import Board
    from ..core import kernels

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
    import numpy as np

    from ..core.parallel import PlayoutTally

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


# ----- self-play statistics ---------------------------------------------------------------------------
#: Games per stats job: random self-play (one random stream per chunk, the first
#: seeded with the seed itself, so up to this many games are the games one process
#: has always played), and engine self-play (game g is seeded seed + g anyway).
RANDOM_STATS_CHUNK = 10_000
PLAYER_STATS_CHUNK = 10


def stats_chunk_seed(seed, chunk: int):
    """The random seed of random self-play's chunk ``chunk``: the seed itself for the
    first (so that small runs are unchanged), then one drawn from (seed, chunk)."""
    import random

    if seed is None or chunk == 0:
        return seed
    return random.Random(f"hinge-fast stats {seed} {chunk}").getrandbits(63)


def stats_jobs(size, games, player, time_limit, nodes, seed, max_plies, openings=0) -> list:
    """The jobs of a stats run: ``(size, player, time, nodes, max plies, seed, first
    game, games, the chunk's random seed, random opening plies)``."""
    random_play = player.strip().lower() == "random"
    step = RANDOM_STATS_CHUNK if random_play else PLAYER_STATS_CHUNK
    return [
        (
            size,
            player,
            time_limit,
            nodes,
            max_plies,
            seed,
            lo,
            min(step, games - lo),
            stats_chunk_seed(seed, lo // step) if random_play else None,
            openings,
        )
        for lo in range(0, games, step)
    ]


def stats_job(job, on_game=None):
    """One chunk of self-play games -> its tally (``hinge_fast.tools.stats``);
    ``on_game()`` is called as each game ends (in this process only)."""
    from . import stats
    from .players import get_player

    size, player, time_limit, nodes, max_plies, seed, first, games, chunk_seed, openings = job
    tally = stats.Tally(max_plies)
    if player.strip().lower() == "random":
        stats.play_random(size, games, max_plies, chunk_seed, tally, on_game)
    else:
        chosen = get_player(player, time=time_limit, nodes=nodes, seed=seed, size=size)
        try:
            stats.play_board(
                size,
                games,
                max_plies,
                chosen,
                tally,
                None if seed is None else seed + first,
                on_game,
                openings,
            )
        finally:
            chosen.close()
    tally.stuck = [(game + first, ply, fen) for game, ply, fen in tally.stuck]
    return tally


def merge_tally(total, part) -> None:
    """Add the tally of a later chunk of games to ``total``."""
    total.lengths += part.lengths
    total.winners += part.winners
    for key, n in part.endings.items():
        total.endings[key] = total.endings.get(key, 0) + n
    for ply, (s, c) in enumerate(zip(part.branch_sum, part.branch_count)):
        if ply >= len(total.branch_sum):
            total.branch_sum.append(0)
            total.branch_count.append(0)
        total.branch_sum[ply] += s
        total.branch_count[ply] += c
    for key, n in part.kinds.items():
        total.kinds[key] += n
    for key, n in part.details.items():
        total.details[key] += n
    total.stuck += part.stuck
    total.games_seen += part.games_seen


# ----- proofs -------------------------------------------------------------------------------------------
def prove_job(job):
    """``(position string, nodes, deadline, table MB, proof wanted)`` -> ``(result,
    strategy)``: the position proven within ``nodes`` and until ``deadline`` (seconds
    of ``time.time()``, None: no limit), and, when it is proven and a proof is wanted,
    the winner's strategy (position string -> move), else None."""
    from ..board import Board
    from ..search.prover import Prover

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
