"""The prover: proves a position won for one side, and writes down how.

    >>> from hinge_fast import Board
    >>> result = Prover(table_mb=1).prove(Board.from_fen("4/1bgg1/2bbb1/2bgg2/1ggb2/2gb1/4 g"))
    >>> result.text()
    'Green wins in at most 3 plies (proven)'

``Prover.prove`` runs the df-pn kernels of ``dfpn.py`` (the method is described there)
from the position: first with the side to move as the attacker; when that run ends in
a disproof free of repetitions, the other side wins; when the disproof depends on a
repetition, a second run with the other side as the attacker decides whether it wins.
A result is the winner (or None), the distance in plies along the proof, the nodes
searched and each root move's state.

``Prover.proof`` writes down the winner's strategy (a ``Proof``): it follows the proven
results of a run with the winner as attacker, taking at each of the winner's turns the
proven move of the shortest known distance, and covering every reply of the loser;
where the table has lost a result (replaced), it searches that position again. The
checker of ``solving/proof.py`` replays such a strategy with the reference
implementation.

The kernels run on a worker thread (``core/workers.py``) that Ctrl-C (KeyboardInterrupt
in the main thread) or ``stop()`` ends within ``dfpn.CLOCK_EVERY`` nodes.

With ``checkpoint=FILE`` the table and counters go to FILE (``checkpoint.py``) every
``checkpoint_every`` seconds, when the run ends and when it is interrupted; a run
given an existing FILE starts from it and continues the stopped one. To save, the
search is stopped (its numbers stored in the table on the way up, as at any stop), the
table written, and the search started again from the position: it walks straight
back down to the open positions it left.

``Prover(threads=T)`` with T > 1 searches on T threads: one searches the root as
above, the others prove the root's moves (``prover_split.py``).
"""

from __future__ import annotations

import os
import threading
import time as _time
from typing import NamedTuple

import numpy as np

from ..board import Board, Color, bitboard_cells
from ..core import workers
from ..core.fen import format_fen
from ..core.geometry import NWORDS
from ..core.sets import set_like, shift_sets
from ..core.tables import MAX_MOVES, SHIFT_WORDS_OF
from ..errors import HingeError
from .checkpoint import load_checkpoint, save_checkpoint
from .dfpn import (
    DEADLINE,
    DEEPEST,
    HORIZON,
    INFINITY,
    NODE_LIMIT,
    NODES,
    PLIES,
    ROOT_DN,
    ROOT_PLY,
    ROOT_PN,
    STOPPED,
    TABLE_SLOTS,
    U64,
    ProofTable,
    ProverBuffers,
    bitboard_of,
    children_of,
    key_of,
    mid,
    new_buffers,
    new_table,
)
from .proofs import Proof, ProofResult, RootMove
from .prover_split import prove_split, split_proof


def as_sets(size, own_bits, enemy_bits):
    """The bitboards of a Board (own, enemy) as shift-layout sets: tuples of np.uint64
    (numba types a tuple of Python ints as int64, so the words are wrapped)."""
    own, enemy = shift_sets(
        size,
        np.array(own_bits, dtype=np.uint64),
        np.array(enemy_bits, dtype=np.uint64),
        set_like(size),
    )
    return tuple(U64(w) for w in own), tuple(U64(w) for w in enemy)


#: The table's default size, MB.
DEFAULT_TABLE_MB = 256
#: Seconds between two checkpoints of a run.
DEFAULT_CHECKPOINT_EVERY = 600.0


class ProveRun(NamedTuple):
    """What one df-pn run is given, fixed while it runs: the side and its buffers, the
    deadline (monotonic ns) and node limit, ``progress(nodes, pn, dn, seconds)`` (or
    None), its start (monotonic seconds), whether it runs on a worker thread that
    Ctrl-C stops, and the checkpoint saver (or None)."""

    size: int
    buf: object
    deadline_ns: int
    node_limit: int
    progress: object = None
    started: float = 0.0
    interruptible: bool = True
    saver: object = None


