"""The side-4 tablebase: solve every reachable position, write and read the file, probe.

    >>> from hinge_fast.tools.tablebase import solve, probe
    >>> result = solve("4/1gbb1/1gg1b1/1bb1b2/1bgbg1/1ggg1/4 g", progress=False)
    >>> result.wins + result.losses == result.positions, result.unsolved
    (True, 0)

``hinge-fast solve --size 4`` solves the whole board and writes the file that
``probe(board)`` reads. The method and the file format are described in ``docs/solve.md``; the kernels are in
``hinge_fast.core.retro``.
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
from typing import NamedTuple

import numpy as np

from ..board import Board, Move
from ..errors import HingeError

SIDE = 4
MAGIC = b"HINGETB\x01"
FORMAT_NAME = "hinge-fast side-4 tablebase"
FORMAT_VERSION = 1
BLOCK_ENTRIES = 1 << 20
#: Each block's entry in the block table: offset in the payload (uint64), compressed
#: length (uint32), CRC-32 of the compressed bytes (uint32).
BLOCK_RECORD = struct.Struct("<QII")
TABLEBASE_FILE = "side4.tb"


def default_tablebase_path() -> Path:
    """Where ``solve`` writes and ``probe`` reads by default:
    ``$XDG_DATA_HOME/hinge-fast/side4.tb`` (``~/.local/share/hinge-fast/side4.tb``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "hinge-fast" / TABLEBASE_FILE


def _retro():
    from ..core import retro

    return retro


# ----- solving ----------------------------------------------------------------------------------


@dataclass
class SolveResult:
    """What ``solve`` found. Counts are of (board, side to move) pairs, symmetric
    positions counted apart, as the facts of issue 12 count them."""

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
        retro = _retro()
        return int(self.values[retro.canonical_index(own, enemy)])


def _masks(board: Board) -> tuple[int, int]:
    if board.size != SIDE:
        raise HingeError(f"the tablebase covers side-{SIDE} positions only; this position is of side {board.size}")
    own, enemy = board.own, board.enemy
    return int(own[0]), int(enemy[0])


def _layer_capacity(tokens: int) -> int:
    """Entries (index, side) a layer of ``tokens`` tokens can hold: at most two per
    position. The arrays are allocated without touching them, so only the part used
    takes memory."""
    retro = _retro()
    return 2 * math.comb(retro.N_CELLS, tokens) * 2**tokens


def solve(start: str | Board | None = None, progress: bool = True) -> SolveResult:
    """Solve every position reachable from ``start`` (default: the empty side-4 board,
    Green to move): a forward search finds them, layer by layer of token count, then
    retrograde analysis solves the layers from the fullest board down.

    ``progress`` shows tqdm progress bars on stderr.
    """
    retro = _retro()
    board = Board(SIDE) if start is None else (Board.from_fen(start) if isinstance(start, str) else start)
    own, enemy = _masks(board)
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
        following = np.empty(_layer_capacity(tokens + 1) if tokens < retro.N_CELLS else 1, dtype=np.uint32)
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
            raise HingeError(f"a distance exceeds {retro.MAX_DISTANCE} plies: the one-byte value code cannot hold it")
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

    return tqdm(total=total, desc=desc, unit=" pos" if "solving" in desc else "", unit_scale=True, dynamic_ncols=True)


def count_inconsistent(result: SolveResult) -> int:
    """How many solved positions break the minimax rule against their children's
    values (0 for a correct table; see ``retro.count_inconsistent``)."""
    retro = _retro()
    return sum(int(retro.count_inconsistent(result.values, c)) for c in result.classes_by_layer.values())


def first_move_values(result: SolveResult) -> list[tuple[str, bool, int]]:
    """For each of Green's first placements on the empty board: (cell, whether the
    mover wins, distance), from ``result``'s table."""
    retro = _retro()
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


def write_tablebase(result: SolveResult, path: str | os.PathLike, facts: dict | None = None, level: int = 6) -> int:
    """Write ``result``'s value table to ``path`` (format in docs/solve.md); returns
    the file's size in bytes. Writes to a temporary name first, so a crash never
    leaves a half-written file under the real name."""
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
    temporary = path.with_name(path.name + ".part")
    with open(temporary, "wb") as f:
        f.write(MAGIC)
        f.write(struct.pack("<I", len(header_bytes)))
        f.write(header_bytes)
        f.write(table)
        for block in blocks:
            f.write(block)
    os.replace(temporary, path)
    return path.stat().st_size


class Tablebase:
    """A tablebase file opened for probing: reads the header and the block table,
    then decompresses only the blocks a lookup needs (each checked by its CRC-32).

    ``Tablebase(path, verify=True)`` also checks the whole payload's BLAKE2b digest.
    """

    def __init__(self, path: str | os.PathLike | None = None, verify: bool = False):
        self.path = Path(path) if path is not None else default_tablebase_path()
        if not self.path.is_file():
            hint = " (make it with 'hinge-fast solve --size 4')" if path is None else ""
            raise HingeError(f"no tablebase at {self.path}{hint}")
        with open(self.path, "rb") as f:
            data = f.read(12)
            if len(data) < 12 or data[:8] != MAGIC:
                raise HingeError(f"{self.path} is not a hinge-fast tablebase (bad magic bytes)")
            (header_len,) = struct.unpack("<I", data[8:])
            try:
                self.header = json.loads(f.read(header_len))
                n_blocks = int(self.header["blocks"])
                self.block_entries = int(self.header["block_entries"])
                self.entries = int(self.header["entries"])
                expected = self.header["payload_blake2b"]
            except (ValueError, KeyError, TypeError):
                raise HingeError(f"{self.path}: corrupt tablebase header") from None
            if self.header.get("format") != FORMAT_NAME or self.header.get("version") != FORMAT_VERSION:
                raise HingeError(f"{self.path}: unsupported tablebase format {self.header.get('format')!r} version {self.header.get('version')!r}")
            table = f.read(n_blocks * BLOCK_RECORD.size)
            if len(table) != n_blocks * BLOCK_RECORD.size:
                raise HingeError(f"{self.path}: tablebase truncated (block table)")
            self.records = [BLOCK_RECORD.unpack_from(table, i * BLOCK_RECORD.size) for i in range(n_blocks)]
            self.payload_start = 12 + header_len + len(table)
            end = self.records[-1][0] + self.records[-1][1] if self.records else 0
            if os.path.getsize(self.path) != self.payload_start + end:
                raise HingeError(f"{self.path}: tablebase truncated or padded (size differs from its block table)")
            if verify:
                digest = hashlib.blake2b(table, digest_size=32)
                while chunk := f.read(1 << 24):
                    digest.update(chunk)
                if digest.hexdigest() != expected:
                    raise HingeError(f"{self.path}: tablebase checksum mismatch (the file is corrupt)")
        self._blocks: dict[int, np.ndarray] = {}

    def _block(self, b: int) -> np.ndarray:
        block = self._blocks.get(b)
        if block is None:
            offset, length, crc = self.records[b]
            with open(self.path, "rb") as f:
                f.seek(self.payload_start + offset)
                data = f.read(length)
            if len(data) != length or zlib.crc32(data) != crc:
                raise HingeError(f"{self.path}: tablebase block {b} fails its checksum (the file is corrupt)")
            entries = min(self.block_entries, self.entries - b * self.block_entries)
            if length == 0:
                block = np.zeros(entries, dtype=np.uint8)
            else:
                try:
                    block = np.frombuffer(zlib.decompress(data), dtype=np.uint8)
                except zlib.error:
                    raise HingeError(f"{self.path}: tablebase block {b} does not decompress (the file is corrupt)") from None
            if len(block) != entries:
                raise HingeError(f"{self.path}: tablebase block {b} has {len(block)} entries, not {entries} (the file is corrupt)")
            self._blocks[b] = block
        return block

    def code(self, index: int) -> int:
        """The value code at a canonical index."""
        if not 0 <= index < self.entries:
            raise HingeError(f"index {index} is outside the tablebase")
        return int(self._block(index // self.block_entries)[index % self.block_entries])


class MoveValue(NamedTuple):
    move: Move
    win: bool  # for the side making the move
    distance: int  # plies from the position before the move to the end


class ProbeResult(NamedTuple):
    win: bool  # for the side to move
    distance: int  # plies to the end under best play
    moves: list  # MoveValue, best first: fastest wins, then slowest losses

    def describe(self) -> str:
        return describe(self.win, self.distance)


def describe(win: bool, distance: int) -> str:
    """``'win in 23'`` / ``'loss in 40'``."""
    return f"{'win' if win else 'loss'} in {distance}"


_OPEN: dict[Path, Tablebase] = {}


def open_tablebase(path: str | os.PathLike | None = None) -> Tablebase:
    """A (cached) open Tablebase; the default location when ``path`` is None."""
    key = Path(path) if path is not None else default_tablebase_path()
    tb = _OPEN.get(key)
    if tb is None:
        tb = _OPEN[key] = Tablebase(path)
    return tb


def probe(board: Board, tablebase: Tablebase | str | os.PathLike | None = None) -> ProbeResult:
    """The exact value of a side-4 position and of each legal move, best first.

    ``tablebase`` is an open Tablebase, a path, or None for the default location.
    HingeError when the position is not of side 4, the file is missing or corrupt,
    or the position is not in the table (not reachable from the empty board).
    """
    retro = _retro()
    own, enemy = _masks(board)
    tb = tablebase if isinstance(tablebase, Tablebase) else open_tablebase(tablebase)

    def lookup(o, e, what):
        code = tb.code(int(retro.canonical_index(o, e)))
        if code == retro.UNSOLVED:
            raise HingeError(f"{what} is not in the tablebase (not reachable from the empty side-4 board)")
        return bool(retro.code_win(code)), int(retro.code_distance(code))

    win, distance = lookup(own, enemy, "this position")
    moves = []
    for move in board.legal_moves:
        child = board.copy()
        child.push(move)
        c_own, c_enemy = _masks(child)
        c_win, c_distance = lookup(c_own, c_enemy, f"the position after {move}")
        moves.append(MoveValue(move, not c_win, c_distance + 1))
    order = sorted(range(len(moves)), key=lambda i: (not moves[i].win, moves[i].distance if moves[i].win else -moves[i].distance, i))
    return ProbeResult(win, distance, [moves[i] for i in order])


#: Issue 12's facts, established independently; ``solve_and_write`` checks them.
KNOWN_FACTS = {
    "positions": 792_516_064,
    "green_to_move": 400_410_975,
    "blue_to_move": 392_105_089,
    "wins": 566_840_847,
    "losses": 225_675_217,
    "unsolved": 0,
}


def solve_and_write(out: str | os.PathLike | None = None, progress: bool = True, check: bool = False):
    """Solve the side-4 board, write the tablebase (default location when ``out`` is
    None) and yield the lines of the report (``hinge-fast solve``). ``check``: also
    check every position against its children (``count_inconsistent``)."""
    retro = _retro()
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
        "empty_board": describe(bool(retro.code_win(start_code)), int(retro.code_distance(start_code))),
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
    yield f"issue 12's facts: {'all reproduced' if same and wins == len(firsts) else 'NOT reproduced'}"
    if check:
        began = time.perf_counter()
        bad = count_inconsistent(result)
        yield f"check: {bad:,} positions disagree with the minimax of their moves ({time.perf_counter() - began:.0f} s)"
    yield (
        f"solved in {result.seconds:.0f} s ({result.forward_seconds:.0f} s finding the positions, "
        f"{result.seconds - result.forward_seconds:.0f} s solving them); tablebase written to {path} ({size / 1e6:,.1f} MB)"
    )
