"""The side-4 tablebase: solve every reachable position, write and read the file, probe.

    >>> from hinge_fast.solving.tablebase import solve, probe
    >>> result = solve("4/1gbb1/1gg1b1/1bb1b2/1bgbg1/1ggg1/4 g", progress=False)
    >>> result.wins + result.losses == result.positions, result.unsolved
    (True, 0)

``hinge-fast solve --size 4`` solves the whole board and writes the file that
``probe(board)`` reads. The method and the file format are described in ``docs/solve.md``; the kernels are in
``hinge_fast.core.retro``. The reader (``Tablebase``, ``probe``) is in
``hinge_fast.search.tablebase``, where the searchers use it, and is re-exported here.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import json
import math
import os
import struct
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..board import Board
from ..errors import HingeError
from ..records.files import write_atomic
from ..search.tablebase import (  # noqa: F401  (the reader lives in the search layer; re-exported here)
    BLOCK_ENTRIES,
    BLOCK_RECORD,
    FORMAT_NAME,
    FORMAT_VERSION,
    MAGIC,
    SIDE,
    TABLEBASE_FILE,
    MoveValue,
    ProbeResult,
    Tablebase,
    default_tablebase_path,
    describe,
    open_tablebase,
    probe,
    retro_kernels,
    side4_masks,
)

# ----- solving ----------------------------------------------------------------------------------


@dataclass
class SolveResult:
    """What ``solve`` found. Counts are of (board, side to move) pairs, symmetric
    positions counted apart, as :data:`KNOWN_FACTS` counts them."""

    values: np.ndarray  # uint8 [3**19]: value code per canonical index (core/retro.py)
    start_index: int  # canonical index of the start position
    start_side: int  # 0 Green, 1 Blue to move at the start
    positions_by_side: tuple[int, int]  # (Green to move, Blue to move)
    wins: int
    losses: int
    unsolved: int  # positions without a forced result (drawn by endless play)
    classes: int  # reachable canonical indices
    seconds: float
    layers: list[dict] = field(default_factory=list)
    classes_by_layer: dict = field(default_factory=dict)  # token count -> sorted canonical indices
    forward_seconds: float = 0.0  # of ``seconds``: the search for the reachable positions

    @property
    def positions(self) -> int:
        return sum(self.positions_by_side)

    def code(self, own: int, enemy: int) -> int:
        retro = retro_kernels()
        return int(self.values[retro.canonical_index(own, enemy)])


def _layer_capacity(tokens: int) -> int:
    """Entries (index, side) a layer of ``tokens`` tokens can hold: at most two per
    position. The arrays are allocated without touching them, so only the part used
    takes memory."""
    retro = retro_kernels()
    return 2 * math.comb(retro.N_CELLS, tokens) * 2**tokens


def solve(start: str | Board | None = None, progress: bool = True) -> SolveResult:
    """Solve every position reachable from ``start`` (default: the empty side-4 board,
    Green to move): a forward search finds them, layer by layer of token count, then
    retrograde analysis solves the layers from the fullest board down.

    ``progress`` shows tqdm progress bars on stderr.
    """
    retro = retro_kernels()
    board = (
        Board(SIDE)
        if start is None
        else (Board.from_fen(start) if isinstance(start, str) else start)
    )
    own, enemy = side4_masks(board)
    side = int(board.turn)
    began = time.perf_counter()
    tokens0 = (own | enemy).bit_count()

    reach = np.zeros(retro.N_INDEX, dtype=np.uint8)
    start_index = int(retro.canonical_index(own, enemy))
    reach[start_index] = 1 << side
    queue = np.empty(_layer_capacity(tokens0), dtype=np.uint32)
    queue[0] = 2 * start_index + side
    queue_len = 1
    layers: dict[int, np.ndarray] = {}
    stats: list[dict] = []
    bar = _bar(progress, total=retro.N_CELLS + 1 - tokens0, desc="reachable layers")
    for tokens in range(tokens0, retro.N_CELLS + 1):
        following = np.empty(
            _layer_capacity(tokens + 1) if tokens < retro.N_CELLS else 1, dtype=np.uint32
        )
        queue_len, following_len = retro.expand_layer(reach, queue, queue_len, following, 0)
        layers[tokens] = retro.distinct_classes(reach, queue[:queue_len])
        stats.append({"tokens": tokens, "classes": len(layers[tokens])})
        queue, queue_len = following, following_len
        bar.set_postfix(tokens=tokens, classes=f"{sum(len(c) for c in layers.values()):,}")
        bar.update(1)
    bar.close()
    del queue, following
    forward_seconds = time.perf_counter() - began

    values = np.zeros(retro.N_INDEX, dtype=np.uint8)
    bar = _bar(progress, total=sum(len(c) for c in layers.values()), desc="solving positions")
    for tokens in range(retro.N_CELLS, tokens0 - 1, -1):
        rounds = _solve_layer(retro, values, layers[tokens], bar)
        stats[tokens - tokens0]["rounds"] = rounds
    bar.close()

    tally = np.zeros((2, 4), dtype=np.int64)
    for tokens in range(tokens0, retro.N_CELLS + 1):
        retro.layer_tally(reach, values, layers[tokens], tally)
    return SolveResult(
        values=values,
        start_index=start_index,
        start_side=side,
        positions_by_side=(int(tally[0, 0]), int(tally[1, 0])),
        wins=int(tally[:, 1].sum()),
        losses=int(tally[:, 2].sum()),
        unsolved=int(tally[:, 3].sum()),
        classes=int(sum(len(c) for c in layers.values())),
        seconds=time.perf_counter() - began,
        layers=stats,
        classes_by_layer=layers,
        forward_seconds=forward_seconds,
    )


def _solve_layer(retro, values, classes, bar) -> int:
    """Solve one layer (all its placements lead to the solved layer above); returns
    the number of retrograde rounds it took."""
    n = len(classes)
    swipe_count = np.zeros(n, dtype=np.uint16)
    min_loss = np.empty(n, dtype=np.uint8)
    max_win = np.empty(n, dtype=np.int16)
    resolved = np.zeros(n, dtype=np.uint8)
    retro.summarise_layer(values, classes, swipe_count, min_loss, max_win, resolved)
    quick = resolved != 0
    values[classes[quick]] = resolved[quick]
    bar.update(int(quick.sum()))
    del resolved, quick
    items = np.flatnonzero(swipe_count)
    if len(items) == 0:
        return 0
    counts = swipe_count[items].astype(np.int64)
    del swipe_count
    offsets = np.zeros(len(items) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    edges = np.empty(int(offsets[-1]), dtype=np.uint32)
    retro.list_swipe_children(classes, items, offsets, edges)
    done = np.zeros(len(items), dtype=np.bool_)
    remaining = len(items)
    round_number = 0
    rounds = 0
    while remaining:
        solved, next_loss, overflow = retro.retrograde_round(
            values, classes, items, offsets, edges, min_loss, max_win, round_number, done
        )
        rounds += 1
        if overflow:
            raise HingeError(
                f"a distance exceeds {retro.MAX_DISTANCE} plies: the one-byte value code cannot hold it"
            )
        remaining -= int(solved)
        bar.update(int(solved))
        if not remaining:
            break
        if solved == 0:
            if next_loss == retro.NO_LOSS:
                break  # the rest can never be solved: drawn by endless play
            round_number = max(round_number + 1, int(next_loss))
        else:
            round_number += 1
        if remaining < len(items) // 2 and len(items) > 100_000:
            keep = ~done
            edges = edges[np.repeat(keep, np.diff(offsets))]
            counts = np.diff(offsets)[keep]
            items = items[keep]
            offsets = np.zeros(len(items) + 1, dtype=np.int64)
            np.cumsum(counts, out=offsets[1:])
            done = np.zeros(len(items), dtype=np.bool_)
    return rounds


class _NoBar:
    def update(self, n=1):
        pass

    def set_postfix(self, **kwargs):
        pass

    def close(self):
        pass


def _bar(progress: bool, total: int, desc: str):
    if not progress:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(
        total=total,
        desc=desc,
        unit=" pos" if "solving" in desc else "",
        unit_scale=True,
        dynamic_ncols=True,
    )


def count_inconsistent(result: SolveResult) -> int:
    """How many solved positions break the minimax rule against their children's
    values (0 for a correct table; see ``retro.count_inconsistent``)."""
    retro = retro_kernels()
    return sum(
        int(retro.count_inconsistent(result.values, c)) for c in result.classes_by_layer.values()
    )


def first_move_values(result: SolveResult) -> list[tuple[str, bool, int]]:
    """For each of Green's first placements on the empty board: (cell, whether the
    mover wins, distance), from ``result``'s table."""
    retro = retro_kernels()
    out = []
    board = Board(SIDE)
    for move in board.legal_moves:
        child = board.copy()
        child.push(move)
        c_own, c_enemy = child.own, child.enemy
        code = int(result.values[retro.canonical_index(int(c_own[0]), int(c_enemy[0]))])
        if code == 0:
            raise HingeError(f"position after {move} is not in the table")
        out.append((str(move), not retro.code_win(code), retro.code_distance(code) + 1))
    return out


