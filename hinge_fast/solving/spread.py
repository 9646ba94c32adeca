"""A proof cut into jobs for an :class:`~hinge_fast.jobs.executor.Executor` (``prove
--concurrency``, ``--ray``): job-level proof-number search over the first plies, df-pn
below them.

How it works
------------
A **master** (this process) keeps the top of the tree, the position and the positions
up to ``split_plies`` plies below it, with proof and disproof numbers for the side to
move at the root (``pn``: that it wins, ``dn``: that it loses). Moves to positions that a
symmetry of the board maps onto each other are one node (the table's key,
``Prover.position_key``), and positions met again along other lines (transpositions)
share one record of what the jobs found.

* **Jobs.** The master picks the most-proving leaf, as proof-number search does (from
  the root, the child of least ``pn`` where the root's side is to move, of least ``dn``
  where the other side is), skipping leaves that a job is proving already, and sends it
  as a job (``prove_job``): df-pn from that position within a node budget. A job
  answers with the leaf's new numbers, or its proof or disproof. The master stores them,
  backs the numbers up to the root and picks again; as many jobs run at once as the
  executor has workers.
* **Expansion and budgets.** A leaf above ``split_plies`` gets one job of
  ``job_nodes`` nodes; if that does not decide it, the next time it is picked it is
  expanded: its moves (one of each class) become leaves, each with the numbers (1, 1)
  until its first job. A leaf at ``split_plies`` is never expanded: each job it gets has
  twice the budget of its last one, so that a hard leaf is not sent out in many small
  pieces.
* **Tables.** Each worker keeps one df-pn table (``table_mb`` MB) for its whole life and
  every job it runs: a leaf picked again continues from what the worker's table holds of
  it (all of it when the same worker runs it again, what other jobs left of it
  otherwise), and a job gains from every position any earlier job of that worker settled
  (entries are path-independent). The master does not choose the worker (the executor
  does), so a leaf's job may land on a worker that knows nothing of it: the budgets
  doubling bound the work done again to about the work done.
* **Checkpoint.** With ``checkpoint``, after every finished job the master writes its
  state to the file (JSON, ``hinge_fast.core.atomic.write_atomic``): the position, the
  nodes, jobs and seconds so far, the positions expanded, and what the jobs found of
  each leaf (its numbers, result, jobs and nodes). A run given an existing file
  continues from it: a crash or Ctrl-C loses only the jobs that were running (the
  workers' tables are not saved: a resumed run's jobs start from empty tables).
* **The result** is the root's value once the numbers decide it: won for the side to
  move when ``pn`` reaches 0 (a proven win below it), lost when ``dn`` does, neither
  when both are infinite (every line ends in a repetition that neither side can avoid
  without losing). Its distance is backed up as the longest line of the proof the
  master would write (the shortest won move where the winner is to move, the longest
  where the loser is).
* **The proof** (``proof=True``): the master walks its tree from the position with real
  boards (every move of the loser, the winner's proven move of least distance), and the
  positions where the walk reaches a leaf are proven again as jobs that write their
  proof (``Prover.proof``); the master's moves and these proofs join into one strategy,
  whose longest line is its distance (``prover_split.strategy_distance``), for the
  reference checker (``hinge-fast check-proof``).

Limits: ``nodes`` bounds the nodes of all jobs together (a job's budget is cut to what
is left), ``seconds`` the whole run (the jobs stop at the same deadline).
"""

from __future__ import annotations

import json
import math
import os
import time
from typing import NamedTuple

from ..board import Board, Color
from ..core.atomic import write_atomic
from ..errors import HingeError
from ..search.dfpn import INFINITY
from ..search.proofs import Proof, RootMove
from ..search.prover import ProofResult, Prover
from ..search.prover_split import strategy_distance
from .spread_settings import JOB_NODES, MAX_SPLIT_PLIES, SPLIT_PLIES

