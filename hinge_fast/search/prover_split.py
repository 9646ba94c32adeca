"""The prover on T threads: the root searched as on one thread, and beside it the
root's moves proven at once; one table per thread.

    >>> from hinge_fast import Board
    >>> from hinge_fast.search.prover import Prover
    >>> prover = Prover(table_mb=1, threads=2)
    >>> prover.prove(Board.from_fen("4/1bgg1/2bb2/2bgg2/1ggb2/2gb1/4 b")).text()
    'Blue wins in at most 3 plies (proven)'

How it works
------------
``Prover(threads=T).prove(board)`` runs two kinds of search at once on the worker
threads of ``core/workers.py``, each thread with a ``Prover`` of its own (a table of ``table_mb`` MB each, so T times the memory of one
thread), on T cores: the df-pn kernel ``mid`` is compiled ``nogil``.

* **Thread 0** proves the position as one thread does, df-pn from the root. It wins
  the race where df-pn's choice of the most promising move matters most: a position
  won by one move among many hard ones.
* **Threads 1 to T-1 prove the root's moves**: thread k takes the positions after moves
  k-1, k-1 + (T-1), ... of the root's distinct moves (moves whose positions a symmetry
  of the board maps onto each other, as on the empty board, are proven once and share
  the result). It works in rounds: each of its positions not yet decided gets
  ``FIRST_BUDGET`` nodes in the first round, ``BUDGET_GROWTH`` times more in each next
  one; its table keeps what a round found, so the next round continues it (as a run
  continues from a checkpoint), and an easy winning move is found early even when it
  comes after hard ones. They win the race where every move must be proven (a lost
  position), the moves being shared between threads.

The first to decide ends the others. The root's value from its moves' values:

* the side to move wins as soon as one of its moves is proven won for it (OR): the
  threads still running are stopped, and the distance is one more than that move's;
* it loses when every move is proven won for the other side (AND), in one more ply than
  the longest of them;
* it is a repetition when no move wins and every move is decided, some of them
  repetitions; otherwise it is not proven within the limits.

Limits: the time is one deadline for the whole run; ``nodes`` limits thread 0's
search and that of each root move. The result's nodes are those of all threads.

``Prover(threads=T).proof(board)`` is thread 0's proof when thread 0 decided; else it
joins the proofs of the root's moves (each written by ``Prover.proof`` from the
position after the move): for a win, the winning move at
the root and that move's proof; for a loss, the proofs of all moves, a position that
two of them share taking the move of the first. The joined strategy is then walked
with ``Board`` to find its longest line, which is the proof's distance; a line of it
that repeats a position (possible only through a position two proofs share) is a
HingeError: the position is then to be proven on one thread.
"""

from __future__ import annotations

import threading
import time

from ..core import workers
from ..errors import HingeError
from .dfpn import INFINITY, NODES
from .proofs import Proof, ProofResult, RootMove, deep_recursion

#: Nodes of the first round of every root move; each round gives this many times more.
FIRST_BUDGET = 10_000
BUDGET_GROWTH = 4


class Split:
    """One split run: the root's moves, the worker provers and what they found."""

    def __init__(self, board, threads, new_prover):
        self.board = board.copy()
        self.moves = list(board.legal_moves)
        self.children = []
        for move in self.moves:
            child = board.copy()
            child.push(move)
            self.children.append(child)
        self.root_prover = new_prover()
        self.root_result = None
        self.by_root = False  # the result is the root prover's
        # Moves to images of one position (a symmetric root) are proven once: ``classes``
        # maps each move proven to the moves that share its result, itself first.
        self.classes = move_classes(self.root_prover, self.children)
        threads = max(1, min(threads, len(self.classes)))
        self.workers = [new_prover() for _ in range(threads)]
        self.results = [None] * len(self.moves)
        self.owner = [None] * len(self.moves)
        self.stopped = threading.Event()
        self.current = [None] * threads  # the root move each thread is proving
        self.error = None

    def stop(self):
        self.stopped.set()
        self.root_prover.stop()
        for worker in self.workers:
            worker.stop()

    def work_root(self, nodes, deadline):
        """The root searched as on one thread, beside the threads of the root's moves."""
        try:
            left = None if deadline is None else max(1e-3, deadline - time.monotonic())
            self.root_result = self.root_prover.prove(
                self.board, nodes=nodes, seconds=left, interruptible=False
            )
            if self.root_result.complete:
                self.stop()
        except BaseException as error:  # noqa: BLE001  (handed to the caller)
            self.error = error
            self.stop()

    def work(self, k, nodes, deadline):
        """Thread ``k``: its root moves (every T-th), in rounds of growing budgets."""
        worker = self.workers[k]
        mover = self.board.turn
        mine = list(self.classes)[k :: len(self.workers)]
        spent = dict.fromkeys(mine, 0)
        budget = FIRST_BUDGET
        try:
            while mine and not self.stopped.is_set():
                for i in mine:
                    if self.stopped.is_set():
                        break
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        self.stop()
                        break
                    self.current[k] = i
                    child = self.children[i]
                    outcome = child.outcome()
                    if outcome is not None:  # the move ends the game
                        result = Decided(mover, outcome.winner)
                    else:
                        cap = budget if nodes is None else min(budget, nodes - spent[i])
                        result = worker.prove(child, nodes=cap, seconds=left, interruptible=False)
                        spent[i] += result.nodes
                        result.nodes = spent[i]
                    for j in self.classes[i]:
                        self.results[j] = result
                        self.owner[j] = k
                    self.current[k] = None
                    if result.winner == mover:
                        self.stop()
                mine = [
                    i
                    for i in mine
                    if self.results[i] is None
                    or not self.results[i].complete
                    and (nodes is None or spent[i] < nodes)
                ]
                budget *= BUDGET_GROWTH
        except BaseException as error:  # noqa: BLE001  (handed to the caller)
            self.error = error
            self.stop()
        finally:
            self.current[k] = None