# ----- the file -------------------------------------------------------------------------------------


def write_tablebase(
    result: SolveResult, path: str | os.PathLike, facts: dict | None = None, level: int = 6
) -> int:
    """Write ``result``'s value table to ``path`` (format in docs/solve.md); returns
    the file's size in bytes. Written whole or not at all (``core/atomic.py``): a crash,
    Ctrl-C or a full disk never leaves a half-written file under the real name (nor
    the temporary one behind); HingeError if it cannot be written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    values = result.values
    n_blocks = (len(values) + BLOCK_ENTRIES - 1) // BLOCK_ENTRIES

    def compress(b):
        block = values[b * BLOCK_ENTRIES : (b + 1) * BLOCK_ENTRIES]
        if not block.any():
            return b""  # a block of zeros (nothing reachable) is stored as nothing
        return zlib.compress(block.tobytes(), level)

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        blocks = list(pool.map(compress, range(n_blocks)))
    table = bytearray()
    offset = 0
    for block in blocks:
        table += BLOCK_RECORD.pack(offset, len(block), zlib.crc32(block))
        offset += len(block)
    digest = hashlib.blake2b(digest_size=32)
    digest.update(table)
    for block in blocks:
        digest.update(block)
    header = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "side": SIDE,
        "cells": 19,
        "entries": len(values),
        "block_entries": BLOCK_ENTRIES,
        "blocks": n_blocks,
        "index": "canonical base-3 index: sum of 3**cell * (1 own token, 2 enemy token), least of 12 symmetric images",
        "code": "0 unsolved or unreachable; else 1 + 2 * distance + (1 if the side to move wins)",
        "compression": "zlib",
        "start_index": result.start_index,
        "start_side": result.start_side,
        "payload_blake2b": digest.hexdigest(),
        "facts": facts or {},
    }
    header_bytes = json.dumps(header, sort_keys=True).encode()

    def write(f):
        f.write(MAGIC)
        f.write(struct.pack("<I", len(header_bytes)))
        f.write(header_bytes)
        f.write(table)
        for block in blocks:
            f.write(block)

    return write_atomic(path, write)


def solve_from_and_write(start: str, out: str | os.PathLike, progress: bool = True):
    """Solve the positions reachable from the side-4 position ``start`` only, write them
    as a tablebase to ``out`` (the same format: the other entries are 0, "not in the
    table") and yield the lines of the report (``hinge-fast solve --from``). Each value
    is the same as in the whole board's table: a small tablebase for tests, examples
    and late positions."""
    retro = retro_kernels()
    board = Board.from_fen(start) if isinstance(start, str) else start
    side4_masks(board)
    result = solve(board, progress=progress)
    code = int(result.values[result.start_index])
    value = describe(bool(retro.code_win(code)), int(retro.code_distance(code)))
    size = write_tablebase(
        result, out, {"from": board.fen(), "positions": result.positions, "start": value}
    )
    yield f"reachable (board, side to move) pairs from {board.fen()}: {result.positions:,} ({result.classes:,} classes)"
    yield f"wins for the side to move: {result.wins:,}   losses: {result.losses:,}   without a forced result: {result.unsolved:,}"
    yield f"the position, {board.turn} to move: {value}"
    yield f"solved in {result.seconds:.1f} s; tablebase written to {out} ({size:,} bytes)"


#: The facts of the side-4 board, established by an independent solver;
#: ``solve_and_write`` checks them.
KNOWN_FACTS = {
    "positions": 792_516_064,
    "green_to_move": 400_410_975,
    "blue_to_move": 392_105_089,
    "wins": 566_840_847,
    "losses": 225_675_217,
    "unsolved": 0,
}


def solve_and_write(
    out: str | os.PathLike | None = None, progress: bool = True, check: bool = False
):
    """Solve the side-4 board, write the tablebase (default location when ``out`` is
    None) and yield the lines of the report (``hinge-fast solve``). ``check``: also
    check every position against its children (``count_inconsistent``)."""
    retro = retro_kernels()
    result = solve(progress=progress)
    start_code = int(result.values[result.start_index])
    firsts = first_move_values(result)
    facts = {
        "positions": result.positions,
        "green_to_move": result.positions_by_side[0],
        "blue_to_move": result.positions_by_side[1],
        "wins": result.wins,
        "losses": result.losses,
        "unsolved": result.unsolved,
        "classes": result.classes,
        "empty_board": describe(
            bool(retro.code_win(start_code)), int(retro.code_distance(start_code))
        ),
        "first_moves": {cell: describe(win, distance) for cell, win, distance in firsts},
        "solve_seconds": round(result.seconds, 1),
    }
    path = Path(out) if out is not None else default_tablebase_path()
    size = write_tablebase(result, path, facts)
    yield f"reachable (board, side to move) pairs from the empty side-4 board: {result.positions:,}"
    yield f"  Green to move: {result.positions_by_side[0]:,}   Blue to move: {result.positions_by_side[1]:,}"
    yield f"  ({result.classes:,} classes of symmetric positions)"
    yield f"wins for the side to move: {result.wins:,}   losses: {result.losses:,}   without a forced result: {result.unsolved:,}"
    yield f"empty board, Green to move: {facts['empty_board']}"
    wins = sum(1 for _, win, _ in firsts if win)
    yield f"Green's {len(firsts)} first placements: {wins} win, {len(firsts) - wins} lose"
    yield "  " + ", ".join(f"{cell} {describe(win, d)}" for cell, win, d in firsts)
    same = all(facts[k] == v for k, v in KNOWN_FACTS.items())
    yield f"the independently established facts: {'all reproduced' if same and wins == len(firsts) else 'NOT reproduced'}"
    if check:
        began = time.perf_counter()
        bad = count_inconsistent(result)
        yield f"check: {bad:,} positions disagree with the minimax of their moves ({time.perf_counter() - began:.0f} s)"
    yield (
        f"solved in {result.seconds:.0f} s ({result.forward_seconds:.0f} s finding the positions, "
        f"{result.seconds - result.forward_seconds:.0f} s solving them); tablebase written to {path} ({size / 1e6:,.1f} MB)"
    )
