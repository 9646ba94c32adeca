"""Readers check what a file declares against the file's size and the format's stated
maxima before they allocate anything on its word; an input too large or nested too
deeply for the memory and the stack is one HingeError line; numbers in files are ASCII
digits only."""

from __future__ import annotations

import io
import json
import struct
import zipfile

import numpy as np
import pytest

from hinge_fast import Board
from hinge_fast.errors import HingeError
from tests.conftest import memory_limit


def one_line(error) -> str:
    text = str(error.value)
    assert "\n" not in text
    return text


# ----- tablebases ------------------------------------------------------------------------------
def tablebase_head(block_entries: int) -> bytes:
    from hinge_fast.search.tablebase import ENTRIES, FORMAT_NAME, FORMAT_VERSION, MAGIC

    header = json.dumps(
        {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "entries": ENTRIES,
            "block_entries": block_entries,
            "blocks": -(-ENTRIES // block_entries),
            "payload_blake2b": "0" * 64,
        }
    ).encode()
    return MAGIC + struct.pack("<I", len(header)) + header


def test_a_tiny_tablebase_declaring_one_entry_blocks_is_refused(tmp_path):
    from hinge_fast.search.tablebase import Tablebase

    path = tmp_path / "t.tb"
    path.write_bytes(tablebase_head(1))
    assert len(path.read_bytes()) < 250
    with memory_limit(), pytest.raises(HingeError) as error:
        Tablebase(path)
    assert one_line(error).endswith("corrupt tablebase header (field block_entries)")


def test_a_block_table_longer_than_the_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    from hinge_fast.search import tablebase
    from hinge_fast.search.tablebase import MIN_BLOCK_ENTRIES, Tablebase

    path = tmp_path / "t.tb"
    path.write_bytes(tablebase_head(MIN_BLOCK_ENTRIES) + bytes(100))
    reads = []
    real_open = open

    class Watched:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def __getattr__(self, name):
            return getattr(self.f, name)

        def read(self, n=-1):
            reads.append(n)
            return self.f.read(n)

    monkeypatch.setattr(
        tablebase, "open", lambda *a, **k: Watched(real_open(*a, **k)), raising=False
    )
    with pytest.raises(HingeError) as error:
        Tablebase(path)
    assert "a block table longer than the file" in one_line(error)
    assert max(reads) < 1 << 16  # the header only


# ----- checkpoints ------------------------------------------------------------------------------
def npy(array, shape=None) -> bytes:
    """The .npy bytes of ``array``, its header claiming ``shape`` when given."""
    out = io.BytesIO()
    header = np.lib.format.header_data_from_array_1_0(array)
    if shape is not None:
        header["shape"] = shape
    np.lib.format.write_array_header_1_0(out, header)
    out.write(array.tobytes())
    return out.getvalue()


def checkpoint_bytes(keys_shape=None, compression=zipfile.ZIP_STORED, info=None) -> bytes:
    from hinge_fast.search.checkpoint import FORMAT

    info = (
        info
        if info is not None
        else {"format": FORMAT, "position": Board(4).fen(), "nodes": 5, "seconds": 0.5}
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression) as archive:
        archive.writestr("info.npy", npy(np.array(json.dumps(info))))
        archive.writestr("keys.npy", npy(np.zeros(16, dtype=np.uint64), keys_shape))
        for name in ("pn", "dn", "meta"):
            archive.writestr(f"{name}.npy", npy(np.zeros(16, dtype=np.int64)))
    return out.getvalue()


def test_a_well_formed_hand_made_checkpoint_reads(tmp_path):
    from hinge_fast.search.checkpoint import load_checkpoint

    path = tmp_path / "c.npz"
    path.write_bytes(checkpoint_bytes())
    saved = load_checkpoint(path, Board(4).fen())
    assert saved.nodes == 5 and len(saved.table.keys) == 16


@pytest.mark.parametrize(
    "damage",
    [
        "2^40 entries",
        "more than stored",
        "compressed",
        "deep info",
        "nodes as text",
        "infinite seconds",
        "huge nodes",
    ],
)
def test_a_checkpoint_declaring_more_than_it_holds_is_refused_before_allocating(
    tmp_path, monkeypatch, damage
):
    from hinge_fast.search.checkpoint import FORMAT, load_checkpoint

    fen = Board(4).fen()
    good = {"format": FORMAT, "position": fen, "nodes": 5, "seconds": 0.5}
    blob = {
        "2^40 entries": lambda: checkpoint_bytes(keys_shape=(1 << 40,)),
        "more than stored": lambda: checkpoint_bytes(keys_shape=(1 << 20,)),
        "compressed": lambda: checkpoint_bytes(compression=zipfile.ZIP_DEFLATED),
        "deep info": _deep_info,
        "nodes as text": lambda: checkpoint_bytes(info={**good, "nodes": "\u0663"}),
        "infinite seconds": lambda: checkpoint_bytes(info={**good, "seconds": float("inf")}),
        "huge nodes": lambda: checkpoint_bytes(info={**good, "nodes": 10**400}),
    }[damage]()
    assert len(blob) < 2500 or damage in ("deep info", "huge nodes")
    path = tmp_path / "c.npz"
    path.write_bytes(blob)
    arrays_read = []
    real_read_array = np.lib.format.read_array
    monkeypatch.setattr(
        np.lib.format,
        "read_array",
        lambda *a, **k: arrays_read.append(1) or real_read_array(*a, **k),
    )
    with memory_limit(), pytest.raises(HingeError) as error:
        load_checkpoint(path, fen)
    assert one_line(error) == f"{path} is not a readable prover checkpoint (truncated or corrupted)"
    if damage in ("2^40 entries", "more than stored", "compressed"):
        assert arrays_read == []  # refused from the archive's directory and the arrays' headers


def _deep_info() -> bytes:
    """A checkpoint whose information text is JSON nested 100,000 deep."""
    out = io.BytesIO()
    text = "[" * 100_000 + "]" * 100_000
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("info.npy", npy(np.array(text)))
        for name, dtype in (
            ("keys", np.uint64),
            ("pn", np.int64),
            ("dn", np.int64),
            ("meta", np.int64),
        ):
            archive.writestr(f"{name}.npy", npy(np.zeros(16, dtype=dtype)))
    return out.getvalue()


# ----- proofs, puzzles, records, books -------------------------------------------------------------
def test_a_proof_over_its_maximum_is_refused_before_it_is_read(tmp_path):
    from hinge_fast.solving.proof import MAX_PROOF_BYTES, check_proof

    path = tmp_path / "big.proof"
    with open(path, "wb") as f:
        f.truncate(MAX_PROOF_BYTES + 1)  # sparse: nothing written
    with memory_limit(64 << 20), pytest.raises(HingeError) as error:
        check_proof(path)
    assert one_line(error) == f"proof file {path} is over {MAX_PROOF_BYTES >> 20} MB"
    assert MAX_PROOF_BYTES <= 256 << 20


@pytest.mark.parametrize("distance", ["\u00b2", "\u0663", "1_0", "9" * 5001, "-1"])
def test_a_proof_distance_is_ascii_digits(distance):
    from hinge_fast.solving.proof import HEADER, check_proof_text

    text = f"{HEADER}\nposition {Board(4).fen()}\nwinner green\ndistance {distance}\n"
    with pytest.raises(HingeError) as error:
        check_proof_text(text)
    assert one_line(error).startswith("not a proof file: the distance must be a whole number")


@pytest.mark.parametrize("row", ["\u00b2", "\u0663"])
def test_a_position_run_is_ascii_digits(row):
    from hinge_fast import reference as ref
    from hinge_fast.solving.proof import HEADER, check_proof_text

    fen = f"4/{row}gg2/2bbb1/2bgg2/1ggb2/2gb1/4 g"
    with pytest.raises(HingeError) as error:
        ref.parse_position(fen)
    assert one_line(error) == "position string contains a non-ASCII character"
    with pytest.raises(HingeError):
        check_proof_text(f"{HEADER}\nposition {fen}\nwinner green\ndistance 3\n")


@pytest.mark.parametrize("size", ["\u0664", "\u00b2", "4_0", "9" * 5001])
def test_a_record_size_is_ascii_digits(size):
    from hinge_fast.records.record import read_records

    with pytest.raises(HingeError) as error:
        read_records(f'[Size "{size}"]\n\n1. C3 unfinished\n')
    assert one_line(error).startswith("game 1: Size must be a whole number")


def test_a_puzzle_file_nested_200000_deep_is_one_line(tmp_path):
    from hinge_fast.solving.puzzles import load_puzzles

    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000 + "]" * 200_000)
    with pytest.raises(HingeError) as error:
        load_puzzles(path)
    assert (
        one_line(error) == f"puzzle file {path} is not a puzzle file: its JSON is nested too deeply"
    )


