"""The tablebase reader against damaged and hostile files: every header field and block
record is checked before it is trusted, so a bad file is one HingeError, never a
crash, a huge allocation, a deep recursion or a decompression bomb. The files are
made here byte by byte (the format of docs/solve.md), with a few real blocks."""

import json
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hinge_fast.errors import HingeError
from hinge_fast.search.tablebase import BLOCK_RECORD, FORMAT_NAME, FORMAT_VERSION, MAGIC, Tablebase
from tests.conftest import memory_limit

ENTRIES = 3**19
BLOCK = 1 << 20
BLOCKS = -(-ENTRIES // BLOCK)
#: The blocks with content (the rest are stored as nothing: all zeros).
FILLED = {0: 7, 5: 9, BLOCKS - 1: 3}


def block_bytes(b: int) -> bytes:
    entries = min(BLOCK, ENTRIES - b * BLOCK)
    return (
        zlib.compress(np.full(entries, FILLED[b], dtype=np.uint8).tobytes()) if b in FILLED else b""
    )


def tablebase_bytes(header_changes=None, blocks=None, raw_header=None) -> bytes:
    """A tablebase file: ``header_changes`` edit the header's fields, ``blocks`` replace
    block contents (index -> compressed bytes), ``raw_header`` replaces the header."""
    payload = {b: block_bytes(b) for b in FILLED}
    payload.update(blocks or {})
    table, offset = bytearray(), 0
    for b in range(BLOCKS):
        data = payload.get(b, b"")
        table += BLOCK_RECORD.pack(offset, len(data), zlib.crc32(data))
        offset += len(data)
    header = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "entries": ENTRIES,
        "block_entries": BLOCK,
        "blocks": BLOCKS,
        "payload_blake2b": "0" * 64,
    }
    header.update(header_changes or {})
    header_bytes = raw_header if raw_header is not None else json.dumps(header).encode()
    return (
        MAGIC
        + struct.pack("<I", len(header_bytes))
        + header_bytes
        + bytes(table)
        + b"".join(payload.get(b, b"") for b in range(BLOCKS))
    )


@pytest.fixture(scope="module")
def good() -> bytes:
    return tablebase_bytes()


def probe_all(path) -> None:
    """Open the file and read an entry of every block with content, and one without."""
    tb = Tablebase(path)
    for b in list(FILLED) + [1]:
        tb.code(b * BLOCK)


def test_a_well_formed_file_reads(good, tmp_path):
    path = tmp_path / "t.tb"
    path.write_bytes(good)
    tb = Tablebase(path)
    assert [tb.code(b * BLOCK + 17) for b in (0, 1, 5, BLOCKS - 1)] == [7, 0, 9, 3]
    assert tb.code(ENTRIES - 1) == 3


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"entries": 5}, "field entries"),
        ({"entries": "1162261467"}, "field entries"),
        ({"block_entries": 0}, "field block_entries"),
        ({"block_entries": 1 << 40}, "field block_entries"),
        ({"blocks": 10**12}, "field blocks"),
        ({"blocks": BLOCKS - 1}, "field blocks"),
        ({"payload_blake2b": None}, "field payload_blake2b"),
        ({"version": 99}, "unsupported tablebase format"),
    ],
)
def test_bad_header_fields_are_named(tmp_path, changes, message):
    path = tmp_path / "t.tb"
    path.write_bytes(tablebase_bytes(changes))
    with pytest.raises(HingeError, match=message):
        Tablebase(path)


@pytest.mark.parametrize(
    "raw", [b"[" * 60000, b"\xff\xfe", b"[1, 2]", b'{"format": 1e999999}', b""]
)
def test_a_header_that_is_not_a_json_object_is_corrupt(tmp_path, raw):
    path = tmp_path / "t.tb"
    path.write_bytes(tablebase_bytes(raw_header=raw))
    with pytest.raises(HingeError, match="corrupt tablebase header|unsupported tablebase format"):
        Tablebase(path)


def test_a_huge_declared_header_is_refused_before_reading(tmp_path, good):
    path = tmp_path / "t.tb"
    path.write_bytes(MAGIC + struct.pack("<I", 0xFFFFFFFF) + good[12:])
    with memory_limit(), pytest.raises(HingeError, match="claims 4294967295 bytes"):
        Tablebase(path)


def test_a_zlib_bomb_with_a_valid_crc_is_refused(tmp_path):
    inflate = zlib.compressobj(9)
    bomb = (
        b"".join(inflate.compress(bytes(1 << 20)) for _ in range(1024)) + inflate.flush()
    )  # 1 GiB of zeros
    path = tmp_path / "t.tb"
    path.write_bytes(tablebase_bytes(blocks={5: bomb}))
    tb = Tablebase(path)
    assert tb.code(0) == 7
    with memory_limit(), pytest.raises(HingeError, match="block 5 does not hold 1048576 entries"):
        tb.code(5 * BLOCK)


