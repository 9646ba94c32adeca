"""Fuzz the file readers under a memory limit: the game record reader and the side-4
tablebase reader.

    python -m scripts.fuzz_limits [--examples N] [--limit-mb M] [--json]

Example: python -m scripts.fuzz_limits --examples 300

Run it as its own process (``tests/test_fuzz_limits.py`` does): it caps its own address
space (``resource.RLIMIT_AS``) at what it uses once everything is loaded plus ``M`` MB
(default 256), then reads inputs made by hypothesis (derandomized, so every run tries
the same ones):

* records: arbitrary text, near-valid records with a few characters inserted, deleted
  or replaced, and records built to be costly (thousands of comments, tags and moves,
  long tokens, unclosed braces);
* tablebases: files with header fields replaced by any JSON value, block records given
  any offset, length or checksum, bytes overwritten, cut or inserted anywhere, and a
  zlib bomb (1 GiB of zeros in about 1 MB) put in a block with its checksum right.

Every input must be read or refused with HingeError: any other exception (MemoryError
included) is a failure, and the process exits with status 1. The last line (``--json``:
the only line) gives the inputs tried per reader, how many were refused and read, the
failures, and the peak memory: resident (``ru_maxrss``) and address space (``VmPeak``)
against the limit.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import struct
import tempfile
import zlib

from scripts import run_script

#: The record texts the near-valid inputs start from.
RECORDS = [
    '[Size "4"]\n[Green "me"]\n[Blue "you"]\n\n1. C3 D5 {a comment} 2. B2 unfinished\n',
    '[Size "5"]\n[Start "5/6/7/8/9/8/7/6/5 b"]\n\n1... E5 2. B2 {hm} C2 ; rest\nunfinished\n',
    '[Size "4"]\n\n1. D4 B2 unfinished\n\n[Size "4"]\n\n1. D4 C3 unfinished\n',
]
NEAR = "gbGB0123456789/ ;-xX.[]\"{}\n\tABCDEFGHIJ+_"


def vm_kb(field: str) -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(field + ":"))


def tablebase_file(tb, header_changes=None, blocks=None, records=None, raw_header=None) -> bytes:
    """A tablebase in the format of docs/solve.md, three blocks with content: header
    fields changed by ``header_changes``, block contents by ``blocks`` (index ->
    compressed bytes), block records by ``records`` (index -> (offset, length, crc))."""
    entries, block = tb.ENTRIES, 1 << 20
    count = -(-entries // block)
    filled = {0: 7, 5: 9, count - 1: 3}
    payload = {b: zlib.compress(bytes([v]) * min(block, entries - b * block)) for b, v in filled.items()}
    payload.update(blocks or {})
    table, offset = bytearray(), 0
    for b in range(count):
        data = payload.get(b, b"")
        record = (offset, len(data), zlib.crc32(data))
        table += tb.BLOCK_RECORD.pack(*(records or {}).get(b, record))
        offset += len(data)
    header = {"format": tb.FORMAT_NAME, "version": tb.FORMAT_VERSION, "entries": entries, "block_entries": block,
              "blocks": count, "payload_blake2b": "0" * 64}
    header.update(header_changes or {})
    header_bytes = raw_header if raw_header is not None else json.dumps(header).encode()
    return (tb.MAGIC + struct.pack("<I", len(header_bytes)) + header_bytes + bytes(table)
            + b"".join(payload.get(b, b"") for b in range(count)))


def zlib_bomb(gib: int = 1) -> bytes:
    inflate = zlib.compressobj(9)
    return b"".join(inflate.compress(bytes(1 << 20)) for _ in range(1024 * gib)) + inflate.flush()


def run(examples: int, limit_mb: int) -> dict:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from hinge_fast import Board
    from hinge_fast.errors import HingeError
    from hinge_fast.search import tablebase as tb
    from hinge_fast.tools.record import parse_record, parse_records

    # Everything the readers use is loaded before the limit: the kernels of every side.
    for size in range(4, 10):
        board = Board(size)
        board.push(board.legal_moves[0])
    parse_records(RECORDS[0])
    good = tablebase_file(tb)
    bomb = zlib_bomb()
    folder = tempfile.mkdtemp(prefix="hinge-fuzz-")
    path = os.path.join(folder, "t.tb")

    start_kb = vm_kb("VmSize")
    limit = start_kb * 1024 + limit_mb * (1 << 20)
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))

    counts = {reader: {"inputs": 0, "refused": 0, "read": 0} for reader in ("records", "tablebase")}
    failures: list[str] = []

    def attempt(reader, function, shown):
        counts[reader]["inputs"] += 1
        try:
            function()
        except HingeError as e:
            counts[reader]["refused"] += 1
            if "\n" in str(e):
                failures.append(f"{reader}: a message of several lines for {shown}")
        except BaseException as e:  # noqa: BLE001  (anything else, MemoryError included, is what is looked for)
            if isinstance(e, KeyboardInterrupt):
                raise
            failures.append(f"{reader}: {type(e).__name__}: {str(e)[:120]} for {shown}")
        else:
            counts[reader]["read"] += 1

    fuzz = settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck))

    # ----- records ------------------------------------------------------------------
    @st.composite
    def mutated(draw):
        text = draw(st.sampled_from(RECORDS))
        for _ in range(draw(st.integers(1, 6))):
            at = draw(st.integers(0, len(text)))
            char = draw(st.sampled_from(NEAR) | st.characters())
            kind = draw(st.sampled_from(["insert", "delete", "replace"]))
            text = text[:at] + (char if kind != "delete" else "") + text[at + (kind != "insert"):]
        return text

    @st.composite
    def costly(draw):
        n = draw(st.integers(1, 20_000))
        part = draw(st.sampled_from(["{c}", "{", "[T \"v\"]\n", "1. ", "C3 ", "x" * 50, ";\n", "}", "[", "\\\""]))
        head = draw(st.sampled_from(["", '[Size "4"]\n\n', '[Size "9"]\n\n1. E5 ']))
        return head + part * n + draw(st.sampled_from(["", " unfinished\n", "}"]))

    @fuzz
    @given(st.one_of(st.text(max_size=300), mutated(), costly()), st.integers(1, 3))
    def records(text, game):
        attempt("records", lambda: (parse_records(text), parse_record(text, game)), repr(text[:60]))

    # ----- tablebases -----------------------------------------------------------------
    json_value = st.recursive(
        st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=20),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=8)
    field = st.sampled_from(["format", "version", "entries", "block_entries", "blocks", "payload_blake2b", "extra"])
    count = -(-tb.ENTRIES // (1 << 20))
    block_index = st.sampled_from([0, 1, 5, count - 1]) | st.integers(0, count - 1)

    @st.composite
    def damaged(draw):
        kind = draw(st.sampled_from(["header", "records", "bytes", "bomb"]))
        if kind == "header":
            return tablebase_file(tb, header_changes=draw(st.dictionaries(field, json_value, min_size=1, max_size=3)))
        if kind == "records":
            changes = draw(st.dictionaries(block_index, st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 2**32 - 1),
                                                                  st.integers(0, 2**32 - 1)), min_size=1, max_size=3))
            return tablebase_file(tb, records=changes)
        if kind == "bomb":
            cut = draw(st.sampled_from([len(bomb), len(bomb) // 2, 1000]))
            return tablebase_file(tb, blocks={draw(block_index): bomb[:cut]})
        blob = bytearray(good)
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(blob) - 1))
            chunk = draw(st.binary(min_size=1, max_size=8))
            how = draw(st.sampled_from(["set", "cut", "insert"]))
            if how == "set":
                blob[at:at + len(chunk)] = chunk
            elif how == "cut":
                del blob[at:at + len(chunk)]
            else:
                blob[at:at] = chunk
        return bytes(blob)

    def probe(blob):
        with open(path, "wb") as f:
            f.write(blob)
        table = tb.Tablebase(path)
        for b in (0, 1, 5, count - 1):
            table.code(b * (1 << 20))

    @fuzz
    @given(damaged())
    def tablebases(blob):
        attempt("tablebase", lambda: probe(blob), f"a file of {len(blob):,} bytes")

    records()
    tablebases()
    os.unlink(path) if os.path.exists(path) else None
    os.rmdir(folder)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "readers": counts,
        "inputs": sum(c["inputs"] for c in counts.values()),
        "failures": failures,
        "limit_mb": limit_mb,
        "address_space_at_start_mb": round(start_kb / 1024, 1),
        "address_space_peak_mb": round(vm_kb("VmPeak") / 1024, 1),
        "address_space_limit_mb": round(limit / (1 << 20), 1),
        "resident_peak_mb": round(usage.ru_maxrss / 1024, 1),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.fuzz_limits", description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=300, help="inputs per reader (default 300)")
    parser.add_argument("--limit-mb", type=int, default=256, help="address space allowed beyond the start (default 256)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)
    figures = run(args.examples, args.limit_mb)
    if args.json:
        print(json.dumps(figures))
    else:
        for reader, c in figures["readers"].items():
            print(f"{reader}: {c['inputs']} inputs, {c['refused']} refused with HingeError, {c['read']} read")
        print(f"failures: {len(figures['failures'])}")
        for failure in figures["failures"][:10]:
            print(f"  {failure}")
        print(f"memory: resident peak {figures['resident_peak_mb']} MB; address space {figures['address_space_at_start_mb']} MB "
              f"at the start, {figures['address_space_peak_mb']} MB at the peak, limit {figures['address_space_limit_mb']} MB")
    return 1 if figures["failures"] else 0


if __name__ == "__main__":
    run_script(main)
