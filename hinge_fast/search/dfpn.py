"""The kernels of the prover: depth-first proof-number search (df-pn, Nagai 2002) that
proves a position won or lost, over the move list of ``core/moves.py``.

The driver (``Prover``, proofs, limits, Ctrl-C) is ``search/prover.py``.

How it works
------------
* **Attacker and defender.** A run proves that one side, the *attacker*, wins: a node
  with the attacker to move is an OR node (one winning move is enough), one with the
  defender to move an AND node (every reply must lose). Its proof number (pn) and
  disproof number (dn) are the usual ones; pn = 0 is a proven attacker win, dn = 0 a
  disproof. The game's ends are those of rules.md: the side to move loses when it has
  no legal move (eliminated or stuck); a swipe flipping every enemy token wins at
  once, found when the moves are listed.
* **df-pn with the 1+epsilon trick** (Pawlewicz and Lew): the child searched next gets
  the threshold ``min(t, pn2 * (1 + 1/4) + 1)`` of the second-best sibling instead of
  ``pn2 + 1``, so the search switches between siblings less often. Of children with
  the same least number, the one with the largest other number (at the attacker's
  turn, the disproof number) is searched.
* **Children kept per ply.** A node lists its moves once per visit and keeps each
  child's (pn, dn) in the per-ply buffers, read from the transposition table when the
  node is entered and updated from the recursion; the table is only read there.
* **Cycles.** Swipes can bring a position back. A position that repeats one on the
  current line (up to symmetry) is not a win for the attacker, and a line deeper than
  ``PLIES`` neither. A disproof that depends on such a repetition holds for this line
  only (the graph history interaction problem): it is passed up but never stored in
  the table, so the table holds path-independent results only. Proofs never depend on
  a repetition, so every proof is sound; a disproof free of repetitions is a proof that
  the defender wins.
* **Transposition table**: ``TABLE_SLOTS`` entries per MB, four-way buckets; an
  entry keeps its position's key, pn, dn, the distance of a proven result and the work
  (nodes) spent on it; a new entry replaces the one of least work in its bucket. Keys
  fold the board's 12 symmetries and the colours: the key of a position is the least
  of the Zobrist keys of its 12 images, the tokens keyed as the attacker's and the
  defender's, plus who is to move.
* **Symmetric nodes.** When a symmetry maps a node's position onto itself (all its
  images have the same key), moves can lead to images of one child. Only the first of
  them counts: the others are left at the numbers that neither choose nor sum them
  (pn INFINITY, dn 0 at an OR node; pn 0, dn INFINITY at an AND node), so the node's
  sums count each child once.
* **Initial numbers** from cheap knowledge: a child reached by a swipe starts at 1 for
  the mover and at one more per flipped token (up to 3) for the other side, a
  placement at 2 for the mover and 1 for the other side, so forcing moves are tried
  first. A child in which the mover threatens to flip every enemy token next (the
  enemy is one group and a swipe reaches it) starts at 1 for the mover and
  ``THREAT_FACTOR`` times the other side's number. Mobility (df-pn+): the mover's
  number is then multiplied by the replies of the child's side to move divided by
  ``MOBILITY_STEP``, rounded up, since a win for the mover must answer each of them.
  The evaluation (``evaluate.classic_score`` of the child): the number of the side it
  does not favour is doubled (both at 0). Deep df-pn (Zhang, Iida and van den Herik
  2017): a child at depth d below the run's root has its numbers multiplied by
  ``max(DEEP_DEPTH - d, 1)``, so the search goes deep before it goes wide.
* **Wins one ply ahead.** When a node lists its children, a child whose side to move
  can flip every token of the other at once (only possible when those tokens are one
  group) is a win for that side: it is settled and stored as its own search would
  store it, without being searched. A child whose side to move has no legal move is
  lost for that side: settled and stored too. These checks and the
  threat of the initial numbers take the answers of the child's evaluation terms
  (``terms.position_terms``: its side to move's replies, and the largest group of each
  side that the other's swipes reach), computed for its initial numbers anyway.
* **Threats without an answer.** A child in which the mover threatens to flip every
  enemy token next, and no reply of the child's side to move leaves it unable to (each
  is listed and tried, ``parried``), is won for the mover in two plies: settled and
  stored the same way.
* **Distance**: a proven node's distance is the number of plies to the end of the game
  along its proof: at the winner's turn one more than the child it was proven by (the
  shortest known), at the loser's one more than the longest child. It bounds the exact
  distance of docs/solve.md from above.
* **Bounded runs** (``HORIZON``): with the state's ``HORIZON`` at h > 0, a win counts
  for the attacker only if it ends by ply h of the line (a node at ply h or beyond, the
  game not over, is not won for the attacker); the table keys are then xor-ed with
  ``BOUND_KEYS`` of the plies left, so each entry holds the result of its position
  with that many plies left and holds for every line. A run bounded at d that proves
  the root proves a win within d plies; a disproof, that there is none.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.bits import lowest_bit_index64
from ..core.codes import is_swipe
from ..core.geometry import MAX_SIZE, MIN_SIZE
from ..core.jit import njit
from ..core.moves import list_moves, play_move
from ..core.sets import (
    s_andnot,
    s_any,
    s_count,
    s_eq,
    s_lowest,
    s_lowest_index,
    s_row,
)
from ..core.swipes import grow_group
from ..core.symmetry import symmetry_permutations
from ..core.tables import (
    BIT_OF_CELL,
    CELL_OF_BIT,
    GROUP_SLOTS,
    MAX_MOVES,
    SCRATCH_ROWS,
    SHIFT_WORDS,
    SHIFT_WORDS_OF,
)
from .evaluate import TERMS, classic_score
from .intrinsics import monotonic_ns
from .terms import position_terms

#: The index in ``position_terms`` of the largest group of the side to move that the
#: other side's swipes reach, negated.
THREAT_TERM = TERMS.index("threat")

U64 = np.uint64
#: Proof and disproof numbers are below INFINITY; INFINITY is a proven or disproven node.
INFINITY = np.int64(1) << 40
#: Deepest line searched: deeper is not a win for the attacker (and not stored).
PLIES = 160
N_SYMMETRIES = 12
#: Nodes between two readings of the clock.
CLOCK_EVERY = 1024
#: Bucket of the table: a key's entry is in one of this many slots.
BUCKET = 4
#: Table entries per MB (key, pn, dn, meta: 32 bytes each).
TABLE_SLOTS = (1 << 20) // 32

# Slots of ``state``.
NODES = 0
NODE_LIMIT = 1
DEADLINE = 2  # monotonic ns; 0 stops the search now
STOPPED = 3
ROOT_PLY = 4
ROOT_PN = 5
ROOT_DN = 6
DEEPEST = 7
HORIZON = 8  # 0: no bound; else the ply by which the attacker's win must have ended
STATE_SLOTS = 9
#: Deep df-pn: a child this many plies or more above the run's root starts with its
#: numbers times (this minus its depth below the root).
DEEP_DEPTH = 12
#: A child whose mover threatens to flip every enemy token next: its numbers for the
#: other side are this many times the move's.
THREAT_FACTOR = 3
#: Mobility: a child's number for the mover is times its replies divided by this,
#: rounded up.
MOBILITY_STEP = 6


def _symmetry_keys():
    """``SYMMETRY_KEYS[S, s, role, bit]``: the Zobrist key of a token of ``role`` (0
    attacker, 1 defender) on the image under symmetry ``s`` of shift-layout bit ``bit``
    of side S; ``TURN_KEY``: the attacker is to move."""
    rng = np.random.Generator(np.random.PCG64(0x50726F6F66))
    table = np.zeros((MAX_SIZE + 1, N_SYMMETRIES, 2, 64 * SHIFT_WORDS), dtype=np.uint64)
    for size in range(MIN_SIZE, MAX_SIZE + 1):
        perms = symmetry_permutations(size)
        base = rng.integers(1, 2**63, size=(2, perms.shape[1]), dtype=np.uint64) * U64(2) + U64(1)
        for s in range(N_SYMMETRIES):
            for cell in range(perms.shape[1]):
                table[size, s, :, BIT_OF_CELL[size, cell]] = base[:, perms[s, cell]]
    table.setflags(write=False)
    return table, U64(int(rng.integers(1, 2**63)) | 1)


SYMMETRY_KEYS, TURN_KEY = _symmetry_keys()


def _bound_keys():
    """``BOUND_KEYS[r]``: what a table key is xor-ed with in a bounded run when the
    attacker has ``r`` plies left to win in (nonzero, odd)."""
    rng = np.random.Generator(np.random.PCG64(0x426F756E64))
    keys = rng.integers(1, 2**63, size=PLIES + 1, dtype=np.uint64) * U64(2) + U64(1)
    keys.setflags(write=False)
    return keys


BOUND_KEYS = _bound_keys()


@njit(cache=True, inline="always")
def bound_mix(horizon, ply):
    """The key mix of a node at ``ply`` when the attacker's win must end by ply
    ``horizon`` (0: no bound, no mix)."""
    if horizon == 0:
        return U64(0)
    return BOUND_KEYS[max(horizon - ply, 0)]


class ProverBuffers(NamedTuple):
    """What the prover kernels write, per ply: the moves, their flipped groups and the
    children's numbers; the line's keys; scratch of the move lister."""

    moves: np.ndarray  # int64 [PLIES, MAX_MOVES]
    flips: np.ndarray  # uint64 [PLIES, MAX_MOVES, words]
    child_pn: np.ndarray  # int64 [PLIES, MAX_MOVES]
    child_dn: np.ndarray  # int64 [PLIES, MAX_MOVES]
    child_distance: np.ndarray  # int64 [PLIES, MAX_MOVES]
    child_loop: np.ndarray  # uint8 [PLIES, MAX_MOVES]: a disproof that depends on the line
    child_key: np.ndarray  # uint64 [PLIES, MAX_MOVES]: the children's table keys
    line: np.ndarray  # uint64 [PLIES]: the key of each position of the line
    symmetric: np.ndarray  # uint64 [N_SYMMETRIES]: a node's keys of its images
    scratch: np.ndarray  # uint64 [SCRATCH_ROWS, SHIFT_WORDS]
    group_of_bit: np.ndarray  # int16 [GROUP_SLOTS]
    state: np.ndarray  # int64 [STATE_SLOTS]


def new_buffers(size: int) -> ProverBuffers:
    """Fresh buffers for side ``size`` (the flipped groups in its words)."""
    return ProverBuffers(
        moves=np.zeros((PLIES, MAX_MOVES), dtype=np.int64),
        flips=np.zeros((PLIES, MAX_MOVES, SHIFT_WORDS_OF[size]), dtype=np.uint64),
        child_pn=np.zeros((PLIES, MAX_MOVES), dtype=np.int64),
        child_dn=np.zeros((PLIES, MAX_MOVES), dtype=np.int64),
        child_distance=np.zeros((PLIES, MAX_MOVES), dtype=np.int64),
        child_loop=np.zeros((PLIES, MAX_MOVES), dtype=np.uint8),
        child_key=np.zeros((PLIES, MAX_MOVES), dtype=np.uint64),
        line=np.zeros(PLIES, dtype=np.uint64),
        symmetric=np.zeros(N_SYMMETRIES, dtype=np.uint64),
        scratch=np.zeros((SCRATCH_ROWS, SHIFT_WORDS), dtype=np.uint64),
        group_of_bit=np.zeros(GROUP_SLOTS, dtype=np.int16),
        state=np.zeros(STATE_SLOTS, dtype=np.int64),
    )


class ProofTable(NamedTuple):
    """The transposition table: four arrays of one entry per slot."""

    keys: np.ndarray  # uint64; 0: empty
    pn: np.ndarray  # int64
    dn: np.ndarray  # int64
    meta: np.ndarray  # int64: distance (low 16 bits) and work (the rest)


def new_table(megabytes: float) -> ProofTable:
    """An empty table of about ``megabytes`` MB (a power of two of entries, at least 16)."""
    slots = 1 << max(4, int(megabytes * TABLE_SLOTS).bit_length() - 1)
    return ProofTable(
        np.zeros(slots, dtype=np.uint64),
        np.zeros(slots, dtype=np.int64),
        np.zeros(slots, dtype=np.int64),
        np.zeros(slots, dtype=np.int64),
    )


@njit(cache=True)
def proof_key(size, own, enemy, attacker_to_move, symmetric):
    """The table key of ``(own, enemy)`` (sets of the shift layout, ``own`` to move):
    the least key of its 12 images, the tokens keyed by role, plus the turn."""
    own_role = 0 if attacker_to_move else 1
    for s in range(N_SYMMETRIES):
        symmetric[s] = U64(0)
    for role in range(2):
        rest = own if role == own_role else enemy
        while s_any(rest):
            b = s_lowest_index(rest)
            rest = s_andnot(rest, s_lowest(rest))
            for s in range(N_SYMMETRIES):
                symmetric[s] ^= SYMMETRY_KEYS[size, s, role, b]
    best = symmetric[0]
    for s in range(1, N_SYMMETRIES):
        if symmetric[s] < best:
            best = symmetric[s]
    if attacker_to_move:
        best ^= TURN_KEY
    if best == U64(0):
        best = U64(1)
    return best


@njit(cache=True, inline="always")
def table_find(table, key):
    """The slot of ``key`` in the table, or -1."""
    base = np.int64(key & U64(len(table.keys) - 1)) & ~np.int64(BUCKET - 1)
    for j in range(BUCKET):
        if table.keys[base + j] == key:
            return base + j
    return np.int64(-1)


@njit(cache=True)
def table_put(table, key, pn, dn, distance, work):
    """Store an entry: over the key's own, else over the bucket's entry of least work."""
    base = np.int64(key & U64(len(table.keys) - 1)) & ~np.int64(BUCKET - 1)
    victim = base
    least = np.int64(1) << 62
    for j in range(BUCKET):
        slot = base + j
        if table.keys[slot] == key:
            victim = slot
            work += table.meta[slot] >> 16
            break
        if table.keys[slot] == U64(0):
            if least > -1:
                victim = slot
                least = -1
        elif (table.meta[slot] >> 16) < least:
            victim = slot
            least = table.meta[slot] >> 16
    table.keys[victim] = key
    table.pn[victim] = pn
    table.dn[victim] = dn
    table.meta[victim] = (min(work, np.int64(1) << 46) << 16) | min(distance, 0xFFFF)


@njit(cache=True, inline="always")
def out_of_budget(state):
    """Count a node; True when the node limit or the deadline has been reached (or
    ``DEADLINE`` was set to 0 to stop)."""
    state[NODES] += 1
    if state[STOPPED]:
        return True
    if state[NODES] >= state[NODE_LIMIT]:
        state[STOPPED] = 1
    elif state[NODES] % CLOCK_EVERY == 0 and monotonic_ns() >= state[DEADLINE]:
        state[STOPPED] = 1
    return state[STOPPED] != 0


@njit(cache=True, inline="always")
def capped(value):
    """A sum of numbers, kept at INFINITY once it reaches it."""
    return value if value < INFINITY else INFINITY


@njit(cache=True, inline="always")
def most_proving(numbers, others, n):
    """``(least, second, best, total)``: the least of the children's ``numbers[:n]`` (at
    a node of the attacker, their proof numbers; else their disproof numbers), the
    second least, the index of the least (of several, the first with the largest of
    ``others``: the child hardest to refute), and the capped sum of their ``others``.
    With no child, INFINITY, INFINITY, 0 and 0."""
    least = INFINITY
    second = INFINITY
    best = 0
    total = np.int64(0)
    for i in range(n):
        if numbers[i] < least:
            second = least
            least = numbers[i]
            best = i
        elif numbers[i] == least and others[i] > others[best]:
            second = least
            best = i
        elif numbers[i] < second:
            second = numbers[i]
        total = capped(total + others[i])
    return least, second, best, total


@njit(cache=True, inline="always")
def mover_wins_at_once(size, own, enemy, ply, buf):
    """``own`` (to move) has a swipe flipping every token of ``enemy`` (listed in the
    rows of ``ply``, which the caller does not use yet): only when ``enemy`` is one
    group."""
    group, _ = grow_group(enemy, s_lowest(enemy), U64(2 * size - 1))
    if not s_eq(group, enemy):
        return False
    found = list_moves(
        size,
        own,
        enemy,
        buf.moves[ply],
        buf.flips[ply],
        buf.scratch,
        buf.group_of_bit,
        s_count(enemy),
    )
    return found > 0


@njit(cache=True, inline="always")
def parried(size, own, enemy, ply, buf):
    """``own`` (to move) has a reply after which ``enemy`` cannot flip every token of
    ``own`` at once (listed in the rows of ``ply`` and ``ply + 1``, which the caller
    does not use yet). False when ``own`` has no legal move."""
    moves = buf.moves[ply]
    flips = buf.flips[ply]
    n = list_moves(size, own, enemy, moves, flips, buf.scratch, buf.group_of_bit, 0)
    for i in range(n):
        their, ours = play_move(size, own, enemy, moves[i], s_row(flips, i, own))
        if not s_any(ours) or not mover_wins_at_once(size, their, ours, ply + 1, buf):
            return True
    return False


@njit(cache=True, inline="always")
def settle_child(table, key, i, attacker_wins, distance, buf, ply):
    """Settle child ``i`` of the node at ``ply`` without searching it: won for the
    attacker when ``attacker_wins`` (pn 0), else for the defender (dn 0), in
    ``distance`` plies; stored under ``key`` as the child's own search would store it
    (so that the proof, which reads the table, knows it too)."""
    if attacker_wins:
        buf.child_pn[ply, i] = 0
        buf.child_dn[ply, i] = INFINITY
    else:
        buf.child_pn[ply, i] = INFINITY
        buf.child_dn[ply, i] = 0
    buf.child_distance[ply, i] = distance
    table_put(
        table,
        key,
        buf.child_pn[ply, i],
        buf.child_dn[ply, i],
        np.int64(distance),
        np.int64(1),
    )


@njit(cache=True, nogil=True)
def mid(size, own, enemy, attacker_to_move, limit_pn, limit_dn, ply, buf, table):
    """Search the position ``(own, enemy)`` (``own`` to move; the attacker when
    ``attacker_to_move``) until its proof number reaches ``limit_pn`` or its disproof
    number ``limit_dn`` (df-pn's multiple iterative deepening). Returns ``(pn, dn,
    distance, loop)``: ``loop`` 1 for a disproof that depends on the line
    (``buf.line[:ply]``, which the caller filled). Stores its result in the table,
    unless ``loop``."""
    state = buf.state
    key = proof_key(size, own, enemy, attacker_to_move, buf.symmetric)
    buf.line[ply] = key
    horizon = state[HORIZON]
    table_key = key ^ bound_mix(horizon, ply)
    child_mix = bound_mix(horizon, ply + 1)
    # A position that some symmetry maps onto itself has children that are images of
    # each other: they count once.
    symmetric_node = False
    for s in range(1, N_SYMMETRIES):
        if buf.symmetric[s] == buf.symmetric[0]:
            symmetric_node = True
            break
    if ply > state[DEEPEST]:
        state[DEEPEST] = ply
    before = state[NODES]
    out_of_budget(state)
    moves = buf.moves[ply]
    flips = buf.flips[ply]
    n = list_moves(size, own, enemy, moves, flips, buf.scratch, buf.group_of_bit, 0)
    if n == 0:  # no legal move: the side to move has lost
        if attacker_to_move:
            return INFINITY, np.int64(0), np.int64(0), np.int64(0)
        return np.int64(0), INFINITY, np.int64(0), np.int64(0)
    if horizon != 0 and ply >= horizon:  # the game goes on past the bound: not a win in it
        return INFINITY, np.int64(0), np.int64(0), np.int64(0)
    enemy_count = s_count(enemy)
    for i in range(n):
        if not is_swipe(moves[i]):
            break
        if s_count(s_row(flips, i, own)) == enemy_count:  # it flips every enemy token: a win
            if attacker_to_move:
                table_put(table, table_key, np.int64(0), INFINITY, np.int64(1), np.int64(1))
                return np.int64(0), INFINITY, np.int64(1), np.int64(0)
            table_put(table, table_key, INFINITY, np.int64(0), np.int64(1), np.int64(1))
            return INFINITY, np.int64(0), np.int64(1), np.int64(0)
    if ply >= PLIES - 1:  # too deep: not a win for the attacker, on this line
        return INFINITY, np.int64(0), np.int64(0), np.int64(1)
    child_pn = buf.child_pn[ply]
    child_dn = buf.child_dn[ply]
    child_distance = buf.child_distance[ply]
    child_loop = buf.child_loop[ply]
    child_key = buf.child_key[ply]
    # The children's numbers: from the table, else from the move.
    for i in range(n):
        flipped = s_row(flips, i, own)
        their, ours = play_move(size, own, enemy, moves[i], flipped)
        child = proof_key(size, their, ours, not attacker_to_move, buf.symmetric)
        child_key[i] = child
        child_loop[i] = 0
        child_distance[i] = 0
        if symmetric_node:
            image = False
            for j in range(i):
                if child_key[j] == child:
                    image = True
                    break
            if image:  # neither chosen nor counted
                child_pn[i] = INFINITY if attacker_to_move else 0
                child_dn[i] = 0 if attacker_to_move else INFINITY
                continue
        repeated = False
        j = ply - 1
        while j >= 0:
            if buf.line[j] == child:
                repeated = True
                break
            j -= 1
        if repeated:
            child_pn[i] = INFINITY
            child_dn[i] = 0
            child_loop[i] = 1
            continue
        slot = table_find(table, child ^ child_mix)
        if slot >= 0:
            child_pn[i] = table.pn[slot]
            child_dn[i] = table.dn[slot]
            child_distance[i] = table.meta[slot] & 0xFFFF
            continue
        # The evaluation's terms of the child, its side to move's replies and whether
        # it can flip every token of ours at once; the terms also say whether we could
        # flip every token of theirs (the largest of their groups our swipes reach).
        terms, replies, can_eliminate = position_terms(size, their, ours)
        if can_eliminate and ply + 1 < PLIES - 1 and (horizon == 0 or horizon - ply >= 2):
            # The child's mover flips every token of ours at once: the child is won for it.
            settle_child(table, child ^ child_mix, i, not attacker_to_move, 1, buf, ply)
            continue
        if is_swipe(moves[i]):
            for_mover = np.int64(1)
            for_other = np.int64(1) + min(s_count(flipped), np.int64(3))
        else:
            for_mover = np.int64(2)
            for_other = np.int64(1)
        if replies == 0:  # the child's side to move has no legal move: the mover has won
            settle_child(table, child ^ child_mix, i, attacker_to_move, 0, buf, ply)
            continue
        their_count = s_count(their)
        if ply + 1 < PLIES - 1 and their_count > 0 and -terms[THREAT_TERM] == their_count:
            # A threat: we would flip every token of theirs next, so they must answer it.
            if (
                ply + 2 < PLIES - 1
                and (horizon == 0 or horizon - ply >= 3)
                and not parried(size, their, ours, ply + 1, buf)
            ):
                # No reply answers it: the child is won for the mover in two plies.
                settle_child(table, child ^ child_mix, i, attacker_to_move, 2, buf, ply)
                continue
            for_mover = np.int64(1)
            for_other *= THREAT_FACTOR
        # Mobility: the more replies the child's side to move has, the more work a win
        # for the mover takes there.
        for_mover *= (replies + MOBILITY_STEP - 1) // MOBILITY_STEP
        # The evaluation: the side it does not favour in the child has its number doubled.
        score = classic_score(terms)
        if score >= 0:
            for_mover *= 2
        if score <= 0:
            for_other *= 2
        # Deep df-pn: the shallower the child, the larger its numbers.
        factor = max(DEEP_DEPTH - (ply - state[ROOT_PLY]), np.int64(1))
        if attacker_to_move:
            child_pn[i] = for_mover * factor
            child_dn[i] = for_other * factor
        else:
            child_pn[i] = for_other * factor
            child_dn[i] = for_mover * factor
    pn = np.int64(0)
    dn = np.int64(0)
    while True:
        # The node's numbers and its most proving child.
        if attacker_to_move:
            pn, second, best, dn = most_proving(child_pn, child_dn, n)
        else:
            dn, second, best, pn = most_proving(child_dn, child_pn, n)
        if pn >= limit_pn or dn >= limit_dn or pn == 0 or dn == 0:
            break
        if state[STOPPED]:
            break
        if ply == state[ROOT_PLY]:
            state[ROOT_PN] = pn
            state[ROOT_DN] = dn
        # 1+epsilon: the child may run until it is a quarter worse than the second best.
        widened = second if second >= INFINITY else min(second + (second >> 2) + 1, INFINITY)
        if attacker_to_move:
            next_pn = min(limit_pn, widened)
            next_dn = capped(limit_dn - dn + child_dn[best])
        else:
            next_dn = min(limit_dn, widened)
            next_pn = capped(limit_pn - pn + child_pn[best])
        flipped = s_row(flips, best, own)
        their, ours = play_move(size, own, enemy, moves[best], flipped)
        p, d, distance, loop = mid(
            size, their, ours, not attacker_to_move, next_pn, next_dn, ply + 1, buf, table
        )
        child_pn[best] = p
        child_dn[best] = d
        child_distance[best] = distance
        child_loop[best] = loop
    if ply == state[ROOT_PLY]:
        state[ROOT_PN] = pn
        state[ROOT_DN] = dn
    # The result's distance and whether it depends on the line.
    distance = np.int64(0)
    loop = np.int64(0)
    attacker_won = pn == 0
    if pn == 0 or dn == 0:
        winner_to_move = (pn == 0) == attacker_to_move
        if winner_to_move:  # the shortest of the children won for the winner, repetition-free
            distance = INFINITY
            for i in range(n):
                won = (
                    child_pn[i] == 0 if attacker_won else (child_dn[i] == 0 and child_loop[i] == 0)
                )
                if won and child_distance[i] < distance:
                    distance = child_distance[i]
            if distance == INFINITY:
                loop = 1
                distance = 0
        else:  # every child is won for the winner: the longest
            for i in range(n):
                if child_loop[i]:
                    loop = 1
                if child_distance[i] > distance:
                    distance = child_distance[i]
        distance += 1
    if loop == 0:
        table_put(table, table_key, pn, dn, distance, state[NODES] - before)
    return pn, dn, distance, loop


@njit(cache=True)
def children_of(
    size, own, enemy, attacker_to_move, ply, buf, table, keys, status, distances, theirs, ours
):
    """The moves of ``(own, enemy)`` to ``buf.moves[ply]`` (their number returned) and,
    per move, the child's key (``proof_key``), its status for the attacker in the table
    (1 proven, -1 disproven, 0 neither: not in the table or not final; under the bound
    of ``buf.state[HORIZON]``) and distance, and the child position ``(theirs[i],
    ours[i])`` (shift-layout words)."""
    mix = bound_mix(buf.state[HORIZON], ply + 1)
    moves = buf.moves[ply]
    flips = buf.flips[ply]
    n = list_moves(size, own, enemy, moves, flips, buf.scratch, buf.group_of_bit, 0)
    enemy_count = s_count(enemy)
    for i in range(n):
        flipped = s_row(flips, i, own)
        their, our = play_move(size, own, enemy, moves[i], flipped)
        for w in range(len(own)):
            theirs[i, w] = their[w]
            ours[i, w] = our[w]
        keys[i] = proof_key(size, their, our, not attacker_to_move, buf.symmetric)
        status[i] = 0
        distances[i] = 0
        if is_swipe(moves[i]) and s_count(flipped) == enemy_count:  # the child has lost
            status[i] = 1 if attacker_to_move else -1
            continue
        slot = table_find(table, keys[i] ^ mix)
        if slot >= 0:
            if table.pn[slot] == 0:
                status[i] = 1
            elif table.dn[slot] == 0:
                status[i] = -1
            distances[i] = table.meta[slot] & 0xFFFF
    return n


@njit(cache=True)
def key_of(size, own, enemy, attacker_to_move, buf):
    """``proof_key`` of a position, as a kernel of its own (for the proof walk)."""
    return proof_key(size, own, enemy, attacker_to_move, buf.symmetric)


@njit(cache=True)
def bitboard_of(size, cells, out):
    """The shift-layout set ``cells`` as a bitboard of cell indices into ``out``."""
    for k in range(len(out)):
        out[k] = U64(0)
    for w in range(len(cells)):
        word = cells[w]
        while word:
            cell = CELL_OF_BIT[size, 64 * w + np.int64(lowest_bit_index64(word))]
            word &= word - U64(1)
            out[cell >> 6] |= U64(1) << U64(cell & 63)
