"""Every file the program writes is written whole or not at all (hinge_fast/core/atomic.py):
a Ctrl-C or a full disk in the middle of any writer leaves the old file as it was and no
temporary file beside it."""

from __future__ import annotations

import ast
import errno
import os
import re
from pathlib import Path

import pytest

from hinge_fast.core import atomic
from hinge_fast.errors import HingeError

ROOT = Path(__file__).resolve().parent.parent
OLD = b"the old file, whole\n"


class _Interrupted(Exception):
    pass


def _fail_mid_write(monkeypatch, error: BaseException):
    """Make the atomic writer's file write half of its first chunk, then raise ``error``."""
    real_fdopen = os.fdopen

    class Failing:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            self.f.__enter__()
            return self

        def __exit__(self, *exc):
            return self.f.__exit__(*exc)

        def __getattr__(self, name):
            return getattr(self.f, name)

        def write(self, data):
            data = bytes(data)
            self.f.write(data[: len(data) // 2])
            self.f.flush()
            raise error

    monkeypatch.setattr(atomic.os, "fdopen", lambda *a, **k: Failing(real_fdopen(*a, **k)))


def _small_result():
    import numpy as np

    from hinge_fast.solving.tablebase import BLOCK_ENTRIES, SolveResult

    values = np.zeros(2 * BLOCK_ENTRIES, dtype=np.uint8)
    values[:100] = 5
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


def _write_book(path):
    from hinge_fast import Board
    from hinge_fast.games.book import book_text
    from hinge_fast.records.files import write_text_file

    write_text_file(path, book_text([Board(4).fen()], "a book"))


def _write_puzzles(path):
    from hinge_fast.records.files import write_text_file
    from hinge_fast.solving.puzzles import puzzles_json

    write_text_file(path, puzzles_json([], {"command": "test"}))


def _write_json(path):
    from hinge_fast.commands import write_json

    write_json(str(path), {"a": list(range(100))})


def _write_svg(path):
    from hinge_fast import Board
    from hinge_fast.analysis.svg import board
    from hinge_fast.records.files import write_text_file

    write_text_file(path, board(Board(4)))


def _write_png(path):
    pytest.importorskip("cairosvg")
    from hinge_fast import Board
    from hinge_fast.analysis.svg import board, to_png

    to_png(board(Board(4)), path)


def _write_figure(path):
    pytest.importorskip("matplotlib")
    from hinge_fast.analysis.figures import pyplot, save_figure

    plt = pyplot("a test figure")
    fig = plt.figure()
    fig.gca().plot([0, 1], [1, 0])
    save_figure(fig, path)


def _write_proof(path):
    from hinge_fast import Board
    from hinge_fast.solving.proof import write_proof

    write_proof(path, Board(4).fen(), "green", 3, {Board(4).fen(): "a1"})


def _write_records(path):
    from hinge_fast import Board
    from hinge_fast.records.record import GameRecord, write_records

    write_records(path, [GameRecord.from_board(Board(4), Green="a", Blue="b")] * 3)


def _write_checkpoint(path):
    from hinge_fast import Board
    from hinge_fast.search.checkpoint import save_checkpoint
    from hinge_fast.search.dfpn import new_table

    save_checkpoint(path, Board(4).fen(), new_table(1), nodes=5, seconds=0.5)


def _write_tablebase(path):
    from hinge_fast.solving.tablebase import write_tablebase

    write_tablebase(_small_result(), path)


def _write_match_file(path):
    import argparse

    from hinge_fast.commands import open_games_file

    open_games_file(argparse.Namespace(resume=None, out=str(path), force=True), {})


WRITERS = {
    "book.txt": _write_book,
    "puzzles.json": _write_puzzles,
    "stats.json": _write_json,
    "board.svg": _write_svg,
    "board.png": _write_png,
    "figure.png": _write_figure,
    "win.proof": _write_proof,
    "games.hgn": _write_records,
    "run.npz": _write_checkpoint,
    "side4.tb": _write_tablebase,
    "match.hgn": _write_match_file,
}


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_each_writer_writes_its_file(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(OLD)
    WRITERS[name](path)
    assert path.read_bytes() != OLD
    assert [p.name for p in tmp_path.iterdir()] == [name]


@pytest.mark.parametrize("failure", ["ctrl-c", "full disk", "producer error"])
@pytest.mark.parametrize("name", sorted(WRITERS))
def test_a_failure_mid_write_leaves_the_old_file_and_nothing_else(
    tmp_path, monkeypatch, name, failure
):
    path = tmp_path / name
    path.write_bytes(OLD)
    error = {
        "ctrl-c": KeyboardInterrupt(),
        "full disk": OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)),
        "producer error": _Interrupted("boom"),
    }[failure]
    _fail_mid_write(monkeypatch, error)
    if failure == "full disk":
        with pytest.raises(
            HingeError, match=f"cannot write .*{re.escape(name)}: No space left on device$"
        ):
            WRITERS[name](path)
    else:
        with pytest.raises(type(error)):
            WRITERS[name](path)
    assert path.read_bytes() == OLD
    assert [p.name for p in tmp_path.iterdir()] == [name]


def test_a_ctrl_c_at_the_rename_or_the_sync_leaves_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "out.txt"
    path.write_bytes(OLD)

    def interrupted(*args):
        raise KeyboardInterrupt

    for name in ("fsync", "replace", "fchmod"):
        with monkeypatch.context() as m:
            m.setattr(atomic.os, name, interrupted)
            with pytest.raises(KeyboardInterrupt):
                atomic.write_atomic(path, "new")
        assert path.read_bytes() == OLD
        assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_the_new_file_is_synced_then_renamed_then_the_folder_synced(tmp_path, monkeypatch):
    calls = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        calls.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        return real_fsync(fd)

    def replace(src, dst):
        calls.append(("replace", str(src), str(dst)))
        return real_replace(src, dst)

    monkeypatch.setattr(atomic.os, "fsync", fsync)
    monkeypatch.setattr(atomic.os, "replace", replace)
    path = tmp_path / "out.txt"
    assert atomic.write_atomic(path, "é\n") == 3
    (_, temporary), (_, source, target), (_, folder) = calls
    assert temporary == source and Path(source).parent == tmp_path and target == str(path)
    assert folder == str(tmp_path)
    assert path.read_text(encoding="utf-8") == "é\n"


def test_permissions_are_those_of_a_new_file_or_of_the_file_replaced(tmp_path):
    mask = os.umask(0o027)
    try:
        path = tmp_path / "new.txt"
        atomic.write_atomic(path, "x")
        assert path.stat().st_mode & 0o777 == 0o640
        os.chmod(path, 0o604)
        atomic.write_atomic(path, "y")
        assert path.stat().st_mode & 0o777 == 0o604
    finally:
        os.umask(mask)


def test_a_symbolic_link_keeps_naming_the_file_it_points_at(tmp_path):
    target = tmp_path / "real.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    atomic.write_atomic(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_a_device_is_written_straight_to():
    assert atomic.write_atomic("/dev/null", b"nothing to keep") == 15


@pytest.mark.parametrize(
    "path, reason", [("missing/out.txt", "No such file or directory"), (".", "Is a directory")]
)
def test_a_path_that_cannot_be_written_is_one_line(tmp_path, monkeypatch, path, reason):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(HingeError) as error:
        atomic.write_atomic(path, "x")
    assert str(error.value) == f"cannot write {path}: {reason}"
    assert list(tmp_path.iterdir()) == []


#: Calls that write a file whatever their arguments (besides numpy's savers), and the
#: openers whose mode says so.
FILE_WRITERS = {"write_text", "write_bytes", "tofile", "savefig"}
OPENERS = {"open", "fdopen"}


def called_name(call: ast.Call) -> str | None:
    """``f`` of ``f(...)`` and of ``x.f(...)``; None for other callees."""
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


def writes_a_file(call: ast.Call) -> bool:
    func = call.func
    name = called_name(call)
    if name in FILE_WRITERS:
        return True
    if name and name.startswith("save") and getattr(func, "value", None) is not None:
        return getattr(func.value, "id", None) in ("np", "numpy")  # np.save, np.savez...
    if name in OPENERS:
        modes = [k.value for k in call.keywords if k.arg == "mode"] + call.args[1:2]
        return any(
            isinstance(m, ast.Constant) and isinstance(m.value, str) and set(m.value) & set("wax")
            for m in modes
        )
    return False


def unguarded_writes(source: str) -> list[str]:
    """The line of each call in ``source`` that writes a file and is not inside a call
    of ``write_atomic`` (the function handed to it)."""
    tree = ast.parse(source)
    parent = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

    def guarded(node: ast.AST) -> bool:
        while node in parent:
            node = parent[node]
            if isinstance(node, ast.Call) and called_name(node) == "write_atomic":
                return True
        return False

    lines = source.splitlines()
    return sorted(
        {
            lines[node.lineno - 1].split("#")[0].strip()
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and writes_a_file(node) and not guarded(node)
        }
    )


def test_the_writer_check_sees_writes_across_lines():
    """A write split over lines by the formatter is found, and one inside the function
    handed to write_atomic is not, wherever its lines break."""
    source = (
        "np.savez(\n    f, a=1)\n"
        "write_atomic(\n    path,\n    lambda f: np.savez(\n        f, a=1),\n)\n"
        "Path(p).write_text(\n    'x')\n"
    )
    assert unguarded_writes(source) == ["Path(p).write_text(", "np.savez("]


def test_no_writer_goes_around_the_atomic_one():
    """A file opened for writing, write_text/write_bytes, numpy's savers and savefig
    appear only inside a function handed to write_atomic, or in the append of a whole
    game to a match file."""
    allowed = {
        ("hinge_fast/core/atomic.py", 'with open(target, "wb") as f:'),  # a device
        ("hinge_fast/core/atomic.py", 'with os.fdopen(fd, "wb") as f:'),  # the temporary file
        (
            "hinge_fast/records/record.py",
            'with open(path, "a", encoding="utf-8") as f:',
        ),  # one game
        ("hinge_fast/games/matchfile.py", 'with open(path, "a"):'),
        ("scripts/fuzz_limits.py", 'with open(path, "wb") as f:'),  # fuzzed inputs, scratch
    }
    found = []
    for folder in ("hinge_fast", "scripts", "experiments"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for line in unguarded_writes(path.read_text(encoding="utf-8")):
                if (rel, line) not in allowed:
                    found.append(f"{rel}: {line}")
    assert found == [], "\n".join(found)