#: The name and version written at the top of a checkpoint.
CHECKPOINT_FORMAT = "hinge-fast split proof"
CHECKPOINT_VERSION = 1
#: Jobs given out per worker at once: one running, one waiting to start.
JOBS_PER_WORKER = 2
#: A checkpoint larger than this is refused before it is read.
MAX_CHECKPOINT_BYTES = 256 << 20

INF = int(INFINITY)


class Job(NamedTuple):
    """What a worker is sent: ``kind`` ``'prove'`` (the position within ``nodes``) or
    ``'proof'`` (the strategy of ``winner``, the position being proven)."""

    ident: int
    kind: str
    fen: str
    nodes: int | None
    deadline: float | None  # seconds of time.time(); None: no limit
    table_mb: float
    winner: Color | None = None
    root_moves: bool = False


class Answer(NamedTuple):
    """What a worker sends back."""

    ident: int
    winner: object  # a Color, or None
    distance: int | None
    pn: int
    dn: int
    complete: bool
    repetition: bool
    nodes: int
    root_moves: list | None = None
    strategy: dict | None = None


_WORKER_PROVER: list = []  # the worker's prover, made by its first job and kept


def worker_prover(table_mb: float) -> Prover:
    """This worker's prover (one table for every job it runs)."""
    if not _WORKER_PROVER or _WORKER_PROVER[0].table_mb != table_mb:
        _WORKER_PROVER[:] = [Prover(table_mb=table_mb)]
    return _WORKER_PROVER[0]


def prove_job(job: Job) -> Answer:
    """Run one job on this worker's prover (the module docstring)."""
    board = Board.from_fen(job.fen)
    left = None if job.deadline is None else max(1e-3, job.deadline - time.time())
    prover = worker_prover(job.table_mb)
    if job.kind == "proof":
        proof = prover.proof(board, job.winner, seconds=left)
        return Answer(
            job.ident, proof.winner, proof.distance, 0, 0, True, False, 0, None, proof.strategy
        )
    # interruptible: the kernel runs on a thread, so that the worker's main thread
    # handles a signal at once (SIGTERM ends the worker; Ctrl-C stops a serial run)
    result = prover.prove(board, nodes=job.nodes, seconds=left, interruptible=True)
    return Answer(
        job.ident,
        result.winner,
        result.distance,
        int(result.pn),
        int(result.dn),
        bool(result.complete),
        bool(result.repetition),
        int(result.nodes),
        result.root_moves if job.root_moves else None,
    )


class _Leaf:
    """What the jobs found of one position (shared by its images and transpositions),
    for its side to move: ``win`` True, False or None (open or a repetition)."""

    __slots__ = ("fen", "turn", "win", "distance", "pn", "dn", "complete", "runs", "nodes", "busy")

    def __init__(self, fen, turn):
        self.fen = fen
        self.turn = turn
        self.win = None
        self.distance = None
        self.pn = self.dn = 1
        self.complete = False
        self.runs = 0
        self.nodes = 0
        self.busy = False

    def numbers(self):
        """``(pn, dn)`` for the side to move here."""
        if self.win is True:
            return 0, INF
        if self.win is False:
            return INF, 0
        if self.complete:
            return INF, INF
        if self.runs == 0:
            return 1, 1
        return min(max(self.pn, 1), INF - 1), min(max(self.dn, 1), INF - 1)


class _Node:
    """A position of the master's tree."""

    __slots__ = ("board", "key", "depth", "leaf", "children", "pn", "dn", "distance")

    def __init__(self, board, key, depth, leaf):
        self.board = board
        self.key = key
        self.depth = depth
        self.leaf = leaf
        self.children = None  # one node per class of moves, once expanded
        self.pn = self.dn = 1
        self.distance = None

    def decided(self) -> bool:
        return self.pn == 0 or self.dn == 0 or (self.pn >= INF and self.dn >= INF)