class Prover:
    """A df-pn prover that owns its buffers and transposition table (``table_mb`` MB,
    kept between calls: what it proved stays proven for later positions).

    ``prove(board, nodes=..., seconds=..., progress=..., checkpoint=...)`` returns a
    ProofResult; ``proof(board)`` the winner's strategy for a proven position
    (``Proof``); ``stop()`` from another thread ends a running proof soon (so does
    Ctrl-C in the main thread). ``threads`` > 1: the search runs on that many threads,
    each with a table of ``table_mb`` MB (``prover_split.py``).
    """

    def __init__(self, table_mb: float = DEFAULT_TABLE_MB, threads: int = 1):
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise HingeError(f"threads must be a whole number of at least 1, not {threads!r}")
        self.table_mb = table_mb
        self.threads = threads
        self.table: ProofTable | None = None
        self.buffers: dict[int, ProverBuffers] = {}  # board size -> its buffers
        self.stopping = threading.Event()
        self.split = None  # the last split run (threads > 1), for ``proof``
        self.spent = (0, 0.0)  # nodes and seconds of the checkpoint a run resumed
        # (position, winner) -> its shortest win found, plies
        self.shortest_known: dict[tuple[str, str], int] = {}

    def _prepare(self, size):
        """The buffers of side ``size`` (and the table), the kernels of its word count
        loaded (or compiled) by one search of a single node, so that no limit pays it."""
        if self.table is None:
            self.table = new_table(self.table_mb)
        if size not in self.buffers:
            buf = self.buffers[size] = new_buffers(size)
            own, enemy = as_sets(size, Board(size).own, Board(size).enemy)
            buf.state[NODES] = 0
            buf.state[NODE_LIMIT] = 1
            buf.state[DEADLINE] = 1 << 62
            buf.state[STOPPED] = 0
            buf.state[ROOT_PLY] = 0
            mid(size, own, enemy, True, INFINITY, INFINITY, 0, buf, self.table)
            children_of(
                size,
                own,
                enemy,
                True,
                0,
                buf,
                self.table,
                np.zeros(MAX_MOVES, dtype=np.uint64),
                np.zeros(MAX_MOVES, dtype=np.int64),
                np.zeros(MAX_MOVES, dtype=np.int64),
                np.zeros((MAX_MOVES, len(own)), dtype=np.uint64),
                np.zeros((MAX_MOVES, len(own)), dtype=np.uint64),
            )
            key_of(size, own, enemy, True, buf)
            bitboard_of(size, own, np.zeros(NWORDS, dtype=np.uint64))
        return self.buffers[size]

    def position_key(self, board) -> int:
        """The table's key of ``board``: equal for positions that a symmetry of the
        board maps onto each other."""
        buf = self._prepare(board.size)
        own, enemy = as_sets(board.size, board.own, board.enemy)
        return int(key_of(board.size, own, enemy, False, buf))

    def stop(self) -> None:
        """End a running ``prove`` soon, from another thread."""
        self.stopping.set()
        for buf in self.buffers.values():
            buf.state[DEADLINE] = 0
        if self.split is not None:
            self.split.stop()

    def _run(self, run, own, enemy, attacker_to_move, ply):
        """One df-pn run (``run``: a ``ProveRun``) from ``(own, enemy)`` at ``ply`` (the
        line above it in ``run.buf.line``): ``(pn, dn, distance, loop)``. With a saver,
        the search stops when a checkpoint is due, is saved and goes on."""
        buf = run.buf
        while True:
            result, paused = self._segment(run, own, enemy, attacker_to_move, ply)
            pn, dn = result[0], result[1]
            if (
                not paused
                or pn == 0
                or dn == 0
                or self.stopping.is_set()
                or buf.state[NODES] >= run.node_limit
                or _time.monotonic_ns() >= run.deadline_ns
            ):
                return result
            run.saver.save(buf)

    def _segment(self, run, own, enemy, attacker_to_move, ply):
        """``_run`` until it ends or a checkpoint is due: ``(result, paused)``."""
        size, buf, deadline_ns, node_limit, progress, started, interruptible, saver = run
        state = buf.state
        state[STOPPED] = 0
        state[NODE_LIMIT] = node_limit
        state[DEADLINE] = deadline_ns
        state[ROOT_PLY] = ply
        state[ROOT_PN] = 1
        state[ROOT_DN] = 1
        if self.stopping.is_set():
            state[DEADLINE] = 0
        args = (size, own, enemy, attacker_to_move, INFINITY, INFINITY, ply, buf, self.table)
        if not interruptible:
            return mid(*args), False
        spent_nodes, spent_seconds = self.spent
        paused = [False]

        def halt():
            state[DEADLINE] = 0  # the kernel reads it every CLOCK_EVERY nodes

        def tick():
            if progress is not None:
                progress(
                    spent_nodes + int(state[NODES]),
                    int(state[ROOT_PN]),
                    int(state[ROOT_DN]),
                    spent_seconds + _time.monotonic() - started,
                )
            if saver is not None and not paused[0] and _time.monotonic() >= saver.due:
                paused[0] = True
                halt()

        poll = 1.0 if saver is None else min(1.0, max(0.01, saver.due - _time.monotonic()))
        work = workers.run([lambda: mid(*args)], halt, poll, tick=tick)
        if work.interrupted:
            raise KeyboardInterrupt
        return work.results[0], paused[0]

    def prove(
        self,
        board,
        nodes: int | None = None,
        seconds: float | None = None,
        progress=None,
        interruptible: bool = True,
        checkpoint: str | os.PathLike | None = None,
        checkpoint_every: float = DEFAULT_CHECKPOINT_EVERY,
        shortest: bool = False,
    ) -> ProofResult:
        """Prove ``board``'s position won for one side, within ``nodes`` positions and
        ``seconds`` (None: no limit). ``progress(nodes, pn, dn, seconds)`` is called
        about once a second (interruptible runs only). ``interruptible``: run in a
        worker thread that Ctrl-C stops (raising KeyboardInterrupt once it has).

        ``checkpoint``: a file to save the table and counters to, every
        ``checkpoint_every`` seconds (interruptible runs), at the end and on Ctrl-C; if
        it exists, the run starts from it (its table replaces this prover's), and the
        result's nodes and seconds count those of the runs before. The limits apply
        to this run. HingeError if the file is not a checkpoint of this position.

        ``shortest``: once a side is proven, find its shortest win (the distance under
        the loser's longest defence) by runs bounded in plies, and set the result's
        ``shortest`` when found within the limits."""
        if self.threads > 1:
            if checkpoint is not None:
                raise HingeError("a checkpoint is kept by a run on one thread only")
            if shortest:
                raise HingeError("the shortest win is searched on one thread only")
            return prove_split(self, board, nodes, seconds, progress)
        size = board.size
        self.spent = (0, 0.0)
        if checkpoint is not None and os.path.exists(checkpoint):
            saved = load_checkpoint(checkpoint, board.fen())
            self.table = saved.table
            self.table_mb = len(saved.table.keys) / TABLE_SLOTS
            self.spent = (saved.nodes, saved.seconds)
        buf = self._prepare(size)
        self.stopping.clear()
        own, enemy = as_sets(size, board.own, board.enemy)
        started = _time.monotonic()
        deadline = (1 << 62) if seconds is None else _time.monotonic_ns() + int(seconds * 1e9)
        limit = (1 << 62) if nodes is None else int(nodes)
        buf.state[NODES] = 0
        buf.state[DEEPEST] = 0
        saver = (
            None
            if checkpoint is None
            else _Saver(self, checkpoint, board.fen(), started, checkpoint_every)
        )
        run = ProveRun(size, buf, deadline, limit, progress, started, interruptible, saver)
        try:
            result = self._prove(board, run, own, enemy)
            if shortest and result.winner is not None:
                self._shortest(result, run, own, enemy)
        except KeyboardInterrupt:
            if saver is not None:
                saver.save(buf)
            raise
        if saver is not None:
            saver.save(buf)
        return result

    def _prove(self, board, run, own, enemy):
        buf, started = run.buf, run.started
        mover = board.turn
        pn, dn, distance, loop = self._run(run, own, enemy, True, 0)
        root_pn, root_dn = pn, dn
        root_moves = self._root_moves(board, buf)
        winner = None
        repetition = False
        if pn == 0:
            winner = mover
        elif dn == 0 and not loop:
            winner = mover.other
        elif dn == 0:
            # Not a win for the side to move, by a line that repeats: does the other side win?
            left = run.node_limit - int(buf.state[NODES])
            if left > 0:
                p2, d2, distance2, _ = self._run(run, own, enemy, False, 0)
                if d2 == 0:
                    winner, distance = mover.other, distance2
                elif p2 == INFINITY:
                    repetition = True
        complete = winner is not None or repetition
        spent_nodes, spent_seconds = self.spent
        return ProofResult(
            position=board.fen(),
            winner=winner,
            distance=int(distance) if winner is not None else None,
            nodes=spent_nodes + int(buf.state[NODES]),
            seconds=spent_seconds + _time.monotonic() - started,
            complete=complete,
            pn=int(root_pn),
            dn=int(root_dn),
            root_moves=root_moves,
            repetition=repetition,
        )

    def _shortest(self, result, run, own, enemy):
        """Bounded runs with the winner as attacker, its win to end within d plies,
        d = 1 or 2, then 2 more each run, until one is proven: that d is the shortest
        win (every d before it was disproven). ``result`` gets the distance and
        ``shortest`` then."""
        buf, started = run.buf, run.started
        board = Board.from_fen(result.position)
        attacker_to_move = result.winner == board.turn
        bound = 1 if attacker_to_move else 2
        try:
            while bound < PLIES:
                buf.state[HORIZON] = bound
                pn, dn, distance, _ = self._run(run, own, enemy, attacker_to_move, 0)
                if pn == 0:
                    result.distance = int(distance)
                    result.shortest = True
                    break
                if dn != 0:  # stopped at a limit
                    break
                bound += 2
        finally:
            buf.state[HORIZON] = 0
        spent_nodes, spent_seconds = self.spent
        result.nodes = spent_nodes + int(buf.state[NODES])
        result.seconds = spent_seconds + _time.monotonic() - started
        self.shortest_known[(result.position, str(result.winner))] = result.distance

    def _root_moves(self, board, buf):
        """The root's moves and their numbers, as the last run left them (ply 0)."""
        out = []
        codes = board.legal_codes
        n = len(codes)
        moves = buf.moves[0, :n]
        if n == 0 or not np.array_equal(np.sort(moves), np.sort(codes)):
            return out
        first = {}  # a child's key -> the first move to it: images of one child count once
        for i in range(n):
            # The child's numbers are for the attacker (the side to move at the root).
            k = first.setdefault(int(buf.child_key[0, i]), i)
            p, d = int(buf.child_pn[0, k]), int(buf.child_dn[0, k])
            winner = (
                board.turn
                if p == 0
                else board.turn.other
                if d == 0 and not buf.child_loop[0, k]
                else None
            )
            distance = int(buf.child_distance[0, k]) + 1 if winner is not None else None
            out.append(RootMove(board.move_from_code(int(moves[i])), winner, distance, p, d))
        return out

    # ----- the proof: the winner's strategy, every reply of the loser covered ----------------
    def proof(
        self,
        board,
        winner=None,
        nodes: int | None = None,
        seconds: float | None = None,
        shortest: bool = False,
    ):
        """The winner's strategy from ``board``: a ``Proof`` (its positions with the
        winner to move, each with the winner's move), made by following the proven
        results of a run in which the winner is the attacker and searching again where
        the table lost them. ``winner``: the side ``prove`` found (found here when
        None). ``shortest``: a proof whose longest line is the shortest win, followed
        through the results of ``prove(..., shortest=True)``'s bounded runs. HingeError
        when no side is proven (or, with ``shortest``, its shortest win not found)
        within the limits. With threads: as ``prover_split.split_proof`` writes it."""
        if self.threads > 1:
            if shortest:
                raise HingeError("the shortest win is searched on one thread only")
            return split_proof(self, board, winner, nodes, seconds)
        horizon = 0
        if shortest:
            known = self.shortest_known.get((board.fen(), str(winner)))
            if known is None:
                result = self.prove(board, nodes=nodes, seconds=seconds, shortest=True)
                if result.winner is None or not result.shortest:
                    raise HingeError("the shortest win is not proven within the limits")
                winner, known = result.winner, result.distance
                # result.winner is not None: a proven result has the distance of its proof
                assert known is not None
            horizon = known
        elif winner is None:
            winner = self.prove(board, nodes=nodes, seconds=seconds).winner
            if winner is None:
                raise HingeError("no side is proven to win this position within the limits")
        size = board.size
        buf = self._prepare(size)
        self.stopping.clear()
        words = int(SHIFT_WORDS_OF[size])
        walk = _Walk(
            self,
            size,
            words,
            buf,
            Board(size),
            winner,
            (1 << 62) if nodes is None else int(nodes),
            (1 << 62) if seconds is None else _time.monotonic_ns() + int(seconds * 1e9),
            horizon,
        )
        own, enemy = as_sets(size, board.own, board.enemy)
        buf.state[NODES] = 0
        try:
            buf.state[HORIZON] = horizon
            if board.turn != winner and not horizon:
                # The winner must be the attacker of the run whose results are followed.
                self._run(walk.run(), own, enemy, False, 0)
            root = (own, enemy, int(board.turn))
            distance = walk.visit(own, enemy, board.turn, 0)
        finally:
            buf.state[HORIZON] = 0
        if walk.redone:
            distance = walk.tidy(root)
        return Proof(board.fen(), winner, distance, walk.strategy)


