"""No module reaches into another's private names (one leading underscore): the
whole tree is scanned for imports of them and attribute uses of them that the file
does not define itself. And, more strictly, nothing outside ``board.py`` and
``core/`` uses a private name of ``Board``: the layers above go through its public
low-level face (``green``, ``blue``, ``own``, ``enemy``, ``legal_codes``,
``legal_flips``, ``move_from_code``, ``code_of``, ``zobrist_key``, ``history_keys``,
``perft``, ``geometry``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOARD = ROOT / "hinge_fast" / "board.py"
CORE = ROOT / "hinge_fast" / "core"


def board_private_names() -> set[str]:
    """Private attributes and methods of class Board, and private module-level names of
    board.py, read from its source."""
    tree = ast.parse(BOARD.read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name.startswith("_"):
            names.add(node.name)
        if isinstance(node, ast.Assign):
            names.update(
                t.id for t in node.targets if isinstance(t, ast.Name) and t.id.startswith("_")
            )
        if isinstance(node, ast.ClassDef) and node.name == "Board":
            for item in ast.walk(node):
                if (
                    isinstance(item, ast.FunctionDef)
                    and item.name.startswith("_")
                    and not item.name.startswith("__")
                ):
                    names.add(item.name)
                if (
                    isinstance(item, ast.Attribute)
                    and isinstance(item.value, ast.Name)
                    and item.value.id == "self"
                ):
                    if item.attr.startswith("_") and not item.attr.startswith("__"):
                        names.add(item.attr)
    return names


def scanned_files() -> list[Path]:
    files = []
    for folder in ("hinge_fast", "tests", "scripts", "experiments", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == BOARD or CORE in path.parents or path == Path(__file__).resolve():
                continue
            files.append(path)
    return files


def offences(text: str, names: set[str]) -> list[str]:
    """Uses of ``names`` in ``text``: ``x._name`` on anything but self/cls, and imports
    of ``_name`` from the board module."""
    found = []
    alternatives = "|".join(sorted(map(re.escape, names)))
    attribute = re.compile(rf"\b(?!self\b|cls\b)([A-Za-z_][A-Za-z_0-9]*)\s*\.\s*({alternatives})\b")
    for number, line in enumerate(text.splitlines(), 1):
        for _m in attribute.finditer(line):
            found.append(f"{number}: {line.strip()}")
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "board":
            for alias in node.names:
                if alias.name in names:
                    found.append(f"{node.lineno}: imports {alias.name} from board")
    return found


def test_the_scan_knows_board_s_private_names():
    names = board_private_names()
    assert {
        "_sides",
        "_generate",
        "_decode",
        "_geo",
        "_green",
        "_blue",
        "_undo",
        "_legal",
        "_buffers",
    } <= names
    assert offences("x = board._sides()\nfrom hinge_fast.board import _MoveBuffers\n", names) == [
        "1: x = board._sides()",
        "2: imports _MoveBuffers from board",
    ]
    assert offences("self._green = 1\nboard.green\n", names) == []


def test_nothing_outside_board_and_core_uses_board_private_names():
    names = board_private_names()
    bad = {}
    for path in scanned_files():
        found = offences(path.read_text(), names)
        if found:
            bad[str(path.relative_to(ROOT))] = found
    assert bad == {}, "private names of Board used outside board.py and core/: " + repr(bad)


#: Underscored names of other libraries that may be used: ``os._exit`` is public API;
#: numba has no public call to drop a dispatcher's on-disk cache (``_cache.flush()``,
#: core/kernels.py).
FOREIGN_PUBLIC = {"_exit", "_cache"}


def private_reaches(path: Path) -> list[str]:
    """The places where ``path`` uses a private name (one leading underscore) that it
    does not define itself: ``from .x import _name``, or ``thing._name`` on anything but
    ``self``/``cls`` where no function, class or attribute of that name is made in the
    file."""
    tree = ast.parse(path.read_text(), str(path))
    defined = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                defined.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            defined.add(node.id)
        elif isinstance(node, ast.arg):
            defined.add(node.arg)

    def private(name: str) -> bool:
        return name.startswith("_") and not name.startswith("__")

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            ours = node.level > 0 or (node.module or "").startswith("hinge_fast")
            found += [
                f"{path.name}:{node.lineno} imports {a.name}"
                for a in node.names
                if ours and private(a.name)
            ]
        elif isinstance(node, ast.Attribute) and private(node.attr):
            owner = node.value.id if isinstance(node.value, ast.Name) else None
            if owner in ("self", "cls") or node.attr in defined or node.attr in FOREIGN_PUBLIC:
                continue
            found.append(f"{path.name}:{node.lineno} uses {ast.unparse(node)}")
    return found


def test_no_module_reaches_into_another_modules_private_names():
    files = [
        path
        for folder in ("hinge_fast", "scripts", "experiments", "bench", "tests")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path != Path(__file__).resolve()
    ]
    found = [place for path in files for place in private_reaches(path)]
    assert not found, "\n".join(found)


def test_a_private_reach_is_reported(tmp_path):
    """The check names both kinds of reach: an import and an attribute."""
    source = tmp_path / "reach.py"
    source.write_text(
        "from .mcts import _ranked, ranked\n"
        "import os\n"
        "def f(record, _own):\n"
        "    os._exit(0)\n"
        "    return record._first_blue(), _own\n"
    )
    assert private_reaches(source) == [
        "reach.py:1 imports _ranked",
        "reach.py:5 uses record._first_blue",
    ]
