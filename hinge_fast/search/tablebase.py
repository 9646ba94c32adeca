"""Reading the side-4 tablebase, and perfect play from it at a search's root.

``hinge-fast solve --size 4`` (``hinge_fast/solving/tablebase.py``) writes the file;
this module reads it, so that the searchers (which may not import the layers above)
can play from it. The method and the format are in ``docs/solve.md``.

    >>> from hinge_fast.search.tablebase import describe, check_tablebase_option
    >>> describe(True, 23), describe(False, 40)
    ('win in 23', 'loss in 40')
    >>> check_tablebase_option(" Auto "), check_tablebase_option(""), check_tablebase_option("none")
    ('auto', 'off', 'off')

The searchers of the registry (``mcts``, ``alphabeta``) have
an option ``tablebase``: ``auto`` (the default) uses the file ``solve`` writes
(:func:`default_tablebase_path`) when it exists and plays without one when it does
not; ``off`` never uses one; any other value is the path of a tablebase file, checked
when the option is set (a missing or corrupt file is a HingeError). With a tablebase,
``Searcher.go`` on a side-4 position that is in the table answers from it at once
(:func:`tablebase_result`): the fastest win or the longest loss, every root move
scored exactly, and a principal variation that follows the table to the end of the
game. Positions not in the table (other sides, or not reachable from the empty
board) are searched as usual.
"""

from __future__ import annotations

import collections
import hashlib
import json
import os
import struct
import threading
import time
import zlib
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..board import Board, Move
from ..errors import HingeError
from .result import RootMove, SearchResult
from .score import Score

SIDE = 4
MAGIC = b"HINGETB\x01"
FORMAT_NAME = "hinge-fast side-4 tablebase"
FORMAT_VERSION = 1
BLOCK_ENTRIES = 1 << 20
#: Each block's entry in the block table: offset in the payload (uint64), compressed
#: length (uint32), CRC-32 of the compressed bytes (uint32).
BLOCK_RECORD = struct.Struct("<QII")
TABLEBASE_FILE = "side4.tb"
#: Decompressed blocks (1 MB each) an open tablebase keeps, least recently used dropped
#: first: a side-4 game touches a few dozen; the whole table has 434 non-empty blocks.
CACHED_BLOCKS = 128

#: Values of the searchers' ``tablebase`` option besides a path.
AUTO = "auto"
OFF = "off"
_OFF_WORDS = ("", "off", "none", "false", "no")
#: Environment variable that sets the default of the ``tablebase`` option (``auto``
#: when unset). The test suite sets it to ``off``, so that its side-4 searches do not
#: depend on whether this machine has solved the board.
TABLEBASE_VARIABLE = "HINGE_FAST_TABLEBASE"
MAX_PATH = 4096