class Master:
    """The top of the tree and the jobs' findings (the module docstring)."""

    def __init__(self, board, split_plies=SPLIT_PLIES, job_nodes=JOB_NODES, table_mb=256):
        self.board = board.copy()
        self.attacker = board.turn
        self.split_plies = split_plies
        self.job_nodes = job_nodes
        self.table_mb = table_mb
        self.keys = Prover(table_mb=1)
        self.leaves: dict[int, _Leaf] = {}
        self.expanded: dict[int, str] = {}  # key -> position string
        self.nodes = 0
        self.jobs = 0
        self.seconds_before = 0.0
        self.running: dict[int, _Leaf] = {}
        self.committed = 0  # node budgets of the running jobs
        self.next_ident = 0
        self.root_job_moves: list | None = None
        self.root = self.node(self.board, 0)
        self.update()

    # ----- the tree -------------------------------------------------------------------------
    def node(self, board, depth) -> _Node:
        key = self.keys.position_key(board)
        outcome = board.outcome()
        if outcome is not None:  # the game is over: decided without a job
            leaf = _Leaf(board.fen(), board.turn)
            leaf.complete = True
            leaf.win = None if outcome.winner is None else outcome.winner == board.turn
            leaf.distance = 0
        else:
            leaf = self.leaves.setdefault(key, _Leaf(board.fen(), board.turn))
        return _Node(board, key, depth, leaf)

    def expand(self, node) -> None:
        self.expanded.setdefault(node.key, node.board.fen())
        seen: dict[int, _Node] = {}
        for move in node.board.legal_moves:
            child = node.board.copy()
            child.push(move)
            key = self.keys.position_key(child)
            if key not in seen:
                seen[key] = self.node(child, node.depth + 1)
        node.children = list(seen.values())

    def _own(self, node):
        """The node's numbers and distance from its own record, for the attacker."""
        pn, dn = node.leaf.numbers()
        if node.board.turn != self.attacker:
            pn, dn = dn, pn
        return pn, dn, node.leaf.distance

    def _settle(self, node) -> None:
        leaf = node.leaf
        if leaf.win is not None or leaf.complete:
            node.pn, node.dn, node.distance = self._own(node)
            return
        if node.children is None and node.key in self.expanded and node.depth < self.split_plies:
            self.expand(node)  # a transposition of an expanded position, or a resumed run
        if node.children is None:
            node.pn, node.dn, node.distance = self._own(node)
            return
        for child in node.children:
            self._settle(child)
        kids = node.children
        attacker_moves = node.board.turn == self.attacker
        if attacker_moves:
            pn = min(c.pn for c in kids)
            dn = min(sum(c.dn for c in kids), INF)
        else:
            pn = min(sum(c.pn for c in kids), INF)
            dn = min(c.dn for c in kids)
        distance = None
        if pn == 0 or dn == 0:
            # the mover's shortest proven win, or, when every move loses, the longest loss
            mover_won = (pn == 0) == attacker_moves
            if mover_won:
                distance = 1 + min(c.distance for c in kids if (c.pn if pn == 0 else c.dn) == 0)
            else:
                distance = 1 + max(c.distance for c in kids)
        node.pn, node.dn, node.distance = pn, dn, distance

    def update(self) -> None:
        """Back the numbers up from the leaves to the root."""
        self._settle(self.root)

    def decided(self) -> bool:
        return self.root.decided()

    def select(self, node=None):
        """The most-proving leaf not being proven, or None."""
        node = self.root if node is None else node
        if node.decided():
            return None
        if node.children is None:
            if node.leaf.busy:
                return None
            if node.depth < self.split_plies and node.leaf.runs >= 1:
                self.expand(node)
                self.update()
                if node.decided():
                    return None
            else:
                return node
        attacker_moves = node.board.turn == self.attacker
        open_ = [c for c in node.children if not c.decided()]
        open_.sort(key=lambda c: c.pn if attacker_moves else c.dn)
        for child in open_:
            found = self.select(child)
            if found is not None:
                return found
        return None

    # ----- jobs -----------------------------------------------------------------------------
    def next_job(self, limit_nodes, deadline) -> Job | None:
        """The next job, its leaf marked as being proven; None when there is none to
        give now (decided, at a limit, or every open leaf being proven)."""
        if self.decided():
            return None
        if deadline is not None and time.time() >= deadline:
            return None
        node = self.select()
        if node is None:
            return None
        leaf = node.leaf
        budget = (
            self.job_nodes << min(leaf.runs, 40)
            if node.depth >= self.split_plies
            else self.job_nodes
        )
        if limit_nodes is not None:
            budget = min(budget, limit_nodes - self.nodes - self.committed)
            if budget <= 0:
                return None
        leaf.busy = True
        ident = self.next_ident
        self.next_ident += 1
        self.running[ident] = leaf
        self.committed += budget
        return Job(
            ident,
            "prove",
            leaf.fen,
            budget,
            deadline,
            self.table_mb,
            root_moves=node is self.root,
        )

    def record(self, job_budget: int, answer: Answer) -> None:
        """Store a job's answer and back the numbers up."""
        leaf = self.running.pop(answer.ident)
        self.committed -= job_budget
        leaf.busy = False
        leaf.runs += 1
        leaf.nodes += answer.nodes
        self.nodes += answer.nodes
        self.jobs += 1
        if answer.winner is not None:
            leaf.win = answer.winner == leaf.turn
            leaf.distance = answer.distance
            leaf.complete = True
        elif answer.complete:  # neither side wins
            leaf.complete = True
        else:
            leaf.pn, leaf.dn = int(answer.pn), int(answer.dn)
        if answer.root_moves is not None:
            self.root_job_moves = answer.root_moves
        self.update()

    def release(self) -> None:
        """Forget the running jobs (their answers will not be waited for)."""
        for leaf in self.running.values():
            leaf.busy = False
        self.running.clear()
        self.committed = 0

    # ----- the result ---------------------------------------------------------------------------
    def winner(self):
        if self.root.pn == 0:
            return self.attacker
        if self.root.dn == 0:
            return self.attacker.other
        return None

    def root_moves(self) -> list[RootMove]:
        if self.root.children is None:
            return list(self.root_job_moves or [])
        by_key = {c.key: c for c in self.root.children}
        out = []
        for move in self.board.legal_moves:
            child_board = self.board.copy()
            child_board.push(move)
            c = by_key[self.keys.position_key(child_board)]
            winner = self.attacker if c.pn == 0 else self.attacker.other if c.dn == 0 else None
            distance = None if winner is None else c.distance + 1
            out.append(RootMove(move, winner, distance, int(c.pn), int(c.dn)))
        return out

    def result(self, started) -> ProofResult:
        winner = self.winner()
        repetition = winner is None and self.root.pn >= INF and self.root.dn >= INF
        return ProofResult(
            position=self.board.fen(),
            winner=winner,
            distance=self.root.distance if winner is not None else None,
            nodes=self.nodes,
            seconds=self.seconds_before + time.monotonic() - started,
            complete=winner is not None or repetition,
            pn=int(self.root.pn),
            dn=int(self.root.dn),
            root_moves=self.root_moves(),
            repetition=repetition,
        )

    def proof_walk(self, winner):
        """The master's part of the proof: ``(strategy, frontier)``, the winner's moves
        at the master's positions and the positions (position string -> Board) whose
        proofs jobs must write."""
        strategy: dict[str, str] = {}
        frontier: dict[str, Board] = {}
        seen: set[str] = set()
        won_for = (lambda c: c.pn == 0) if winner == self.attacker else (lambda c: c.dn == 0)

        def walk(node, board):
            fen = board.fen()
            if fen in seen or board.outcome() is not None:
                return
            seen.add(fen)
            if node.children is None or node.leaf.win is not None:
                frontier[fen] = board
                return
            by_key = {c.key: c for c in node.children}
            moves = []
            for move in board.legal_moves:
                child = board.copy()
                child.push(move)
                moves.append((move, child, by_key[self.keys.position_key(child)]))
            if board.turn == winner:
                move, child, c = min(
                    (m for m in moves if won_for(m[2])), key=lambda m: m[2].distance
                )
                strategy[fen] = str(move)
                walk(c, child)
            else:
                for _, child, c in moves:
                    walk(c, child)

        walk(self.root, self.board.copy())
        return strategy, frontier

    # ----- the checkpoint ------------------------------------------------------------------------
    def save(self, path, started) -> None:
        leaves = [
            [
                leaf.fen,
                leaf.runs,
                leaf.nodes,
                int(leaf.pn),
                int(leaf.dn),
                None if leaf.win is None else str(leaf.turn if leaf.win else leaf.turn.other),
                leaf.distance,
                leaf.complete,
            ]
            for leaf in self.leaves.values()
            if leaf.runs > 0
        ]
        data = {
            "format": CHECKPOINT_FORMAT,
            "version": CHECKPOINT_VERSION,
            "position": self.board.fen(),
            "nodes": self.nodes,
            "jobs": self.jobs,
            "seconds": round(self.seconds_before + time.monotonic() - started, 3),
            "expanded": list(self.expanded.values()),
            "leaves": leaves,
        }
        write_atomic(path, json.dumps(data, separators=(",", ":")) + "\n")

    def load(self, path) -> None:
        """Continue from the checkpoint at ``path`` (HingeError if it is not one of
        this position)."""
        name = os.fspath(path)
        bad = f"{name} is not a readable split-proof checkpoint"
        try:
            if os.path.getsize(path) > MAX_CHECKPOINT_BYTES:
                raise HingeError(f"{bad} (larger than {MAX_CHECKPOINT_BYTES >> 20} MB)")
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except OSError as e:
            raise HingeError(f"cannot read {name}: {e.strerror or e}") from None
        except (ValueError, RecursionError):
            raise HingeError(f"{bad} (not JSON)") from None
        if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
            raise HingeError(bad)
        if data.get("version") != CHECKPOINT_VERSION:
            raise HingeError(f"{bad} (version {data.get('version')!r})")
        if data.get("position") != self.board.fen():
            raise HingeError(
                f"the checkpoint {name} is of the position {data.get('position')}, not of {self.board.fen()}"
            )
        try:
            nodes, jobs, seconds = data["nodes"], data["jobs"], data["seconds"]
            _count(nodes), _count(jobs)
            if not isinstance(seconds, int | float) or not 0 <= seconds < math.inf:
                raise ValueError("seconds")
            expanded = [Board.from_fen(_text(fen)) for fen in data["expanded"]]
            leaves = []
            for row in data["leaves"]:
                fen, runs, spent, pn, dn, winner, distance, complete = row
                board = Board.from_fen(_text(fen))
                for value in (runs, spent, pn, dn):
                    _count(value)
                if winner is not None:
                    winner = Color.parse(_text(winner))
                    _count(distance)
                if not isinstance(complete, bool):
                    raise ValueError("complete")
                leaves.append((board, runs, spent, pn, dn, winner, distance, complete))
        except (KeyError, TypeError, ValueError, HingeError) as e:
            raise HingeError(f"{bad} ({str(e).splitlines()[0] if str(e) else 'a field'})") from None
        for board in expanded:
            if board.size != self.board.size:
                raise HingeError(f"{bad} (a position of side {board.size})")
            self.expanded[self.keys.position_key(board)] = board.fen()
        for board, runs, spent, pn, dn, winner, distance, complete in leaves:
            if board.size != self.board.size:
                raise HingeError(f"{bad} (a position of side {board.size})")
            leaf = self.leaves.setdefault(
                self.keys.position_key(board), _Leaf(board.fen(), board.turn)
            )
            leaf.runs, leaf.nodes, leaf.pn, leaf.dn = runs, spent, pn, dn
            leaf.win = None if winner is None else winner == leaf.turn
            leaf.distance = distance
            leaf.complete = complete
        self.nodes, self.jobs, self.seconds_before = nodes, jobs, float(seconds)
        self.root = self.node(self.board, 0)
        self.update()