def move_classes(prover, boards):
    """``boards`` in classes of positions that a symmetry of the board maps onto each
    other (by ``prover``'s keys): ``{first index: [its indices]}``, in order."""
    classes = {}
    for i, board in enumerate(boards):
        classes.setdefault(prover.position_key(board), []).append(i)
    return {members[0]: members for members in classes.values()}


class Decided:
    """The result of a root move that ends the game, as a prover's result reads."""

    def __init__(self, mover, winner):
        won = winner == mover
        self.winner, self.distance = winner, 0
        self.pn, self.dn = (0, INFINITY) if won else (INFINITY, 0)
        self.nodes, self.complete, self.repetition = 0, True, False


def move_numbers(mover, result):
    """``(pn, dn)`` of a root move for ``mover``, the side to move at the root, from
    the proof of the position after it (``result``: a ``ProofResult`` or ``Decided``,
    None while not searched)."""
    if result is None:
        return 1, 1
    if result.winner is not None:
        return (0, INFINITY) if result.winner == mover else (INFINITY, 0)
    if result.complete:  # a repetition: neither side wins
        return INFINITY, INFINITY
    return result.dn, result.pn


def root_value(mover, moves, results):
    """``(winner, distance, repetition, root moves)`` of a root whose side to move is
    ``mover``, from the results of its ``moves`` (each None while not searched; winner
    None while undecided): OR over the moves for the side to move, AND for the other."""
    root_moves = []
    for move, r in zip(moves, results):
        pn, dn = move_numbers(mover, r)
        won = r is not None and r.winner is not None
        root_moves.append(
            RootMove(
                move, r.winner if won else None, r.distance + 1 if won else None, int(pn), int(dn)
            )
        )
    wins = [m.distance for m in root_moves if m.winner == mover]
    if wins:
        return mover, min(wins), False, root_moves
    if all(m.winner == mover.other for m in root_moves):
        return mover.other, max(m.distance for m in root_moves), False, root_moves
    repetition = all(r is not None and r.complete for r in results)
    return None, None, repetition, root_moves


def root_numbers(mover, results):
    """The root's ``(pn, dn)`` for ``mover`` from its moves' results: the least pn of
    its moves, the sum of their dn."""
    pn, dn = INFINITY, 0
    for r in results:
        p, d = move_numbers(mover, r)
        pn = min(pn, p)
        dn = min(dn + d, INFINITY)
    return pn, dn


def join_proofs(board, winner, moves, results, strategy_of):
    """The ``Proof`` of ``board`` joined from the proofs of its moves: for a win of the
    side to move, its shortest winning move and that move's proof; for a loss, the
    proofs of all moves, a position two of them share taking the move of the first.
    ``strategy_of(i)``: the strategy (position string -> move) of the proof of the
    position after move ``i``. HingeError if the joined strategy does not hold
    (``strategy_distance``)."""
    mover = board.turn
    strategy = {}
    if winner == mover:
        best = min(
            (i for i, r in enumerate(results) if r is not None and r.winner == mover),
            key=lambda i: results[i].distance,
        )
        strategy[board.fen()] = str(moves[best])
        chosen = [best]
    else:
        chosen = range(len(moves))
    for i in chosen:
        if isinstance(results[i], Decided):
            continue
        for fen, move in strategy_of(i).items():
            strategy.setdefault(fen, move)
    return Proof(board.fen(), winner, strategy_distance(board, winner, strategy), strategy)