class _Saver:
    """When and where a run saves its checkpoint."""

    def __init__(self, prover, path, position, started, every):
        self.prover = prover
        self.path = path
        self.position = position
        self.started = started
        self.every = every
        self.due = _time.monotonic() + every

    def save(self, buf):
        spent_nodes, spent_seconds = self.prover.spent
        save_checkpoint(
            self.path,
            self.position,
            self.prover.table,
            spent_nodes + int(buf.state[NODES]),
            spent_seconds + _time.monotonic() - self.started,
        )
        self.due = _time.monotonic() + self.every


class _Walk:
    """Following a proven run from a position, as ``Prover.proof`` does. With a
    ``horizon`` (a bounded proof), a position reached again closer to the horizon than
    its strategy's longest line allows is walked again there, and ``tidy`` then keeps
    only the strategy's reachable positions."""

    def __init__(self, prover, size, words, buf, decoder, winner, node_limit, deadline, horizon=0):
        self.prover = prover
        self.size = size
        self.words = words
        self.buf = buf
        self.decoder = decoder
        self.winner = winner
        self.node_limit = node_limit
        self.deadline = deadline
        self.horizon = horizon
        self.redone = False
        self.strategy = {}
        self.done = {}
        self.open = set()
        self.line = []
        self.chosen = {}  # a winner's position -> (its position string, the child chosen)
        self.replies = {}  # a loser's position -> its children
        self.keys = np.zeros((PLIES, MAX_MOVES), dtype=np.uint64)
        self.status = np.zeros((PLIES, MAX_MOVES), dtype=np.int64)
        self.distances = np.zeros((PLIES, MAX_MOVES), dtype=np.int64)
        self.theirs = np.zeros((PLIES, MAX_MOVES, words), dtype=np.uint64)
        self.ours = np.zeros((PLIES, MAX_MOVES, words), dtype=np.uint64)

    def run(self):
        """A ``ProveRun`` of the walk's limits, interruptible, from now."""
        return ProveRun(
            self.size, self.buf, self.deadline, self.node_limit, None, _time.monotonic(), True
        )

    def fen(self, own, enemy, turn):
        a = np.zeros(NWORDS, dtype=np.uint64)
        b = np.zeros(NWORDS, dtype=np.uint64)
        bitboard_of(self.size, own, a)
        bitboard_of(self.size, enemy, b)
        green, blue = (a, b) if turn == Color.GREEN else (b, a)
        return format_fen(
            self.size, bitboard_cells(tuple(green)), bitboard_cells(tuple(blue)), int(turn)
        )

    def children(self, own, enemy, attacker_to_move, ply):
        return children_of(
            self.size,
            own,
            enemy,
            attacker_to_move,
            ply,
            self.buf,
            self.prover.table,
            self.keys[ply],
            self.status[ply],
            self.distances[ply],
            self.theirs[ply],
            self.ours[ply],
        )

    def child(self, ply, i):
        return tuple(U64(w) for w in self.theirs[ply, i]), tuple(U64(w) for w in self.ours[ply, i])

    def visit(self, own, enemy, turn, ply):
        """The distance of the proof below ``(own, enemy)``, ``turn`` to move; the
        winner's moves go to ``strategy``."""
        seen = (own, enemy, int(turn))
        if seen in self.done:
            if not self.horizon or self.done[seen] <= self.horizon - ply:
                return self.done[seen]
            self.redone = True  # too long from here: walked again, closer to the horizon
        if seen in self.open or ply >= PLIES - 1:
            raise HingeError("the proof found repeats a position: no proof written")
        self.open.add(seen)
        winner_to_move = turn == self.winner
        key = key_of(self.size, own, enemy, winner_to_move, self.buf)
        self.line.append(key)
        if winner_to_move:
            choice = self.winning_child(own, enemy, ply)
            if choice < 0:
                self.buf.line[: ply + 1] = self.line
                self.prover._run(self.run(), own, enemy, True, ply)
                choice = self.winning_child(own, enemy, ply)
            if choice < 0:
                raise HingeError(
                    "the proof could not be completed within the limits: no proof written"
                )
            move = self.decoder.move_from_code(int(self.buf.moves[ply, choice]))
            fen = self.fen(own, enemy, turn)
            self.strategy[fen] = str(move)
            their, ours = self.child(ply, choice)
            self.chosen[seen] = (fen, (their, ours, int(turn.other)))
            distance = 1 + self.visit(their, ours, turn.other, ply + 1)
        else:
            n = self.children(own, enemy, False, ply)
            children = [self.child(ply, i) for i in range(n)]
            self.replies[seen] = [(their, ours, int(turn.other)) for their, ours in children]
            distance = 0
            for their, ours in children:
                distance = max(distance, 1 + self.visit(their, ours, turn.other, ply + 1))
        self.line.pop()
        self.open.discard(seen)
        self.done[seen] = distance
        return distance

    def tidy(self, root):
        """After positions were walked again: the strategy cut to the positions
        reachable from ``root``, and its longest line (returned)."""
        longest = {}
        strategy = {}

        def measure(seen):
            if seen not in longest:
                if seen in self.chosen:
                    fen, child = self.chosen[seen]
                    strategy[fen] = self.strategy[fen]
                    longest[seen] = 1 + measure(child)
                else:
                    longest[seen] = max((1 + measure(c) for c in self.replies[seen]), default=0)
            return longest[seen]

        distance = measure(root)
        self.strategy = strategy
        return distance

    def winning_child(self, own, enemy, ply):
        """The index of the winner's move to a proven child off the line, the
        shortest known; -1 if none."""
        n = self.children(own, enemy, True, ply)
        on_line = set(self.line)
        best = -1
        for i in range(n):
            if self.status[ply, i] == 1 and self.keys[ply, i] not in on_line:
                if best < 0 or self.distances[ply, i] < self.distances[ply, best]:
                    best = i
        if best < 0 and ply + 1 < PLIES:
            # The kernels keep no entry for a position without a legal move: look.
            for i in range(n):
                their, ours = self.child(ply, i)
                if self.children(their, ours, False, ply + 1) == 0:
                    self.children(own, enemy, True, ply)
                    return i
        return best