def _count(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"not a count: {value!r}")
    return value


def _text(value) -> str:
    if not isinstance(value, str):
        raise ValueError(f"not a position: {value!r}")
    return value


class _Feeder:
    """The jobs for ``Executor.run``, made as it asks for them: at most ``most`` given
    out at once, each the most-proving leaf when it is asked for."""

    def __init__(self, master, most, nodes, deadline):
        self.master = master
        self.most = most
        self.nodes = nodes
        self.deadline = deadline
        self.budgets: dict[int, int] = {}
        self.given = 0

    def __iter__(self):
        return self

    def __next__(self) -> Job:
        if len(self.master.running) >= self.most:
            raise StopIteration
        job = self.master.next_job(self.nodes, self.deadline)
        if job is None:
            raise StopIteration
        self.budgets[job.ident] = job.nodes
        self.given += 1
        return job


def prove_jobs(
    board,
    executor,
    nodes=None,
    seconds=None,
    table_mb=256,
    split_plies=SPLIT_PLIES,
    job_nodes=JOB_NODES,
    checkpoint=None,
    proof=False,
    progress=None,
):
    """Prove ``board`` by jobs on ``executor`` (the module docstring): ``(ProofResult,
    Proof or None)``, the proof when ``proof`` and a side is proven. ``nodes`` limits all
    jobs together, ``seconds`` the whole run; ``checkpoint``: a file written after
    every job and continued from when it exists. ``progress(nodes, pn, dn, seconds)``
    is called as jobs finish."""
    if isinstance(split_plies, bool) or not isinstance(split_plies, int):
        raise HingeError(f"split plies must be a whole number, not {split_plies!r}")
    if not 1 <= split_plies <= MAX_SPLIT_PLIES:
        raise HingeError(f"split plies must be from 1 to {MAX_SPLIT_PLIES}, not {split_plies}")
    if isinstance(job_nodes, bool) or not isinstance(job_nodes, int) or job_nodes < 1:
        raise HingeError(f"job nodes must be a whole number of at least 1, not {job_nodes!r}")
    started = time.monotonic()
    deadline = None if seconds is None else time.time() + seconds
    master = Master(board, split_plies, job_nodes, table_mb)
    if checkpoint is not None and os.path.exists(checkpoint):
        master.load(checkpoint)
    executor.start()
    serial = executor.kind == "serial"
    if serial:  # the jobs run in this process: a table of this run's own
        _WORKER_PROVER.clear()
    # Two jobs a worker, as the executor queues them: on Ray it fills one actor's queue
    # before the next, so with one job a worker the second job would wait behind the first.
    feeder = _Feeder(master, JOBS_PER_WORKER * max(1, executor.workers), nodes, deadline)
    try:
        while not master.decided():
            given = feeder.given
            run = executor.run(prove_job, feeder)
            try:
                for _, answer in run:
                    master.record(feeder.budgets.pop(answer.ident), answer)
                    if checkpoint is not None:
                        master.save(checkpoint, started)
                    if progress is not None:
                        progress(
                            master.nodes,
                            int(master.root.pn),
                            int(master.root.dn),
                            master.seconds_before + time.monotonic() - started,
                        )
                    if master.decided():
                        break
            finally:
                run.close()
                master.release()
            if feeder.given == given:  # no job could be given: a limit was reached
                break
    finally:
        master.release()
    result = master.result(started)
    if checkpoint is not None:
        master.save(checkpoint, started)
    try:
        if not proof or result.winner is None:
            return result, None
        return result, _joined_proof(master, result.winner, executor, deadline, table_mb)
    finally:
        if serial:
            _WORKER_PROVER.clear()


def _joined_proof(master, winner, executor, deadline, table_mb) -> Proof:
    strategy, frontier = master.proof_walk(winner)
    jobs = [
        Job(i, "proof", fen, None, deadline, table_mb, winner) for i, fen in enumerate(frontier)
    ]
    found: list = [None] * len(jobs)
    run = executor.run(prove_job, jobs)
    try:
        for index, answer in run:
            found[index] = answer.strategy
    finally:
        run.close()
    for part in found:
        for fen, move in part.items():
            strategy.setdefault(fen, move)
    return Proof(
        master.board.fen(), winner, strategy_distance(master.board, winner, strategy), strategy
    )