def test_a_block_table_out_of_order_is_refused(tmp_path, good):
    data = bytearray(good)
    (header_len,) = struct.unpack_from("<I", data, 8)
    start = 12 + header_len
    BLOCK_RECORD.pack_into(
        data, start + 5 * BLOCK_RECORD.size, 0, len(block_bytes(5)), zlib.crc32(block_bytes(5))
    )
    path = tmp_path / "t.tb"
    path.write_bytes(bytes(data))
    with pytest.raises(HingeError, match="block table is corrupt \\(block 5\\)"):
        Tablebase(path)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_mutated_files_give_a_hinge_error_or_a_reading(good, tmp_path_factory, data):
    """Bytes overwritten, cut off or inserted anywhere (the header, the block table or a
    block): opening and probing either works or raises HingeError, within the limit."""
    blob = bytearray(good)
    (header_len,) = struct.unpack_from("<I", blob, 8)
    region = data.draw(
        st.sampled_from(
            [
                (0, 12 + header_len),
                (12 + header_len, 12 + header_len + BLOCKS * 16),
                (12 + header_len + BLOCKS * 16, len(blob)),
            ]
        )
    )
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(region[0], region[1] - 1))
        kind = data.draw(st.sampled_from(["set", "cut", "insert"]))
        chunk = data.draw(st.binary(min_size=1, max_size=8))
        if kind == "set":
            blob[at : at + len(chunk)] = chunk
        elif kind == "cut":
            del blob[at : at + len(chunk)]
        else:
            blob[at:at] = chunk
    path = tmp_path_factory.mktemp("fuzz") / "t.tb"
    path.write_bytes(bytes(blob))
    with memory_limit():
        try:
            probe_all(path)
        except HingeError as e:
            assert "\n" not in str(e)


# ----- the writer -------------------------------------------------------------------------------
def small_result():
    """A SolveResult of three blocks (the writer takes any length), one of them empty."""
    from hinge_fast.solving.tablebase import BLOCK_ENTRIES, SolveResult

    values = np.zeros(3 * BLOCK_ENTRIES, dtype=np.uint8)
    values[:100], values[2 * BLOCK_ENTRIES :] = 5, 8
    return SolveResult(
        values=values,
        start_index=0,
        start_side=0,
        positions_by_side=(1, 0),
        wins=1,
        losses=0,
        unsolved=0,
        classes=1,
        seconds=0.0,
    )


def test_the_writer_syncs_a_temporary_file_in_the_same_folder_then_renames_it(
    tmp_path, monkeypatch
):
    import os

    from hinge_fast.solving import tablebase as solving_tb

    calls = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        calls.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        return real_fsync(fd)

    def replace(src, dst):
        calls.append(("replace", str(src), str(dst)))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    path = tmp_path / "side4.tb"
    for _ in range(2):
        solving_tb.write_tablebase(small_result(), path)
    renames = [c for c in calls if c[0] == "replace"]
    assert len(renames) == 2 and renames[0][1] != renames[1][1]  # a new temporary name each time
    for _, temporary, final in renames:
        assert Path(temporary).parent == tmp_path and final == str(path) and temporary != final
        synced = [i for i, c in enumerate(calls) if c == ("fsync", temporary)]
        assert synced and synced[0] < calls.index(
            ("replace", temporary, final)
        )  # synced, then renamed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["side4.tb"]
    assert oct(path.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask


@pytest.mark.parametrize("failing", ["write", "replace"])
def test_a_failed_write_leaves_the_old_file_and_no_temporary_one(tmp_path, monkeypatch, failing):
    import os

    from hinge_fast.solving import tablebase as solving_tb

    path = tmp_path / "side4.tb"
    path.write_bytes(b"the old table")

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    if failing == "replace":
        monkeypatch.setattr(os, "replace", disk_full)
    else:
        real_fdopen = os.fdopen

        class Full:
            def __init__(self, f):
                self.f = f

            def __enter__(self):
                self.f.__enter__()
                return self

            def __exit__(self, *exc):
                return self.f.__exit__(*exc)

            def fileno(self):
                return self.f.fileno()

            def write(self, data):
                disk_full()

        monkeypatch.setattr(os, "fdopen", lambda *a, **k: Full(real_fdopen(*a, **k)))
    with pytest.raises(HingeError, match="No space left"):
        solving_tb.write_tablebase(small_result(), path)
    assert path.read_bytes() == b"the old table"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["side4.tb"]