@pytest.mark.parametrize(
    "field, value",
    [
        ("position", {"a": 1}),
        ("moves", "C3"),
        ("distance", "3"),
        ("distance", 10**100),
        ("winner", None),
    ],
)
def test_a_puzzle_field_of_the_wrong_type_is_one_line(tmp_path, field, value):
    from hinge_fast.solving.puzzles import FORMAT, load_puzzles

    puzzle = {
        "position": Board(4).fen(),
        "winner": "green",
        "moves": ["C3"],
        "distance": 3,
        "nodes": 1,
        "engine_move": "C3",
        "engine_time": 0.1,
    }
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"format": FORMAT, "puzzles": [{**puzzle, field: value}]}))
    with pytest.raises(HingeError) as error:
        load_puzzles(path)
    assert one_line(error).startswith(f"puzzle file {path}: puzzle 1: ")


@pytest.mark.parametrize(
    "error_type, words",
    [
        (MemoryError, "is too large to read in the memory available"),
        (RecursionError, "is nested too deeply to read"),
    ],
)
def test_memory_and_recursion_errors_of_the_readers_are_one_line(
    tmp_path, monkeypatch, error_type, words
):
    """Whatever part of a reader runs out of memory or stack on an input, the caller
    gets one HingeError line naming the file (the CLI prints it, status 2)."""
    from hinge_fast.games import book
    from hinge_fast.records import record
    from hinge_fast.solving import proof, puzzles

    def exhausted(*args, **kwargs):
        raise error_type()

    path = tmp_path / "input.txt"
    path.write_text('[Size "4"]\n\n1. C3 unfinished\n')
    cases = [
        (record, "parse_records", lambda: record.read_records(path), "the game records"),
        (book, "parse_book", lambda: book.read_book(path), f"book {path}"),
        (puzzles, "parse_puzzles", lambda: puzzles.load_puzzles(path), f"puzzle file {path}"),
        (proof, "check_proof_text", lambda: proof.check_proof(path), f"proof file {path}"),
    ]
    for module, name, read, what in cases:
        with monkeypatch.context() as m:
            m.setattr(module, name, exhausted)
            with pytest.raises(HingeError) as error:
                read()
        assert one_line(error) == f"{what} {words}"


def test_the_check_proof_command_says_one_line_and_exits_2_for_a_huge_distance(cli, tmp_path):
    from hinge_fast.solving.proof import HEADER

    path = tmp_path / "p.proof"
    path.write_text(f"{HEADER}\nposition {Board(4).fen()}\nwinner green\ndistance {'9' * 5001}\n")
    run = cli("check-proof", path)
    assert (
        run.status == 2
        and run.err.count("\n") == 1
        and run.err.startswith("error: not a proof file")
    )
