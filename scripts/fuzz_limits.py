"""Fuzz every reader under a memory limit: game records, books, puzzle files, proofs,
match files, prover checkpoints, side-4 tablebases and the web API's JSON bodies.

    python -m scripts.fuzz_limits [--examples N] [--limit-mb M] [--only READER ...] [--json]

Example: python -m scripts.fuzz_limits --examples 300

Run it as its own process (``tests/test_fuzz_limits.py`` does): it caps its own address
space (``resource.RLIMIT_AS``) at what it uses once everything is loaded plus ``M`` MB
(default 256), then reads inputs made by hypothesis (derandomized, so every run tries
the same ones):

* records: arbitrary text, near-valid records with a few characters inserted, deleted
  or replaced, and records built to be costly (thousands of comments, tags and moves,
  long tokens, unclosed braces);
* books: near-valid books of position strings and of game records, and costly ones;
* puzzles: near-valid puzzle files, fields replaced by any JSON value, JSON nested
  200,000 deep;
* proofs: near-valid proofs, header values replaced (non-ASCII digits, 5,001 digits);
* match files: near-valid match files (``--out``/``--resume``), their tags replaced
  (a Round of '²' or of 5,001 digits), read as ``match --resume`` reads them;
* checkpoints: a real checkpoint with bytes overwritten, cut or inserted, its arrays'
  headers declaring other shapes (2^40 entries), its information any JSON;
* tablebases: files with header fields replaced by any JSON value, block records given
  any offset, length or checksum, bytes overwritten, cut or inserted anywhere, and a
  zlib bomb (1 GiB of zeros in about 1 MB) put in a block with its checksum right;
* JSON bodies: any JSON value, JSON nested deeply, and bytes that are not JSON, posted
  to every route of the web API that takes a body.

Every input must be read or refused with HingeError (the web API: answered, with a
status below 500 and one line of error): any other exception (MemoryError included)
is a failure, and the process exits with status 1. The last line (``--json``: the only
line) gives the inputs tried per reader, how many were refused and read, the failures,
and the peak memory: resident (``ru_maxrss``) and address space (``VmPeak``) against
the limit.
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
NEAR = 'gbGB0123456789/ ;-xX.[]"{}\n\tABCDEFGHIJ+_'
#: Characters that are digits to ``str.isdigit`` (or ``int``) but not ASCII digits.
ODD_DIGITS = ["\u00b2", "\u0663", "\uff17", "\u2167", "\U0001d7d9"]
#: The books the near-valid ones start from: position strings, and game records.
BOOKS = [
    "# a book\n4/5/1b1g2/3g3/6/3b1/4 g\n4/1b3/6/1b1g3/3g2/5/4 g\n",
    '[Size "4"]\n\n1. C3 D5 2. B2 unfinished\n\n[Size "4"]\n\n1. D4 B2 unfinished\n',
]
#: The position and the puzzle the near-valid proofs and puzzle files start from.
PROOF_POSITION = "4/1gg2/2gg2/1gg1gg1/1bggg1/1bb2/4 g"
PUZZLE = {
    "position": PROOF_POSITION,
    "winner": "green",
    "moves": ["B4-B4xB2"],
    "distance": 1,
    "nodes": 10,
    "engine_move": "C3",
    "engine_time": 0.1,
    "source": "fuzz",
}
#: The match files (``match --out``) the near-valid ones start from.
MATCHES = [
    '[Size "4"]\n[Round "1"]\n[PlayerA "greedy"]\n[PlayerB "random"]\n[Limit "none"]\n[MaxPlies "400"]\n'
    '[Seed "3"]\n[Opening "2"]\n[Green "greedy"]\n[Blue "random"]\n\n1. C3 D5 2. B2 unfinished\n\n'
    '[Size "4"]\n[Round "2"]\n[PlayerA "greedy"]\n[PlayerB "random"]\n[Limit "none"]\n[MaxPlies "400"]\n'
    '[Seed "3"]\n[Opening "2"]\n[Green "random"]\n[Blue "greedy"]\n\n1. C3 D5 unfinished\n',
]


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
    payload = {
        b: zlib.compress(bytes([v]) * min(block, entries - b * block)) for b, v in filled.items()
    }
    payload.update(blocks or {})
    table, offset = bytearray(), 0
    for b in range(count):
        data = payload.get(b, b"")
        record = (offset, len(data), zlib.crc32(data))
        table += tb.BLOCK_RECORD.pack(*(records or {}).get(b, record))
        offset += len(data)
    header = {
        "format": tb.FORMAT_NAME,
        "version": tb.FORMAT_VERSION,
        "entries": entries,
        "block_entries": block,
        "blocks": count,
        "payload_blake2b": "0" * 64,
    }
    header.update(header_changes or {})
    header_bytes = raw_header if raw_header is not None else json.dumps(header).encode()
    return (
        tb.MAGIC
        + struct.pack("<I", len(header_bytes))
        + header_bytes
        + bytes(table)
        + b"".join(payload.get(b, b"") for b in range(count))
    )


def zlib_bomb(gib: int = 1) -> bytes:
    inflate = zlib.compressobj(9)
    return b"".join(inflate.compress(bytes(1 << 20)) for _ in range(1024 * gib)) + inflate.flush()


READERS = (
    "records",
    "books",
    "puzzles",
    "proofs",
    "match files",
    "checkpoints",
    "tablebase",
    "json bodies",
)


def run(examples: int, limit_mb: int, only=READERS) -> dict:
    import io
    import zipfile

    import numpy as np
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from hinge_fast import Board
    from hinge_fast.errors import HingeError
    from hinge_fast.games.book import parse_book
    from hinge_fast.games.matchfile import read_match
    from hinge_fast.records.record import parse_record, parse_records
    from hinge_fast.search import tablebase as tb
    from hinge_fast.search.checkpoint import load_checkpoint, save_checkpoint
    from hinge_fast.search.dfpn import new_table
    from hinge_fast.solving.proof import check_proof, write_proof_text
    from hinge_fast.solving.puzzles import load_puzzles

    # Everything the readers use is loaded before the limit: the kernels of every side,
    # the reference rules, the web application and its client.
    for size in range(4, 10):
        board = Board(size)
        board.push(board.legal_moves[0])
    parse_records(RECORDS[0])
    for book in BOOKS:
        parse_book(book, "book")
    proof_text = write_proof_text(PROOF_POSITION, "green", 1, {PROOF_POSITION: "B4-B4xB2"})
    good = tablebase_file(tb)
    bomb = zlib_bomb()
    folder = tempfile.mkdtemp(prefix="hinge-fuzz-")
    path = os.path.join(folder, "input")
    checkpoint_path = os.path.join(folder, "good.npz")
    save_checkpoint(checkpoint_path, Board(4).fen(), new_table(0), nodes=5, seconds=0.5)
    with open(checkpoint_path, "rb") as f:
        good_checkpoint = f.read()
    os.unlink(checkpoint_path)
    with open(path, "wb") as f:
        f.write(proof_text.encode("utf-8"))
    check_proof(path)
    puzzle_text = json.dumps({"format": "hinge-fast puzzles 1", "puzzles": [PUZZLE]})
    with open(path, "wb") as f:
        f.write(puzzle_text.encode("utf-8"))
    try:
        load_puzzles(path)
    except HingeError:
        pass
    client, game_url = web_client() if "json bodies" in only else (None, None)

    start_kb = vm_kb("VmSize")
    limit = start_kb * 1024 + limit_mb * (1 << 20)
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))

    counts = {reader: {"inputs": 0, "refused": 0, "read": 0} for reader in only}
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

    def put(data) -> None:
        with open(path, "wb") as f:
            f.write(data.encode("utf-8", errors="surrogatepass") if isinstance(data, str) else data)

    fuzz = settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )

    @st.composite
    def mutated(draw, texts, alphabet=NEAR):
        text = draw(st.sampled_from(texts))
        for _ in range(draw(st.integers(1, 6))):
            at = draw(st.integers(0, len(text)))
            char = draw(st.sampled_from(alphabet) | st.sampled_from(ODD_DIGITS) | st.characters())
            kind = draw(st.sampled_from(["insert", "delete", "replace"]))
            text = text[:at] + (char if kind != "delete" else "") + text[at + (kind != "insert") :]
        return text

    odd_number = st.sampled_from(
        ODD_DIGITS + ["9" * 5001, "1" + "0" * 400, "-1", "1_0", " 7 ", "0x1f", "1e3", ""]
    )
    json_value = st.recursive(
        st.none()
        | st.booleans()
        | st.integers(-(2**70), 2**70)
        | st.floats()
        | st.text(max_size=20)
        | odd_number,
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=8,
    )
    deep = st.sampled_from(
        ["[" * 200_000 + "]" * 200_000, '{"a":' * 100_000 + "1" + "}" * 100_000, "[" * 200_000]
    )

    # ----- records ------------------------------------------------------------------
    @st.composite
    def costly(draw):
        n = draw(st.integers(1, 20_000))
        part = draw(
            st.sampled_from(
                ["{c}", "{", '[T "v"]\n', "1. ", "C3 ", "x" * 50, ";\n", "}", "[", '\\"']
            )
        )
        head = draw(st.sampled_from(["", '[Size "4"]\n\n', '[Size "9"]\n\n1. E5 ']))
        return head + part * n + draw(st.sampled_from(["", " unfinished\n", "}"]))

    @fuzz
    @given(st.one_of(st.text(max_size=300), mutated(RECORDS), costly()), st.integers(1, 3))
    def records(text, game):
        attempt("records", lambda: (parse_records(text), parse_record(text, game)), repr(text[:60]))

    # ----- books ----------------------------------------------------------------------
    @fuzz
    @given(
        st.one_of(mutated(BOOKS), costly(), st.text(max_size=300)),
        st.sampled_from([None, 4, 5]),
        st.sampled_from([None, 1, 3]),
    )
    def books(text, size, plies):
        attempt(
            "books",
            lambda: parse_book(
                text, "book", size, plies if text.lstrip().startswith("[") else None
            ),
            repr(text[:60]),
        )

    # ----- puzzles --------------------------------------------------------------------
    puzzle_fields = st.sampled_from(sorted(PUZZLE) + ["extra"])

    @st.composite
    def puzzle_files(draw):
        kind = draw(st.sampled_from(["text", "fields", "top", "deep"]))
        if kind == "text":
            return draw(mutated([puzzle_text], NEAR + ',:"'))
        if kind == "deep":
            return draw(deep)
        if kind == "top":
            return json.dumps(
                {
                    "format": draw(st.sampled_from(["hinge-fast puzzles 1"]) | json_value),
                    "puzzles": draw(json_value),
                }
            )
        changes = draw(st.dictionaries(puzzle_fields, json_value, min_size=1, max_size=3))
        return json.dumps({"format": "hinge-fast puzzles 1", "puzzles": [{**PUZZLE, **changes}]})

    def read_puzzles(text):
        put(text)
        load_puzzles(path)

    @fuzz
    @given(puzzle_files())
    def puzzles(text):
        attempt("puzzles", lambda: read_puzzles(text), repr(text[:60]))

    # ----- proofs ---------------------------------------------------------------------
    @st.composite
    def proof_files(draw):
        if draw(st.booleans()):
            return draw(mutated([proof_text]))
        lines = proof_text.splitlines()
        at = draw(st.integers(1, 3))
        head = lines[at].split(" ", 1)[0]
        value = draw(odd_number | st.text(max_size=20))
        lines[at] = f"{head} {value}"
        return "\n".join(lines) + "\n"

    def read_proof(text):
        put(text)
        check_proof(path)

    @fuzz
    @given(proof_files())
    def proofs(text):
        attempt("proofs", lambda: read_proof(text), repr(text[:60]))

    # ----- match files ----------------------------------------------------------------
    match_tags = st.sampled_from(
        ["Round", "Opening", "Size", "MaxPlies", "Seed", "PlayerA", "Termination", "Start"]
    )

    @st.composite
    def match_files(draw):
        kind = draw(st.sampled_from(["text", "tag"]))
        if kind == "text":
            return draw(mutated(MATCHES))
        text = draw(st.sampled_from(MATCHES))
        tag = draw(match_tags)
        value = draw(odd_number | st.text(max_size=12))
        value = value.replace("\\", "\\\\").replace('"', '\\"')
        if f'[{tag} "' in text:
            head, rest = text.split(f'[{tag} "', 1)
            return head + f'[{tag} "{value}"]' + rest.split('"]', 1)[1]
        return f'[{tag} "{value}"]\n' + text

    def read_match_file(text, tournament):
        put(text)
        read_match(path, (lambda index: None) if tournament else None)

    @fuzz
    @given(match_files(), st.booleans())
    def match_files_read(text, tournament):
        attempt("match files", lambda: read_match_file(text, tournament), repr(text[:60]))

    # ----- checkpoints ----------------------------------------------------------------
    def damage(draw, good_bytes: bytes) -> bytes:
        """``good_bytes`` with one to four runs of bytes overwritten, cut or inserted."""
        blob = bytearray(good_bytes)
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(blob) - 1))
            chunk = draw(st.binary(min_size=1, max_size=8))
            how = draw(st.sampled_from(["set", "cut", "insert"]))
            if how == "set":
                blob[at : at + len(chunk)] = chunk
            elif how == "cut":
                del blob[at : at + len(chunk)]
            else:
                blob[at:at] = chunk
        return bytes(blob)

    position = Board(4).fen()

    def npy(array, shape=None) -> bytes:
        out = io.BytesIO()
        header = np.lib.format.header_data_from_array_1_0(array)
        if shape is not None:
            header["shape"] = shape
        np.lib.format.write_array_header_1_0(out, header)
        out.write(array.tobytes())
        return out.getvalue()

    @st.composite
    def checkpoints(draw):
        kind = draw(st.sampled_from(["bytes", "shapes", "info"]))
        if kind == "bytes":
            return damage(draw, good_checkpoint)
        info = {
            "format": "hinge-fast prover checkpoint 1",
            "position": position,
            "nodes": 5,
            "seconds": 0.5,
        }
        shapes = {}
        if kind == "info":
            info = (
                draw(st.sampled_from([info]) | json_value)
                if draw(st.booleans())
                else {
                    **info,
                    **draw(
                        st.dictionaries(
                            st.sampled_from(sorted(info)), json_value, min_size=1, max_size=2
                        )
                    ),
                }
            )
        else:
            extent = st.sampled_from([0, 1, 15, 17, 1 << 20, 1 << 40, 2**63 - 1])
            shapes = draw(
                st.dictionaries(
                    st.sampled_from(["info", "keys", "pn", "dn", "meta"]),
                    st.lists(extent, max_size=2).map(tuple),
                    min_size=1,
                    max_size=2,
                )
            )
        compression = draw(
            st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])
        )
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", compression) as archive:
            archive.writestr("info.npy", npy(np.array(json.dumps(info)), shapes.get("info")))
            for name, dtype in (
                ("keys", np.uint64),
                ("pn", np.int64),
                ("dn", np.int64),
                ("meta", np.int64),
            ):
                archive.writestr(f"{name}.npy", npy(np.zeros(16, dtype=dtype), shapes.get(name)))
        return out.getvalue()

    def read_checkpoint(blob):
        put(blob)
        load_checkpoint(path, position)

    @fuzz
    @given(checkpoints())
    def checkpoints_read(blob):
        attempt("checkpoints", lambda: read_checkpoint(blob), f"a file of {len(blob):,} bytes")

    # ----- tablebases -----------------------------------------------------------------
    field = st.sampled_from(
        ["format", "version", "entries", "block_entries", "blocks", "payload_blake2b", "extra"]
    )
    count = -(-tb.ENTRIES // (1 << 20))
    block_index = st.sampled_from([0, 1, 5, count - 1]) | st.integers(0, count - 1)

    @st.composite
    def damaged(draw):
        kind = draw(st.sampled_from(["header", "records", "bytes", "bomb"]))
        if kind == "header":
            return tablebase_file(
                tb, header_changes=draw(st.dictionaries(field, json_value, min_size=1, max_size=3))
            )
        if kind == "records":
            changes = draw(
                st.dictionaries(
                    block_index,
                    st.tuples(
                        st.integers(0, 2**64 - 1),
                        st.integers(0, 2**32 - 1),
                        st.integers(0, 2**32 - 1),
                    ),
                    min_size=1,
                    max_size=3,
                )
            )
            return tablebase_file(tb, records=changes)
        if kind == "bomb":
            cut = draw(st.sampled_from([len(bomb), len(bomb) // 2, 1000]))
            return tablebase_file(tb, blocks={draw(block_index): bomb[:cut]})
        return damage(draw, good)

    def probe(blob):
        put(blob)
        table = tb.Tablebase(path)
        for b in (0, 1, 5, count - 1):
            table.code(b * (1 << 20))

    @fuzz
    @given(damaged())
    def tablebases(blob):
        attempt("tablebase", lambda: probe(blob), f"a file of {len(blob):,} bytes")

    # ----- JSON bodies ----------------------------------------------------------------
    routes = st.sampled_from(
        [
            "/api/games",
            "{game}/moves",
            "{game}/goto",
            "{game}/new",
            "{game}/position",
            "{game}/record",
            "{game}/resign",
            "{game}/edit",
        ]
    )
    body_fields = st.sampled_from(
        ["size", "position", "move", "ply", "record", "side", "cell", "piece", "turn", "x"]
    )

    @st.composite
    def bodies(draw):
        kind = draw(st.sampled_from(["object", "any", "deep", "bytes"]))
        if kind == "object":
            return json.dumps(draw(st.dictionaries(body_fields, json_value, max_size=3))).encode()
        if kind == "any":
            return json.dumps(draw(json_value)).encode()
        if kind == "deep":
            return draw(deep).encode()
        return draw(st.binary(max_size=64))

    def post(route, body):
        answer = client.post(
            route.format(game=game_url), content=body, headers={"content-type": "application/json"}
        )
        if answer.status_code >= 500:
            raise RuntimeError(f"status {answer.status_code}")
        if answer.status_code >= 400:
            error = answer.json().get("error", "")
            if not isinstance(error, str) or not error or "\n" in error:
                raise RuntimeError(
                    f"status {answer.status_code} without one line of error: {answer.text[:80]}"
                )
            raise HingeError(error)

    @fuzz
    @given(routes, bodies())
    def json_bodies(route, body):
        attempt("json bodies", lambda: post(route, body), f"{route} {body[:40]!r}")

    runs = {
        "records": records,
        "books": books,
        "puzzles": puzzles,
        "proofs": proofs,
        "match files": match_files_read,
        "checkpoints": checkpoints_read,
        "tablebase": tablebases,
        "json bodies": json_bodies,
    }
    for reader in only:
        runs[reader]()
    if client is not None:
        client.__exit__(None, None, None)
    if os.path.exists(path):
        os.unlink(path)
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


def web_client():
    """A client of the web application (in this process, no network) and the address
    of a game it started."""
    from fastapi.testclient import TestClient

    from hinge_fast.web.app import create_app

    client = TestClient(create_app(max_searches=1), base_url="http://127.0.0.1")
    client.__enter__()
    answer = client.post("/api/games", json={"size": 4})
    answer.raise_for_status()
    game = f"/api/games/{answer.json()['id']}"
    client.post(f"{game}/moves", json={"move": "x"})  # a refusal: its path loaded too
    return client, game


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.fuzz_limits", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--examples", type=int, default=300, help="inputs per reader (default 300)")
    parser.add_argument(
        "--limit-mb",
        type=int,
        default=256,
        help="address space allowed beyond the start (default 256)",
    )
    parser.add_argument(
        "--only",
        nargs="+",
        choices=READERS,
        default=list(READERS),
        metavar="READER",
        help=f"fuzz only these readers ({', '.join(READERS)}; default all)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)
    figures = run(args.examples, args.limit_mb, tuple(args.only))
    if args.json:
        print(json.dumps(figures))
    else:
        for reader, c in figures["readers"].items():
            print(
                f"{reader}: {c['inputs']} inputs, {c['refused']} refused with HingeError, {c['read']} read"
            )
        print(f"failures: {len(figures['failures'])}")
        for failure in figures["failures"][:10]:
            print(f"  {failure}")
        print(
            f"memory: resident peak {figures['resident_peak_mb']} MB; address space {figures['address_space_at_start_mb']} MB "
            f"at the start, {figures['address_space_peak_mb']} MB at the peak, limit {figures['address_space_limit_mb']} MB"
        )
    return 1 if figures["failures"] else 0


if __name__ == "__main__":
    run_script(main)