def prove_split(prover, board, nodes, seconds, progress):
    """``prover.prove`` on ``prover.threads`` threads (the module docstring)."""
    started = time.monotonic()
    deadline = None if seconds is None else started + seconds
    split = prover.split = Split(
        board, prover.threads - 1, lambda: type(prover)(table_mb=prover.table_mb)
    )
    prover.stopping.clear()

    def tick():
        if split.stopped.is_set():
            split.stop()  # again: a worker may have started a proof since
        elif _combined(split)[0] is not None:
            split.stop()  # the root's moves decided it: the root's own search ends
        if progress is not None:
            pn, dn = _root(split)
            progress(_nodes(split), pn, dn, time.monotonic() - started)

    tasks = [lambda k=k: split.work(k, nodes, deadline) for k in range(len(split.workers))]
    tasks.append(lambda: split.work_root(nodes, deadline))
    work = workers.run(tasks, split.stop, 0.2, tick=tick)
    if split.error is not None:
        raise split.error
    if work.interrupted:
        raise KeyboardInterrupt
    found = split.root_result
    winner, distance, repetition, root_moves = _combined(split)
    if found is not None and found.complete and winner is None and not repetition:
        split.by_root = True
        found.nodes = _nodes(split)
        found.seconds = time.monotonic() - started
        return found
    pn, dn = _root(split)
    return ProofResult(
        position=board.fen(),
        winner=winner,
        distance=distance,
        nodes=_nodes(split),
        seconds=time.monotonic() - started,
        complete=winner is not None or repetition,
        pn=int(pn),
        dn=int(dn),
        root_moves=root_moves,
        repetition=repetition,
    )


def _combined(split):
    """``root_value`` of the root's moves searched so far."""
    return root_value(split.board.turn, split.moves, split.results)


def _nodes(split):
    """The nodes of the proofs done and of those still running."""
    done = sum(split.results[i].nodes for i in split.classes if split.results[i] is not None)
    if split.root_result is not None:
        done += split.root_result.nodes
    elif split.board.size in split.root_prover.buffers:
        done += int(split.root_prover.buffers[split.board.size].state[NODES])
    for k, worker in enumerate(split.workers):
        buf = worker.buffers.get(split.board.size)
        if split.current[k] is not None and buf is not None:
            done += int(buf.state[NODES])
    return done


def _root(split):
    """``root_numbers`` of the root's moves searched so far."""
    return root_numbers(split.board.turn, [split.results[i] for i in split.classes])


def split_proof(prover, board, winner, nodes, seconds):
    """``prover.proof`` on threads: the proofs of the root's moves joined (the module
    docstring)."""
    split = prover.split
    if winner is None or split is None or split.board.fen() != board.fen():
        winner = prover.prove(board, nodes=nodes, seconds=seconds).winner
        split = prover.split
        if winner is None:
            raise HingeError("no side is proven to win this position within the limits")
    if split.by_root:
        return split.root_prover.proof(board, winner, nodes=nodes, seconds=seconds)

    def strategy_of(i):
        worker = split.workers[split.owner[i] if split.owner[i] is not None else 0]
        return worker.proof(split.children[i], winner, nodes=nodes, seconds=seconds).strategy

    return join_proofs(board, winner, split.moves, split.results, strategy_of)


def strategy_distance(board, winner, strategy) -> int:
    """The longest line from ``board`` when ``winner`` plays ``strategy`` (position
    string -> move) and the loser every move. HingeError if a line repeats a position,
    reaches a position of the winner without a move, or ends with the winner lost."""
    board = board.copy()
    known: dict = {}
    line: set = set()

    def visit() -> int:
        fen = board.fen()
        if fen in known:
            return known[fen]
        if fen in line:
            raise HingeError(
                f"the proofs of the root's moves do not join into one (a line repeats {fen}): "
                "prove this position on one thread"
            )
        outcome = board.outcome()
        if outcome is not None:
            if outcome.winner != winner:
                raise HingeError(f"the joined proof loses at {fen}")
            known[fen] = 0
            return 0
        line.add(fen)
        if board.turn == winner:
            move = strategy.get(fen)
            if move is None:
                raise HingeError(f"the joined proof has no move for the winner at {fen}")
            replies = [move]
        else:
            replies = list(board.legal_moves)
        distance = 0
        for move in replies:
            board.push(move)
            distance = max(distance, 1 + visit())
            board.pop()
        line.discard(fen)
        known[fen] = distance
        return distance

    with deep_recursion():
        return visit()
