"""Checkpoints of the prover: its transposition table and counters in a file, so that a
long proof can stop (a limit, Ctrl-C, a crash between two saves) and continue later.

    >>> import os, tempfile
    >>> from hinge_fast import Board
    >>> from hinge_fast.search.dfpn import new_table
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = os.path.join(folder.name, "run.npz")
    >>> save_checkpoint(path, Board(4).fen(), new_table(1), nodes=5, seconds=0.5)
    >>> saved = load_checkpoint(path, Board(4).fen())
    >>> saved.nodes, len(saved.table.keys)
    (5, 32768)
    >>> folder.cleanup()

A checkpoint is a numpy ``.npz`` archive (uncompressed) of the table's four arrays and
one JSON text: the format, the position (its position string), the nodes searched and
the seconds spent so far. It is written to a temporary file in the same folder and
renamed over ``FILE`` once complete (``core/atomic.py``), so a save cut short (a full
disk, Ctrl-C) leaves the previous checkpoint whole and no temporary file behind. The table
holds proven results and the proof and disproof numbers of open positions, all of them
path-independent (``dfpn.py``), so a search started again from the position with the
table continues the stopped one: it walks down to the open positions it left.
"""

from __future__ import annotations

import json
import os
import zipfile
from typing import NamedTuple

import numpy as np

from ..core.atomic import write_atomic
from ..errors import HingeError
from .dfpn import ProofTable

FORMAT = "hinge-fast prover checkpoint 1"
#: The most entries a checkpoint's table may hold: that of the largest ``--table-mb``
#: (2^20 MB at 32 bytes an entry).
MAX_SLOTS = 1 << 35
#: The longest position string a checkpoint may name.
MAX_POSITION = 1000
_ARRAYS = (("keys", np.uint64), ("pn", np.int64), ("dn", np.int64), ("meta", np.int64))


class Checkpoint(NamedTuple):
    """A loaded checkpoint: the table and what was spent to fill it."""

    position: str
    table: ProofTable
    nodes: int
    seconds: float


def save_checkpoint(path, position: str, table: ProofTable, nodes: int, seconds: float) -> None:
    """Write the table and counters of a run from ``position`` to ``path``, atomically.
    HingeError if it cannot be written (the previous checkpoint is then left as it was)."""
    info = json.dumps(
        {"format": FORMAT, "position": position, "nodes": int(nodes), "seconds": float(seconds)}
    )
    write_atomic(
        path,
        lambda f: np.savez(
            f, info=np.array(info), keys=table.keys, pn=table.pn, dn=table.dn, meta=table.meta
        ),
        name=f"the checkpoint {path}",
    )


def load_checkpoint(path, position: str) -> Checkpoint:
    """The checkpoint at ``path``, which must be one of a run from ``position``.
    HingeError if the file is not a whole checkpoint (truncated, corrupted, another
    kind of file) or is one of another position."""
    broken = f"{path} is not a readable prover checkpoint (truncated or corrupted)"
    try:
        _check_sizes(path)
        with np.load(path, allow_pickle=False) as data:
            info = json.loads(str(data["info"][()]))
            arrays = [np.ascontiguousarray(data[name]) for name, _ in _ARRAYS]
    except FileNotFoundError:
        raise HingeError(f"no checkpoint at {path}") from None
    except (
        OSError,
        ValueError,
        EOFError,
        KeyError,
        IndexError,
        zipfile.BadZipFile,
        json.JSONDecodeError,
        RecursionError,
        MemoryError,
    ):
        raise HingeError(broken) from None
    if not isinstance(info, dict) or info.get("format") != FORMAT:
        raise HingeError(f"{path} is not a prover checkpoint of this version (expected '{FORMAT}')")
    slots = len(arrays[0])
    if (
        slots < 16
        or slots & (slots - 1)
        or any(a.shape != (slots,) or a.dtype != dtype for a, (_, dtype) in zip(arrays, _ARRAYS))
    ):
        raise HingeError(broken)
    saved, nodes, seconds = info.get("position"), info.get("nodes"), info.get("seconds")
    if (
        not isinstance(saved, str)
        or len(saved) > MAX_POSITION
        # isinstance (which mypy narrows by) minus bool: json gives exact int/float/bool
        or not isinstance(nodes, int)
        or isinstance(nodes, bool)
        or not 0 <= nodes < 1 << 63
        or not isinstance(seconds, (int, float))
        or isinstance(seconds, bool)
        or not 0 <= seconds < 1e12
    ):
        raise HingeError(broken)
    if saved != position:
        raise HingeError(
            f"the checkpoint {path} is of the position {saved} (side {_side(saved)}), "
            f"not of {position} (side {_side(position)})"
        )
    return Checkpoint(saved, ProofTable(*arrays), nodes, seconds)


def _check_sizes(path) -> None:
    """ValueError unless every member of the archive is a stored (uncompressed) ``.npy``
    lying inside the file, whose header declares no more data than the member holds and
    an array of at most ``MAX_SLOTS`` entries: checked before numpy allocates an array
    of the declared shape."""
    size = os.path.getsize(path)
    with zipfile.ZipFile(path) as archive:
        members = archive.infolist()
        if sorted(m.filename for m in members) != sorted(
            f"{name}.npy" for name in ("info", *(n for n, _ in _ARRAYS))
        ):
            raise ValueError("members")
        for member in members:
            if (
                member.compress_type != zipfile.ZIP_STORED
                or member.file_size != member.compress_size
                or member.header_offset + member.compress_size > size
            ):
                raise ValueError(member.filename)
            with archive.open(member) as f:
                version = np.lib.format.read_magic(f)
                read_header = {
                    (1, 0): np.lib.format.read_array_header_1_0,
                    (2, 0): np.lib.format.read_array_header_2_0,
                }.get(version)
                if read_header is None:
                    raise ValueError(member.filename)
                shape, _, dtype = read_header(f)
                count = 1
                for extent in shape:
                    count *= extent
                if (
                    dtype.hasobject
                    or count > MAX_SLOTS
                    or count * dtype.itemsize > member.file_size
                ):
                    raise ValueError(member.filename)


def _side(position: str) -> int:
    from ..board import Board

    return Board.from_fen(position).size