def default_tablebase_path() -> Path:
    """Where ``solve`` writes and ``probe`` reads by default:
    ``$XDG_DATA_HOME/hinge-fast/side4.tb`` (``~/.local/share/hinge-fast/side4.tb``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return Path(base) / "hinge-fast" / TABLEBASE_FILE


def retro_kernels():
    from ..core import retro

    return retro


def side4_masks(board: Board) -> tuple[int, int]:
    if board.size != SIDE:
        raise HingeError(
            f"the tablebase covers side-{SIDE} positions only; this position is of side {board.size}"
        )
    own, enemy = board.own, board.enemy
    return int(own[0]), int(enemy[0])


#: Every entry of the side-4 table: one per base-3 colouring of the 19 interior cells.
ENTRIES = 3**19
#: The largest header a tablebase may declare (the header ``solve`` writes is about 1 kB).
MAX_HEADER = 1 << 16
#: The largest and the smallest block the format allows, in entries (the writer uses
#: ``BLOCK_ENTRIES``): the block table then holds at most 3^19 / 2^10 records (18 MB).
MAX_BLOCK_ENTRIES = 1 << 24
MIN_BLOCK_ENTRIES = 1 << 10


def _max_compressed(entries: int) -> int:
    """The longest zlib stream of ``entries`` bytes (zlib's stored-block bound)."""
    return entries + 5 * (entries // 16383 + 1) + 16


def _whole(header: dict, key: str, low: int, high: int) -> int:
    """``header[key]``, an integer in ``[low, high]``, or ValueError."""
    value = header.get(key)
    if type(value) is not int or not low <= value <= high:
        raise ValueError(key)
    return value


class Tablebase:
    """A tablebase file opened for probing: reads the header and the block table,
    then decompresses only the blocks a lookup needs (each checked by its CRC-32),
    keeping the last ``CACHED_BLOCKS`` of them. Safe to share between threads.

    Every field of the header and every block record is checked against the format
    before anything is read on its word: a damaged or hostile file is a HingeError
    naming the problem, never a huge read, a deep recursion or a decompression bomb.
    ``Tablebase(path, verify=True)`` also checks the whole payload's BLAKE2b digest.
    """

    def __init__(self, path: str | os.PathLike | None = None, verify: bool = False):
        self.path = Path(path) if path is not None else default_tablebase_path()
        if not self.path.is_file():
            hint = " (make it with 'hinge-fast solve --size 4')" if path is None else ""
            raise HingeError(f"no tablebase at {self.path}{hint}")
        try:
            f = open(self.path, "rb")
        except OSError as e:
            raise HingeError(f"cannot read the tablebase {self.path}: {e.strerror or e}") from None
        with f:
            size = os.fstat(f.fileno()).st_size
            self._read_header(f, size)
            if (
                self.n_blocks * BLOCK_RECORD.size > size - f.tell()
            ):  # before reading a table the file cannot hold
                raise HingeError(
                    f"{self.path}: tablebase truncated (its header declares {self.n_blocks:,} blocks, "
                    f"a block table longer than the file)"
                )
            table = f.read(self.n_blocks * BLOCK_RECORD.size)
            if len(table) != self.n_blocks * BLOCK_RECORD.size:
                raise HingeError(f"{self.path}: tablebase truncated (block table)")
            self.records = [
                BLOCK_RECORD.unpack_from(table, i * BLOCK_RECORD.size) for i in range(self.n_blocks)
            ]
            self.payload_start = f.tell()
            self._check_records(size)
            if verify:
                digest = hashlib.blake2b(table, digest_size=32)
                while chunk := f.read(1 << 24):
                    digest.update(chunk)
                if digest.hexdigest() != self.header["payload_blake2b"]:
                    raise HingeError(
                        f"{self.path}: tablebase checksum mismatch (the file is corrupt)"
                    )
        self._blocks: collections.OrderedDict[int, np.ndarray] = collections.OrderedDict()
        self._lock = threading.Lock()

    def _read_header(self, f, size: int) -> None:
        data = f.read(12)
        if len(data) < 12 or data[:8] != MAGIC:
            raise HingeError(f"{self.path} is not a hinge-fast tablebase (bad magic bytes)")
        (header_len,) = struct.unpack("<I", data[8:])
        if header_len > min(MAX_HEADER, size - 12):
            raise HingeError(
                f"{self.path}: corrupt tablebase header (it claims {header_len} bytes)"
            )
        try:
            header = json.loads(f.read(header_len))
            if not isinstance(header, dict):
                raise ValueError("not an object")
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            raise HingeError(f"{self.path}: corrupt tablebase header") from None
        if header.get("format") != FORMAT_NAME or header.get("version") != FORMAT_VERSION:
            raise HingeError(
                f"{self.path}: unsupported tablebase format {str(header.get('format'))[:40]!r} "
                f"version {str(header.get('version'))[:10]!r}"
            )
        try:
            self.entries = _whole(header, "entries", ENTRIES, ENTRIES)
            self.block_entries = _whole(
                header, "block_entries", MIN_BLOCK_ENTRIES, MAX_BLOCK_ENTRIES
            )
            blocks = -(-self.entries // self.block_entries)
            self.n_blocks = _whole(header, "blocks", blocks, blocks)
            expected = header.get("payload_blake2b")
            if not isinstance(expected, str) or len(expected) != 64:
                raise ValueError("payload_blake2b")
        except ValueError as e:
            raise HingeError(f"{self.path}: corrupt tablebase header (field {e.args[0]})") from None
        self.header = header

    def _check_records(self, size: int) -> None:
        """Each block lies right after the one before, no longer than its entries can
        compress to, and the last one ends at the end of the file."""
        offset = 0
        for b, (start, length, _) in enumerate(self.records):
            entries = min(self.block_entries, self.entries - b * self.block_entries)
            if start != offset or length > _max_compressed(entries):
                raise HingeError(f"{self.path}: tablebase block table is corrupt (block {b})")
            offset += length
        if size != self.payload_start + offset:
            raise HingeError(
                f"{self.path}: tablebase truncated or padded (size differs from its block table)"
            )

    def _block(self, b: int) -> np.ndarray:
        with self._lock:
            block = self._blocks.get(b)
            if block is not None:
                self._blocks.move_to_end(b)
                return block
        offset, length, crc = self.records[b]
        with open(self.path, "rb") as f:
            f.seek(self.payload_start + offset)
            data = f.read(length)
        if len(data) != length or zlib.crc32(data) != crc:
            raise HingeError(
                f"{self.path}: tablebase block {b} fails its checksum (the file is corrupt)"
            )
        entries = min(self.block_entries, self.entries - b * self.block_entries)
        if length == 0:
            block = np.zeros(entries, dtype=np.uint8)
        else:
            inflate = zlib.decompressobj()
            try:
                raw = inflate.decompress(
                    data, entries + 1
                )  # at most one byte more than it may hold
            except zlib.error:
                raise HingeError(
                    f"{self.path}: tablebase block {b} does not decompress (the file is corrupt)"
                ) from None
            if len(raw) != entries or not inflate.eof:
                raise HingeError(
                    f"{self.path}: tablebase block {b} does not hold {entries} entries (the file is corrupt)"
                )
            block = np.frombuffer(raw, dtype=np.uint8)
        with self._lock:
            self._blocks[b] = block
            while len(self._blocks) > CACHED_BLOCKS:
                self._blocks.popitem(last=False)
        return block

    def code(self, index: int) -> int:
        """The value code at a canonical index."""
        if not 0 <= index < self.entries:
            raise HingeError(f"index {index} is outside the tablebase")
        return int(self._block(index // self.block_entries)[index % self.block_entries])

    def lookup(self, board: Board) -> tuple[bool, int] | None:
        """(the side to move wins, plies to the end) of a side-4 ``board``, or None when
        it is not in the table (not reachable from the empty board)."""
        retro = retro_kernels()
        own, enemy = side4_masks(board)
        code = self.code(int(retro.canonical_index(own, enemy)))
        if code == retro.UNSOLVED:
            return None
        return bool(retro.code_win(code)), int(retro.code_distance(code))

    def __repr__(self) -> str:
        return f"<Tablebase {self.path}>"


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

    @property
    def score(self) -> Score:
        """The value as a search :class:`Score` (``str``: ``'win in 23'``)."""
        return Score.win(self.distance) if self.win else Score.loss(self.distance)


def describe(win: bool, distance: int) -> str:
    """``'win in 23'`` / ``'loss in 40'``: the text of ``Score.win`` / ``Score.loss``."""
    return str(Score.win(distance) if win else Score.loss(distance))


_OPEN: dict[tuple, Tablebase] = {}
_OPEN_LOCK = threading.Lock()


def open_tablebase(path: str | os.PathLike | None = None) -> Tablebase:
    """A (cached) open Tablebase; the default location when ``path`` is None. A file
    replaced since it was opened (another size or time) is opened again."""
    key = Path(path) if path is not None else default_tablebase_path()
    stamp: tuple[Path, int | None, int | None]
    try:
        stat = key.stat()
        stamp = (key, stat.st_size, stat.st_mtime_ns)
    except OSError:
        stamp = (key, None, None)
    with _OPEN_LOCK:
        tb = _OPEN.get(stamp)
    if tb is None:
        tb = Tablebase(key if path is not None else None)
        with _OPEN_LOCK:
            for old in [k for k in _OPEN if k[0] == key]:
                del _OPEN[old]
            _OPEN[stamp] = tb
    return tb


def probe(board: Board, tablebase: Tablebase | str | os.PathLike | None = None) -> ProbeResult:
    """The exact value of a side-4 position and of each legal move, best first.

    ``tablebase`` is an open Tablebase, a path, or None for the default location.
    HingeError when the position is not of side 4, the file is missing or corrupt,
    or the position is not in the table (not reachable from the empty board, or from
    the position a table of ``solve --from`` starts at).
    """
    side4_masks(board)
    tb = tablebase if isinstance(tablebase, Tablebase) else open_tablebase(tablebase)
    answer = _probe(board, tb)
    if answer is None:
        origin = (
            tb.header.get("facts", {}).get("from")
            if isinstance(tb.header.get("facts"), dict)
            else None
        )
        if isinstance(origin, str):
            raise HingeError(
                f"this position is not in this table (it covers the positions reachable from {origin[:80]})"
            )
        raise HingeError(
            "this position is not in the tablebase (not reachable from the empty side-4 board)"
        )
    return answer


def _probe(board: Board, tb: Tablebase) -> ProbeResult | None:
    """``probe``, or None when the position is not in the table."""
    value = tb.lookup(board)
    if value is None:
        return None
    moves = []
    for move in board.legal_moves:
        child = board.copy()
        child.push(move)
        c_value = tb.lookup(child)
        if c_value is None:
            # A child of a reachable position is reachable: the table is not whole.
            raise HingeError(
                f"{tb.path}: the position after {move} is not in the tablebase (the file is incomplete)"
            )
        moves.append(MoveValue(move, not c_value[0], c_value[1] + 1))
    order = sorted(
        range(len(moves)),
        key=lambda i: (
            not moves[i].win,
            moves[i].distance if moves[i].win else -moves[i].distance,
            i,
        ),
    )
    return ProbeResult(value[0], value[1], [moves[i] for i in order])


# ----- the searchers' option ------------------------------------------------------------------


def default_tablebase_option() -> str:
    """The default of the ``tablebase`` option: ``$HINGE_FAST_TABLEBASE`` if set (checked
    as the option is), else ``auto``."""
    text = os.environ.get(TABLEBASE_VARIABLE)
    if text is None:
        return AUTO
    try:
        return check_tablebase_option(text, open_file=False)
    except HingeError:
        return AUTO


def check_tablebase_option(value, open_file: bool = True) -> str:
    """The ``tablebase`` option's value checked: ``'auto'``, ``'off'`` (also for an
    empty value, ``none``, ``false``, ``no``) or a path; with ``open_file``, a path
    must be a readable tablebase (HingeError naming the problem otherwise)."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise HingeError(f"option tablebase must be auto, off or a file name, not {value!r}")
    text = value.strip()
    if text.lower() in _OFF_WORDS:
        return OFF
    if text.lower() == AUTO:
        return AUTO
    if len(text) > MAX_PATH or any(ch in text for ch in ";\n\r\0"):
        raise HingeError(
            f"option tablebase: {text[:40]!r} is not a usable file name (no ';', line breaks, or more than {MAX_PATH} characters)"
        )
    if open_file:
        open_tablebase(text)
    return text


def tablebase_for(option: str) -> Tablebase | None:
    """The open tablebase the option's value stands for: None for ``off``, and for
    ``auto`` when no file is at the default location."""
    if option == OFF or option is None:
        return None
    if option == AUTO:
        if not default_tablebase_path().is_file():
            return None
        return open_tablebase(None)
    return open_tablebase(option)


def tablebase_result(
    board: Board, tb: Tablebase, engine: str = "", started: float | None = None
) -> SearchResult | None:
    """The search result the table gives for ``board``: the best move (the fastest
    win, else the longest loss; among equals the first in ``board.legal_moves``), its
    exact Score, every legal move scored exactly (best first), and a principal
    variation of best moves to the end of the game. ``nodes`` counts the positions
    looked up, ``depth`` is the length of the principal variation, ``tablebase`` is
    True. None when ``board`` is not of side 4, is finished, or is not in the
    table."""
    started = time.perf_counter() if started is None else started
    if board.size != SIDE or board.is_game_over():
        return None
    answer = _probe(board, tb)
    if answer is None:
        return None
    lookups = 1 + len(answer.moves)
    pv = [answer.moves[0].move]
    line = board.copy()
    line.push(pv[0])
    while not line.is_game_over() and len(pv) < answer.distance:
        step = _probe(line, tb)
        lookups += 1 + (len(step.moves) if step is not None else 0)
        if step is None or not step.moves:
            break
        pv.append(step.moves[0].move)
        line.push(step.moves[0].move)
    seconds = time.perf_counter() - started
    root_moves = [
        RootMove(m.move, Score.win(m.distance) if m.win else Score.loss(m.distance), 0, len(pv))
        for m in answer.moves
    ]
    return SearchResult(
        move=answer.moves[0].move,
        score=answer.score,
        pv=pv,
        nodes=lookups,
        nps=lookups / seconds if seconds > 0 else 0.0,
        depth=len(pv),
        seconds=seconds,
        engine=engine,
        root_moves=root_moves,
        tablebase=True,
    )
